"""Which files of a Mintlify site are pages (issue 36; the hook is ``pages/hook.py``).

Mintlify publishes every ``.md`` and ``.mdx`` file of the site folder (the folder of
``docs.json``), in the navigation or not (a page left out of it is "hidden", still published),
except:

- what ``.mintignore`` in the site folder excludes: gitignore's rule (the matcher mkdocs'
  ``exclude_docs`` uses, ``mkdocs.pages``), after Mintlify's defaults (``.git``, ``.github``,
  ``node_modules``, ``README.md``, ``CONTRIBUTING.md`` and the others its documentation lists),
  the last matching line winning, so ``!README.md`` takes a default back;
- ``snippets/`` (``_snippets/`` in the older layout): partials, rendered only where a page
  imports them or names them in ``<Snippet file>``;
- a page of front matter alone with ``openapi:``, which Mintlify generates from an OpenAPI
  operation whose file is not read (``dialect._generated``).

A file outside the site folder keeps being a page: a wrong exclusion loses text.
"""

from __future__ import annotations

import os

from ...system.bounded_read import CONFIG_FILE_LIMIT
from ..mkdocs.pages import compile_pattern, matching_line
from ..pages.site_files import pages_folder, relative

IGNORE_FILE = ".mintignore"
# Mintlify's documented defaults ("Default ignored patterns"), ignored without configuration.
DEFAULT_IGNORED = (".git", ".github", ".claude", ".agents", ".idea", ".vscode", "node_modules", "build", "dist",
                   "coverage", ".cache", "tmp", "temp", "README.md", "LICENSE.md", "CHANGELOG.md",
                   "CONTRIBUTING.md")
# Where snippets live: ``snippets/``, and ``_snippets/`` in the older layout.
SNIPPET_FOLDERS = ("snippets", "_snippets")
SNIPPET = "snippet, included where a page imports it"


def rules(reader) -> tuple:
    """The default patterns and ``.mintignore``'s lines, compiled once per build."""
    patterns = [compile_pattern(line, "default") for line in DEFAULT_IGNORED]
    path = os.path.join(pages_folder(reader, "."), IGNORE_FILE)
    try:
        text = reader.files.read(path, CONFIG_FILE_LIMIT).decode("utf-8-sig", "replace")
    except OSError:
        text = ""
    patterns += [compile_pattern(line, IGNORE_FILE) for line in text.splitlines()]
    return tuple(p for p in patterns if p is not None)


def skip(path: str, reader) -> str | None:
    """Why Mintlify publishes no page for the file at ``path`` (relative to DOCS) by its path,
    or None."""
    rel = relative(reader.site, path, pages_folder(reader, "."))
    if rel is None:
        return None
    found = matching_line(reader.once((__name__, "rules"), lambda: rules(reader)), rel)
    if found is not None and found.setting == "default":
        return f"Mintlify leaves out {found.line} by default"
    if found is not None:
        return f"{IGNORE_FILE}: {found.line}"
    if rel.split("/", 1)[0] in SNIPPET_FOLDERS:
        return SNIPPET
    return None
