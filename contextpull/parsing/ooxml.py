"""Reading Office Open XML packages (system-design.txt section 3, "Parse", the Office bullet).

What docx, xlsx and pptx share: elements and attributes looked up by local name (so the "strict"
OOXML namespaces read like the transitional ones), relationship files resolved to member names,
the package's main part, and rows of cell text rendered as a pipe-table block. Package bytes are
read through ``safezip`` only, and each format's parser is guarded against XML nested deeper
than Python's stack.
"""

from __future__ import annotations

import functools
import posixpath
from xml.etree.ElementTree import Element

from .blocks import ParsedDocument, ParseError, Table
from .safezip import SafeZip


def local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def attr(el: Element | None, name: str) -> str | None:
    """An attribute by local name, whatever its namespace prefix."""
    if el is None:
        return None
    for key, value in el.attrib.items():
        if local(key) == name:
            return value
    return None


def rid(el: Element) -> str:
    """The relationship id (``r:id``): the namespaced ``id``, not the element's own ``id``."""
    return next((v for k, v in el.attrib.items() if k.startswith("{") and local(k) == "id"), "")


def child(el: Element | None, name: str) -> Element | None:
    if el is None:
        return None
    for sub in el:
        if local(sub.tag) == name:
            return sub
    return None


def children(el: Element, name: str) -> list[Element]:
    return [sub for sub in el if local(sub.tag) == name]


def find(el: Element, *path: str) -> Element | None:
    for name in path:
        el = child(el, name)
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


def relationships(pkg: SafeZip, part: str) -> dict[str, str]:
    """rId -> member name for a part's ``_rels`` file (targets resolved against the part's folder)."""
    folder, base = posixpath.split(part)
    rels_name = posixpath.join(folder, "_rels", base + ".rels")
    if not pkg.has(rels_name):
        return {}
    out: dict[str, str] = {}
    for rel in pkg.xml(rels_name):
        rel_id, target = attr(rel, "Id"), attr(rel, "Target")
        if not rel_id or not target or attr(rel, "TargetMode") == "External":
            continue
        path = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
        out[rel_id] = posixpath.normpath(path)
    return out


def open_package(data: bytes, default_part: str) -> tuple[SafeZip, str, dict[str, str]]:
    """The package, its main part and that part's relationships. A zip with neither the
    format's usual main part nor a package relationships file is not a document of it."""
    pkg = SafeZip(data)
    if not pkg.has(default_part) and not pkg.has("_rels/.rels"):
        raise ParseError(f"missing {default_part}")
    part = main_part(pkg, default_part)
    return pkg, part, relationships(pkg, part)


def main_part(pkg: SafeZip, default: str) -> str:
    """The package's main part: the officeDocument relationship of ``_rels/.rels``, else the default."""
    if pkg.has("_rels/.rels"):
        for rel in pkg.xml("_rels/.rels"):
            target = attr(rel, "Target") or ""
            if (attr(rel, "Type") or "").endswith("/officeDocument") and pkg.has(target.lstrip("/")):
                return target.lstrip("/")
    if not pkg.has(default):
        raise ParseError(f"missing {default}")
    return default


def refuse_deep_nesting(parse):
    """Element walks recurse; XML nested deeper than Python's stack is a skip reason, not a crash."""

    @functools.wraps(parse)
    def guarded(data: bytes, stem: str) -> ParsedDocument:
        try:
            return parse(data, stem)
        except RecursionError:
            raise ParseError("XML nested too deeply") from None

    return guarded
