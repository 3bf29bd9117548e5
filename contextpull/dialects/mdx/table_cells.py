"""Markdown table rows read as MDX renders their cells (react-native-website's API tables).

MDX splits a GFM table row into cells at the ``|`` written in the source, before it reads the
cell's text: a ``<br/>`` (or ``<hr/>``) in a cell breaks a line inside that cell, and a character
reference for ``|`` (``&#124;``) is a literal pipe in the cell. The shared parser reads table
rows as lines split at ``|``, so a cell's line break must not become a newline (the row would end
there) and its decoded pipe must stay escaped (``\\|``, which is how the other readers write a
cell's pipe) or it would open a cell the page does not have. Only the MDX reading past ``plain``
applies this, so a plain build's stores stay byte-identical.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ...parsing.parse_markdown import is_table_start, table_end

# ``&#124;``, ``&#x7c;`` and the named references for ``|``: one fixed alternation, linear.
_PIPE_REFERENCE = re.compile(r"&(?:#0*124|#[xX]0*7[cC]|vert|verbar|VerticalLine);")
# What a line break inside one cell reads as: the cell's lines stay apart on one row.
CELL_BREAK = "; "


def escape_rows(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with each table row's pipe references as ``\\|``, and the (start, end) offsets of
    each table's rows in the returned text, in order, for ``in_cell``."""
    lines = text.split("\n")
    spans: list[tuple[int, int]] = []
    out: list[str] = []
    offset = 0
    i, n = 0, len(lines)
    while i < n:
        if "|" not in lines[i] or not is_table_start(lines, i):
            out.append(lines[i])
            offset += len(lines[i]) + 1
            i += 1
            continue
        end = table_end(lines, i)
        start = offset
        for line in lines[i:end]:
            line = _PIPE_REFERENCE.sub(r"\\|", line) if "&" in line else line
            out.append(line)
            offset += len(line) + 1
        spans.append((start, offset - 1))
        i = end
    return "\n".join(out), spans


def in_cell(spans: list[tuple[int, int]], pos: int) -> bool:
    """Whether ``pos`` (an offset in ``escape_rows``' text) lies on a table row."""
    k = bisect_right(spans, (pos, float("inf"))) - 1
    return k >= 0 and spans[k][0] <= pos < spans[k][1]
