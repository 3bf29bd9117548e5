"""Markdown read for a dialect: wherever a generator's Markdown becomes blocks (a page, after its
``prepare``; a Markdown file an rst page includes; the API Markdown autodoc renders into one), it
goes through the shared parser and then, here once, through what a renderer does to all of it:

- link reference definitions, which no renderer shows, gone and their links written inline
  (``syntax/link_definitions``), and the backslash of a hard line break (``markup.hard_breaks``),
  whichever generator;
- a heading's ``data-toc-label`` list made its label where the row says the generator's headings
  carry one (``registry.Dialect.toc_labels``, ``syntax/heading_label``).

Inside an rst page the blocks are flattened into a list item's or a table cell's text before the
page is finished, so this cannot wait for a finish hook. Blocks a hook read another way (MyST's
``eval-rst``, spliced in by ``embedded``) are not Markdown and are not read here. ``plain``'s
Markdown pages never come here: they are the published parser's reading alone.
"""

from __future__ import annotations

from ..parsing.blocks import ParsedDocument
from ..parsing.parse_markdown import parse_markdown
from .registry import NAMES, dialect
from .syntax import link_definitions
from .syntax.heading_label import label_headings
from .syntax.markup import hard_breaks


def parse(text: str, stem: str, ctx) -> ParsedDocument:
    """``text`` parsed by the shared parser as ``ctx``'s dialect reads it (module docstring)."""
    parsed = parse_markdown(text, stem)
    blocks = hard_breaks(link_definitions.drop(parsed.blocks, ctx.note))
    if ctx.site.dialect in NAMES and dialect(ctx.site.dialect).toc_labels:
        label_headings(blocks)
    return ParsedDocument(parsed.title, blocks)
