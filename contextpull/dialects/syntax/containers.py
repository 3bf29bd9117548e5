"""Containers and directives, found once (issue 35): a block that opens on one line and holds a
body of Markdown, ended by a closing line or by its indentation. Each generator's syntax is a line
rule here, and one scanner (``scan``) reads any of them into a tree:

- ``MYST``: MyST directives, ```` ```{name} argument ```` and ``:::{name} argument`` (a list
  item's markers may stand before them), closed by CommonMark's fence rule (the same character,
  at least as many, at most three columns past the opener's start); code fences nest alike.
- ``COLONS``: remark-directive's ``:::name title`` (Docusaurus), closed by a line of colons
  alone, at least as many as the innermost open container's.
- ``SLASHES``: pymdown blocks ``/// name | title``, closed by a line of exactly as many
  slashes; an inner block of the same count opens a level. Fenced code inside is skipped.
- ``ADMONITIONS``: Python-Markdown ``!!! note "Title"``, pymdown details ``???``/``???+`` and
  content tabs ``=== "Label"``: the body is the lines indented four columns past the opener.
- ``CALLOUTS``/``EXTENDED_CALLOUTS``: GitHub's ``> [!NOTE]`` (Hugo's ``> [!NOTE]+ Title``):
  the body is the rest of the blockquote, one ``>`` level off.
- ``RST``: rst directives ``.. name:: argument`` (``.rst`` pages, MyST's ``eval-rst``) as the
  line scans read them (docutils reads the page itself): the body is the lines indented more
  than the ``..``.

Why one place: each dialect read its own syntax with its own copy of the same three jobs (an
opener's name and title, the closing rule that matches the opener's length, the nesting bound),
and every copy had to be made linear on its own. Nesting stops at ``MAX_NESTING`` (20,
markdown-it's ``maxNesting``): a deeper opener is body text. Every line rule is a ``str`` test
or a pattern that starts with a literal and reads each character one way; ``scan`` keeps a stack
no deeper than the bound, so a page costs a pass times a constant.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ...parsing.fence_rule import COMMONMARK, SHARED, Fence, close_index, closes, open_fence
from . import options as option_lines

MAX_NESTING = 20


class Opener(NamedTuple):
    """An opening line: ``indent`` is what stands before the marker, ``marker`` the run whose
    length the closer must match (``:::``, ```` ``` ````, ``///``, ``!!!``, ``???+``, ``===``,
    ``>``), ``name`` the directive or type (None for a MyST code fence), ``title`` the rest of
    the line as the syntax reads it (None when none is given)."""

    indent: str
    marker: str
    name: str | None
    title: str | None


# ---- line rules ------------------------------------------------------------------------------

# MyST: a fence, after any list markers, with ``{name}`` for a directive (a list item's markers
# count as the indent). Each group reads its characters one way: the pattern is linear.
MYST_LINE = re.compile(r"^([ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*)(`{3,}|~{3,}|:{3,})\s*(?:\{([^}\s]+)\})?(.*)$")


def myst(line: str) -> Opener | None:
    """A MyST directive (``name`` set) or code fence (``name`` None) ``line`` opens; a colon
    fence without ``{name}`` is text."""
    if "`" not in line and "~" not in line and ":" not in line:
        return None
    m = MYST_LINE.match(line)
    if m is None or (m.group(3) is None and m.group(2)[0] == ":"):
        return None
    return Opener(m.group(1), m.group(2), m.group(3), m.group(4))


def myst_closes(line: str, opener: Opener) -> bool:
    return closes(line, Fence(opener.indent, opener.marker, ""), COMMONMARK)


def myst_close(lines: Sequence[str], i: int, opener: Opener) -> int:
    """The index of the line closing the MyST fence or directive opened at ``i`` (nothing
    inside counts), or ``len(lines)`` when none does."""
    return close_index(lines, i, Fence(opener.indent, opener.marker, ""), COMMONMARK)


# remark-directive: ``:::name rest`` or a closing line of colons (name None, rest blank).
COLON_LINE = re.compile(r"^([ \t]*)(:{3,})[ \t]*([A-Za-z][\w-]*)?(.*)$", re.M)


def colons(line: str, pos: int = 0) -> Opener | None:
    """A ``:::`` line (in ``line`` from ``pos``, to the next newline) as (indent, colons, name,
    rest); ``name`` None on a closing line."""
    m = COLON_LINE.match(line, pos)
    return None if m is None else Opener(m.group(1), m.group(2), m.group(3), m.group(4))


