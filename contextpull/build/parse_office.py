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

Images, charts and embedded objects are ignored. Package navigation (local names, relationships,
pipe tables) is in ``ooxml``; every byte is read through ``safezip`` (size caps, DTD refusal).
Anything unusable raises ``ParseError`` with the reason the user will see.
"""

from __future__ import annotations

import functools
import re
from xml.etree.ElementTree import Element

from .blocks import Block, Heading, ListBlock, Paragraph, ParsedDocument, ParseError, Table
from .ooxml import attr, child, children, find, local, main_part, pipe_table, relationships, rid
from .safezip import SafeZip

_ORDERED_NOT = {"bullet", "none", ""}
_HEADING_ID = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_CELL_REF = re.compile(r"^([A-Za-z]{1,3})(\d*)$")
MAX_HEADING_LEVEL = 6


def _refuse_deep_nesting(parse):
    """Element walks recurse; XML nested deeper than Python's stack is a skip reason, not a crash."""

    @functools.wraps(parse)
    def guarded(data: bytes, stem: str) -> ParsedDocument:
        try:
            return parse(data, stem)
        except RecursionError:
            raise ParseError("XML nested too deeply") from None

    return guarded


# --- docx ------------------------------------------------------------------------------------


def _docx_text(el: Element) -> str:
    """Visible text of a paragraph or cell, in order: runs, tabs and breaks; deleted and moved-out
    text, field instructions and AlternateContent fallbacks left out."""
    parts: list[str] = []

    def walk(node: Element) -> None:
        for sub in node:
            name = local(sub.tag)
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
        self.numbering: dict[str, tuple[str, str]] = {}
        self.names: dict[str, str] = {}
        styles = next((p for p in rels.values() if p.endswith("styles.xml") and "Effects" not in p), "word/styles.xml")
        if pkg.has(styles):
            for style in pkg.xml(styles):
                sid = attr(style, "styleId")
                if not sid:
                    continue
                self.names[sid] = (attr(child(style, "name"), "val") or "").strip().lower()
                num_pr = find(style, "pPr", "numPr")
                if num_pr is not None:  # a list style ("List Bullet") numbers its paragraphs itself
                    self.numbering[sid] = (
                        attr(child(num_pr, "numId"), "val") or "",
                        attr(child(num_pr, "ilvl"), "val") or "0",
                    )
                base = attr(child(style, "basedOn"), "val")
                if base:
                    self.based_on[sid] = base
        self.ordered: dict[tuple[str, str], bool] = {}
        numbering = next((p for p in rels.values() if p.endswith("numbering.xml")), "word/numbering.xml")
        if pkg.has(numbering):
            root = pkg.xml(numbering)
            abstract: dict[str, dict[str, bool]] = {}
            for node in children(root, "abstractNum"):
                levels = {}
                for lvl in children(node, "lvl"):
                    fmt = attr(child(lvl, "numFmt"), "val") or ""
                    levels[attr(lvl, "ilvl") or "0"] = fmt not in _ORDERED_NOT
                abstract[attr(node, "abstractNumId") or ""] = levels
            for num in children(root, "num"):
                levels = abstract.get(attr(child(num, "abstractNumId"), "val") or "", {})
                for ilvl, ordered in levels.items():
                    self.ordered[(attr(num, "numId") or "", ilvl)] = ordered

    def list_numbering(self, style_id: str) -> tuple[str, str] | None:
        """(numId, ilvl) a paragraph style gives its paragraphs, directly or through basedOn."""
        seen: set[str] = set()
        sid: str | None = style_id
        while sid and sid not in seen:
            seen.add(sid)
            if sid in self.numbering:
                return self.numbering[sid]
            sid = self.based_on.get(sid)
        return None

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
    for tr in children(tbl, "tr"):
        row: list[str] = []
        for tc in children(tr, "tc"):
            texts = [_docx_text(p) for p in tc.iter() if local(p.tag) == "p"]
            row.append(" ".join(t for t in texts if t))
            span = attr(find(tc, "tcPr", "gridSpan"), "val")
            if span and span.isdigit():
                row.extend([""] * (min(int(span), 64) - 1))
        if row:
            rows.append(row)
    return pipe_table(rows) if rows else None


