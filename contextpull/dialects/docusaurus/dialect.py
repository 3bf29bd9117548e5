"""The Docusaurus dialect (issue 26): what a Docusaurus site's pages show, beyond the MDX rules
every ``.md`` and ``.mdx`` of the site already went through (``mdx.prepare``, run by the read
dispatch because here the dialect, not the extension, says a ``.md`` carries JSX).

- ``prepare``: GitHub-style ``> [!NOTE]`` callouts as labelled text (``callouts``). Docusaurus
  itself draws them as a plain quote with the marker in it; the marker carries no text of its
  own and the label says the same, so an agent gets the meaning either way.
- ``nav_title``: the title (the shared rule, ``page_title``). The page's H1 is front matter ``title``, else its first ``#`` heading
  (the generic rule has both); ``sidebar_label`` names the page only in the navigation, so it is
  the title only of a page that shows none, where Docusaurus itself falls back to the file's id.
  ``hide_title`` hides the H1 but keeps the title; ``slug`` and ``id`` are addresses, not text.
- ``finish``: a code block's magic-comment lines (``// highlight-next-line``) go
  (``magic_comments``), as Docusaurus shows the block; then the blocks the configuration's
  remark plugins turn into tabs (``npm2yarn``, tab-blocks' ``tab``) read as those tabs
  (``code_tabs``).
- ``mdx-code-block`` fences: their content is MDX, read as if the fence were not there
  (``mdx.code_blocks``), as Docusaurus unwraps them.
- ``skip``: files and folders whose name starts with ``_`` are partials, which Docusaurus never
  renders as pages of their own (its docs plugin's default ``exclude``); they are read where a
  page imports them.
"""

from __future__ import annotations

from ...parsing.blocks import Code, ParsedDocument
from ..api import Context
from . import code_tabs, magic_comments
from ..site_reader import SiteReader
from ..syntax.callouts import callouts

NAME = "docusaurus"
MAGIC_COMMENT = "magic comment"
PARTIAL = "partial, included where a page imports it"


def prepare(text: str, ctx: Context) -> str:
    return callouts(text, ctx)


def nav_title(ctx: Context) -> str | None:
    """``sidebar_label`` as the title of a page without ``title`` or an H1 (module docstring;
    the rule that asks is ``page_title``)."""
    label = (ctx.front_matter or {}).get("sidebar_label")
    return (" ".join(label.split()) or None) if isinstance(label, str) else None


def skip(path: str, site=None) -> str | None:
    """Why the document at ``path`` (relative to DOCS) is not a page, or None when it is one
    (the ``dialects.pages`` hook)."""
    parts = path.replace("\\", "/").split("/")
    return PARTIAL if any(part.startswith("_") for part in parts) else None


class Reader(SiteReader):
    """docusaurus's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    prepare = staticmethod(prepare)
    nav_title = staticmethod(nav_title)
    mdx_code_blocks = True

    def finish(self, parsed: ParsedDocument, ctx: Context) -> ParsedDocument:
        """Code blocks without their magic-comment lines (``magic_comments``)."""
        names = self.once((__name__, "magic comments"), lambda: magic_comments.directives(self.config_text))
        for block in parsed.blocks:
            if isinstance(block, Code) and any(n in block.raw for n in names):
                kept = magic_comments.strip(block.raw, block.lang, names)
                if kept is not None:
                    removed = block.raw.count("\n") - kept.count("\n")
                    block.raw = kept
                    ctx.note(MAGIC_COMMENT, "converted", 0, f"{removed} lines")
        tabs = self.once((__name__, "code tabs"), lambda: code_tabs.plugins(self.config_text))
        if tabs.converters is not None or tabs.tab_labels is not None:
            parsed.blocks = code_tabs.convert(parsed.blocks, tabs, ctx.note)
        return parsed

    def skip(self, path: str, data: bytes | None = None) -> str | None:
        return skip(path)
