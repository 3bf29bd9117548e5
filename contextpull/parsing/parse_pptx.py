"""pptx into the block stream, with the standard library only (system-design.txt section 3,
"Parse", the Office Open XML bullet; issue 7).

Slides in presentation order; each is a level-2 heading "Slide N: title" (or "Slide N") followed
by its text. The first slide's title is the document title and a level-1 heading. Images, charts
and embedded objects are ignored. Package navigation is in ``ooxml``; every byte is read through
``safezip``. Anything unusable raises ``ParseError`` with the reason the user will see.
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from .blocks import Block, Heading, ListBlock, Paragraph, ParsedDocument, ParseError
from .ooxml import attr, child, children, find, local, pipe_table, refuse_deep_nesting, relationships, rid
from .safezip import SafeZip


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
            # An item keeps its text as written, runs of spaces included, as the published writer
            # keeps it; only a line break (a:br) becomes a space, so an item stays one line and
            # the words on either side of the break stay apart (docs/differences.md).
            blocks.append(ListBlock("\n".join("  " * lvl + "- " + t.replace("\n", " ") for lvl, t in lines)))
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


@refuse_deep_nesting
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