@_refuse_deep_nesting
def parse_docx(data: bytes, stem: str) -> ParsedDocument:
    pkg = SafeZip(data)
    if not pkg.has("word/document.xml") and not pkg.has("_rels/.rels"):
        raise ParseError("missing word/document.xml")
    part = main_part(pkg, "word/document.xml")
    rels = relationships(pkg, part)
    styles = _DocxStyles(pkg, rels)
    body = child(pkg.xml(part), "body")
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
        ppr = child(p, "pPr")
        style = attr(child(ppr, "pStyle"), "val")
        level = styles.heading_level(style) if style else None
        outline = attr(child(ppr, "outlineLvl"), "val")
        if level is None and outline and outline.isdigit() and int(outline) < 9:
            level = min(int(outline) + 1, MAX_HEADING_LEVEL)
        num_pr = child(ppr, "numPr")
        num_id = attr(child(num_pr, "numId"), "val")
        ilvl = attr(child(num_pr, "ilvl"), "val")
        inherited = styles.list_numbering(style) if style else None
        if inherited and num_pr is None:
            num_id, ilvl = inherited
        if level is None and num_id and num_id != "0":
            ilvl = ilvl or "0"
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
            name = local(el.tag)
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
            return shared[int(raw)]
        except (ValueError, IndexError):
            return ""
    if kind == "b":
        return {"1": "TRUE", "0": "FALSE"}.get(raw.strip(), raw)
    return raw  # numbers exactly as cached (48.00 stays 48.00), errors, str and dates too


def _sheet_rows(root: Element, shared: list[str]) -> list[list[str]]:
    data = child(root, "sheetData")
    rows: list[tuple[int, list[str]]] = []
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
            line = [""] * (max(cells) + 1)
            for index, value in cells.items():
                line[index] = value
            rows.append((row_no, line))
    rows.sort(key=lambda item: item[0])
    return [line for _, line in rows]


@_refuse_deep_nesting
def parse_xlsx(data: bytes, stem: str) -> ParsedDocument:
    pkg = SafeZip(data)
    if not pkg.has("xl/workbook.xml") and not pkg.has("_rels/.rels"):
        raise ParseError("missing xl/workbook.xml")
    part = main_part(pkg, "xl/workbook.xml")
    rels = relationships(pkg, part)
    shared_part = next((p for p in rels.values() if p.endswith("sharedStrings.xml")), "xl/sharedStrings.xml")
    shared = [_string_item(si) for si in pkg.xml(shared_part)] if pkg.has(shared_part) else []
    blocks: list[Block] = [Heading(1, stem)]
    sheets = child(pkg.xml(part), "sheets")
    for position, sheet in enumerate(children(sheets, "sheet") if sheets is not None else [], 1):
        target = rels.get(rid(sheet), f"xl/worksheets/sheet{position}.xml")
        if not pkg.has(target):
            continue  # declared but absent: nothing to show under its name
        blocks.append(Heading(2, attr(sheet, "name") or f"Sheet{position}"))
        rows = _sheet_rows(pkg.xml(target), shared)
        if rows:
            blocks.append(pipe_table(rows))
    return ParsedDocument(title=stem, blocks=blocks)


# --- pptx ------------------------------------------------------------------------------------


def _slide_order(pkg: SafeZip) -> list[str]:
    """Slide parts in presentation order (``sldIdLst``), else slideN.xml by number."""
    if pkg.has("ppt/presentation.xml"):
        rels = relationships(pkg, "ppt/presentation.xml")
        id_list = child(pkg.xml("ppt/presentation.xml"), "sldIdLst")
        ordered = [rels.get(rid(s), "") for s in children(id_list, "sldId")] if id_list is not None else []
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
        name = local(sub.tag)
        if name in ("r", "fld"):
            parts.extend(t.text or "" for t in sub if local(t.tag) == "t")
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
            name = local(shape.tag)
            if name == "grpSp":
                walk(shape)
            elif name == "sp":
                body = child(shape, "txBody")
                if body is None:
                    continue
                paras = [(p, _pptx_paragraph(p)) for p in children(body, "p")]
                ph = attr(find(shape, "nvSpPr", "nvPr", "ph"), "type")
                if ph in ("title", "ctrTitle") and title is None:
                    title = " ".join(" ".join(t for _, t in paras).split()) or None
                    continue
                for p, text in paras:
                    if text:
                        lvl = attr(child(p, "pPr"), "lvl") or "0"
                        lines.append((min(int(lvl), 8) if lvl.isdigit() else 0, text))
            elif name == "graphicFrame":
                tbl = next((el for el in shape.iter() if local(el.tag) == "tbl"), None)
                rows = [
                    [" ".join(_pptx_paragraph(p) for p in tc.iter() if local(p.tag) == "p") for tc in children(tr, "tc")]
                    for tr in (children(tbl, "tr") if tbl is not None else [])
                ]
                rows = [row for row in rows if row]
                if rows:
                    flush()
                    blocks.append(pipe_table(rows))

    tree = find(root, "cSld", "spTree")
    if tree is not None:
        walk(tree)
    flush()
    return title, blocks


@_refuse_deep_nesting
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
