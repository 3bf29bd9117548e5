"""Which files Jekyll renders as pages (issue 26; the hook is ``pages/hook.py``), Jekyll's own
rule, read from its documentation: it leaves out what its ``exclude`` setting lists, and every
file and folder whose name starts with ``_`` (``_includes``, ``_layouts``, ``_data``, ``_sass``,
``_drafts``), except ``_posts``, a collection whose ``output`` is true and a name the ``include``
setting lists. A Markdown file without front matter stays a page: Jekyll alone copies it
unrendered, but GitHub Pages, where most Jekyll sites are built, renders it
(``jekyll-optional-front-matter`` is one of its default plugins, which a site cannot turn off),
and a site's files do not say where it is built; a wrong exclusion would lose the text.
"""

from __future__ import annotations

from ...scan.globmatch import Glob, compile_glob, fnmatch_tokens
from ..pages.site_files import relative

_FOLDERS = {
    "_includes": "Jekyll include, read where a page includes it",
    "_layouts": "Jekyll layout, not a page",
    "_data": "Jekyll data file, read where a page uses it",
    "_sass": "Jekyll stylesheet source, not a page",
    "_drafts": "Jekyll draft, rendered only with --drafts",
}


def skip(path: str, reader, data: bytes | None = None) -> str | None:
    """Why Jekyll renders no page for ``path`` (relative to DOCS), or None (module docstring).
    ``data`` is accepted for the hook's sake: the rule reads names and configuration only."""
    rel = relative(reader.site, path, reader.site_path)
    if rel is None:
        return None
    rules = reader.once((__name__, "rules"), lambda: _Rules(reader.config))
    excluded = _excluded(reader, rel, rules.exclude)
    if excluded is not None:
        return f"listed in exclude of the Jekyll configuration ({excluded})"
    parts = rel.split("/")
    for depth, part in enumerate(parts):
        if not part.startswith("_") or part in rules.included or "/".join(parts[: depth + 1]) in rules.included:
            continue
        if part in rules.outputs and depth < len(parts) - 1:
            continue
        if part in _FOLDERS and depth < len(parts) - 1:
            return f"{part}/: {_FOLDERS[part]}"
        if part[1:] in rules.collections:
            return f"{part}/: collection without output: true, which Jekyll renders no page for"
        return f"{part}: Jekyll leaves out names starting with _"
    return None


class _Rules:
    """What the rule reads of the configuration, read once per build: the rule asks for every
    file, and building these lists and sets again for each was most of its time."""

    def __init__(self, config: dict) -> None:
        self.exclude = [str(x) for x in _list(config.get("exclude"))]
        self.included = {str(x).strip("/") for x in _list(config.get("include"))}
        self.collections = _collections(config)
        self.outputs = {"_posts"} | {f"_{name}" for name, c in self.collections.items() if c.get("output") is True}


def _excluded(reader, rel: str, patterns: list[str]) -> str | None:
    """The ``exclude`` entry that covers ``rel``: a path (a folder covers what is under it) or a
    glob, as Jekyll matches them; None when none does."""
    for pattern in patterns:
        entry = pattern.strip().strip("/")
        if not entry:
            continue
        if rel == entry or rel.startswith(entry + "/") or _glob(reader, entry).match(rel):
            return pattern
    return None


def _glob(reader, entry: str) -> Glob:
    """An ``exclude`` entry as ``fnmatch.fnmatchcase`` reads it, matched in bounded time;
    compiled once per build."""
    return reader.once((__name__, entry), lambda: compile_glob(fnmatch_tokens(entry)))


def _collections(config: dict) -> dict[str, dict]:
    found = config.get("collections")
    if isinstance(found, list):
        return {str(name): {} for name in found}
    if not isinstance(found, dict):
        return {}
    return {str(name): (c if isinstance(c, dict) else {}) for name, c in found.items()}


def _list(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
