"""Which files of a site are pages (issue 26): the hook a dialect's reader offers as
``SiteReader.skip(path, data=None) -> str | None``, the reason its generator never renders the
file at ``path`` (relative to DOCS) as a page of its own, or None for a page.

The engine asks it for every file discovery finds in a non-plain build, in the main process, once
it has read the file: a rule that looks at a page's front matter (Hugo's ``build`` and
``headless``) takes it from those bytes instead of opening every page a second time, which on
a site of a thousand pages was a tenth of its build. Such a file becomes a
``NotAPage`` entry, listed in the construct report, and not a document: a partial is text an
agent meets where a page includes it, and a document of its own would only repeat it out of
context. A rule that fails or cannot read what it needs keeps the file a page: a wrong
exclusion loses text, a wrong inclusion only adds some.

A generator's rule is ``pages.py`` of its own sub-package, which its ``Reader.skip`` calls
(Hugo's, Jekyll's and mdBook's read front matter or navigation; mkdocs' and Sphinx's decide by
path alone); a rule of a few lines stays in its reading module (Docusaurus's ``_`` partials).
What a rule works out once per site (a configuration, a folder's bundle kind, the chapters
``SUMMARY.md`` lists) is kept by the reader (``SiteReader.once``).
"""

from __future__ import annotations

from ..site_reader import SiteReader


def not_a_page(path: str, reader: SiteReader | None, data: bytes | None = None) -> str | None:
    """The dialect's reason the file at ``path`` is not a page, or None (module docstring).
    ``data`` is the file's bytes when the build has read them already; Hugo's, Jekyll's and
    mdBook's rules then read nothing of the file again."""
    if reader is None or reader.site.dialect == "plain":
        return None
    try:
        return reader.skip(path, data)
    except Exception:  # noqa: BLE001 - a rule's failure keeps the file a page (module docstring)
        return None
