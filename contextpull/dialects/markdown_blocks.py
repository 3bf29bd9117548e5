"""Markdown read for a dialect: wherever a generator's Markdown becomes blocks (a page, after its
``prepare``; a Markdown file an rst page includes; the API Markdown autodoc renders into one), it
goes through the shared parser and then what the generator's renderer does to every heading of
it, here once: a heading's ``data-toc-label`` list becomes its label where the row says the
generator's headings carry one (``registry.Dialect.toc_labels``, ``syntax/heading_label``).

Inside an rst page the blocks are flattened into a list item's or a table cell's text before the
page is finished, so this cannot wait for a finish hook.
"""

from __future__ import annotations

from ..parsing.blocks import ParsedDocument
from ..parsing.parse_markdown import parse_markdown
from .registry import NAMES, dialect
from .syntax.heading_label import label_headings


def parse(text: str, stem: str, ctx) -> ParsedDocument:
    """``text`` parsed by the shared parser as ``ctx``'s dialect reads it (module docstring)."""
    parsed = parse_markdown(text, stem)
    if ctx.site.dialect in NAMES and dialect(ctx.site.dialect).toc_labels:
        label_headings(parsed.blocks)
    return parsed
