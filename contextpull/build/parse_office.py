"""docx, xlsx and pptx into the block stream, with the standard library only
(system-design.txt section 3, "Parse", the Office Open XML bullet; issue 7).

- docx: heading styles (``Heading1``..``Heading9``, ``Title``, or any style whose name in
  ``word/styles.xml`` is "heading N", directly or through ``basedOn``) become headings; numbered
  paragraphs (``w:numPr``) become list items, ``1. `` for ordered formats in
  ``word/numbering.xml`` and ``- `` otherwise; tables become pipe tables; the title is the first
  level-1 heading, else the file stem.
- xlsx: a level-1 heading with the file stem, then per sheet in workbook order a level-2 heading
  with the sheet name and one pipe table, first row as header, cached values only.
- pptx: slides in presentation order; each is a level-2 heading "Slide N: title" (or "Slide N")
  followed by its text. The first slide's title is the document title and a level-1 heading.

Images, charts and embedded objects are ignored. Elements are matched by local name, so the
"strict" OOXML namespaces read the same as the transitional ones. Package access goes through
``safezip`` (size caps, DTD refusal); anything unusable raises ``ParseError`` with the reason.
"""

from __future__ import annotations

import posixpath
import re
from xml.etree.ElementTree import Element

from .blocks import Block, Heading, ListBlock, Paragraph, ParsedDocument, ParseError, Table
from .safezip import SafeZip

_ORDERED_NOT = {"bullet", "none", ""}
_HEADING_ID = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_CELL_REF = re.compile(r"^([A-Za-z]{1,3})(\d*)$")
MAX_HEADING_LEVEL = 6


# --- shared helpers -------------------------------------------------------------------------


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _attr(el: Element | None, name: str) -> str | None:
    """An attribute by local name, whatever its namespace prefix."""
    if el is None:
        return None
    for key, value in el.attrib.items():
        if _local(key) == name:
            return value
    return None


def _rid(el: Element) -> str:
    """The relationship id (``r:id``): the namespaced ``id``, not the element's own ``id``."""
    return next((v for k, v in el.attrib.items() if k.startswith("{") and _local(k) == "id"), "")


def _child(el: Element | None, name: str) -> Element | None:
    if el is None:
        return None
    for sub in el:
        if _local(sub.tag) == name:
            return sub
    return None


def _children(el: Element, name: str) -> list[Element]:
    return [sub for sub in el if _local(sub.tag) == name]


def _find(el: Element, *path: str) -> Element | None:
    for name in path:
        el = _child(el, name)
        if el is None:
            return None
    return el


def _escape_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def pipe_table(rows: list[list[str]]) -> Table:
    """A pipe table from rows of cell texts; the first row is the header, short rows are padded."""
    width = max(len(row) for row in rows)
    lines = [
        "| " + " | ".join([_escape_cell(c) for c in row] + [""] * (width - len(row))) + " |"
        for row in rows
    ]
    separator = "|" + "---|" * width
    return Table(lines[0], separator, tuple(lines[1:]), "\n".join([lines[0], separator, *lines[1:]]))


def _relationships(pkg: SafeZip, part: str) -> dict[str, str]:
    """rId -> member name for a part's ``_rels`` file (targets resolved against the part's folder)."""
    folder, base = posixpath.split(part)
    rels_name = posixpath.join(folder, "_rels", base + ".rels")
    if not pkg.has(rels_name):
        return {}
    out: dict[str, str] = {}
    for rel in pkg.xml(rels_name):
        rid, target = _attr(rel, "Id"), _attr(rel, "Target")
        if not rid or not target or _attr(rel, "TargetMode") == "External":
            continue
        path = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
        out[rid] = posixpath.normpath(path)
    return out


def _main_part(pkg: SafeZip, default: str) -> str:
    """The package's main part: the officeDocument relationship of ``_rels/.rels``, else the default."""
    if pkg.has("_rels/.rels"):
        for rel in pkg.xml("_rels/.rels"):
            target = _attr(rel, "Target") or ""
            if (_attr(rel, "Type") or "").endswith("/officeDocument") and pkg.has(target.lstrip("/")):
                return target.lstrip("/")
    if not pkg.has(default):
        raise ParseError(f"missing {default}")
    return default


# --- docx ------------------------------------------------------------------------------------


