"""What a mkdocs site's configuration says to its dialect (issue 26): read as data, never run.

- ``INHERIT: ../en/mkdocs.yml`` (mkdocs' configuration inheritance, used by translated sites):
  the parent file, read through ``ctx.read_data`` (so it is a dependency of every page), is
  merged under the child as mkdocs merges it: mappings key by key, anything else replaced.
  Chains are followed up to a small depth; a loop or a missing parent is one note.
- ``markdown_extensions`` and ``plugins``: a list of names and one-key mappings in most sites,
  a mapping in some; both are read.
- the folder of ``mkdocs.yml``, where relative paths of its extensions start (mkdocs runs there).
- ``nav``: the title a page is given in the navigation (``- Home: index.md``), which mkdocs makes
  the page's title; bare paths and section headings give none.
"""

from __future__ import annotations

import posixpath

from ..api import Context
from ..data.files import DataError, load_yaml

MAX_INHERIT = 5


def config_folder(ctx: Context) -> str:
    """The folder of ``mkdocs.yml`` relative to the repository root ('' for the root itself).
    Without a configuration file (the dialect set by hand) it is the folder above DOCS, where
    mkdocs keeps it by default: the rule every dialect shares (``detect.site_folder``)."""
    return ctx.reader.site_folder


def _merge(parent, child):
    if isinstance(parent, dict) and isinstance(child, dict):
        merged = dict(parent)
        for key, value in child.items():
            merged[key] = _merge(parent.get(key), value) if key in parent else value
        return merged
    return child


def _load_parent(ctx: Context, path: str) -> tuple[object, str] | None:
    """The parent file's data (a ``DataError`` when it is not YAML) and its sha256, read through
    the page's context, so it is a dependency of every page, and parsed once per build and content."""
    found = ctx.read_data_with_sha(path)
    if found is None:
        return None
    data, key = found
    return ctx.reader.once((__name__, key), lambda: _parse_parent(data)), key


def _parse_parent(data: bytes):
    try:
        return load_yaml(data.decode("utf-8", "replace"))
    except DataError as exc:
        return DataError(str(exc))


def site_config(ctx: Context, *, report: bool = True) -> dict:
    """``ctx.config`` with the files it inherits from merged under it; a broken chain is noted
    when ``report`` (once per page: ``finish`` reads it again quietly). Every page walks the chain
    through its context, so each parent is its dependency; the merged configuration is built once
    per build for each chain's contents (every page of a site asks, two or three times)."""
    note = ctx.note if report else (lambda *args: None)
    config = ctx.config if isinstance(ctx.config, dict) else {}
    folder, seen = config_folder(ctx), {ctx.site.config_file}
    parents: list[dict] = []
    shas: list[str] = []
    inherit = config.get("INHERIT")
    while isinstance(inherit, str) and len(seen) <= MAX_INHERIT:
        path = posixpath.normpath(posixpath.join(folder, inherit))
        if path in seen:
            note("mkdocs INHERIT", "unresolved", 0, f"inheritance loop through {path}")
            break
        seen.add(path)
        parent, sha = _load_parent(ctx, path) or (None, "")
        if not isinstance(parent, dict):
            why = parent if isinstance(parent, DataError) else "missing or not a mapping"
            note("mkdocs INHERIT", "unresolved", 0, f"{path}: {why}")
            break
        parents.append(parent)
        shas.append(sha)
        inherit = parent.get("INHERIT")  # the merged file's: the child's own is the one just read
        folder = posixpath.dirname(path)
    return ctx.reader.once((__name__, "merged", *shas), lambda: _merged(config, parents))


def _merged(config: dict, parents: list[dict]) -> dict:
    """``config`` with ``parents`` (nearest first) merged under it as mkdocs merges them, and
    Zensical's nested extension names spelled out (``_hoisted``)."""
    for parent in parents:
        config = _merge(parent, {k: v for k, v in config.items() if k != "INHERIT"})
    if isinstance(config.get("markdown_extensions"), dict):
        config = {**config, "markdown_extensions": _hoisted(config["markdown_extensions"])}
    return config


