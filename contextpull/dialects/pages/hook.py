"""Which files of a site are pages (issue 26): the hook a dialect module offers as
``skip(path, site) -> str | None``, the reason its generator never renders the file at ``path``
(relative to DOCS) as a page of its own, or None for a page.

The engine asks it for every file discovery finds in a non-plain build, in the main process, once
it has read the file: a rule that looks at a page's front matter (Hugo's ``build`` and
``headless``) takes it from those bytes instead of opening every page a second time, which on
a site of a thousand pages was a tenth of its build. Such a file becomes a
``NotAPage`` entry, listed in the construct report, and not a document: a partial is text an
agent meets where a page includes it, and a document of its own would only repeat it out of
context. A rule that fails or cannot read what it needs keeps the file a page: a wrong
exclusion loses text, a wrong inclusion only adds some.

A generator's rule is ``pages.py`` of its own sub-package (``PAGE_RULES``), taking the file's
bytes too when the build has read them (Hugo's, Jekyll's and mdBook's read front matter or
navigation; mkdocs' and Sphinx's decide by path alone). A dialect with a rule of a few lines keeps
it as ``skip`` in its reading module (Docusaurus's ``_`` partials).
"""

from __future__ import annotations

from functools import partial

from ..api import Site
from ..registry import load_module
from .site_files import reading_module

# The generators whose page rule is a module of its own, by its path in contextpull.dialects.
PAGE_RULES = {
    "hugo": "hugo.pages", "jekyll": "jekyll.pages", "mdbook": "mdbook.pages", "mkdocs": "mkdocs.pages",
    "sphinx": "sphinx.pages",
}


def not_a_page(path: str, site: Site | None, data: bytes | None = None) -> str | None:
    """The dialect's reason the file at ``path`` is not a page, or None (module docstring).
    ``data`` is the file's bytes when the build has read them already; Hugo's, Jekyll's and
    mdBook's rules then read nothing of the file again."""
    if site is None or site.dialect == "plain":
        return None
    if site.dialect in PAGE_RULES:
        rule = partial(load_module(PAGE_RULES[site.dialect]).skip, data=data)
    else:
        rule = getattr(reading_module(site.dialect), "skip", None)
        if rule is None:
            return None
    try:
        return rule(path, site)
    except Exception:  # noqa: BLE001 - a rule's failure keeps the file a page (module docstring)
        return None
