"""Which files mdBook renders as pages (issue 26; the hook is ``pages/hook.py``), mdBook's own
rule, read from its documentation: the chapters ``SUMMARY.md`` lists, from the book's ``src``
folder, and no other Markdown file; ``SUMMARY.md`` itself is the navigation.
"""

from __future__ import annotations

import os
from functools import lru_cache

from ...bounded_read import read_regular
from ...bounded_read import CONFIG_FILE_LIMIT
from ..api import Site
from ..detect import load_config
from ..pages.site_files import pages_folder, relative, stamp
from .dialect import parse_summary, src_name


def skip(path: str, site: Site, data: bytes | None = None) -> str | None:
    """Why mdBook renders no page for ``path`` (relative to DOCS), or None (module docstring).
    ``data`` is accepted for the hook's sake: the rule reads the navigation only."""
    if not path.lower().endswith(".md"):
        return None
    name = src_name(load_config(site)[0])
    src = pages_folder(site, name)
    rel = relative(site, path, src)
    if rel is None:
        return f"outside the book's source folder {name}/: mdBook renders no page for it"
    if rel == "SUMMARY.md":
        return "the book's table of contents, read for the chapters' titles"
    summary = os.path.join(src, "SUMMARY.md")
    chapters = _chapters(summary, *stamp(summary))
    if chapters is None or rel in chapters:
        return None
    return "not listed in SUMMARY.md: mdBook renders only the chapters listed there"


@lru_cache(maxsize=8)
def _chapters(summary: str, *version) -> frozenset[str] | None:
    """The chapter files SUMMARY.md lists, or None when there is none to go by (every file a page)."""
    if not version:
        return None
    try:
        text = read_regular(summary, CONFIG_FILE_LIMIT).decode("utf-8", "replace")
    except OSError:
        return None
    listed = frozenset(parse_summary(text))
    return listed or None
