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
Book (MyST Markdown and notebooks on Sphinx), read as ``sphinx``. No file found: ``plain``, exactly
today's reading.

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
from functools import lru_cache
from pathlib import Path

from ..bounded_read import read_regular_text, why
from ..bounded_read import CONFIG_FILE_LIMIT
from .api import Site
from .data.files import DataError, load_conf_py, load_toml, load_yaml
from .registry import DIALECTS, HUGO_SHARED_CONFIG, NAMES, dialect

JUPYTER_BOOK_TOC = "_toc.yml"


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
        return Site("plain" if setting == "auto" else setting, None, str(real_docs), str(root))
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
    if (names is None or "sphinx" in names) and (docs / "source" / "conf.py").is_file():
        return "sphinx", docs / "source" / "conf.py"
    for folder in _folders(docs, root):
        for d in DIALECTS:
            if names is not None and d.name not in names:
                continue
            for file_name in d.config_files:
                path = folder / file_name
                if path.is_file():
                    if d.name == "jekyll" and (folder / JUPYTER_BOOK_TOC).is_file():
                        if names is None or "sphinx" in names:
                            return "sphinx", path
                        continue
                    return d.name, path
        if (names is None or "hugo" in names) and (folder / "content").is_dir():
            for file_name in HUGO_SHARED_CONFIG:
                if (folder / file_name).is_file():
                    return "hugo", folder / file_name
            for file_name in (*dialect("hugo").config_files, *HUGO_SHARED_CONFIG):
                if (folder / "config" / "_default" / file_name).is_file():
                    return "hugo", folder / "config" / "_default" / file_name
    if names is None or "docusaurus" in names:
        for file_name in dialect("docusaurus").config_files:
            path = root / "website" / file_name
            if path.is_file():
                return "docusaurus", path
    return None


def site_folder(site: Site) -> str:
    """The generator's site folder, relative to the repository root, POSIX ("" for the root
    itself): where its own folders (``data/``, ``_includes/``, ``layouts/``, ``@site/``, a
    book's ``src``, a snippet's base path) are looked for (module docstring)."""
    return _site_folder(site.dialect, site.config_file, site.docs_root, site.repo_root)


@lru_cache(maxsize=8)  # per site: every page asks, and the pages rules per file
def _site_folder(name: str, config_file: str | None, docs_root: str, repo_root: str) -> str:
    if config_file:
        parts = config_file.split("/")[:-1]
        if name == "hugo" and len(parts) >= 2 and parts[-2] == "config":  # config/_default/hugo.toml
            parts = parts[:-2]
        return "/".join(p for p in parts if p)
    docs = _docs_folder(docs_root, repo_root)
    if docs == ".." or docs.startswith("../"):
        return ""
    beside = name in NAMES and dialect(name).config_beside_pages
    return docs if beside else docs.rpartition("/")[0]


def docs_folder(site: Site) -> str:
    """DOCS relative to the repository root, POSIX ("" when DOCS is the root, or no root is known)."""
    return _docs_folder(site.docs_root, site.repo_root)


@lru_cache(maxsize=8)
def _docs_folder(docs_root: str, repo_root: str) -> str:
    if not repo_root:
        return ""
    docs = os.path.relpath(docs_root, repo_root).replace(os.sep, "/")
    return "" if docs == "." else docs


def file_stamp(repo_root: str, rel: str | None) -> tuple[int, int]:
    """(mtime_ns, size) of a file, (0, -1) when absent: the key of a per-process cache that must
    still see an edit between two builds in one process."""
    if rel is None:
        return 0, -1
    try:
        st = os.stat(os.path.join(repo_root, rel))
    except OSError:
        return 0, -1
    return st.st_mtime_ns, st.st_size


def load_config(site: Site) -> tuple[dict, str | None]:
    """The generator's configuration as data, and the problem that kept it empty (or None)."""
    return _load_config(site.repo_root, site.config_file, *file_stamp(site.repo_root, site.config_file))


@lru_cache(maxsize=8)  # once per process and version of the file: every document of a build asks
def _load_config(repo_root: str, config_file: str | None, *stamp) -> tuple[dict, str | None]:
    if config_file is None:
        return {}, None
    name = config_file.rsplit("/", 1)[-1]
    if name.startswith("docusaurus.config."):
        return {}, None  # JavaScript: its presence decides, its code is never run
    path = os.path.join(repo_root, config_file)
    try:
        text = read_regular_text(path, CONFIG_FILE_LIMIT, "utf-8-sig", "replace")
    except OSError as exc:
        return {}, f"cannot read {config_file}: {why(exc)}"
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
    return data, None
