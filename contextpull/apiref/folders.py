"""Which folders a site's API pages look for modules in (issue 37): the paths its configuration
names, as data, kept only when they are inside the repository and not an installed packages
folder; each refused one is a reason the report names."""

from __future__ import annotations

import posixpath

# Folders a module is never read from: installed packages are not the repository's source.
INSTALLED = frozenset(("site-packages", "dist-packages"))


def search_folders(repo_root: str, base: str, paths: list) -> tuple[list[str], list[str]]:
    """(repository-relative folders to look for modules in, reasons for the ones refused).
    ``paths`` are as the configuration wrote them, relative to ``base`` (a folder relative to
    the repository root) or absolute; a folder outside the repository or inside an installed
    packages folder is refused."""
    folders: list[str] = []
    refused: list[str] = []
    for raw in paths:
        if not isinstance(raw, str) or not raw.strip():
            continue
        text = raw.strip().replace("\\", "/")
        if text.startswith("/"):
            root = repo_root.replace("\\", "/").rstrip("/")
            if text != root and not text.startswith(root + "/"):
                refused.append(f"source folder {raw} is outside the repository")
                continue
            text = text[len(root):].lstrip("/") or "."
            rel = posixpath.normpath(text)
        else:
            rel = posixpath.normpath(posixpath.join(base or ".", text))
        if rel == ".." or rel.startswith("../"):
            refused.append(f"source folder {raw} is outside the repository")
            continue
        if INSTALLED & set(rel.split("/")):
            refused.append(f"source folder {raw} is an installed packages folder, not the repository's source")
            continue
        rel = "" if rel == "." else rel
        if rel not in folders:
            folders.append(rel)
    return folders, refused


def dotted(path: str) -> bool:
    """Whether ``path`` is a dotted Python name (``package.module.Object``). One that is not is
    no object to read: the line is read as when the build reads no API reference, so a page
    whose API lines read no source stores the same with the setting on or off."""
    return bool(path) and all(part.isidentifier() for part in path.split("."))