def _docx_text(el: Element) -> str:
    """Visible text of a paragraph or cell, in order: runs, tabs and breaks; deleted and moved-out
    text, field instructions and AlternateContent fallbacks left out."""
    parts: list[str] = []

    def walk(node: Element) -> None:
        for sub in node:
            name = _local(sub.tag)
            if name in ("pPr", "rPr", "del", "moveFrom", "Fallback", "instrText", "delText"):
                continue
            if name == "t":
                parts.append(sub.text or "")
            elif name == "tab":
                parts.append("\t")
            elif name in ("br", "cr"):
                parts.append("\n")
            elif name == "noBreakHyphen":
                parts.append("-")
            elif name == "p" and parts and parts[-1] != "\n":
                parts.append("\n")  # a paragraph nested in a text box or cell
                walk(sub)
                continue
            else:
                walk(sub)

    walk(el)
    return "".join(parts).strip()


class _DocxStyles:
    """Heading levels and list formats from ``styles.xml`` and ``numbering.xml``."""

    def __init__(self, pkg: SafeZip, rels: dict[str, str]):
        self.based_on: dict[str, str] = {}
        self.names: dict[str, str] = {}
        styles = next((p for p in rels.values() if p.endswith("styles.xml") and "Effects" not in p), "word/styles.xml")
        if pkg.has(styles):
            for style in pkg.xml(styles):
                sid = _attr(style, "styleId")
                if not sid:
                    continue
                self.names[sid] = (_attr(_child(style, "name"), "val") or "").strip().lower()
                base = _attr(_child(style, "basedOn"), "val")
                if base:
                    self.based_on[sid] = base
        self.ordered: dict[tuple[str, str], bool] = {}
        numbering = next((p for p in rels.values() if p.endswith("numbering.xml")), "word/numbering.xml")
        if pkg.has(numbering):
            root = pkg.xml(numbering)
            abstract: dict[str, dict[str, bool]] = {}
            for node in _children(root, "abstractNum"):
                levels = {}
                for lvl in _children(node, "lvl"):
                    fmt = _attr(_child(lvl, "numFmt"), "val") or ""
                    levels[_attr(lvl, "ilvl") or "0"] = fmt not in _ORDERED_NOT
                abstract[_attr(node, "abstractNumId") or ""] = levels
            for num in _children(root, "num"):
                levels = abstract.get(_attr(_child(num, "abstractNumId"), "val") or "", {})
                for ilvl, ordered in levels.items():
                    self.ordered[(_attr(num, "numId") or "", ilvl)] = ordered

    def heading_level(self, style_id: str) -> int | None:
        seen: set[str] = set()
        sid: str | None = style_id
        while sid and sid not in seen:
            seen.add(sid)
            for candidate in (sid, self.names.get(sid, "")):
                match = _HEADING_ID.match(candidate)
                if match:
                    return min(int(match.group(1)), MAX_HEADING_LEVEL)
                if candidate.lower() == "title":
                    return 1
            sid = self.based_on.get(sid)
        return None


def _docx_table(tbl: Element) -> Table | None:
    rows: list[list[str]] = []
    for tr in _children(tbl, "tr"):
        row: list[str] = []
        for tc in _children(tr, "tc"):
            texts = [_docx_text(p) for p in tc.iter() if _local(p.tag) == "p"]
            row.append(" ".join(t for t in texts if t))
            span = _attr(_find(tc, "tcPr", "gridSpan"), "val")
            if span and span.isdigit():
                row.extend([""] * (min(int(span), 64) - 1))
        if row:
            rows.append(row)
    return pipe_table(rows) if rows else None


