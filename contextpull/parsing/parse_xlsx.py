"""xlsx into the block stream, with the standard library only (system-design.txt section 3,
"Parse", the Office Open XML bullet; issue 7).

A level-1 heading with the file stem, then per sheet in workbook order a level-2 heading with the
sheet name and one pipe table, first row as header, cached values only (a workbook's formulas are
not evaluated). Package navigation is in ``ooxml``; every byte is read through ``safezip``.
Anything unusable raises ``ParseError`` with the reason the user will see.

The table's size follows the cells that hold a value, not their coordinates (issue 22): a column
empty in every row is dropped, so one cell in column XFD no longer pads every row with 16,000
empty cells (a 24 KB file used to become 491 million characters). What is left is bounded by
``MAX_TABLE_CELLS``: a grid of rows times used columns over it (values scattered on a diagonal)
is a skip with the sheet's name, not a table hundreds of megabytes long.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from .blocks import Block, Heading, ParsedDocument, ParseError
from .ooxml import attr, child, children, local, open_package, pipe_table, refuse_deep_nesting, rid

_CELL_REF = re.compile(r"^([A-Za-z]{1,3})(\d*)$")
MAX_TABLE_CELLS = 5_000_000  # rows x used columns of one sheet; 200 MB of cells at most


def _column_index(ref: str | None) -> int | None:
    match = _CELL_REF.match(ref or "")
    if not match:
        return None
    index = 0
    for ch in match.group(1).upper():
        index = index * 26 + (ord(ch) - 64)
    return index - 1


def _string_item(si: Element) -> str:
    """Text of a shared or inline string: plain ``t`` or rich-text runs, phonetic hints left out."""
    parts: list[str] = []
    for sub in si:
        name = local(sub.tag)
        if name == "t":
            parts.append(sub.text or "")
        elif name == "r":
            parts.extend(t.text or "" for t in sub if local(t.tag) == "t")
    return "".join(parts)


def _cell_value(c: Element, shared: list[str]) -> str:
    kind = attr(c, "t") or "n"
    if kind == "inlineStr":
        inline = child(c, "is")
        return _string_item(inline) if inline is not None else ""
    v = child(c, "v")
    raw = (v.text or "") if v is not None else ""
    if kind == "s":
        try:
            index = int(raw)
            return shared[index] if index >= 0 else ""  # -1 is damage, not "the last string"
        except (ValueError, IndexError):
            return ""
    if kind == "b":
        return {"1": "TRUE", "0": "FALSE"}.get(raw.strip(), raw)
    return raw  # numbers exactly as cached (48.00 stays 48.00), errors, str and dates too


def _sheet_rows(root: Element, shared: list[str], sheet: str) -> list[list[str]]:
    """Rows in row order, each cell under its column; columns that are empty in every row are
    dropped, and the grid left is refused past ``MAX_TABLE_CELLS``."""
    data = child(root, "sheetData")
    rows: list[tuple[int, dict[int, str]]] = []
    row_no = 0
    for row in children(data, "row") if data is not None else []:
        r = attr(row, "r")
        row_no = int(r) if r and r.isdigit() else row_no + 1
        cells: dict[int, str] = {}
        col = -1
        for c in children(row, "c"):
            index = _column_index(attr(c, "r"))
            col = index if index is not None else col + 1
            value = _cell_value(c, shared)
            if value.strip() and col < 16384:
                cells[col] = value
        if cells:
            rows.append((row_no, cells))
    used = sorted({col for _, cells in rows for col in cells})
    if len(rows) * len(used) > MAX_TABLE_CELLS:
        raise ParseError(
            f"sheet {sheet!r} is too sparse to tabulate: {len(rows)} rows x {len(used)} columns"
            f" is over {MAX_TABLE_CELLS} cells"
        )
    position = {col: i for i, col in enumerate(used)}
    rows.sort(key=lambda item: item[0])
    lines = []
    for _, cells in rows:
        line = [""] * (position[max(cells)] + 1)
        for col, value in cells.items():
            line[position[col]] = value
        lines.append(line)
    return lines


@refuse_deep_nesting
def parse_xlsx(data: bytes, stem: str) -> ParsedDocument:
    pkg, part, rels = open_package(data, "xl/workbook.xml")
    shared_part = next((p for p in rels.values() if p.endswith("sharedStrings.xml")), "xl/sharedStrings.xml")
    shared = [_string_item(si) for si in pkg.xml(shared_part)] if pkg.has(shared_part) else []
    blocks: list[Block] = [Heading(1, stem)]
    sheets = child(pkg.xml(part), "sheets")
    for position, sheet in enumerate(children(sheets, "sheet") if sheets is not None else [], 1):
        target = rels.get(rid(sheet), f"xl/worksheets/sheet{position}.xml")
        if not pkg.has(target):
            continue  # declared but absent: nothing to show under its name
        name = attr(sheet, "name") or f"Sheet{position}"
        blocks.append(Heading(2, name))
        rows = _sheet_rows(pkg.xml(target), shared, name)
        if rows:
            blocks.append(pipe_table(rows))
    return ParsedDocument(title=stem, blocks=blocks)
