"""Which generator a DOCS folder belongs to, and its configuration as data (issue 26, "A
dialect setting").

``auto`` looks for a generator's configuration file in DOCS and then in each parent folder up to the
repository root (the nearest folder holding ``.git`` or ``.hg``; in a tree exported without its
history, such as a release archive or a CI cache, the nearest holding a ``.github`` folder; else
DOCS itself, so a folder outside any repository is judged on its own): the nearest folder that holds
one wins, and within a folder the names only one generator uses win over shared ones
(``registry.DIALECTS``). Two layouts put the file outside that walk's usual place: Docusaurus sites
often keep it in ``website/`` at the repository root, and Hugo's old ``config.toml`` counts only
beside a ``content/`` folder. Two keep it below: Hugo's configuration folder
(``config/_default/hugo.toml``), and the layout ``sphinx-quickstart`` offers with separate source
and build folders (``DOCS/source/conf.py``). A ``_config.yml`` beside a ``_toc.yml`` is a Jupyter
Book (MyST Markdown and notebooks on Sphinx), read as ``sphinx``. GitBook's ``.gitbook.yaml``, a
sync setting often left behind, counts only when no other generator's file is found anywhere
(the row's ``fallback``). A file whose own settings build pages elsewhere (a row's ``serves``:
mkdocs' ``docs_dir``) gives way to one of its generator farther up that builds DOCS. No file found: a generator whose syntax
the first pages hold (a row's ``evidence``: Hugo's shortcodes, for docs whose Hugo site lives in
another repository), named in the report as guessed; else ``plain``, exactly today's reading,
except that a ``.md`` page showing MDX's own syntax is read as MDX (``Site.guess_mdx``,
``mdx.evidence``).

The configuration is read as data (``data/files.py``): a file that cannot be read gives an empty
configuration and a problem the report names, never a failed build.

Where the site is (``site_folder``; docs/dialects.md, "Where the site is") is one rule for every
generator: the folder of its configuration file (Hugo's above ``config/_default/``); without one
(a dialect set by hand), DOCS is taken for the folder the generator reads pages from, and the site
is where the configuration would then be: DOCS itself for Jekyll and Sphinx, whose configuration
sits beside the pages, the folder above DOCS for the others (``docs/``, ``content/``, ``src/``),
never above the repository root.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from ..scan.globmatch import compile_glob, fnmatch_tokens
from ..system.bounded_read import CONFIG_FILE_LIMIT, why
from .api import Site
from .data.files import DataError, load_conf_py, load_toml, load_yaml
from .door import SiteDoor
from .registry import DIALECTS, NAMES, dialect

# The configuration files read as data, by their extension (``conf.py`` is read as Python
# literals; any other file, such as JavaScript, is never read: its presence decides).
DATA_FORMATS = (".yml", ".yaml", ".toml", ".json")
# The files of a split configuration read for their ``inherits`` key in one folder; more are
# picked among by name alone (detection stays bounded in a folder of generated files).
MAX_SPLIT_FILES = 16


def repo_root_of(docs: Path) -> Path:
    """The nearest folder at or above ``docs`` holding ``.git`` (or ``.hg``), else the nearest
    holding a ``.github`` folder, else ``docs``: the guard root no include may leave."""
    docs = Path(os.path.realpath(docs))
    folders = (docs, *docs.parents)
    for folder in folders:
        if os.path.lexists(folder / ".git") or os.path.isdir(folder / ".hg"):
            return folder
    for folder in folders:
        if os.path.isdir(folder / ".github"):
            return folder
    return docs


def detect_site(docs: Path, setting: str = "auto") -> Site:
    """The ``Site`` of a build of ``docs`` under the ``dialect`` setting."""
    real_docs = Path(os.path.realpath(docs))
    root = repo_root_of(real_docs)
    if setting == "plain":
        return Site("plain", None, str(real_docs), str(root))
    names = None if setting == "auto" else {setting}
    found = _find(real_docs, root, names)
    if found is None:
        if setting == "auto":
            for d in DIALECTS:
                shown = _call(d.evidence, str(real_docs)) if d.evidence else None
                if shown:
                    return Site(d.name, None, str(real_docs), str(root), guessed_from=shown)
            return Site("plain", None, str(real_docs), str(root), guess_mdx=True)
        return Site(setting, None, str(real_docs), str(root))
    name, path = found
    return Site(name, path.relative_to(root).as_posix(), str(real_docs), str(root))


def _folders(docs: Path, root: Path) -> list[Path]:
    out = [docs]
    folder = docs
    while folder != root and folder.parent != folder:
        folder = folder.parent
        out.append(folder)
    return out


def _find(docs: Path, root: Path, names: set[str] | None) -> tuple[str, Path] | None:
    """The first configuration file the rows of ``registry.DIALECTS`` say to look for (module
    docstring), and its generator; ``names`` limits the generators (None: all). Every probe goes
    through the repository's door: a file found through a link out of it does not count."""
    wanted = [d for d in DIALECTS if names is None or d.name in names]
    door = SiteDoor(str(root))
    return (_search(docs, root, names, [d for d in wanted if not d.fallback], door)
            or _search(docs, root, names, [d for d in wanted if d.fallback], door))


