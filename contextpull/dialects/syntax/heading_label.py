"""A heading's name in the page's table of contents, where the generator gives one that is not the
heading's text (issue 37).

Python-Markdown's toc extension reads ``data-toc-label`` from a heading's attribute list, and mkdocs
authors write it to give a long heading a short entry: ``## A long title { data-toc-label="Short" }``.
The API pages read from source write it too: a site heads a documented object with its dotted
path (``fastapi.HTTPException``) and names it in its table of contents by its name alone
(mkdocstrings' ``toc_label``; Sphinx's entry drops the module).

The section keeps the heading as the page shows it; the heading path, the page's breadcrumbs, takes
the label. The list travels to the shared parser at the end of the heading's text, and the blocks
a dialect's Markdown is parsed into take it as the label, once (``markdown_blocks``), for the
generators whose row says their headings carry one (``registry.Dialect.toc_labels``). That matters for search: the store's tokenizer keeps ``.`` inside words, so
``fastapi.HTTPException`` is one token that a search for ``HTTPException`` never meets.
"""

from __future__ import annotations

from ...parsing.blocks import Heading
from . import attributes

ATTRIBUTE = "data-toc-label"


def split(text: str) -> tuple[str, str, str | None]:
    """(the heading text before a closing attribute list that names a label, that list as written,
    the label); ``(text, "", None)`` when the text ends in no such list. A text without the
    attribute's name is not read: 1,105 of fastapi's headings end with an ``{ #id }``."""
    if ATTRIBUTE not in text:
        return text, "", None
    found = attributes.trailing(text)
    if found is None or found.start == 0 or ATTRIBUTE not in found.pairs:
        return text, "", None
    return text[: found.start].rstrip(), text[found.start : found.end], found.pairs[ATTRIBUTE].strip()


def label_headings(blocks) -> None:
    """Each heading whose text ends in an attribute list naming a label: the text without the
    list, the label its own (in place)."""
    for block in blocks:
        if isinstance(block, Heading) and block.text.rstrip().endswith("}"):
            text, _, label = split(block.text)
            if label is not None:
                block.text, block.label = text, label
