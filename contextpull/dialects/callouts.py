"""GitHub-style callouts, ``> [!NOTE]``, as the labelled text a reader sees (issue 26, "Markup to
meaning").

GitHub renders a blockquote whose first line is exactly ``[!NOTE]``, ``[!TIP]``, ``[!IMPORTANT]``,
``[!WARNING]`` or ``[!CAUTION]`` as a titled box; the marker itself is never shown. Any dialect may
call ``callouts`` (GitHub, mkdocs-material and Docusaurus plugins read the same syntax). A marker
GitHub would not render (an unknown type, text after it on the same line) is left as written,
because that is what the page shows. Fenced code is never edited (``syntax.fences.split_code``).

Hugo also reads the extended (Obsidian) syntax, ``> [!WARNING]+ Radiation hazard``: an optional
fold sign (``+`` or ``-``) and a title after the marker, which its blockquote render hook shows as
the box's heading (``.AlertTitle``). GitHub renders that form as a plain quote, so only a dialect
that asks for it (``extended=True``, Hugo's) reads it: the title is the label, as a titled
admonition's is, and the sign, which only folds the box, goes.
"""

from __future__ import annotations

import re

from .api import Context
from .syntax import labels
from .syntax.labels import labelled
from .syntax.fences import open_fence, split_code
from .syntax.line_map import numbered

CONSTRUCT = "callout"
KINDS = ("note", "tip", "important", "warning", "caution")

_MARKER = re.compile(r"^([ \t]*)>[ \t]?\[!([A-Za-z]+)\][ \t]*$")
# The title starts and ends with a character that is not a blank, so a run of blanks is read one
# way only (the lazy ``(.*?)`` before ``[ \t]*$`` was quadratic in it).
_EXTENDED = re.compile(r"^([ \t]*)>[ \t]?\[!([A-Za-z]+)\][+-]?(?:[ \t]+(?![ \t])((?:[^\n \t]|[ \t]+(?=[^\n \t]))*))?[ \t]*$")
_QUOTED = re.compile(r"^([ \t]*)>[ \t]?(.*)$")


def callouts(text: str, ctx: Context, extended: bool = False) -> str:
    """``text`` with every callout outside fenced code replaced by ``Label: body``; with
    ``extended``, the titled form too (module docstring)."""
    if "[!" not in text:
        return text
    out: list[str] = []
    for line, is_code, chunk in numbered(split_code(text)):
        out.append(chunk if is_code else _prose(chunk, line, ctx, _EXTENDED if extended else _MARKER))
    return "\n".join(out)


def _prose(chunk: str, first_line: int, ctx: Context, marker: re.Pattern[str]) -> str:
    if "[!" not in chunk:
        return chunk  # no line can hold a marker: the loop below would give the chunk back
    lines = chunk.split("\n")
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        m = marker.match(lines[i])
        if m is None or m.group(2).lower() not in KINDS:
            out.append(lines[i])
            i += 1
            continue
        indent = m.group(1)
        body, j = _quote_body(lines, i + 1, indent)
        ctx.note(CONSTRUCT, "converted", first_line + i, m.group(2).lower())
        title = m.group(3).strip() if m.lastindex and m.lastindex >= 3 and m.group(3) else ""
        block = labelled(title or labels.title(m.group(2).lower()), "\n".join(body))
        out.extend(indent + part if part else part for part in block.split("\n"))
        i = j
    return "\n".join(out)


def _quote_body(lines: list[str], start: int, indent: str) -> tuple[list[str], int]:
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
