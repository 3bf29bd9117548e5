"""Which shortcodes a Hugo site defines, so a call no template renders is named (issue 26, "A
construct report": each unresolved one by file and line; "Bad input": unknown directives).

Hugo renders a shortcode with the first template of its name it finds: the site's
``layouts/_shortcodes/`` (``layouts/shortcodes/`` before Hugo 0.146), a folder mounted as
``layouts``, each theme's own ``layouts``, then its embedded ones (``BUILT_IN``). A call of any
other name fails the build ("template for shortcode not found"), so the page a reader would see
does not exist; the store keeps the call's inner text and the report says so.

The folders are listed, never read: a template's name is its path below the folder without its
extensions (``foo/bar.en.html`` is ``foo/bar``). Listing happens once per build (kept by its site
reader) and is bounded in files; a folder whose real path leaves the repository is not listed
(the site's door, ``door.SiteDoor``). When a template may come from where the build cannot look
(a theme or module that is not a folder of the repository), ``complete`` is False and no call is
called unknown.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

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
    """The site's templates, listed once per build (every page with a shortcode asks)."""
    reader = ctx.reader
    return reader.once((__name__,), lambda: _templates(reader, ctx.config, hugo_data.site_root(ctx)))


def _templates(reader, config, root: str) -> Templates:
    config = config if isinstance(config, dict) else {}
    layouts, complete = _layout_folders(config, root, reader.files)
    return _listed(reader.files, layouts, complete)


def _layout_folders(config: dict, root: str, files) -> tuple[tuple[str, ...], bool]:
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
        if "/" in name or not files.is_dir(posixpath.normpath(theme)):
            complete = False  # a theme as a Hugo module, or a theme folder not checked in
        folders.append(posixpath.join(theme, "layouts"))
    return tuple(posixpath.normpath(f).lstrip("/") for f in folders), complete


def _listed(files, layouts: tuple[str, ...], complete: bool) -> Templates:
    found: dict[str, str] = {}
    searched: list[str] = []
    budget = MAX_TEMPLATES
    for layout in layouts:
        for sub in _FOLDERS:
            folder = posixpath.join(layout, sub).lstrip("/")
            searched.append(folder)
            budget = _walk(files, folder, found, budget)
            if budget <= 0:
                return Templates(found, tuple(searched), False)
    return Templates(found, tuple(searched[:2]), complete)


def _walk(door, folder: str, found: dict, budget: int) -> int:
    if folder.startswith(".."):
        return budget
    for rel, dirs, files in door.walk(folder):  # nothing when the folder leaves the repository
        dirs.sort()
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


# What a few common shapes of a site's own template render, read from its text (never run): a
# template that prints one site parameter (``{{- site.Params.stable -}}``), one that
# highlights its inner text (``{{ highlight $code $lang "" }}`` over ``.Inner``), and one with no
# action at all, which Hugo writes as it stands.
_PRINTS_PARAM = re.compile(r"\{\{-?\s*(?:\.Site|site)\.Params\.([\w.]{1,100})\s*-?\}\}")
TEMPLATE_LIMIT = 64 * 1024


def shape(ctx: Context, name: str) -> tuple[str, str] | None:
    """("param", key), ("code", "") or ("text", its text) for a site template of those shapes;
    None otherwise (or for Hugo's own). The template is already a dependency of the page (``defined`` read it
    through the page's context); its shape is worked out once per version of it, by the site's
    door, so a page of thousands of calls reads it once."""
    if name in BUILT_IN:
        return None
    path = shortcode_templates(ctx).found.get(name)
    deps = getattr(ctx, "deps", None)
    if path is None or not isinstance(deps, dict) or path not in deps:
        return None
    reader = ctx.reader
    return reader.once((__name__, "shape", path, deps[path]), lambda: _shape(reader.files, path))


def _shape(door, path: str) -> tuple[str, str] | None:
    try:
        data = door.read(path, TEMPLATE_LIMIT)
    except OSError:
        return None
    text = data.decode("utf-8", "replace")
    if "{{" not in text:  # no action: Hugo writes the template as it stands (a fixed note)
        return "text", text.strip()
    found = _PRINTS_PARAM.fullmatch(text.strip())
    if found is not None:
        return "param", found.group(1)
    if "highlight" in text and ".Inner" in text:
        return "code", ""
    return None
