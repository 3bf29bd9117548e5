"""Which files of a mkdocs site are not pages (issue 26, "every documentation file read or
named"; mkdocs 1.5's ``exclude_docs``, 1.6's ``draft_docs``; the hook is ``pages/hook.py``).

mkdocs builds no page for a file under ``docs_dir`` that its exclusion rule matches: the rule is
gitignore's (``pathspec``'s ``GitIgnoreSpec`` in mkdocs), made of its two defaults, ``.*`` and
``/templates/``, followed by the lines of ``exclude_docs``, the last matching line winning (so
``!.well-known/`` takes a default back). ``draft_docs`` pages are shown by ``mkdocs serve``
alone, never built, so they are not pages of a built site either. ``not_in_nav`` is no
exclusion: such pages are built, only left out of the navigation, and stay documents. And
mkdocs drops a ``README.md`` from a folder that also holds an ``index.md`` (both would be the
folder's page; the index wins).

Patterns are relative to ``docs_dir`` (``docs`` beside ``mkdocs.yml`` unless it says otherwise);
a file outside it keeps being a page, as every file does when the configuration cannot be read:
a wrong exclusion loses text. The gitignore rule is written out here because this room may not
import the writer's (``writing/discover.py`` has the same rule for ``.contextpullignore``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..context import DocumentContext
from ...scan.globmatch import Glob, compile_glob
from ..pages.site_files import pages_folder
from .config import site_config

DEFAULT_EXCLUDE = (".*", "/templates/")


@dataclass(frozen=True)
class _Pattern:
    line: str  # as mkdocs.yml wrote it, for the reason
    setting: str  # where it comes from: "exclude_docs", "draft_docs" or "default"
    glob: Glob
    anchored: bool  # against the whole path, else against each name
    dir_only: bool
    negated: bool


def compile_pattern(line: str, setting: str = "exclude_docs") -> _Pattern | None:
    """One gitignore line; None for a blank line or a comment."""
    text = line.rstrip()
    if not text or text.startswith("#"):
        return None
    negated = text.startswith("!")
    body = text[1:] if negated or text.startswith("\\") else text
    dir_only = body.endswith("/")
    body = body.rstrip("/")
    anchored = "/" in body  # a slash at the start or in the middle anchors the pattern
    body = body.lstrip("/")
    if not body:
        return None
    if body.endswith("/**") and any(part != "**" for part in body.split("/")):
        dir_only = False  # "a/**/" is everything inside a, as pathspec reads it
    tokens: list[tuple] = []
    i = 0
    while i < len(body):
        if body.startswith("**/", i):
            tokens.append(("dirs",))
            i += 3
        elif body.startswith("/**", i) and i + 3 == len(body):
            tokens += [("lit", "/"), ("any",)]
            i += 3
        elif body.startswith("**", i):
            tokens.append(("any",))
            i += 2
        elif body[i] == "*":
            tokens.append(("star",))
            i += 1
        elif body[i] == "?":
            tokens.append(("one",))
            i += 1
        elif body[i] == "[" and "]" in body[i + 2 :]:
            end = body.index("]", i + 2)
            inner = body[i + 1 : end].replace("\\", "\\\\")
            negate = inner[:1] == "!"
            inner = inner[1:] if negate else inner
            tokens.append(("class", "[" + ("^" if negate else "") + ("\\" + inner if inner[:1] == "^" else inner) + "]"))
            i = end + 1
        else:
            tokens.append(("lit", body[i]))
            i += 1
    return _Pattern(line.strip(), setting, compile_glob(tokens), anchored, dir_only, negated)


def matching_line(patterns: tuple[_Pattern, ...], rel: str) -> _Pattern | None:
    """The line that excludes the file ``rel`` (relative to ``docs_dir``), or None, decided as
    mkdocs' matcher decides it (``GitIgnoreSpec`` of pathspec 1.x, what a current mkdocs install
    gets): a line matches the file's own path or, through a folder above it, everything under
    that folder; the last line matching the file's own path wins, else the last one matching
    through a folder. So ``!drafts/keep.md`` after ``drafts/`` keeps that one page."""
    parts = rel.split("/")
    through_folder: tuple[_Pattern, ...] | None = None
    for pattern in reversed(patterns):
        how = _how(pattern, rel, parts)
        if how == 2:
            return None if pattern.negated else pattern
        if how == 1 and through_folder is None:
            through_folder = (pattern,)
    if through_folder is None or through_folder[0].negated:
        return None
    return through_folder[0]


def _how(pattern: _Pattern, rel: str, parts: list[str]) -> int:
    """2 when ``pattern`` matches the file's own path, 1 when it matches a folder above it, 0."""
    if not pattern.dir_only and pattern.glob.match(rel if pattern.anchored else parts[-1]):
        return 2
    for depth in range(1, len(parts)):
        folder = "/".join(parts[:depth])
        if pattern.glob.match(folder if pattern.anchored else parts[depth - 1]):
            return 1
    return 0


