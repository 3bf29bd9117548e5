"""The Astro Starlight dialect (issue 36), identified by ``astro.config.{mjs,js,ts,mts,cjs}``.

The configuration is JavaScript: it is never run, and its text is searched for one fact, that
it uses ``@astrojs/starlight`` (an Astro site without it is read as Starlight anyway, and the
report says so). Pages are the content collection ``src/content/docs/`` of the site folder (the
configuration's): ``.md``, ``.mdx`` and Markdoc ``.mdoc``; files elsewhere, and files or folders
whose name starts with ``_`` (Astro's content loader leaves them out), are not pages.

- ``prepare``: a ``.md`` page's asides (``asides``); a ``.mdoc`` page's Markdoc tags
  (``markdoc``). An ``.mdx`` page went through the shared MDX rules first, which ask this
  reader for Starlight's components (``mdx_components``, from ``components``) and read the
  site's import aliases (``tsconfig.json``'s ``compilerOptions.paths``, such as ``@/*`` ->
  ``src/*``) as they do on every site, so an aliased partial is read.
- ``prepare`` also puts a splash page's hero (front matter ``hero.title`` and ``hero.tagline``)
  before its text: the first words its reader sees, and all a 404 page shows; HTML comments of
  a ``.md`` or ``.mdoc`` page go (outside code).
- ``label_title``: the title is front matter ``title`` (a Starlight page has no H1: the layout
  draws the title), which the generic rule reads; a page without one takes its
  ``sidebar.label``, over any H1 it has (the shared rule, ``page_title``).
- ``config_notes``: on the site's home page (``index`` in the pages folder), a configuration
  that cannot be read or names no Starlight integration.
"""

from __future__ import annotations

import re

from ..syntax.markup import html_to_text, strip_html_comments
from ..pages.site_files import pages_folder, relative
from ..site_reader import SiteReader
from ..syntax.fences import outside_code
from . import asides, astro_components, components, markdoc

PAGES = "src/content/docs"
_PAGE_KINDS = (".md", ".mdx", ".mdoc")
_BR = re.compile(r"<br\s*/?>", re.I)


class Reader(SiteReader):
    """Starlight's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    mdx_components = components.MDX_COMPONENTS
    mdx_imported_component = staticmethod(astro_components.read)

    def prepare(self, text: str, ctx) -> str:
        if ctx.path.endswith(".mdoc"):
            text = markdoc.convert(outside_code(text, strip_html_comments), ctx)
        elif not ctx.path.endswith(".mdx"):  # an .mdx page's comments and asides are the MDX rules'
            text = asides.convert(outside_code(text, strip_html_comments), ctx)
        hero = _hero(ctx.front_matter or {})
        return f"{hero}\n\n{text}" if hero else text

    def label_title(self, ctx) -> str | None:
        sidebar = (ctx.front_matter or {}).get("sidebar")
        label = sidebar.get("label") if isinstance(sidebar, dict) else None
        return (" ".join(label.split()) or None) if isinstance(label, str) else None

    # ---- pages ----------------------------------------------------------------------------
    def skip(self, path: str, data: bytes | None = None) -> str | None:
        if not path.lower().endswith(_PAGE_KINDS):
            return None
        rel = relative(self.site, path, pages_folder(self, PAGES))
        if rel is None:
            return f"outside {PAGES}/: Starlight renders no page from it"
        if any(part.startswith("_") for part in rel.split("/")):
            return "a name starting with _: Astro's content loader leaves it out (a partial, read where a page includes it)"
        return None

    def config_notes(self, ctx) -> None:
        if not self.site.config_file:
            return
        rel = relative(self.site, ctx.path, pages_folder(self, PAGES))
        if rel is None or rel.rpartition(".")[0] != "index":
            return
        for problem in self.once((__name__, "config problems"), self._config_problems):
            ctx.note("starlight configuration", "unresolved", 0, problem)

    def _config_problems(self) -> list[str]:
        config = self.site.config_file
        raw = self.config_bytes
        if raw is None:
            return [f"{config} cannot be read: read as a Starlight site with the defaults"]
        if b"\x00" in raw:
            return [f"{config} is not text: read as a Starlight site with the defaults"]
        if "@astrojs/starlight" not in self.config_text:
            return [f"{config} names no @astrojs/starlight integration: read as a Starlight site anyway"]
        return []


def _hero(fm: dict) -> str:
    """A splash page's hero, as its reader sees it first: ``hero.title`` and ``hero.tagline``
    (HTML allowed in both), one paragraph each; '' for a page without one. A hero title that
    is the page's title is not repeated (the heading path carries it)."""
    hero = fm.get("hero")
    if not isinstance(hero, dict):
        return ""
    parts = [" ".join(html_to_text(_BR.sub(" ", v)).split()) for v in (hero.get("title"), hero.get("tagline")) if isinstance(v, str)]
    title = fm.get("title")
    return "\n\n".join(p for p in parts if p and p != (title.strip() if isinstance(title, str) else None))
