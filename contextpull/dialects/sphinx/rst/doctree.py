"""A docutils doctree as the shared block stream (issue 26, "Formats": rst).

``raw`` and ``text`` are what lands in ``sections.text``, so each block is written as the
Markdown a reader would write for what the page shows: sections as headings at the depth docutils
gave them, paragraphs as their text (inline code in backticks, links as their text), lists as
``- item`` lines, tables as pipe tables, literal blocks as fenced code in their language,
admonitions as "Label: body". What the page does not show (comments, targets, substitution
definitions, images, system messages) yields nothing.
"""

from __future__ import annotations

import re

from docutils import nodes

from ...syntax.labels import sphinx_alone, sphinx_title
from ..myst.lines import fence
from ..directive_names import info_fields
from .directives import HIGHLIGHT, INFO_FIELDS, MARKDOWN, OBJECT
from .roles import REF_LABEL, REF_LINE
from ....parsing.blocks import Block, Code, Heading, ListBlock, Paragraph, Table, MAX_HEADING_LEVEL

# What is not on the rendered page.
_SILENT = (
    nodes.comment, nodes.target, nodes.substitution_definition, nodes.pending,
    nodes.system_message, nodes.raw, nodes.image, nodes.meta, nodes.decoration, nodes.docinfo,
    nodes.transition,
)


# The rst markup a problematic node (a role or reference docutils could not finish) still shows.
# A role's name is at most 64 characters, as in ``rst.lines``: each ``:`` of a run is tried a
# bounded amount, where an unbounded name ran each one to the end of the run.
_ROLE = re.compile(r":[\w.:+-]{1,64}:(?=`)")
_TARGET = re.compile(r"`([^`<]*?)\s*<[^<>`]*>`_{0,2}|`([^`]*)`_{0,2}")


def to_blocks(document: nodes.document, state) -> tuple[str, list[Block]]:
    """(first heading's text, blocks) for a parsed document."""
    walker = _Walker(state)
    _resolve_refs(document, state)
    text_seen = False
    for child in document.children:
        # A field list before any text is page metadata to Sphinx (":orphan:", ":tocdepth:").
        if not text_seen and isinstance(child, nodes.field_list):
            continue
        text_seen = text_seen or not isinstance(child, _SILENT)
        walker.block(child, 1)
    # An object's heading is no section: Sphinx titles a page by its first section alone.
    title = next((b.text for b in walker.out if isinstance(b, Heading) and id(b) not in walker.objects), "")
    return title, walker.out


