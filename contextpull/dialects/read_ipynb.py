"""Jupyter notebooks as Markdown (issue 26, "Formats": ``.ipynb``).

A notebook is a container of two formats (pandoc's ``Readers/Ipynb.hs``): Markdown cells are the
page's prose and go to the Markdown parser as they are; code cells are code in the kernel's
language. Outputs are what the rendered notebook shows under a cell: plain text (a stream, a
result's ``text/plain``, an error's name and message) is kept short, because a 5,000-line log would
drown the prose an agent searches; images are pictures to a reader, and HTML (a table, a widget) is
stored as the ``text/plain`` form the notebook keeps beside it, or not at all. Raw cells are not
rendered by a site and are dropped.

A file that is not JSON, or JSON that is not a notebook, is a named skip (``ParseError``).
"""

from __future__ import annotations

import json
import re

from ..parsing.blocks import ParseError
from .api import Context
from .syntax.fences import fenced

OUTPUT_LINES = 10
OUTPUT_CHARS = 1_000


def to_markdown(text: str, ctx: Context) -> str:
    """The notebook ``text`` (its JSON) as Markdown for the shared parser."""
    try:
        notebook = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ParseError(f"notebook is not JSON: {_short(str(exc))}") from None
    if not isinstance(notebook, dict) or "nbformat" not in notebook:
        raise ParseError("not a Jupyter notebook: no nbformat field")
    cells = notebook.get("cells")
    if cells is None and isinstance(notebook.get("worksheets"), list):  # nbformat 3
        cells = [c for ws in notebook["worksheets"] if isinstance(ws, dict)
                 for c in ws.get("cells", []) or []]
    if not isinstance(cells, list):
        raise ParseError("not a Jupyter notebook: no list of cells")
    language = _language(notebook.get("metadata"))
    parts: list[str] = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict):
            ctx.note("notebook cell", "unresolved", 0, f"cell {number} is not an object")
            continue
        kind = cell.get("cell_type")
        source = _text(cell.get("source", cell.get("input", "")))
        if kind in ("markdown", "heading"):
            if kind == "heading":  # nbformat 3 heading cells
                level = cell.get("level", 1)
                source = f"{'#' * (level if isinstance(level, int) and 0 < level < 7 else 1)} {source}"
            if source.strip():
                parts.append(source.strip("\n"))
        elif kind == "code":
            if source.strip():
                parts.append(fenced(source.strip("\n"), language))
            for output in cell.get("outputs", []) or []:
                shown = _output(output, ctx, number)
                if shown:
                    parts.append(fenced(shown, "text"))
        else:
            ctx.note("notebook cell", "converted", 0, f"cell {number}: {kind} cell not rendered")
    return "\n\n".join(parts) + "\n" if parts else ""


def _language(metadata) -> str:
    if not isinstance(metadata, dict):
        return ""
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        value = metadata.get(key)
        if isinstance(value, dict) and isinstance(value.get(field), str):
            name = value[field].strip().lower()
            if re.fullmatch(r"[\w+#.-]{1,40}", name):
                return name
    return ""


def _text(value) -> str:
    """nbformat stores text as a string or a list of lines."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    return ""


def _output(output, ctx: Context, number: int) -> str:
    if not isinstance(output, dict):
        return ""
    kind = output.get("output_type")
    if kind == "stream":
        text = _text(output.get("text"))
    elif kind in ("execute_result", "display_data", "pyout", "display"):
        data = output.get("data") if isinstance(output.get("data"), dict) else output
        # A figure's text/plain is "<Figure size 640x480>": the picture is the output.
        if any(isinstance(key, str) and key.startswith("image/") for key in data):
            ctx.note("notebook output", "converted", 0, f"cell {number}: image not stored")
            return ""
        text = _text(data.get("text/plain", data.get("text", "")))
    elif kind in ("error", "pyerr"):
        text = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}".strip()
    else:
        return ""
    return _shorten(text.strip("\n"), ctx, number)


def _shorten(text: str, ctx: Context, number: int) -> str:
    """At most OUTPUT_LINES lines and OUTPUT_CHARS characters, then a line saying how much was
    left out, so a reader knows the output went on."""
    lines = text.split("\n")
    short = "\n".join(lines[:OUTPUT_LINES])[:OUTPUT_CHARS]
    if short == text:
        return text
    ctx.note("notebook output", "converted", 0, f"cell {number}: output shortened")
    more = len(lines) - (short.count("\n") + 1)
    return f"{short}\n… ({more} more lines)" if more else f"{short}…"


def _short(message: str) -> str:
    return message.split("\n", 1)[0][:200]