def parse_docx(data: bytes, stem: str) -> ParsedDocument:
    pkg = SafeZip(data)
    if not pkg.has("word/document.xml") and not pkg.has("_rels/.rels"):
        raise ParseError("missing word/document.xml")
    part = _main_part(pkg, "word/document.xml")
    rels = _relationships(pkg, part)
    styles = _DocxStyles(pkg, rels)
    body = _child(pkg.xml(part), "body")
    blocks: list[Block] = []
    items: list[str] = []
    counters: dict[tuple[str, str], int] = {}

    def flush() -> None:
        if items:
            blocks.append(ListBlock("\n".join(items)))
            items.clear()
        counters.clear()

    def paragraph(p: Element) -> None:
        text = _docx_text(p)
        if not text:
            return  # empty paragraphs neither make blocks nor break a list
        ppr = _child(p, "pPr")
        style = _attr(_child(ppr, "pStyle"), "val")
        level = styles.heading_level(style) if style else None
        outline = _attr(_child(ppr, "outlineLvl"), "val")
        if level is None and outline and outline.isdigit() and int(outline) < 9:
            level = min(int(outline) + 1, MAX_HEADING_LEVEL)
        num_pr = _child(ppr, "numPr")
        num_id = _attr(_child(num_pr, "numId"), "val")
        if level is None and num_id and num_id != "0":
            ilvl = _attr(_child(num_pr, "ilvl"), "val") or "0"
            depth = int(ilvl) if ilvl.isdigit() else 0
            for key in [k for k in counters if k[0] == num_id and int(k[1]) > depth]:
                del counters[key]
            if styles.ordered.get((num_id, ilvl)):
                counters[(num_id, ilvl)] = counters.get((num_id, ilvl), 0) + 1
                marker = f"{counters[(num_id, ilvl)]}."
            else:
                marker = "-"
            items.append("  " * min(depth, 8) + marker + " " + " ".join(text.split()))
            return
        flush()
        if level is not None:
            blocks.append(Heading(level, " ".join(text.split())))
        else:
            blocks.append(Paragraph(text))

    def walk(container: Element) -> None:
        for el in container:
            name = _local(el.tag)
            if name == "p":
                paragraph(el)
            elif name == "tbl":
                table = _docx_table(el)
                if table is not None:
                    flush()
                    blocks.append(table)
            elif name in ("sdt", "sdtContent", "customXml", "ins", "smartTag"):
                walk(el)

    if body is not None:
        walk(body)
    flush()
    title = next((b.text for b in blocks if isinstance(b, Heading) and b.level == 1), stem)
    return ParsedDocument(title=title, blocks=blocks)


# --- xlsx ------------------------------------------------------------------------------------


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
        name = _local(sub.tag)
        if name == "t":
            parts.append(sub.text or "")
        elif name == "r":
            parts.extend(t.text or "" for t in sub if _local(t.tag) == "t")
    return "".join(parts)


def _cell_value(c: Element, shared: list[str]) -> str:
    kind = _attr(c, "t") or "n"
    if kind == "inlineStr":
        inline = _child(c, "is")
        return _string_item(inline) if inline is not None else ""
    v = _child(c, "v")
    raw = (v.text or "") if v is not None else ""
    if kind == "s":
        try:
            return shared[int(raw)]
        except (ValueError, IndexError):
            return ""
    if kind == "b":
        return {"1": "TRUE", "0": "FALSE"}.get(raw.strip(), raw)
    return raw  # numbers exactly as cached (48.00 stays 48.00), errors, str and dates too


def _sheet_rows(root: Element, shared: list[str]) -> list[list[str]]:
    data = _child(root, "sheetData")
    rows: list[tuple[int, list[str]]] = []
    row_no = 0
    for row in _children(data, "row") if data is not None else []:
        r = _attr(row, "r")
        row_no = int(r) if r and r.isdigit() else row_no + 1
        cells: dict[int, str] = {}
        col = -1
        for c in _children(row, "c"):
            index = _column_index(_attr(c, "r"))
            col = index if index is not None else col + 1
            value = _cell_value(c, shared)
            if value.strip() and col < 16384:
                cells[col] = value
        if cells:
            line = [""] * (max(cells) + 1)
            for index, value in cells.items():
                line[index] = value
            rows.append((row_no, line))
    rows.sort(key=lambda item: item[0])
    return [line for _, line in rows]


def parse_xlsx(data: bytes, stem: str) -> ParsedDocument:
    pkg = SafeZip(data)
    if not pkg.has("xl/workbook.xml") and not pkg.has("_rels/.rels"):
        raise ParseError("missing xl/workbook.xml")
    part = _main_part(pkg, "xl/workbook.xml")
    rels = _relationships(pkg, part)
    shared_part = next((p for p in rels.values() if p.endswith("sharedStrings.xml")), "xl/sharedStrings.xml")
    shared = [_string_item(si) for si in pkg.xml(shared_part)] if pkg.has(shared_part) else []
    blocks: list[Block] = [Heading(1, stem)]
    sheets = _child(pkg.xml(part), "sheets")
    for position, sheet in enumerate(_children(sheets, "sheet") if sheets is not None else [], 1):
        name = _attr(sheet, "name") or f"Sheet{position}"
        blocks.append(Heading(2, name))
        target = rels.get(_rid(sheet), f"xl/worksheets/sheet{position}.xml")
        if not pkg.has(target):
            continue
        rows = _sheet_rows(pkg.xml(target), shared)
        if rows:
            blocks.append(pipe_table(rows))
    return ParsedDocument(title=stem, blocks=blocks)


