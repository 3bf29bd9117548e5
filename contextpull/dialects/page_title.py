"""The title a page takes from its generator's navigation (issue 35, "each mechanism exists
once"): one rule for every dialect, asked by the read dispatch (``read._markdown``) after the
dialect's ``finish``; what it gives is the ``nav`` of the generic title rule (``read.finish``).

In order:

1. front matter ``title`` (as one line of text, ``data.front_matter.scalar``): the page names
   itself, and the navigation is not asked (the generic rule takes the title from there);
2. a name the page's front matter gives its navigation entry that the generator shows over the
   page's own H1 (``SiteReader.label_title``: Starlight's ``sidebar.label``, whose layout draws
   the title and whose pages carry no H1; Mintlify's ``sidebarTitle``);
3. the page's own H1: what its reader sees above it, so no navigation name replaces it;
4. the name the generator's navigation gives a page that shows no H1
   (``SiteReader.nav_title``: mkdocs' ``nav``, mdBook's and GitBook's ``SUMMARY.md``, Nextra's
   ``_meta``, VitePress's sidebar and nav, Mintlify's group ``root`` or OpenAPI operation,
   Docusaurus's ``sidebar_label``).

None leaves the rest of the generic rule: the first heading of any level, else the file stem.
The hooks make their own construct notes (``sidebar title``, ``nextra _meta title``): each
names where its generator keeps the name.
"""

from __future__ import annotations

from ..parsing.blocks import Heading, ParsedDocument
from .data.front_matter import scalar


def shows_h1(doc: ParsedDocument) -> bool:
    """Whether the page shows an H1 with text: its own title, as its reader sees it."""
    return any(isinstance(b, Heading) and b.level == 1 and b.text.strip() for b in doc.blocks)


def navigation_title(reader, parsed: ParsedDocument, ctx) -> str | None:
    """The title the rule (module docstring) takes from ``reader``'s hooks, or None."""
    if scalar((ctx.front_matter or {}).get("title")):
        return None
    label = reader.label_title(ctx)
    if label:
        return label
    if shows_h1(parsed):
        return None
    return reader.nav_title(ctx) or None