def _search(docs: Path, root: Path, names: set[str] | None, wanted: list, door: SiteDoor) -> tuple[str, Path] | None:
    """``_find`` over the rows ``wanted``: below DOCS, then DOCS and each folder above it, then
    the repository root's folders."""
    def is_file(path: Path) -> bool:
        return door.is_file(str(path))

    for d in wanted:
        for below in d.below_docs:
            for file_name in d.config_files:
                if is_file(docs / below / file_name):
                    return d.name, docs / below / file_name
    for folder in _folders(docs, root):
        for d in wanted:
            for file_name in d.config_files:
                path = folder / file_name
                if is_file(path) and _confirmed(d, door, folder):
                    other = next((o for f, o in d.yields_to if is_file(folder / f)), None)
                    if other is None:
                        return d.name, _serving(d, door, path, docs, root)
                    if names is None or other in names:
                        return other, path
        for d in wanted:
            split = split_config(door, folder, d) if d.split_configs else None
            if split is not None:
                return d.name, split
        for d in wanted:
            if not d.shared_needs or not door.is_dir(str(folder / d.shared_needs)):
                continue
            for file_name in d.shared_config_files:
                if is_file(folder / file_name):
                    return d.name, folder / file_name
            for sub in d.config_folders:
                for file_name in (*d.config_files, *d.shared_config_files):
                    if is_file(folder / sub / file_name):
                        return d.name, folder / sub / file_name
    for d in wanted:
        for sub in d.root_folders:
            for file_name in d.config_files:
                path = root / sub / file_name
                if is_file(path):
                    return d.name, path
    return None


def _serving(d, door: SiteDoor, path: Path, docs: Path, root: Path) -> Path:
    """``path``, unless the row's ``serves`` function says its settings build pages elsewhere
    and a file of the row farther up builds DOCS: then that one (pymdown-extensions keeps a
    stale copy of its root ``zensical.yml`` in ``docs/src``, whose ``docs_dir`` names no folder
    from there). None building DOCS: ``path``, as before."""
    if not d.serves or _call(d.serves, door, path, docs) is not False:
        return path
    for folder in _folders(docs, root):
        if folder == path.parent or path.parent in folder.parents:
            continue  # at or below the file passed over
        for file_name in d.config_files:
            farther = folder / file_name
            if door.is_file(str(farther)) and _confirmed(d, door, folder) and _call(d.serves, door, farther, docs):
                return farther
    return path


def _call(spec: str, *args):
    """The function a row names as ``"module:function"`` in this package, called with ``args``;
    its module is imported only now."""
    import importlib

    module, _, function = spec.partition(":")
    return getattr(importlib.import_module(f"{__package__}.{module}"), function)(*args)


def _confirmed(d, door: SiteDoor, folder: Path) -> bool:
    """Whether a row's ``confirm`` function (``registry.Dialect.confirm``) says ``folder`` is
    its generator's site; a row without one is confirmed by its file alone. The function's
    module is imported only when the file is there."""
    return not d.confirm or bool(_call(d.confirm, door, folder))


