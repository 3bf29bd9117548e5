"""docx into the block stream, with the standard library only (system-design.txt section 3,
"Parse", the Office Open XML bullet; issue 7).

Heading styles (``Heading1``..``Heading9``, ``Title``, or any style whose name in
``word/styles.xml`` is "heading N", directly or through ``basedOn``) become headings; numbered
paragraphs (``w:numPr``) become list items, ``1. `` for ordered formats in ``word/numbering.xml``
and ``- `` otherwise; tables become pipe tables; the title is the first level-1 heading, else the
file stem. Images, charts and embedded objects are ignored. Package navigation is in ``ooxml``;
every byte is read through ``safezip`` (size caps, DTD refusal). Anything unusable raises
``ParseError`` with the reason the user will see.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from .blocks import MAX_HEADING_LEVEL, Block, Heading, ListBlock, Paragraph, ParsedDocument, Table
from .ooxml import attr, child, children, find, local, open_package, pipe_table, refuse_deep_nesting
from .safezip import SafeZip

_ORDERED_NOT = {"bullet", "none", ""}
_HEADING_ID = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)


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


@refuse_deep_nesting
def parse_docx(data: bytes, stem: str) -> ParsedDocument:
    pkg, part, rels = open_package(data, "word/document.xml")
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