@dataclass(frozen=True)
class _Rules:
    docs_dir: str  # absolute
    exclude: tuple[_Pattern, ...]
    drafts: tuple[_Pattern, ...]


def skip(path: str, reader, data: bytes | None = None) -> str | None:
    """Why mkdocs builds no page for the file at ``path`` (relative to DOCS), or None; by path
    alone, so ``data`` (the file's bytes, ``pages/hook.py``) is not looked at."""
    rules = reader.once((__name__, "rules"), lambda: _rules(reader))
    full = os.path.join(reader.site.docs_root, *path.split("/"))
    rel = os.path.relpath(full, rules.docs_dir).replace(os.sep, "/")
    if rel == ".." or rel.startswith("../"):
        return None
    if rel.endswith(".txt"):
        # mkdocs renders Markdown files (``utils.markdown_extensions``); any other file under
        # docs_dir is copied as it is (Textual's robots.txt): a static file, no page.
        return "mkdocs copies a .txt file as it is, as a static file: no page"
    found = matching_line(rules.exclude, rel)
    if found is not None and found.setting == "default":
        return f"mkdocs leaves out {found.line} by default"
    if found is not None:
        return f"mkdocs.yml exclude_docs: {found.line}"
    found = matching_line(rules.drafts, rel)
    if found is not None:
        return f"mkdocs.yml draft_docs: {found.line} (shown by mkdocs serve only, never built)"
    folder, _, name = rel.rpartition("/")
    index = f"{folder}/index.md" if folder else "index.md"
    if name == "README.md" and reader.files.is_file(os.path.join(rules.docs_dir, *index.split("/"))) \
            and matching_line(rules.exclude, index) is None and matching_line(rules.drafts, index) is None:
        return "README.md beside index.md: mkdocs builds the folder's page from index.md"
    return None


def _rules(reader) -> _Rules:
    """The site's rules, worked out once per build (every file of it asks), from its
    configuration with the files it inherits merged."""
    site, config = reader.site, reader.config
    if "INHERIT" in config:
        config = site_config(DocumentContext(site, "", config, reader=reader), report=False)
    docs_dir = pages_folder(reader, str(config.get("docs_dir") or "docs"))  # DOCS without mkdocs.yml
    if not reader.files.is_dir(docs_dir):
        docs_dir = site.docs_root
    exclude = [compile_pattern(line, "default") for line in DEFAULT_EXCLUDE]
    exclude += _patterns(config.get("exclude_docs"), "exclude_docs")
    return _Rules(docs_dir, tuple(p for p in exclude if p), tuple(_patterns(config.get("draft_docs"), "draft_docs")))


def _patterns(value, setting: str) -> list[_Pattern]:
    """``exclude_docs`` as mkdocs reads it: a string of lines (``|`` block), or a list of lines."""
    if isinstance(value, str):
        lines = value.splitlines()
    elif isinstance(value, list):
        lines = [str(v) for v in value if isinstance(v, (str, int, float))]
    else:
        return []
    return [p for p in (compile_pattern(line, setting) for line in lines) if p is not None]
