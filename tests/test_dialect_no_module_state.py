"""No module-level caches on the write side of ``contextpull/dialects/`` (issue 35, "No
module-level caches"): what a build works out about its site is kept by the site's reader
(``site_reader.SiteReader.once``), built once per build, so two builds in one process never share
state and nothing needs a file's stamp to notice an edit.

The check reads the source (``ast``), never imports it. A module may hold constants: compiled
patterns, frozensets, tuples, and dicts or lists that are tables (filled where they are written,
never changed after). It fails on:

- a ``functools.lru_cache`` or ``functools.cache`` decorator (by either name);
- a module-level name that a function changes: an item assigned or deleted (``_SEEN[k] = v``),
  or a method that changes a container called on it (``.clear()``, ``.setdefault()``, ...);
- a ``global`` statement: a function rebinding module state.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DIALECTS = Path(__file__).resolve().parent.parent / "contextpull" / "dialects"
CACHE_DECORATORS = {"lru_cache", "cache"}
MUTATORS = {
    "append", "add", "clear", "extend", "insert", "pop", "popitem", "remove", "discard",
    "setdefault", "update", "appendleft", "extendleft", "__setitem__", "__delitem__",
}


def module_state(source: str) -> list[str]:
    """Each place in ``source`` that keeps state at module level, as ``line: what``."""
    tree = ast.parse(source)
    names: set[str] = set()
    for stmt in tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
            stmt, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    names.add(node.id)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                if name in CACHE_DECORATORS:
                    found.append(f"{node.lineno}: @{name} on {node.name}")
            found += _changes(node, names)
    return found


def _changes(func: ast.AST, names: set[str]) -> list[str]:
    local = {a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)} if hasattr(func, "args") else set()
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            local.add(node.id)
    shared = names - local
    found = []
    for node in ast.walk(func):
        if isinstance(node, ast.Global):
            found.append(f"{node.lineno}: global {', '.join(node.names)}")
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in shared:
                found.append(f"{node.lineno}: {target.value.id}[...] changed in {func.name}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS
                and isinstance(node.func.value, ast.Name) and node.func.value.id in shared):
            found.append(f"{node.lineno}: {node.func.value.id}.{node.func.attr}() in {func.name}")
    return found


def test_no_module_of_the_dialects_keeps_state_at_module_level():
    found = {
        path.relative_to(DIALECTS).as_posix(): hits
        for path in sorted(DIALECTS.rglob("*.py"))
        if (hits := module_state(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.parametrize("source, hit", [
    ("from functools import lru_cache\n@lru_cache(maxsize=8)\ndef f(x):\n    return x\n", "@lru_cache on f"),
    ("import functools\n@functools.cache\ndef f(x):\n    return x\n", "@cache on f"),
    ("_SEEN = {}\ndef f(k):\n    _SEEN[k] = 1\n", "_SEEN[...] changed in f"),
    ("_SEEN: dict = {}\ndef f(k):\n    return _SEEN.setdefault(k, 1)\n", "_SEEN.setdefault() in f"),
    ("_SEEN = {}\ndef f():\n    _SEEN.clear()\n", "_SEEN.clear() in f"),
    ("_loader = None\ndef f():\n    global _loader\n    _loader = 1\n", "global _loader"),
])
def test_the_check_finds_each_kind_of_module_state(source, hit):
    assert any(hit in found for found in module_state(source))


def test_tables_constants_and_local_containers_pass():
    source = (
        "import re\nTABLE = {'a': 1}\nNAMES = frozenset('ab')\nPATTERN = re.compile('x')\n"
        "for k in 'bc':\n    TABLE[k] = 2\n"  # filled where it is written: a table
        "def f(x):\n    seen = {}\n    seen[x] = TABLE.get(x)\n    return seen\n"
        "def g(TABLE):\n    TABLE.clear()\n"  # a parameter of the same name is not the module's
    )
    assert module_state(source) == []
