"""``docs.json`` and the older ``mint.json``, read as data (issue 36): what the build takes from
them, and what in them has a shape Mintlify would not read.

The navigation is a tree of objects (``languages``, ``versions``, ``tabs``, ``anchors``,
``dropdowns``, ``products``, ``groups``, ``menu`` in ``docs.json``; a list of groups in
``mint.json``) whose leaves are pages, written as paths without extension (``cli/install``),
and whose groups have names (``"group": "Get started"``). The walk is bounded (depth and nodes),
so a hostile file costs what it weighs. A value of the wrong kind is a named problem; the site is
still read, with what could be read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ...system.bounded_read import CONFIG_FILE_LIMIT

# Top-level keys of a Mintlify configuration, one of which every docs.json has (its schema requires
# ``name``, ``theme``, ``colors`` and ``navigation``): what tells it from another tool's docs.json.
MINTLIFY_KEYS = ("$schema", "name", "theme", "colors", "navigation")
# The keys of docs.json whose values hold more navigation (each a list of objects or one object).
_BRANCHES = ("languages", "versions", "tabs", "anchors", "dropdowns", "products", "groups", "menu",
             "pages", "navigation", "global")
MAX_DEPTH = 32
MAX_NODES = 100_000


@dataclass(frozen=True)
class Navigation:
    roots: dict[str, str]  # page path -> the name of the group whose ``root`` it is
    openapi_files: list[str]  # the ``openapi`` files its tabs, groups and anchors name, in order
    problems: list[str]


def walk(config: dict) -> Navigation:
    """What the navigation says (``Navigation``). The sidebar draws a group with a ``root`` as
    one entry, named by the group, that opens its root page: that name is the page's title where
    the page gives none."""
    groups: dict[str, str] = {}
    problems: list[str] = []
    files: list[str] = []
    nav = config.get("navigation")
    if nav is None:
        return Navigation(groups, files, problems)
    if not isinstance(nav, (dict, list)):
        return Navigation(groups, files, [f"navigation is a {type(nav).__name__}, not an object or a list: no navigation read"])
    budget = [MAX_NODES]
    _walk(nav, "", "navigation", 0, (groups, files), problems, budget)
    if budget[0] <= 0:
        problems.append(f"navigation has more than {MAX_NODES} entries: the rest not read")
    return Navigation(groups, files, problems)


def _walk(node, group: str, where: str, depth: int, found: tuple, problems: list, budget: list) -> None:
    groups, files = found
    budget[0] -= 1
    if budget[0] <= 0:
        return
    if depth > MAX_DEPTH:
        if len(problems) < 100:
            problems.append(f"{where}: nested deeper than {MAX_DEPTH}: not read")
        return
    if isinstance(node, str):
        return
    if isinstance(node, list):
        for k, item in enumerate(node):
            _walk(item, group, f"{where}[{k}]", depth + 1, found, problems, budget)
        return
    if not isinstance(node, dict):
        if len(problems) < 100:
            problems.append(f"{where} is a {type(node).__name__}: not a page or a group, ignored")
        return
    name = node.get("group")
    if name is not None and not isinstance(name, str):
        if len(problems) < 100:
            problems.append(f"{where}.group is a {type(name).__name__}, not a name: ignored")
        name = None
    inner = name.strip() if isinstance(name, str) and name.strip() else group
    spec = node.get("openapi")
    spec = spec.get("source") if isinstance(spec, dict) else spec  # docs.json's {source, directory}
    for f in [spec] if isinstance(spec, str) else spec if isinstance(spec, list) else []:
        if isinstance(f, str) and f not in files:
            files.append(f)
    root = node.get("root")
    if isinstance(root, str) and root.strip() and inner:
        groups.setdefault(root.strip().strip("/"), inner)
    for key in _BRANCHES:
        if key in node:
            child = node[key]
            if not isinstance(child, (list, dict, str)):
                if len(problems) < 100:
                    problems.append(f"{where}.{key} is a {type(child).__name__}, not a list: ignored")
                continue
            _walk(child, inner, f"{where}.{key}", depth + 1, found, problems, budget)


def is_mintlify(door, folder: Path) -> bool:
    """Whether ``folder`` is a Mintlify site (``registry.Dialect.confirm``): ``mint.json`` is
    Mintlify's own name; ``docs.json`` is a common one, so it counts unless it is JSON and not an
    object with one of Mintlify's keys (a list, another tool's file). A ``docs.json`` that is
    not JSON counts: the report names its problem and the site is still read as Mintlify."""
    if door.is_file(str(folder / "mint.json")):
        return True
    try:
        data = json.loads(door.read(str(folder / "docs.json"), CONFIG_FILE_LIMIT).decode("utf-8-sig", "replace"))
    except (OSError, ValueError, RecursionError):
        return True
    return isinstance(data, dict) and any(key in data for key in MINTLIFY_KEYS)
