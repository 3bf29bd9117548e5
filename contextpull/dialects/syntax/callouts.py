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

from ..api import Context
from . import labels
from .containers import CALLOUT_KINDS as KINDS, callout, quote_body
from .labels import labelled
from .fences import split_code
from .line_map import numbered

CONSTRUCT = "callout"
__all__ = ["CONSTRUCT", "KINDS", "callouts"]


def callouts(text: str, ctx: Context, extended: bool = False) -> str:
    """``text`` with every callout outside fenced code replaced by ``Label: body``; with
    ``extended``, the titled form too (module docstring)."""
    if "[!" not in text:
        return text
    out: list[str] = []
    for line, is_code, chunk in numbered(split_code(text)):
        out.append(chunk if is_code else _prose(chunk, line, ctx, extended))
    return "\n".join(out)


def _prose(chunk: str, first_line: int, ctx: Context, extended: bool) -> str:
    if "[!" not in chunk:
        return chunk  # no line can hold a marker: the loop below would give the chunk back
    lines = chunk.split("\n")
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        opened = callout(lines[i], extended)
        if opened is None:
            out.append(lines[i])
            i += 1
            continue
        indent, kind = opened.indent, opened.name.lower()
        body, j = quote_body(lines, i + 1, indent)
        ctx.note(CONSTRUCT, "converted", first_line + i, kind)
        title = opened.title.strip() if opened.title else ""
        block = labelled(title or labels.title(kind), "\n".join(body))
        out.extend(indent + part if part else part for part in block.split("\n"))
        i = j
    return "\n".join(out)

