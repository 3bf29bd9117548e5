"""Fenced code and inline code spans, found once (issue 35): the text cut into code and prose so
that no Markdown-extension rewrite ever edits code, and code written out with a fence it cannot
close. The line rule (``open_fence``, ``closes``; ``SHARED`` and ``COMMONMARK``) is
``parsing.fence_rule``'s, named here too so that a dialect has one place to import code from.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from typing import TypeVar

from .template_tags import Lexer, Syntax, Tag
from ...parsing.fence_rule import COMMONMARK, SHARED, Fence, Rule, close_index, closes, code_lines, open_fence

__all__ = ["COMMONMARK", "SHARED", "Fence", "Rule", "close_index", "closes", "code_blanked", "code_lines", "code_ranges", "code_spans", "fenced",
           "open_fence", "outside_code", "prose_lines", "outside_inline_code", "split_code", "tags_outside_code"]


def split_code(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into (is_code, chunk) runs by the ``SHARED`` rule; a code chunk is a whole
    fenced block, fences included, and the chunks joined with newlines give back ``text``. Fences
    are found by searching the text, not by walking its lines: every dialect cuts every page
    this way, and most lines are prose. Each search starts at a newline and reads one line, so
    the whole costs a pass."""
    if "```" not in text and "~~~" not in text:
        return [(False, text)]  # no line can open a fence: most included files, most chunks
    out: list[tuple[bool, str]] = []
    pos, end = 0, len(text)  # pos: where the first line not yet cut starts (past end: none left)
    while pos <= end:
        opener = _FIRST_LINE_OPEN.match(text) if pos == 0 else None
        if opener is None:
            opener = _LINE_OPEN.search(text, max(pos - 1, 0))
            if opener is None:
                break
        start = text.rfind("\n", 0, opener.start(1)) + 1
        if start > pos:
            out.append((False, text[pos : start - 1]))  # the prose before, without its last newline
        line_end = text.find("\n", opener.end())
        stop = end if line_end < 0 else _closing_line_end(text, line_end, opener.group(1))
        out.append((True, text[start:stop]))
        pos = stop + 1
    if pos <= end or not out:
        out.append((False, text[pos:]))
    return out


# An opening line: at the text's start, or after a newline (a pattern that starts with a literal
# is searched for quickly; ``^`` with MULTILINE is tried at every position).
_FIRST_LINE_OPEN = re.compile(r"[ \t]*(`{3,}|~{3,})")
_LINE_OPEN = re.compile(r"\n[ \t]*(`{3,}|~{3,})")

def _closing_line_end(text: str, at: int, marker: str) -> int:
    """Where the line closing ``marker`` ends, searching from the newline at ``at`` (the text's
    end when none closes): a line of white space, a run of ``marker``'s character at least as
    long, white space. Runs of three of that character are found by ``str.find`` (a code block's
    lines hold few), and a line that holds one but does not close is passed over whole, so the
    search is one pass however the lines are made."""
    n = len(text)
    char = marker[0]
    three = char * 3
    pos = at + 1  # the first line after the opener starts here
    while pos <= n:
        k = text.find(three, pos)
        if k < 0:
            return n
        start = text.rfind("\n", pos - 1, k) + 1
        end = text.find("\n", k)
        end = n if end < 0 else end
        rest = text[k:end]
        after = rest.lstrip(char)
        if len(rest) - len(after) >= len(marker) and not text[start:k].strip() and not after.strip():
            return end
        pos = end + 1
    return n


def prose_lines(lines: list[str]) -> Iterator[int]:
    """The indices of the lines outside fenced code (``code_lines``), in order: for a caller
    that looks at prose lines one at a time and may stop early."""
    at = 0
    for first, end, _ in code_lines(lines):
        yield from range(at, first)
        at = end
    yield from range(at, len(lines))


def code_blanked(lines: list[str]) -> list[str]:
    """``lines`` with those of fenced code (``code_lines``, fences included) blanked: what a
    line scan for containers reads, so that a marker shown in a code example opens nothing."""
    out = list(lines)
    for first, end, _ in code_lines(lines):
        out[first:end] = [""] * (end - first)
    return out


def outside_code(text: str, fn: Callable[[str], str]) -> str:
    """``fn`` applied to every run of ``text`` outside fenced code; code runs untouched."""
    return "\n".join(chunk if is_code else fn(chunk) for is_code, chunk in split_code(text))


def outside_inline_code(text: str, fn: Callable[[str], str]) -> str:
    """``fn`` applied between inline code spans (```x```), the spans kept as written."""
    if "`" not in text:
        return fn(text)
    parts: list[str] = []
    last = 0
    for start, end in code_spans(text):
        parts.append(fn(text[last:start]))
        parts.append(text[start:end])
        last = end
    parts.append(fn(text[last:]))
    return "".join(parts)