def split_config(door: SiteDoor, folder: Path, d) -> Path | None:
    """The file of a split configuration (``registry.Dialect.split_configs``) a build reads in
    ``folder``, or None when there is none. The files are read as data (never run) for their
    ``inherits`` key alone: the pick is a file no other one inherits from that itself inherits
    (a leaf such as ``mkdocs-en.yml`` over ``mkdocs-base.yml``), since the generator builds a
    leaf with its chain merged under it, so the leaf holds every setting of that build and the
    dialect follows the chain to the rest; a folder of files that inherit nothing (a base whose
    leaf a script writes) gives its base. Among equals the first by name, so the pick never
    depends on the order the folder lists its files in; the report names the file picked."""
    names = sorted(
        e.name for e in door.scandir(str(folder))
        if any(compile_glob(fnmatch_tokens(p)).match(e.name) for p in d.split_configs) and door.is_file(str(folder / e.name))
    )
    if not names:
        return None
    parents = {name: _inherits(door, folder / name, d.inherits) for name in names[:MAX_SPLIT_FILES]}
    inherited = {parent for parent in parents.values() if parent}
    leaves = [name for name, parent in parents.items() if parent and name not in inherited]
    return folder / (leaves or names)[0]


def _inherits(door: SiteDoor, path: Path, key: str) -> str | None:
    """The path of the file ``path`` inherits from, relative to its folder (a sibling is its
    name), else None (unreadable or malformed files inherit nothing: the reader names their
    problem later)."""
    try:
        data = load_yaml(door.read(str(path), CONFIG_FILE_LIMIT).decode("utf-8-sig", "replace"))
    except (OSError, DataError):
        return None
    parent = data.get(key) if isinstance(data, dict) else None
    if not isinstance(parent, str) or not parent.strip():
        return None
    return posixpath.normpath(parent.strip())


def site_folder(site: Site) -> str:
    """The generator's site folder, relative to the repository root, POSIX ("" for the root
    itself): where its own folders (``data/``, ``_includes/``, ``layouts/``, ``@site/``, a
    book's ``src``, a snippet's base path) are looked for (module docstring). A build asks its
    ``SiteReader``, which works it out once."""
    name, config_file = site.dialect, site.config_file
    if config_file:
        parts = config_file.split("/")[:-1]
        if name in NAMES:
            for sub in dialect(name).config_folders:
                if _below(parts, sub.split("/")):
                    parts = parts[: -len(sub.split("/"))]
                    break
        return "/".join(p for p in parts if p)
    docs = docs_folder(site)
    if docs == ".." or docs.startswith("../"):
        return ""
    beside = name in NAMES and dialect(name).config_beside_pages
    return docs if beside else docs.rpartition("/")[0]


def _below(parts: list[str], sub: list[str]) -> bool:
    """Whether the folder ``parts`` is a configuration folder ``sub`` of a row: its last part
    stands for any environment's folder when it has more than one (Hugo's ``config/_default``
    also matches ``config/production``), and for itself when it is alone (``.vitepress``)."""
    n = len(sub)
    if len(parts) < n:
        return False
    return parts[len(parts) - n:-1] == sub[:-1] and (n > 1 or parts[-1] == sub[0])


def docs_folder(site: Site) -> str:
    """DOCS relative to the repository root, POSIX ("" when DOCS is the root, or no root is known)."""
    if not site.repo_root:
        return ""
    docs = os.path.relpath(site.docs_root, site.repo_root).replace(os.sep, "/")
    return "" if docs == "." else docs


def read_config(site: Site, raw: bytes | OSError | None) -> tuple[dict, str | None]:
    """The generator's configuration as data, and the problem that kept it empty (or None), from
    the file's bytes (or why they could not be read). A build reads the file once, through the
    site's door, in its ``SiteReader``."""
    config_file = site.config_file
    if config_file is None:
        return {}, None
    name = config_file.rsplit("/", 1)[-1]
    if not name.endswith(DATA_FORMATS) and name != "conf.py":
        return {}, None  # code (Docusaurus's JavaScript): its presence decides, it is never run
    if not isinstance(raw, bytes):
        return {}, f"cannot read {config_file}: {why(raw) if raw is not None else 'not found'}"
    text = raw.decode("utf-8-sig", "replace")
    try:
        if name.endswith((".yml", ".yaml")):
            data = load_yaml(text)
        elif name.endswith(".toml"):
            data = load_toml(text)
        elif name.endswith(".json"):
            import json

            data = json.loads(text)
        elif name == "conf.py":
            data = load_conf_py(text)
        else:
            return {}, None
    except DataError as exc:
        return {}, f"{config_file}: {exc}"
    except (ValueError, RecursionError) as exc:  # JSON
        return {}, f"{config_file}: malformed JSON: {exc}"
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return {}, f"{config_file} is a {type(data).__name__}, not a mapping"
    table = dict(dialect(site.dialect).config_tables).get(name) if site.dialect in NAMES else None
    if table is not None and isinstance(data.get(table), dict):
        return data[table], None
    return data, None