def builds_docs(door, path, docs) -> bool | None:
    """Whether the configuration file ``path`` builds the pages in ``docs`` (detection's
    ``serves``): its ``docs_dir`` (default ``docs``), from the file's folder, is ``docs`` or
    holds it. None when it cannot be told (unreadable, or ``docs_dir`` left to an ``INHERIT``
    parent); only a False passes the file over. Detection's own read, once a run: it runs before
    any site is opened, may read files it then passes over, and the reader that parses the chosen
    one again is opened per attempt for a site detection does not know yet (its epoch, its API
    setting), so no per-build ``once`` is there to keep it in."""
    import os

    from ...system.bounded_read import CONFIG_FILE_LIMIT
    from ..data.files import load_toml

    try:
        text = door.read(str(path), CONFIG_FILE_LIMIT).decode("utf-8-sig", "replace")
        data = load_toml(text).get("project") if str(path).endswith(".toml") else load_yaml(text)
    except (OSError, DataError, ValueError):
        return None
    if not isinstance(data, dict) or ("docs_dir" not in data and "INHERIT" in data):
        return None
    folder = data.get("docs_dir", "docs")
    if not isinstance(folder, str):
        return None
    pages = os.path.realpath(os.path.join(os.path.dirname(str(path)), folder))
    return pages == str(docs) or str(docs).startswith(pages.rstrip(os.sep) + os.sep)


def extension_options(config: dict, name: str) -> dict | None:
    """The options of Markdown extension ``name`` ({} when enabled without options), or None
    when it is not enabled."""
    return listed_options(config, "markdown_extensions", name)


def _hoisted(extensions: dict) -> dict:
    """A ``markdown_extensions`` mapping with Zensical's unquoted names spelled out: in
    ``zensical.toml`` ``[project.markdown_extensions.pymdownx.snippets]`` nests ``snippets``
    under ``pymdownx``, and Zensical reads it as ``pymdownx.snippets`` (``pymdownx.blocks.*``
    and ``zensical.extensions.*`` one level deeper), as its own configuration loader does."""
    if not any(isinstance(extensions.get(k), dict) for k in _NAMESPACES):
        return extensions
    out = {k: v for k, v in extensions.items() if not (k in _NAMESPACES and isinstance(v, dict))}
    for space, deeper in _NAMESPACES.items():
        for ext, options in (extensions.get(space) or {}).items() if isinstance(extensions.get(space), dict) else ():
            if ext == deeper and isinstance(options, dict):
                out.update({f"{space}.{ext}.{k}": v for k, v in options.items()})
            else:
                out[f"{space}.{ext}"] = options
    return out


# namespace -> the one extension name below it that nests once more
_NAMESPACES = {"pymdownx": "blocks", "zensical": "extensions"}


def listed_options(config: dict, setting: str, name: str) -> dict | None:
    """The options of ``name`` in the list ``setting`` names (``markdown_extensions``,
    ``plugins``, both read in either shape: module docstring): {} when listed without options,
    None when not listed."""
    for entry in entries(config.get(setting) if isinstance(config, dict) else None):
        if entry == name:
            return {}
        if isinstance(entry, dict) and name in entry:
            value = entry[name]
            return value if isinstance(value, dict) else {}
    return None


def entries(listed) -> list:
    """A setting's entries as a list of names and one-key mappings: a mapping is read as the
    list of its items, anything but a list or a mapping as empty (module docstring)."""
    if isinstance(listed, dict):
        return [{key: value} for key, value in listed.items()]
    return listed if isinstance(listed, list) else []


def nav_titles(config: dict) -> dict[str, str]:
    """{page path relative to docs_dir: its title in ``nav``} for ``- Title: page.md`` entries."""
    titles: dict[str, str] = {}

    def walk(items) -> None:
        if not isinstance(items, list):
            return
        for item in items:
            if not isinstance(item, dict):
                continue
            for title, value in item.items():
                if isinstance(value, str) and isinstance(title, str) and title.strip():
                    if value.endswith(".md") and "://" not in value:
                        titles.setdefault(posixpath.normpath(value.lstrip("/")), title.strip())
                else:
                    walk(value)

    walk(config.get("nav") if isinstance(config, dict) else None)
    return titles