def fenced(code: str, language: str) -> str:
    """``code`` as a fenced block whose fence is longer than any backtick run inside it, so the
    code cannot close it: the one rule for every dialect that writes code out as Markdown."""
    longest = max((len(run) for run in _TICKS.findall(code)), default=2)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{language}\n{code}\n{marks}"


def code_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each inline code span, left to right: the matches of
    ``(`+)(?:(?!\\1).)+?\\1`` (a run of backticks, one character or more none of which starts
    the same run, then the same run), found with ``str.find`` instead of by that pattern, which
    is slower on every page and takes time cubic in a long run of backticks (19 s for a line
    of 1,000 of them).

    Why the same spans: from a position ``m`` backticks before the end of its run, a width
    ``w <= m / 2`` fails at once (the run itself would start the content), and a wider one can
    close only after the run, so it closes exactly when a later run is ``w`` long or longer, at
    the first ``w`` backticks after the run. The pattern tries the widest first; a width no later
    run reaches is remembered, so it is not searched for again. In a run longer than
    ``_SHORT_RUN`` the first position that closes is found directly: the first where
    ``m < 2 * longest`` (``longest`` the longest later run), at width ``min(m, longest)``."""
    if "`" not in text:
        return []
    out: list[tuple[int, int]] = []
    unreached: dict[int, int] = {}  # width -> a position after which no run is that wide
    longest_after = None
    n = len(text)
    at = text.find("`")
    while at != -1:
        run_end = at + 1
        while run_end < n and text[run_end] == "`":
            run_end += 1
        m = run_end - at
        if m > _SHORT_RUN:
            if longest_after is None:
                longest_after = _LongestRunAfter(text)
            longest = longest_after(run_end)
            if longest == 0:
                break  # no backtick after this run: nothing can close
            if m >= 2 * longest:
                at, m = run_end - (2 * longest - 1), 2 * longest - 1
            width = min(m, longest)
            close = text.find("`" * width, run_end)
            out.append((at, close + width))
            at = text.find("`", close + width)
            continue
        for width in range(m, m // 2, -1):
            if unreached.get(width, n + 1) <= run_end:
                continue
            close = text.find("`" * width, run_end)
            if close == -1:
                unreached[width] = run_end
                continue
            out.append((at, close + width))
            at = text.find("`", close + width)
            break
        else:
            at = text.find("`", at + 1)
    return out


_SHORT_RUN = 8
_TICKS = re.compile("`+")


class _LongestRunAfter:
    """The length of the longest run of backticks that starts at or after a position, from one
    pass over the text's runs (made only for a text with a long run)."""

    def __init__(self, text: str):
        runs = [(m.start(), m.end() - m.start()) for m in _TICKS.finditer(text)]
        self._starts = [start for start, _ in runs]
        self._longest = [0] * (len(runs) + 1)
        for i in range(len(runs) - 1, -1, -1):
            self._longest[i] = max(runs[i][1], self._longest[i + 1])

    def __call__(self, position: int) -> int:
        return self._longest[bisect.bisect_left(self._starts, position)]


def code_ranges(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(start, end) offsets of each fenced block and of each inline code span of ``text``, in
    order: for a tag lexer that reads the whole text and must leave what lies in code as text."""
    fences: list[tuple[int, int]] = []
    spans: list[tuple[int, int]] = []
    offset = 0
    for is_code, chunk in split_code(text):
        if is_code:
            fences.append((offset, offset + len(chunk)))
        else:
            spans.extend((offset + s, offset + e) for s, e in code_spans(chunk))
        offset += len(chunk) + 1
    return fences, spans


T = TypeVar("T")


def tags_outside_code(text: str, syntax: Syntax, read: Callable[[Tag], T | None]) -> Iterator[T]:
    """``read(tag)`` of each template tag of ``text`` (``template_tags.Lexer``) that is not in
    fenced code, does not reach into it, and does not start in an inline code span (a span may
    stand inside a tag: a tab's title), left to right. ``read`` gives None for a tag that is
    not one (a name it does not accept): it is text, and the lexer reads on after its opener."""
    fences, spans = code_ranges(text)
    lexer = Lexer(text, syntax)
    pos = f = s = 0
    while True:
        found = lexer.next(pos)
        if found is None:
            return
        while f < len(fences) and fences[f][1] <= found.start:
            f += 1
        while s < len(spans) and spans[s][1] <= found.start:
            s += 1
        in_code = (f < len(fences) and fences[f][0] < found.end) or (s < len(spans) and spans[s][0] <= found.start)
        value = None if in_code else read(found)
        if value is None:
            pos = found.start + 2
            continue
        yield value
        pos = found.end