# --- pptx ------------------------------------------------------------------------------------


def _slide_order(pkg: SafeZip) -> list[str]:
    """Slide parts in presentation order (``sldIdLst``), else slideN.xml by number."""
    if pkg.has("ppt/presentation.xml"):
        rels = _relationships(pkg, "ppt/presentation.xml")
        id_list = _child(pkg.xml("ppt/presentation.xml"), "sldIdLst")
        ordered = [rels.get(_rid(s), "") for s in _children(id_list, "sldId")] if id_list is not None else []
        ordered = [p for p in ordered if p and pkg.has(p)]
        if ordered:
            return ordered
    numbered = []
    for name in pkg.names():
        match = re.fullmatch(r"ppt/slides/slide(\d+)\.xml", name)
        if match:
            numbered.append((int(match.group(1)), name))
    return [name for _, name in sorted(numbered)]


def _pptx_paragraph(p: Element) -> str:
    parts: list[str] = []
    for sub in p:
        name = _local(sub.tag)
        if name in ("r", "fld"):
            parts.extend(t.text or "" for t in sub if _local(t.tag) == "t")
        elif name == "br":
            parts.append("\n")
    return "".join(parts).strip()


def _slide_content(root: Element) -> tuple[str | None, list[Block]]:
    title: str | None = None
    blocks: list[Block] = []
    lines: list[tuple[int, str]] = []

    def flush() -> None:
        if len(lines) == 1:
            blocks.append(Paragraph(lines[0][1]))
        elif lines:
            blocks.append(ListBlock("\n".join("  " * lvl + "- " + " ".join(t.split()) for lvl, t in lines)))
        lines.clear()

    def walk(tree: Element) -> None:
        nonlocal title
        for shape in tree:
            name = _local(shape.tag)
            if name == "grpSp":
                walk(shape)
            elif name == "sp":
                body = _child(shape, "txBody")
                if body is None:
                    continue
                paras = [(p, _pptx_paragraph(p)) for p in _children(body, "p")]
                ph = _attr(_find(shape, "nvSpPr", "nvPr", "ph"), "type")
                if ph in ("title", "ctrTitle") and title is None:
                    title = " ".join(" ".join(t for _, t in paras).split()) or None
                    continue
                for p, text in paras:
                    if text:
                        lvl = _attr(_child(p, "pPr"), "lvl") or "0"
                        lines.append((min(int(lvl), 8) if lvl.isdigit() else 0, text))
            elif name == "graphicFrame":
                tbl = next((el for el in shape.iter() if _local(el.tag) == "tbl"), None)
                rows = [
                    [" ".join(_pptx_paragraph(p) for p in tc.iter() if _local(p.tag) == "p") for tc in _children(tr, "tc")]
                    for tr in (_children(tbl, "tr") if tbl is not None else [])
                ]
                rows = [row for row in rows if row]
                if rows:
                    flush()
                    blocks.append(pipe_table(rows))

    tree = _find(root, "cSld", "spTree")
    if tree is not None:
        walk(tree)
    flush()
    return title, blocks


def parse_pptx(data: bytes, stem: str) -> ParsedDocument:
    pkg = SafeZip(data)
    slides = _slide_order(pkg)
    if not slides and not pkg.has("ppt/presentation.xml"):
        raise ParseError("missing ppt/presentation.xml and ppt/slides")
    blocks: list[Block] = []
    doc_title = stem
    for number, part in enumerate(slides, 1):
        title, content = _slide_content(pkg.xml(part))
        if number == 1 and title:
            doc_title = title
            blocks.append(Heading(1, title))
        blocks.append(Heading(2, f"Slide {number}: {title}" if title else f"Slide {number}"))
        blocks.extend(content)
    return ParsedDocument(title=doc_title, blocks=blocks)