def colon_closer(found: Opener) -> bool:
    """Is a ``:::`` line a closer: colons alone, white space around."""
    return found.name is None and not found.title.strip()


def colon_closes(found: Opener, opened: Opener) -> bool:
    """Does the ``:::`` line ``found`` close ``opened``: a closer at least as long."""
    return colon_closer(found) and len(found.marker) >= len(opened.marker)


# pymdown blocks. The title starts and ends with a character that is not a blank (a lazy
# ``(.*?)`` before ``[ \t]*$`` was quadratic in a run of blanks: 13.5 s for 64,000).
SLASH_OPEN = re.compile(r"^([ \t]*)(/{3,})[ \t]*([\w-]+)[ \t]*(?:\|[ \t]*(?![ \t])((?:[^\n \t]|[ \t]+(?=[^\n \t]))*))?[ \t]*$")
_SLASH_CLOSE = re.compile(r"^[ \t]*(/{3,})[ \t]*$")
SLASH_OPTION = re.compile(r"^[ \t]+[\w-]+[ \t]*:")


def slashes(line: str) -> Opener | None:
    if "///" not in line:
        return None
    m = SLASH_OPEN.match(line)
    return None if m is None else Opener(m.group(1), m.group(2), m.group(3), m.group(4))


def slash_closer(line: str) -> int:
    """The slash count of a closing ``///`` line (0: not one)."""
    m = _SLASH_CLOSE.match(line) if "///" in line else None
    return 0 if m is None else len(m.group(1))


def slash_close(lines: Sequence[str], start: int, count: int) -> int:
    """The index of the line closing a block of ``count`` slashes whose body starts at
    ``start`` (``len(lines)`` if none): fenced code is skipped, and an inner block of the same
    count opens a level. One pass over the body."""
    depth, j, n = 0, start, len(lines)
    while j < n:
        text = lines[j]
        fence = open_fence(text)
        if fence is not None:
            j = fence_end(lines, j, fence)
            continue
        closer = slash_closer(text)
        if closer == count:
            if depth == 0:
                return j
            depth -= 1
        elif closer == 0:
            opener = slashes(text)
            if opener is not None and len(opener.marker) == count:
                depth += 1
        j += 1
    return n


def fence_end(lines: Sequence[str], i: int, fence: Fence) -> int:
    """The index after the fenced block opening at ``i`` (an unclosed fence runs to the end)."""
    for j in range(i + 1, len(lines)):
        if closes(lines[j], fence, SHARED):
            return j + 1
    return len(lines)


# Python-Markdown admonitions, pymdown details, content tabs: bodies by indentation.
_ADMONITION = re.compile(r'^([ \t]*)(!!!|\?\?\?\+?)[ \t]+([\w-]+)((?:[ \t]+[\w-]+)*)[ \t]*(?:"(.*)")?[ \t]*$')
_TAB = re.compile(r'^([ \t]*)===[!+]{0,2}[ \t]+"(.*)"[ \t]*$')


def admonition(line: str) -> Opener | None:
    """``!!! kind "Title"`` (title None without quotes, '' for ``""``), ``??? kind``, ``???+ kind``."""
    if "!!!" not in line and "???" not in line:
        return None
    m = _ADMONITION.match(line)
    return None if m is None else Opener(m.group(1), m.group(2), m.group(3), m.group(5))


def tab(line: str) -> Opener | None:
    """``=== "Label"``: a content tab, its label the title."""
    m = _TAB.match(line) if "===" in line else None
    return None if m is None else Opener(m.group(1), "===", None, m.group(2))


def width(text: str) -> int:
    """The columns of a line's indentation, a tab as four."""
    expanded = text.replace("\t", "    ")
    return len(expanded) - len(expanded.lstrip(" "))


def indented_end(lines: Sequence[str], start: int, need: int) -> int:
    """The end (exclusive) of the body from ``start``: blank lines and lines indented at least
    ``need`` columns; trailing blank lines are left out."""
    j, end, n = start, start, len(lines)
    while j < n:
        text = lines[j]
        if text.strip():
            if width(text) < need:
                break
            end = j + 1
        j += 1
    return end


# GitHub callouts: exactly ``[!TYPE]`` on the quote's first line; Hugo's extended form adds a
# fold sign and a title (which starts and ends with a character that is not a blank, so a run
# of blanks is read one way only).
CALLOUT_KINDS = ("note", "tip", "important", "warning", "caution")
_CALLOUT = re.compile(r"^([ \t]*)>[ \t]?\[!([A-Za-z]+)\][ \t]*$")
_EXTENDED = re.compile(r"^([ \t]*)>[ \t]?\[!([A-Za-z]+)\][+-]?(?:[ \t]+(?![ \t])((?:[^\n \t]|[ \t]+(?=[^\n \t]))*))?[ \t]*$")
_QUOTED = re.compile(r"^([ \t]*)>[ \t]?(.*)$")


