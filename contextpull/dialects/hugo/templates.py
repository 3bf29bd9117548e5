"""Which shortcodes a Hugo site defines, so a call no template renders is named (issue 26, "A
construct report": each unresolved one by file and line; "Bad input": unknown directives).

Hugo renders a shortcode with the first template of its name it finds: the site's
``layouts/_shortcodes/`` (``layouts/shortcodes/`` before Hugo 0.146), a folder mounted as
``layouts``, each theme's own ``layouts``, then its embedded ones (``BUILT_IN``). A call of any
other name fails the build ("template for shortcode not found"), so the page a reader would see
does not exist; the store keeps the call's inner text and the report says so.

The folders are listed, never read: a template's name is its path below the folder without its
extensions (``foo/bar.en.html`` is ``foo/bar``). Listing happens once per process and site (again
only when a folder's modification time moves) and is bounded in files; a folder whose real path
leaves the repository is not listed. When a template may come from where the build cannot look
(a theme or module that is not a folder of the repository), ``complete`` is False and no call is
called unknown.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from functools import lru_cache

from ..api import Context
from . import hugo_data

# Hugo's embedded shortcodes (tpl/tplimpl/embedded/templates/_shortcodes), with the names older
# releases still answer to.
BUILT_IN = frozenset(
    "comment details figure gist highlight instagram param qr ref relref twitter twitter_simple"
    " tweet vimeo vimeo_simple x x_simple youtube speakerdeck".split()
)
_FOLDERS = ("_shortcodes", "shortcodes")
# Templates listed per site at most: far above any real site (hundreds), and what bounds a
# repository that is one enormous layouts tree.
MAX_TEMPLATES = 20_000


@dataclass(frozen=True)
class Templates:
    """The shortcode templates a build can see: name -> repository path of the first one."""

    found: dict
    folders: tuple[str, ...]  # where a template of a missing name would be looked for first
    complete: bool  # False: some template source is outside what the build can list


def shortcode_templates(ctx: Context) -> Templates:
    config = ctx.config if isinstance(ctx.config, dict) else {}
    root = hugo_data.site_root(ctx)
    layouts, complete = _layout_folders(config, root, ctx.site.repo_root)
    return _listed(ctx.site.repo_root, layouts, complete, _stamp(ctx.site.repo_root, layouts))


def _stamp(repo_root: str, layouts: tuple[str, ...]) -> tuple:
    """When each template folder last changed: part of the listing's cache key, so a process
    that builds twice (a test run, a long-lived ingest) sees a template added in between."""
    out = []
    for layout in layouts:
        for sub in _FOLDERS:
            try:
                out.append(os.stat(os.path.join(repo_root, *layout.split("/"), sub)).st_mtime_ns)
            except OSError:
                out.append(None)
    return tuple(out)


def _layout_folders(config: dict, root: str, repo_root: str) -> tuple[tuple[str, ...], bool]:
    """The ``layouts`` folders in Hugo's lookup order, relative to the repository root, and
    whether every source of templates is one of them."""
    complete = True
    folders = [posixpath.join(root, "layouts")]
    module = config.get("module") if isinstance(config.get("module"), dict) else {}
    mounts = module.get("mounts") if isinstance(module.get("mounts"), list) else []
    for mount in mounts:
        if isinstance(mount, dict) and mount.get("target") == "layouts" and isinstance(mount.get("source"), str):
            folders.append(posixpath.join(root, mount["source"].strip("/")))
    if module.get("imports"):
        complete = False  # a module's templates live in its own repository
    themes = config.get("theme")
    names = [themes] if isinstance(themes, str) else themes if isinstance(themes, list) else []
    themes_dir = config.get("themesDir") if isinstance(config.get("themesDir"), str) else "themes"
    for name in (n.strip() for raw in names if isinstance(raw, str) for n in raw.split(",")):
        theme = posixpath.join(root, themes_dir.strip("/"), name)
        if "/" in name or not os.path.isdir(os.path.join(repo_root, *theme.split("/"))):
            complete = False  # a theme as a Hugo module, or a theme folder not checked in
        folders.append(posixpath.join(theme, "layouts"))
    return tuple(posixpath.normpath(f).lstrip("/") for f in folders), complete


@lru_cache(maxsize=8)
def _listed(repo_root: str, layouts: tuple[str, ...], complete: bool, stamp: tuple) -> Templates:
    found: dict[str, str] = {}
    searched: list[str] = []
    budget = MAX_TEMPLATES
    for layout in layouts:
        for sub in _FOLDERS:
            folder = posixpath.join(layout, sub).lstrip("/")
            searched.append(folder)
            budget = _walk(repo_root, folder, found, budget)
            if budget <= 0:
                return Templates(found, tuple(searched), False)
    return Templates(found, tuple(searched[:2]), complete)


def _walk(repo_root: str, folder: str, found: dict, budget: int) -> int:
    full = os.path.join(repo_root, *folder.split("/"))
    real = os.path.realpath(full)
    if folder.startswith("..") or not (real == repo_root or real.startswith(repo_root.rstrip(os.sep) + os.sep)):
        return budget
    for top, dirs, files in os.walk(full):  # symbolic links to folders are not followed
        dirs.sort()
        rel = os.path.relpath(top, full).replace(os.sep, "/")
        for file in sorted(files):
            budget -= 1
            if budget <= 0:
                return budget
            stem = file.split(".", 1)[0]
            name = stem if rel == "." else f"{rel}/{stem}"
            found.setdefault(name, f"{folder}/{file}" if rel == "." else f"{folder}/{rel}/{file}")
    return budget


def defined(ctx: Context, name: str) -> bool | None:
    """Whether Hugo has a template for shortcode ``name``: True, False, or None when the build
    cannot see every template source. The answer depends on files other than the page, so the
    template found (or, for a missing one, where it would be) becomes a dependency of the page:
    adding or removing it rebuilds the page, and a ``--cache`` build reports what a fresh one
    does."""
    if name in BUILT_IN:
        return True
    templates = shortcode_templates(ctx)
    path = templates.found.get(name)
    if path is not None:
        _depend(ctx, path)
        return True
    for folder in templates.folders:
        _depend(ctx, f"{folder}/{name}.html")
    return False if templates.complete else None


def _depend(ctx: Context, path: str) -> None:
    """``path`` as a dependency of the page, read once per page: a page of thousands of calls
    must not spend the read budget its includes need."""
    deps = getattr(ctx, "deps", None)
    if not (isinstance(deps, dict) and path in deps):
        ctx.read_data(path)
