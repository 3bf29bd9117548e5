"""Which files of a site are pages (issue 26): the hook a dialect module offers as
``skip(path, site) -> str | None``, the reason its generator never renders the file at ``path``
(relative to DOCS) as a page of its own, or None for a page.

The engine asks it for every file discovery finds in a non-plain build, in the main process and
before the file is read, so a file that is not a page costs nothing more. Such a file becomes a
``NotAPage`` entry, listed in the construct report, and not a document: a partial is text an
agent meets where a page includes it, and a document of its own would only repeat it out of
context. A rule that fails or cannot read what it needs keeps the file a page: a wrong
exclusion loses text, a wrong inclusion only adds some.
"""

from __future__ import annotations

from .api import Site
from .site_pages import RULES, reading_module


def not_a_page(path: str, site: Site | None) -> str | None:
    """The dialect's reason the file at ``path`` is not a page, or None (module docstring)."""
    if site is None or site.dialect == "plain":
        return None
    module = reading_module(site.dialect)
    rule = getattr(module, "skip", None)
    if rule is None:  # Hugo's, Jekyll's and mdBook's rules live in site_pages
        rule = RULES.get(site.dialect)
    if rule is None:
        return None
    try:
        return rule(path, site)
    except Exception:  # noqa: BLE001 - a rule's failure keeps the file a page (module docstring)
        return None