def callout(line: str, extended: bool = False) -> Opener | None:
    """A ``> [!TYPE]`` line of a kind GitHub renders; with ``extended``, Hugo's titled form."""
    if "[!" not in line:
        return None
    m = (_EXTENDED if extended else _CALLOUT).match(line)
    if m is None or m.group(2).lower() not in CALLOUT_KINDS:
        return None
    title = m.group(3) if extended else None
    return Opener(m.group(1), ">", m.group(2), title)


def quote_body(lines: Sequence[str], start: int, indent: str) -> tuple[list[str], int]:
    """The blockquote's remaining lines with one ``>`` level removed, and the index after it.
    A non-blank line without ``>`` continues a paragraph (CommonMark's lazy continuation)."""
    body: list[str] = []
    j = start
    while j < len(lines):
        line = lines[j]
        m = _QUOTED.match(line)
        if m is not None and m.group(1) == indent:
            body.append(m.group(2))
        elif line.strip() and body and body[-1].strip() and not line.lstrip().startswith("#") and not open_fence(line.lstrip()):
            body.append(line.strip())
        else:
            break
        j += 1
    return body, j


# rst directives (``.. name:: argument``, in ``.rst`` pages and MyST's ``eval-rst``): the body
# is the lines indented more than the ``..``. The name's characters include ``:``, so the pattern
# may give back the name one character at a time to find ``::``: once per line, anchored.
_RST_DIRECTIVE = re.compile(r"(\s*)\.\.\s+([\w:.+-]+)::(.*)\Z")


def rst(line: str) -> Opener | None:
    """``.. name:: argument`` as (indent, "..", name, argument as written)."""
    m = _RST_DIRECTIVE.match(line) if ".." in line else None
    return None if m is None else Opener(m.group(1), "..", m.group(2), m.group(3))


def rst_body(lines: Sequence[str], start: int, indent: int) -> tuple[list[str], int]:
    """The lines from ``start`` indented more than ``indent`` columns (blank ones included,
    trailing ones left out), dedented by their least indentation, and the index after them."""
    end, n = start, len(lines)
    while end < n and (not lines[end].strip() or _lead(lines[end]) > indent):
        end += 1
    stop = end
    while stop > start and not lines[stop - 1].strip():
        stop -= 1
    body = lines[start:stop]
    least = min((_lead(b) for b in body if b.strip()), default=0)
    return [b[least:] for b in body], stop


def _lead(line: str) -> int:
    return len(line) - len(line.lstrip())


# ---- the tree --------------------------------------------------------------------------------


@dataclass
class Container:
    """One container: its opening line's index, its body's lines ``[body, end)``, the index
    after it (its closing line included), whether a closing line ended it, its options, and the
    containers inside it. For indentation- and quote-bodied syntaxes the children's indices are
    of the body as the syntax hands it on (dedented, or one ``>`` level off)."""

    line: int
    opener: Opener
    body: int
    end: int
    after: int
    closed: bool
    options: dict[str, str] = field(default_factory=dict)
    children: list[Container] = field(default_factory=list)


@dataclass(frozen=True)
class Syntax:
    """How one generator writes containers: the opener line rule, and how a body ends
    (``closing``: a closing line; ``indented``: four columns past the opener; ``quoted``)."""

    name: str
    opens: Callable[[str], Opener | None]
    body: str


MYST = Syntax("myst", myst, "closing")
COLONS = Syntax("colons", lambda line: None if (o := colons(line)) is None or o.name is None else o, "closing")
SLASHES = Syntax("slashes", slashes, "closing")
ADMONITIONS = Syntax("admonitions", lambda line: admonition(line) or tab(line), "indented")
RST = Syntax("rst", rst, "rst")
CALLOUTS = Syntax("callouts", callout, "quoted")
EXTENDED_CALLOUTS = Syntax("extended callouts", lambda line: callout(line, True), "quoted")


def scan(lines: Sequence[str], syntax: Syntax) -> list[Container]:
    """The containers of ``lines`` in ``syntax``, outermost first, each with its children."""
    if syntax is SLASHES:
        return _slash_tree(lines, 0, len(lines), 0)
    if syntax.body == "closing":
        return _closed(lines, syntax)
    return _bodied(list(lines), syntax, 0)


