"""The package's import graph has no cycles, lazy imports included (issue 21).

A cycle, even one hidden in a function body, means two modules cannot be understood or moved
apart; the reader core has to read like the spec, one module a section. Imports under
``if TYPE_CHECKING:`` are annotations only and do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import contextpull

PACKAGE_DIR = Path(contextpull.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(base: str, names: list[str]) -> None:
        targets = [f"{base}.{n}" for n in names if f"{base}.{n}" in known]
        if targets:
            found.update(targets)
        elif base in known:
            found.add(base)

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name in known:
                        found.add(alias.name)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base_parts = package.split(".")
                    base_parts = base_parts[: len(base_parts) - (child.level - 1)]
                    base = ".".join(base_parts + ([child.module] if child.module else []))
                else:
                    base = child.module or ""
                resolve(base, [a.name for a in child.names])
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = walk(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = walk(node)
            if cycle:
                return cycle
    return None


def test_the_package_has_no_import_cycle():
    assert find_cycle(import_graph()) is None


def test_the_graph_sees_lazy_imports_and_the_finder_reports_a_cycle():
    graph = import_graph()
    # a function-body import is an edge: build_job loads the index workers only when it builds
    assert "contextpull.indexing.indexers" in graph["contextpull.artifact.build_job"]
    assert "contextpull.ops" in graph["contextpull.grep.regex_child"]
    graph["contextpull.grep.regex"] = graph["contextpull.grep.regex"] | {"contextpull.ops"}
    assert find_cycle(graph) == ["contextpull.ops", "contextpull.grep.regex", "contextpull.ops"]


# docs/architecture.md, "Rooms": each room and the rooms it may import (the reader core always).
ROOMS = {
    # beneath the core and every room: guarded reads, a child's environment, lazy exports, the
    # install hint; any module may import it, and it imports nothing of the package
    "system": set(),
    "grep": set(),
    "search": set(),
    "parsing": set(),
    # API pages read from source (issue 37): the mkdocs and Sphinx hooks call apiref, which
    # imports no dialect (the per-build state it keeps is held by the site's reader); its labels
    # stand before a block by the parser's block-start rule, as the dialects' do.
    "dialects": {"parsing", "apiref", "scan"},
    "apiref": {"parsing"},
    # linear scanners the write side shares (path patterns, links as text)
    "scan": set(),
    "writing": {"parsing", "search", "scan"},
    # the search indexes of finished rows: FTS5 segments, trigrams, search_impacts
    "indexing": {"search"},
    "ingest": {"writing", "indexing", "parsing", "dialects", "models", "settings", "apiref"},
    "checks": {"writing"},
    "artifact": {"writing", "indexing", "ingest", "checks", "dialects", "settings"},
    "models": {"search", "scan"},
    "serving": {"writing", "checks"},
    "eval": {"models", "serving"},
    "cli": {"ingest", "artifact", "checks", "serving", "eval", "settings", "dialects"},
    "settings": {"models", "checks", "dialects"},
}


def _room(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else None


def test_rooms_import_only_what_the_architecture_table_says():
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        if _room(module)
        for target in targets
        if _room(target) not in (None, _room(module), "system") and _room(target) not in ROOMS[_room(module)]
    )
    assert wrong == []


def test_every_room_is_in_the_table():
    rooms = {p.name for p in PACKAGE_DIR.iterdir() if (p / "__init__.py").is_file()}
    assert rooms == set(ROOMS)


# Top-level modules that are not the reader core: each is the stable public name over a surface or
# the write side (``__main__`` over the CLI, ``server`` over the MCP server, ``config`` over
# ``settings``). Every other top-level module is the reader core.
PUBLIC_NAMES = {"contextpull.__main__", "contextpull.server", "contextpull.config"}
# The rooms the reader core may import: grep and search are read-side; models only for a hybrid
# query's embedding, loaded on the first such query (ops._store_model).
READER_ROOMS = {"system", "grep", "search", "models"}


def _top_level(module: str) -> bool:
    return module == "contextpull" or (module.count(".") == 1 and _room(module) is None)


def test_the_reader_core_top_level_modules_import_nothing_of_the_write_side():
    graph = import_graph()
    core = sorted(m for m in graph if _top_level(m) and m not in PUBLIC_NAMES)
    assert "contextpull.store" in core and "contextpull.ops" in core and "contextpull.tools" in core
    wrong = sorted(
        f"{module} -> {target}"
        for module in core
        for target in graph[module]
        if not (_top_level(target) and target not in PUBLIC_NAMES) and _room(target) not in READER_ROOMS
    )
    assert wrong == []


def test_the_package_uses_its_settings_by_their_room_not_the_public_name():
    """``contextpull.config`` is kept for callers outside the package; inside it an import of it
    would hide a write-side edge behind a top-level name."""
    assert sorted(m for m, targets in import_graph().items() if "contextpull.config" in targets) == []
