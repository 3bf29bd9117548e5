"""mkdocstrings' ``::: identifier`` lines read from source (issue 37; the hook is
``dialects/mkdocs/blocks.py``).

Where the handler looks for modules: its ``paths`` in ``mkdocs.yml`` (relative to the folder of
``mkdocs.yml``; ``.`` when none are given), then the repository root and ``src/``, where a package
sits that mkdocstrings would find installed; never outside the repository, never an installed
packages folder. Only the Python handler is read; a ``:::`` line for another handler (or a site
whose default handler is not Python) is read as when the build reads no API reference.
"""

from __future__ import annotations

import re

from ...apiref.folders import dotted, search_folders
from ...apiref.options import mkdocs_options
from ...apiref.render import Renderer
from ..data.files import DataError, load_yaml

CONSTRUCT = "mkdocstrings"


def _handler(config: dict) -> tuple[dict, str]:
    """(the Python handler's configuration, the default handler's name)."""
    from .config import listed_options

    plugin = listed_options(config, "plugins", "mkdocstrings") or {}
    default = plugin.get("default_handler", "python") if isinstance(plugin, dict) else "python"
    handlers = plugin.get("handlers") if isinstance(plugin, dict) else None
    python = handlers.get("python") if isinstance(handlers, dict) else None
    return (python if isinstance(python, dict) else {}), str(default)


def render_identifier(ctx, identifier: str, body: list[str], line: int, heading: int | None = None) -> list[str] | None:
    """The Markdown lines ``::: identifier`` stands for, with its indented ``body`` (YAML:
    ``options``, ``handler``); None when the build reads no API reference (the line is then
    noted as before). ``heading``: the hashes written before ``:::`` (``## ::: pkg.Class``),
    which give the root its heading at that level, as mkdocstrings reads them."""
    api = ctx.reader.api_reference()
    if api is None or not dotted(identifier.replace(":", ".")):
        return None
    from .config import config_folder, site_config

    config = site_config(ctx, report=False)
    handler, default = _handler(config)
    local: dict = {}
    text = "\n".join(body)
    if text.strip():
        try:
            loaded = load_yaml(_dedent(text))
        except DataError as exc:
            ctx.note(CONSTRUCT, "unresolved", line, f"options of ::: {identifier}: {exc}; read without them")
            loaded = None
        local = loaded if isinstance(loaded, dict) else {}
    name = local.get("handler", default)
    if name != "python":
        # Another language's handler: read as when the build reads no API reference, so the
        # page's store is the same whether the setting is on or off (it reads no source).
        return None
    paths = handler.get("paths")
    folder = config_folder(ctx)
    folders, refused = search_folders(api.repo_root, folder, paths if isinstance(paths, list) else ["."])
    for reason in refused:
        ctx.note(CONSTRUCT, "unresolved", line, f"::: {identifier}: {reason}; never read")
    for fallback in ("", "src"):
        if fallback not in folders:
            folders.append(fallback)
    own = local.get("options") if isinstance(local.get("options"), dict) else None
    if heading is not None:
        own = {"heading_level": heading, "show_root_heading": True, **(own or {})}
    options = mkdocs_options(handler, own)
    session = api.session(ctx, folders)
    rendered = Renderer(session, options, CONSTRUCT, line, autorefs).root(identifier.replace(":", "."))
    return ["", *rendered] if rendered else []


# mkdocs-autorefs' cross-references, ``[text][package.Object]`` and ``[package.Object][]``: the
# page shows the text as a link. Each part is bounded and free of nested quantifiers (linear).
_AUTOREF = re.compile(r"\[([^\[\]\n]{1,300})\]\[([\w.]{0,300})\]")


def autorefs(text: str) -> str:
    """A docstring's prose as the page shows it: cross-references as their text."""
    return _AUTOREF.sub(lambda m: m.group(1), text) if "][" in text else text


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text.expandtabs(4))
