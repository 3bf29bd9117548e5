"""Parts of an included file: line ranges and named regions (issue 26, "Includes").

One selection chain for every dialect (shared/style/dialects.md, proposal 6), on strings alone so
it is tested without files. The markers generators use to name a region never reach the output,
whichever selection was asked for, because a rendered page never shows them:

- mdBook: ``ANCHOR: name`` / ``ANCHOR_END: name`` on a line of any comment style;
- pymdown snippets: ``--8<-- [start:name]`` / ``--8<-- [end:name]``.
"""

from __future__ import annotations

import re

_MARKER = re.compile(r"(?:\bANCHOR(?:_END)?:\s*([\w-]+))|(?:--8<--\s*\[(?:start|end):([\w-]+)\])")
_START = re.compile(r"\bANCHOR:\s*([\w-]+)|--8<--\s*\[start:([\w-]+)\]")
_END = re.compile(r"\bANCHOR_END:\s*([\w-]+)|--8<--\s*\[end:([\w-]+)\]")


class SelectionError(ValueError):
    """A selection the file cannot satisfy (an anchor it lacks); the message is the reason."""


def drop_markers(lines: list[str]) -> list[str]:
    return [line for line in lines if _MARKER.search(line) is None]


def _unmarked(text: str) -> bool:
    """True when no line of ``text`` can hold a marker (each pattern needs one of these words):
    most included files have none, and a search per line of each was most of an include's cost."""
    return "ANCHOR" not in text and "--8<--" not in text


def lines_between(text: str, start: int | None, end: int | None) -> str:
    """Lines ``start`` to ``end``, 1-based and inclusive, either open; a negative number counts
    from the end (-1 is the last line). Out-of-range bounds are clipped, as mdBook does."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    n = len(lines)

    def index(k: int | None, default: int) -> int:
        if k is None:
            return default
        return n + k if k < 0 else k - 1

    lo = max(index(start, 0), 0)
    hi = min(index(end, n - 1), n - 1)
    if _unmarked(text):
        return "\n".join(lines[lo : hi + 1])
    return "\n".join(drop_markers(lines[lo : hi + 1]))


def region(text: str, name: str) -> str:
    """The lines between the start and end markers of region ``name``, markers dropped. A region
    that opens more than once is all of its parts, in order (mdBook and pymdown both allow it)."""
    out: list[str] = []
    inside = found = False
    for line in text.split("\n"):
        if _unmarked(line):
            if inside:
                out.append(line)
            continue
        start = _START.search(line)
        if start is not None and name in start.groups():
            inside = found = True
            continue
        end = _END.search(line)
        if end is not None and name in end.groups():
            inside = False
            continue
        if inside and _MARKER.search(line) is None:
            out.append(line)
    if not found:
        raise SelectionError(f"no region {name!r}")
    return "\n".join(out)


def whole(text: str) -> str:
    """The whole file, markers dropped, trailing newline removed."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines if _unmarked(text) else drop_markers(lines))