class _Walker:
    def __init__(self, state) -> None:
        self.state = state
        self.out: list[Block] = []
        self.objects: set[int] = set()  # the ids of the headings object descriptions made

    # ---- blocks -------------------------------------------------------------------------
    def block(self, node: nodes.Node, level: int) -> None:
        out = self.out
        if isinstance(node, nodes.section):
            title = node.next_node(nodes.title)
            out.append(Heading(min(level, MAX_HEADING_LEVEL), inline(title) if title else ""))
            for child in node.children:
                if child is not title:
                    self.block(child, level + 1)
        elif isinstance(node, _SILENT):
            if isinstance(node, nodes.comment) and HIGHLIGHT in node.attributes:
                self.state.highlight = node[HIGHLIGHT]
        elif isinstance(node, (nodes.paragraph, nodes.rubric, nodes.caption)):
            self.paragraph(inline(node))
        elif isinstance(node, (nodes.literal_block, nodes.doctest_block)):
            out.append(code_block(node, self.state))
        elif isinstance(node, nodes.field_list) and INFO_FIELDS in node.attributes:
            fields = [self.term_and_body(item) for item in node.children]
            out.extend(ListBlock(b) if b.startswith("- ") else Paragraph(b) for b in info_fields(fields))
        elif isinstance(node, (nodes.bullet_list, nodes.enumerated_list, nodes.definition_list,
                               nodes.field_list, nodes.option_list)):
            text = self.list_text(node)
            if text:
                out.append(ListBlock(text))
        elif isinstance(node, nodes.table):
            self.table(node)
        elif isinstance(node, nodes.Admonition):
            self.admonition(node, level)
        elif isinstance(node, (nodes.topic, nodes.sidebar)):
            title = node.next_node(nodes.title)
            self.labelled(inline(title) if title else "", [c for c in node.children
                                                           if c is not title], level, node)
        elif isinstance(node, nodes.line_block):
            self.paragraph("\n".join(inline(line) for line in node.findall(nodes.line)))
        elif isinstance(node, nodes.attribution):
            self.paragraph(f"— {inline(node)}")
        elif isinstance(node, (nodes.footnote, nodes.citation)):
            label = node.next_node(nodes.label)
            text = self.text_of([c for c in node.children if c is not label], level)
            self.paragraph(f"[{label.astext() if label else ''}] {text}".strip())
        elif isinstance(node, nodes.math_block):
            self.paragraph(node.astext())
        elif isinstance(node, nodes.title):
            self.paragraph(inline(node))
        elif isinstance(node, nodes.container) and OBJECT in node.attributes:
            name, label = node[OBJECT]  # a section of its own, as the table of contents lists it
            out.append(Heading(min(max(level, 2), MAX_HEADING_LEVEL), name, label))  # never the title's level
            self.objects.add(id(out[-1]))
            for child in node.children:
                self.block(child, level + 1)
        elif isinstance(node, nodes.container) and MARKDOWN in node.attributes:
            for block in node[MARKDOWN]:  # an included Markdown file: its headings nest here
                if isinstance(block, Heading):
                    block = Heading(min(level + block.level - 1, MAX_HEADING_LEVEL), block.text, block.label)
                out.append(block)
        elif isinstance(node, nodes.Element):
            if isinstance(node, nodes.TextElement) and not node.next_node(nodes.Structural):
                self.paragraph(inline(node))
            else:
                for child in node.children:
                    self.block(child, level)
        elif isinstance(node, nodes.Text):
            self.paragraph(node.astext())

    def paragraph(self, text: str) -> None:
        text = text.strip()
        if text:
            self.out.append(Paragraph(text))

    def admonition(self, node: nodes.Element, level: int) -> None:
        title = node.children[0] if node.children and isinstance(node.children[0], nodes.title) else None
        if title is not None:
            label = inline(title)
        else:
            label = sphinx_title(node.tagname)
        self.labelled(label, [c for c in node.children if c is not title], level, node)

    def labelled(self, label: str, body: list[nodes.Node], level: int, node) -> None:
        """"Label: first paragraph", then the rest; the label alone when the body starts with
        something that is not a paragraph, or ends with a period when there is no body."""
        if "contextpull-noted" not in node.get("classes", ()):
            self.state.note("rst admonition", "converted", node.source, _line(node))
        start = len(self.out)
        for child in body:
            self.block(child, level)
        if not label:
            return
        first = self.out[start] if len(self.out) > start else None
        if isinstance(first, Paragraph):
            first.text = f"{label}: {first.text}"
        elif first is None:
            self.out.append(Paragraph(sphinx_alone(label)))
        else:
            self.out.insert(start, Paragraph(f"{label}:"))

    def text_of(self, children: list[nodes.Node], level: int) -> str:
        """Blocks rendered as text, for a list item or a table cell."""
        sub = _Walker(self.state)
        for child in children:
            sub.block(child, level)
        return "\n\n".join(block_text(b) for b in sub.out)

    def list_text(self, node: nodes.Element) -> str:
        items: list[str] = []
        if isinstance(node, nodes.enumerated_list):
            start = node.get("start", 1)
            for n, item in enumerate(node.children, start):
                items.append(_item(f"{n}.", self.text_of(item.children, 1)))
        elif isinstance(node, nodes.bullet_list):
            for item in node.children:
                items.append(_item("-", self.text_of(item.children, 1)))
        else:  # definition, field and option lists: "- term: definition"
            for item in node.children:
                head, body = self.term_and_body(item)
                text = f"{head}: {body}" if body and "\n" not in body else f"{head}\n{body}"
                items.append(_item("-", text.strip()))
        return "\n".join(i for i in items if i.strip() != "-")

    def term_and_body(self, item: nodes.Element) -> tuple[str, str]:
        heads, rest = [], []
        for child in item.children:
            if isinstance(child, (nodes.term, nodes.field_name, nodes.option_group,
                                  nodes.classifier)):
                heads.append(inline(child))
            elif isinstance(child, (nodes.definition, nodes.field_body, nodes.description)):
                rest.extend(child.children)
        return " : ".join(h for h in heads if h), self.text_of(rest, 1)

    def table(self, node: nodes.table) -> None:
        title = node.next_node(nodes.title)
        if title is not None and title.parent is node:
            self.paragraph(inline(title))
        rows: list[list[str]] = []
        header_rows = 0
        for part in node.findall(lambda n: isinstance(n, (nodes.thead, nodes.tbody))):
            for row in part.children:
                if isinstance(row, nodes.row):
                    rows.append([_cell(self.text_of(e.children, 1)) for e in row.children])
            if isinstance(part, nodes.thead):
                header_rows = len(rows)
        if not rows:
            return
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        if header_rows == 0:
            header, body = [""] * width, rows
        else:
            # Several header rows read as one: their cells joined per column.
            header = [" ".join(c for c in col if c) for col in zip(*rows[:header_rows])]
            body = rows[header_rows:]
        header_line = "| " + " | ".join(header) + " |"
        separator = "|" + "|".join("---" for _ in header) + "|"
        lines = tuple("| " + " | ".join(r) + " |" for r in body)
        self.out.append(Table(header_line, separator, lines, "\n".join((header_line, separator, *lines))))


