"""Sphinx autodoc directives read from source (issue 37; the hooks are the ``Autodoc`` stand-in of
``dialects/sphinx/rst/directives.py`` and the MyST reader's autodoc branch).

Where modules are looked for: the ``sys.path.insert``/``append`` entries of ``conf.py``, read as
data (the ``ast`` of the file, never run: ``os.path.abspath("..")``, ``os.path.join(...)``,
``pathlib.Path(__file__).parent / "src"`` and plain strings, relative to the folder of conf.py),
then ``src/`` and the repository root. A name is completed with the current module
(``.. module::`` / ``.. currentmodule::``, which the page sets) as autodoc does. Docstrings are
reStructuredText on a Sphinx site: their prose goes through the line reader that also reads pages
too large for docutils (``sphinx.rst.lines``), so roles and literals read as text.
"""

from __future__ import annotations

import ast
import posixpath
from dataclasses import replace

from ...apiref.folders import dotted, search_folders
from ...apiref.options import sphinx_options
from ...apiref.render import Renderer, autosummary
from .rst.lines import to_markdown

CONSTRUCT = "rst autodoc"
_BASE = {"automodule", "autoclass", "autoexception", "autofunction", "automethod", "autoattribute",
         "autodata", "autoproperty", "autodecorator", "autosummary"}
MAX_CONF_BYTES = 1024 * 1024


def handles(name: str) -> bool:
    key = name.lower()
    return (key[3:] if key.startswith("py:") else key) in _BASE


def conf_paths(text: str) -> list[str]:
    """The folders ``conf.py`` puts on ``sys.path``, as paths relative to its folder; what is
    computed in a way this reading does not follow is left out."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func = node.func
        if func.attr not in ("insert", "append") or _dotted(func.value) != "sys.path" or not node.args:
            continue
        path = _path(node.args[-1])
        if path is not None:
            out.append(path)
    return out


def _dotted(node) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _path(node) -> str | None:
    """A path expression of conf.py as a path relative to its folder, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        if name in ("os.path.abspath", "os.path.realpath", "os.path.normpath", "str", "Path",
                    "pathlib.Path", "os.fspath") and len(node.args) == 1:
            return _path(node.args[0])
        if name == "os.path.join" and node.args:
            parts = [_path(a) for a in node.args]
            return None if any(p is None for p in parts) else posixpath.join(*parts)
        if name in ("os.path.dirname",) and len(node.args) == 1:
            inner = _path(node.args[0])
            return None if inner is None else (posixpath.dirname(inner) if inner != "." else "..")
        if isinstance(node.func, ast.Attribute) and node.func.attr == "resolve":
            return _path(node.func.value)
    if isinstance(node, ast.Name) and node.id == "__file__":
        return "./conf.py"
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        inner = _path(node.value)
        return None if inner is None else (posixpath.dirname(inner) or ".")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _path(node.left), _path(node.right)
        return None if left is None or right is None else posixpath.join(left, right)
    return None


def _folders(ctx, api) -> tuple[list[str], list[str]]:
    conf = ctx.site.config_file or ""
    base = posixpath.dirname(conf) if conf.endswith("conf.py") else ""
    paths: list[str] = []
    if conf.endswith("conf.py"):
        data = ctx.read_data(conf)
        if data is not None and len(data) <= MAX_CONF_BYTES:
            paths = conf_paths(data.decode("utf-8", "replace"))
    folders, refused = search_folders(api.repo_root, base, paths)
    for fallback in ("src", ""):
        if fallback not in folders:
            folders.append(fallback)
    return folders, refused


def render_directive(ctx, name: str, argument: str, options: dict, content: list[str],
                     module: str, line: int, construct: str = CONSTRUCT) -> list[str] | None:
    """The Markdown an autodoc directive stands for; None when the build reads no API
    reference. ``module`` is the page's current module ('' when none)."""
    api = ctx.reader.api_reference()
    if api is None:
        return None
    key = name.lower()
    key = key[3:] if key.startswith("py:") else key
    target = argument.strip().split("(", 1)[0].strip()
    names = [c.strip().split()[0] for c in content if c.strip() and not c.strip().startswith(":")]
    if (key == "autosummary" and not any(dotted(n) for n in names)) or (key != "autosummary" and not dotted(target)):
        return None  # nothing to read: as without API reference (folders.dotted says why)
    folders, refused = _folders(ctx, api)
    for reason in refused:
        ctx.note(construct, "unresolved", line, f"{name} {argument}: {reason}; never read")
    config = ctx.config if isinstance(ctx.config, dict) else {}
    defaults = config.get("autodoc_default_options")
    if not isinstance(defaults, dict):
        defaults = {}
    order = config.get("autodoc_member_order")
    if isinstance(order, str) and "member-order" not in options:
        options = {**options, "member-order": order}
    written = argument.strip()
    signature = written[written.index("("):] if "(" in written and written.endswith(")") else None
    opts = sphinx_options(defaults, options, key, config.get("autoclass_content", "class"), signature)
    # Docstrings are Sphinx fields (:param x:) unless napoleon also reads Google and NumPy ones.
    extensions = config.get("extensions")
    napoleon = isinstance(extensions, list) and any(
        isinstance(e, str) and e in ("sphinx.ext.napoleon", "numpydoc") for e in extensions)
    typehints = config.get("autodoc_typehints", "signature")
    described = config.get("autodoc_typehints_description_target", "all")
    opts = replace(opts, docstring_style="auto" if napoleon else "sphinx",
                   annotations_path="full" if config.get("autodoc_typehints_format") == "fully-qualified" else "brief",
                   overloads="" if typehints == "none" else "only",
                   signature_annotations=typehints not in ("description", "none"),
                   attribute_annotations=typehints != "none",
                   description_types=(described if described in ("all", "documented", "documented_params") else "all")
                   if typehints in ("description", "both") else "")
    session = api.session(ctx, folders)

    def text(docstring: str) -> str:
        return to_markdown(docstring, config)

    if key == "autosummary":
        return autosummary(session, names, module, opts, construct, line, text)
    path = _qualified(session, target, module, key)
    return Renderer(session, opts, construct, line, text).root(path)


def _qualified(session, target: str, module: str, key: str) -> str:
    """``target`` completed with the current module when it does not name a module itself, as
    autodoc does (``autoclass:: Flask`` under ``.. module:: flask`` is ``flask.Flask``)."""
    if key == "automodule" or not module or target.startswith(module + "."):
        return target
    first = target.split(".", 1)[0]
    try:
        if session.module(first) is not None:
            return target
    except Exception:  # noqa: BLE001 - an unreadable module: the qualified name is tried
        pass
    return f"{module}.{target}"
