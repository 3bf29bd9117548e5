"""Template tags, lexed once (issue 35): Hugo shortcodes (``{{< >}}``, ``{{% %}}``), Liquid
(``{% %}``, ``{{ }}``) and Jinja as mkdocs-macros configures it are one lexer given each
language's delimiters; raw and other block ends are found by one rule; text set aside from later
steps is held behind one placeholder scheme.

The lexer finds each kind's next opener and closer with ``str.find`` and remembers them until
passed, and a kind whose closer is absent is not looked for again (no later opener can close
either), so a page of openers costs a pass whatever it holds: ``{{<`` a million times before one
``>}}`` reads the text once, where a search for the closer from each opener read it a million
times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class Syntax:
    """One template language. ``delimiters``: kind -> (opener, closer), tried in this order at a
    shared position. ``quoted``: kinds whose closer does not count inside a string literal
    (Jinja: ``{{ '}}' }}``). ``fresh``: an opening text that, found between an opener and its
    closer, makes the first opener text (Hugo's ``{{``). ``max_chars``: a longer tag is text.
    ``strict``: an opener with no closer is an error the caller stops at (Jinja), not text."""

    delimiters: tuple[tuple[str, str, str], ...]
    quoted: frozenset[str] = frozenset()
    fresh: str | None = None
    max_chars: int | None = None
    strict: bool = False


HUGO = Syntax((("<", "{{<", ">}}"), ("%", "{{%", "%}}")), fresh="{{", max_chars=10_000)
LIQUID = Syntax((("%", "{%", "%}"), ("{", "{{", "}}")))


def jinja(block: tuple[str, str], variable: tuple[str, str], comment: tuple[str, str]) -> Syntax:
    """Jinja with the site's delimiters (mkdocs-macros lets a site change them)."""
    return Syntax((("block", *block), ("comment", *comment), ("var", *variable)),
                  quoted=frozenset({"var", "block"}), strict=True)


class Tag(NamedTuple):
    """One tag: ``start`` at its opener, ``end`` past its closer (-1 when a strict language's
    opener never closes), ``body`` the text between the delimiters as written."""

    kind: str
    start: int
    end: int
    body: str


class Lexer:
    """The tags of one text, asked for from a position on (a caller that consumed a raw block
    asks again from its end)."""

    def __init__(self, text: str, syntax: Syntax) -> None:
        self.text, self.syntax = text, syntax
        self._next: dict[str, int] = {}  # kind -> its next opener at or after the last ask; -1: none
        self._closer: dict[str, int] = {}  # kind -> the first closer after its last opener tried

    def next(self, pos: int) -> Tag | None:
        text, syntax = self.text, self.syntax
        while True:
            best = None
            for kind, opener, closer in syntax.delimiters:
                at = self._next.get(kind, pos)
                if at != -1 and (at < pos or kind not in self._next):
                    at = self._next[kind] = text.find(opener, pos)
                if at != -1 and (best is None or at < best[1]):
                    best = (kind, at, opener, closer)
            if best is None:
                return None
            kind, at, opener, closer = best
            start = at + len(opener)
            if kind in syntax.quoted:
                end = _closing(text, start, closer)
            else:  # openers only move right, so a closer found for an earlier one is reused
                end = self._closer.get(kind, -1)
                if end < start:
                    end = self._closer[kind] = text.find(closer, start)
            if end == -1:
                if syntax.strict:
                    return Tag(kind, at, -1, "")
                self._next[kind] = -1
                continue
            if syntax.fresh is not None:
                again = text.find(syntax.fresh, start, end)
                if again != -1:
                    pos = again
                    continue
            if syntax.max_chars is not None and end - at > syntax.max_chars:
                pos = start
                continue
            return Tag(kind, at, end + len(closer), text[start:end])


def _closing(text: str, start: int, closer: str) -> int:
    """Where ``closer`` stands for the tag opened before ``start``: outside the string literals
    inside it, as Jinja's lexer reads them; -1 if never. A quote not closed on its line is text."""
    first = text.find(closer, start)
    i = start
    while 0 <= i < first:
        quote = min((q for q in (text.find('"', i, first), text.find("'", i, first)) if q >= 0), default=-1)
        if quote < 0:
            return first
        shut = text.find(text[quote], quote + 1)
        if shut < 0 or text.find("\n", quote, shut) != -1:  # an unclosed quote: the plain closer
            return first
        i = shut + 1
        if i > first:
            first = text.find(closer, i)
    return first


def end_tag(text: str, pos: int, name: str, opener: str, closer: str, trims: str = "-") -> tuple[int, int] | None:
    """(start, end) of the first ``{% endNAME %}`` at or after ``pos`` in the given delimiters,
    white space and one trim mark (``-``, Jinja's ``+``) allowed inside; None when none follows."""
    word = "end" + name
    at = text.find(opener, pos)
    while at != -1:
        i = at + len(opener)
        if i < len(text) and text[i] in trims:
            i += 1
        i = _past_blanks(text, i)
        if text.startswith(word, i):
            j = _past_blanks(text, i + len(word))
            if j < len(text) and text[j] in trims:
                j += 1
            if text.startswith(closer, j):
                return at, j + len(closer)
        at = text.find(opener, at + 1)
    return None


_BLANKS = re.compile(r"\s*")


def _past_blanks(text: str, i: int) -> int:
    return _BLANKS.match(text, i).end()


# Private-use characters: never in a page's source, so a placeholder cannot collide with text.
_OPEN, _SHUT = "\ue000", "\ue001"
_HOLD = _OPEN + "{}" + _SHUT


def hold(held: list[str], literal: str) -> str:
    """A placeholder for ``literal``, which ``restore`` puts back: raw text no later step reads."""
    held.append(literal)
    return _HOLD.format(len(held) - 1)


def hold_lines(held: list[str], lines: list[str]) -> list[str]:
    """Each line held behind its own placeholder after its indentation, so a step that dedents
    the text moves the held lines with it; one pass for a run of code lines, where a ``hold`` per
    line cost two calls each (100,000 lines on react.dev). A blank line (or one of white space
    alone) is not held: it holds nothing to protect, and held at the margin it made an indented
    block look unindented to a step that dedents by the least indentation of the lines with
    text (a Mintlify tab's body, indented four, kept its indentation and lost its headings)."""
    out: list[str] = []
    for line in lines:
        text = line.lstrip(" \t")
        if not text:
            out.append(line)
            continue
        out.append(f"{line[: len(line) - len(text)]}{_OPEN}{len(held)}{_SHUT}")
        held.append(text)
    return out


# An opener, decimal digits (``\d`` is exactly what ``str.isdecimal`` accepts: category Nd) and
# the closer: ``split`` with the number captured gives text and numbers alternately, in C.
_PLACEHOLDER = re.compile(_OPEN + r"(\d+)" + _SHUT)


def restore(text: str, held: list[str], nested: bool = False, below: int | None = None) -> str:
    """Placeholders back to the literal text they stand for, in one pass: the text is split at
    each placeholder by one pattern (text and numbers alternate) and the numbers are looked up in
    one list comprehension, where a loop over the pieces cost several calls per placeholder
    (100,000 code lines on react.dev). An opener not followed by decimal digits and the closer,
    or by a number nothing was held under, stays as it is written.

    A held text is not read again, unless ``nested``: then a held text that holds placeholders
    (one masked inside another) is restored first, from the texts held before it only, so the
    reading ends. A caller asks for it only where every opener in a held text is one of its own
    (``hold_openers``)."""
    if not held or _OPEN not in text:
        return text
    limit = len(held) if below is None else min(below, len(held))  # nothing is held past the list
    pieces = _PLACEHOLDER.split(text)
    numbers = pieces[1::2]
    if not numbers:
        return text
    literals = [held[k] if (k := int(number)) < limit else _OPEN + number + _SHUT for number in numbers]
    if nested and _OPEN in "".join(literals):
        for i, number in enumerate(numbers):
            k = int(number)
            if k < limit and _OPEN in literals[i]:
                literals[i] = restore(literals[i], held, True, k)
    pieces[1::2] = literals
    return "".join(pieces)


def hold_openers(held: list[str], text: str) -> str:
    """``text`` with the placeholder opener it holds of its own (a private-use character an
    author may write) held like any literal, so ``restore`` gives it back as written and never
    takes the author's text for a placeholder."""
    return text.replace(_OPEN, hold(held, _OPEN)) if _OPEN in text else text