def _resolve_refs(document: nodes.document, state) -> None:
    """A ``:ref:`label``` shows the title of the section the label names: in this document
    (docutils has moved the label's id onto the section by now), else from the site's label
    table (``xrefs/labels.py``), which also makes the label a dependency of this document."""
    from ..xrefs.labels import external, resolve

    for ref in document.findall(lambda n: isinstance(n, nodes.inline) and REF_LABEL in n.attributes):
        name, line = ref[REF_LABEL], ref.get(REF_LINE, 0)
        if external(name, state.config):
            state.ctx.note("rst ref", "converted", line, f"{name}: another project's (intersphinx)")
            continue
        key = nodes.fully_normalize_name(name)
        target_id = document.nameids.get(key) if document.nametypes.get(key) else None
        section = document.ids.get(target_id) if target_id else None
        title = section.next_node(nodes.title) if isinstance(section, nodes.section) else None
        if title is not None:
            shown = " ".join(title.astext().split())  # plain, as Sphinx's clean_astext
            state.ctx.note("rst ref", "resolved", line, name)
        else:
            shown = resolve(state.ctx, "rst ref", state.source_dir, name, line, state.labels)
        if shown is not None:
            ref.children = []
            ref += nodes.Text(shown)


def _line(node: nodes.Node) -> int:
    for n in node.findall(include_self=True):
        if getattr(n, "line", None):
            return n.line
    return 0


def _item(marker: str, text: str) -> str:
    lines = text.split("\n")
    pad = " " * (len(marker) + 1)
    return "\n".join([f"{marker} {lines[0]}".rstrip()] + [f"{pad}{l}".rstrip() for l in lines[1:]])


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def block_text(block: Block) -> str:
    if isinstance(block, Heading):
        return block.text
    if isinstance(block, Paragraph):
        return block.text
    return block.raw


def code_block(node: nodes.Element, state) -> Code:
    """Fenced code in the language docutils or ``highlight`` gave it."""
    if isinstance(node, nodes.doctest_block):
        language = "pycon"
    elif "language" in node.attributes:
        language = node["language"] or ""
    else:
        classes = [c for c in node.get("classes", []) if c != "code"]
        language = classes[0] if classes else state.highlight
    if language in ("none", "default"):
        language = "" if language == "none" else "python"
    return Code(language, "\n".join(fence(node.astext().rstrip("\n"), language)))


def inline(node: nodes.Node) -> str:
    """A text element as the page shows it: code in backticks, links and roles as their text."""
    parts: list[str] = []
    _inline(node, parts)
    return "".join(parts).strip()


def _inline(node: nodes.Node, parts: list[str]) -> None:
    for child in node.children:
        if isinstance(child, nodes.Text):
            parts.append(child.astext())
        elif isinstance(child, nodes.literal):
            parts.append(_code_span(child.astext()))
        elif isinstance(child, nodes.problematic):
            parts.append(reduce_markup(child.astext()))
        elif isinstance(child, (nodes.footnote_reference, nodes.citation_reference)):
            parts.append(f"[{child.astext()}]")
        elif isinstance(child, (nodes.image, nodes.raw, nodes.system_message, nodes.target)
                        ) and not child.children:
            continue
        elif isinstance(child, (nodes.system_message, nodes.substitution_definition, nodes.comment)):
            continue
        elif isinstance(child, nodes.Element):
            _inline(child, parts)


def _code_span(text: str) -> str:
    if "`" not in text:
        return f"`{text}`"
    return f"`` {text} ``"


def reduce_markup(raw: str) -> str:
    """The text of rst inline markup docutils left unfinished: ``:x:`a <b>``` reads "a"."""
    text = _ROLE.sub("", raw)
    text = _TARGET.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    return text.strip("`") if text.count("`") == 1 else text
