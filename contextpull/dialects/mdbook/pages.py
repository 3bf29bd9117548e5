"""Which files mdBook renders as pages (issue 26; the hook is ``pages/hook.py``), mdBook's own
rule, read from its documentation: the chapters ``SUMMARY.md`` lists, from the book's ``src``
folder, and no other Markdown file; ``SUMMARY.md`` itself is the navigation.
"""

from __future__ import annotations

import os

from ..pages.site_files import pages_folder, relative


def skip(path: str, reader, data: bytes | None = None) -> str | None:
    """Why mdBook renders no page for ``path`` (relative to DOCS), or None (module docstring).
    ``data`` is accepted for the hook's sake: the rule reads the navigation only, which the
    site's reader (``mdbook.dialect.Reader``) holds."""
    if not path.lower().endswith(".md"):
        return None
    site = reader.site
    name = reader.book_src()
    src = pages_folder(reader, name)
    rel = relative(site, path, src)
    if rel is None:
        return f"outside the book's source folder {name}/: mdBook renders no page for it"
    if rel == "SUMMARY.md":
        return "the book's table of contents, read for the chapters' titles"
    chapters = reader.chapters(os.path.join(src, "SUMMARY.md"))
    if chapters is None or rel in chapters:
        return None
    return "not listed in SUMMARY.md: mdBook renders only the chapters listed there"
