"""Containers as a tree (issue 35): ``scan`` reads a page's containers in one syntax of
``containers`` (its line rules and closing rules) into nested ``Container`` values with their
body line ranges and options. The dialects convert one container at a time with those same rules;
the tree is their reading held in one place, for the property tests and the scaling benchmark,
and for a dialect that wants the structure rather than a rewrite.

Nesting stops at ``MAX_NESTING``: a stack never deeper than the bound for the closed syntaxes (one
pass), and at most that many passes for the indented, quoted and ``///`` ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ...parsing.fence_rule import open_fence
from . import options as option_lines
from .containers import (
    MAX_NESTING, SLASH_OPTION, Opener, lead, admonition, callout, colon_closer, colon_closes, colons, fence_end, indented_end,
    myst, myst_closes, quote_body, rst, rst_body, slash_close, slashes, tab, width,
)


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
    (``closing``: a closing line; ``indented``: four columns past the opener; ``rst``: any
    indentation past the ``..``; ``quoted``: the rest of the blockquote)."""

    name: str
    opens: Callable[[str], Opener | None]
    body: str
    # A closing line ends the outermost open container it can close (markdown-it-container's
    # rule: an opener's closer is searched for through everything inside it, so ``:::`` after a
    # nested ``::: code-group`` ends the outer box too) rather than the innermost one.
    outermost: bool = False


MYST = Syntax("myst", myst, "closing")
COLONS = Syntax("colons", lambda line: None if (o := colons(line)) is None or o.name is None else o, "closing")
# markdown-it-container's colons (VitePress): the same lines, closed outermost first.
MARKDOWN_IT_COLONS = Syntax("markdown-it colons", COLONS.opens, "closing", outermost=True)
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


def scan_marked(lines: Sequence[str], syntax: Syntax, marker: str) -> list[Container]:
    """``scan`` of a closing syntax other than MyST (whose options run past the opening line),
    reading only the lines that hold ``marker`` (every opener and closing line does), the tree
    mapped back to indices of ``lines``: a page costs a ``str`` test a line, its markers a scan."""
    at = [i for i, line in enumerate(lines) if marker in line]
    return _mapped(scan([lines[i] for i in at], syntax), at, len(lines))


def _mapped(tree: list[Container], at: list[int], n: int) -> list[Container]:
    """Containers found among the lines ``at`` (indices into the page), in the page's indices."""
    def index(k: int) -> int:
        return at[k] if k < len(at) else n

    out = []
    for c in tree:
        end = index(c.end)
        after = end + 1 if c.closed else end
        out.append(Container(at[c.line], c.opener, at[c.line] + 1, end, after, c.closed, c.options,
                             _mapped(c.children, at, n)))
    return out


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
    if syntax.outermost:  # the line read once, then matched against each open container's length
        found = colons(line) if ":::" in line else None
        if found is None or not colon_closer(found):
            return None
        return next((k for k, c in enumerate(stack) if colon_closes(found, c.opener)), None)
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
            # dedented by columns, a tab as four (as ``width`` counts them)
            inner = [_expanded(text)[need:] if width(text) >= need else text.lstrip() for text in lines[i + 1 : end]]
        elif syntax.body == "rst":
            inner, end = rst_body(lines, i + 1, lead(lines[i]))
        else:
            inner, end = quote_body(lines, i + 1, opened.indent)
        container = Container(i, opened, i + 1, end, end, False)
        if depth + 1 < MAX_NESTING:
            container.children = _bodied(inner, syntax, depth + 1)
        out.append(container)
        i = max(end, i + 1)
    return out


def _expanded(text: str) -> str:
    """The line with the tabs of its indentation as four blanks each."""
    body = text.lstrip(" \t")
    return text[: len(text) - len(body)].replace("\t", "    ") + body