def _closing_line(syntax: Syntax, line: str, opened: Container) -> bool:
    """Does ``line`` close ``opened`` by the syntax's length rule?"""
    if syntax is MYST:
        return myst_closes(line, opened.opener)
    found = colons(line) if ":::" in line else None
    return found is not None and colon_closes(found, opened.opener)


def _closed(lines: Sequence[str], syntax: Syntax) -> list[Container]:
    """One pass with a stack of open containers (never deeper than ``MAX_NESTING``). Which one
    a closing line ends is the syntax's: MyST's outermost one it closes (an outer fence's
    closer is searched for through everything inside it), remark-directive's innermost. A
    closing line ends every container opened inside the one it closes."""
    root: list[Container] = []
    stack: list[Container] = []
    n = len(lines)
    for i, line in enumerate(lines):
        k = _closed_by(syntax, line, stack)
        if k is not None:
            while len(stack) > k + 1:
                inner = stack.pop()
                inner.end = inner.after = i
            done = stack.pop()
            done.end, done.after, done.closed = i, i + 1, True
            continue
        if stack and stack[-1].opener.name is None:
            continue  # inside a MyST code fence: code, never openers
        opened = syntax.opens(line)
        if opened is None:
            continue
        if len(stack) >= MAX_NESTING:
            continue
        body, found = i + 1, {}
        if syntax is MYST and opened.name is not None:
            found, after_options = option_lines.fields(lines, body)
            body = after_options
        container = Container(i, opened, body, n, n, False, found)
        (stack[-1].children if stack else root).append(container)
        stack.append(container)
    return root


def _closed_by(syntax: Syntax, line: str, stack: list[Container]) -> int | None:
    """The index in ``stack`` of the container ``line`` closes, if any."""
    if not stack:
        return None
    if syntax is MYST:
        run = line.strip()
        if not run or run.strip(run[0]):
            return None  # not a run of one character: closes nothing, whatever is open
        return next((k for k, c in enumerate(stack) if _closing_line(syntax, line, c)), None)
    return len(stack) - 1 if _closing_line(syntax, line, stack[-1]) else None


def _slash_tree(lines: Sequence[str], lo: int, hi: int, depth: int) -> list[Container]:
    """pymdown blocks as the mkdocs dialect reads them: each block's closer by ``slash_close``
    over the rest of its parent (a same-count opener inside counts a level even when a closer
    of another count has ended it, so the count is no stack rule), its body read again one
    level down: at most ``MAX_NESTING`` passes. Fenced code is skipped."""
    out: list[Container] = []
    view = _Window(lines, hi)
    i = lo
    while i < hi:
        fence = open_fence(lines[i])
        if fence is not None:
            i = fence_end(view, i, fence)
            continue
        opened = slashes(lines[i])
        if opened is None or depth >= MAX_NESTING:
            i += 1
            continue
        body = i + 1
        while body < hi and SLASH_OPTION.match(lines[body]) and width(lines[body]) >= width(opened.indent) + 4:
            body += 1
        close = slash_close(view, body, len(opened.marker))
        closed = close < hi
        container = Container(i, opened, body, close, close + 1 if closed else hi, closed)
        container.children = _slash_tree(lines, body, close, depth + 1)
        out.append(container)
        i = close + 1
    return out


class _Window(Sequence[str]):
    """``lines[:hi]`` without a copy: the rules read by index and length only."""

    def __init__(self, lines: Sequence[str], hi: int) -> None:
        self._lines, self._hi = lines, hi

    def __len__(self) -> int:
        return self._hi

    def __getitem__(self, i):
        return self._lines[i]


def _bodied(lines: list[str], syntax: Syntax, depth: int) -> list[Container]:
    """Containers whose body is indented or quoted; each body is read again one level down,
    so a line is read at most ``MAX_NESTING`` times."""
    out: list[Container] = []
    i, n = 0, len(lines)
    while i < n:
        opened = syntax.opens(lines[i])
        if opened is None:
            i += 1
            continue
        if syntax.body == "indented":
            need = width(opened.indent) + 4
            end = indented_end(lines, i + 1, need)
            inner = [text[need:] if width(text) >= need else text.lstrip() for text in lines[i + 1 : end]]
        elif syntax.body == "rst":
            inner, end = rst_body(lines, i + 1, _lead(lines[i]))
        else:
            inner, end = quote_body(lines, i + 1, opened.indent)
        container = Container(i, opened, i + 1, end, end, False)
        if depth + 1 < MAX_NESTING:
            container.children = _bodied(inner, syntax, depth + 1)
        out.append(container)
        i = max(end, i + 1)
    return out
