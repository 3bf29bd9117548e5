"""The library reads no environment (issue 35, "One spine").

Settings and the environment are resolved once where a run starts (the CLI, the MCP server, the
Action's ``builder/``) and passed down as values (``contextpull/settings/environment.py``); the
library's entry points take the caller's ``Environment`` as an argument. So the bytes
of a build follow from its arguments and a worker process cannot read a different
``SOURCE_DATE_EPOCH`` from the one the build checked. Found from the source: every
``os.environ``, ``os.getenv``/``os.putenv``, ``from os import environ`` and ``environ.get`` of a
name bound to it, outside the functions listed here with why.
"""

from __future__ import annotations

import ast
from pathlib import Path

import contextpull

PACKAGE_DIR = Path(contextpull.__file__).resolve().parent

# Surfaces: every function in these may read the process environment.
SURFACE_PREFIXES = ("cli/", "server.py")
# (module path, function) pairs outside the surfaces, each a surface of its own or a copy handed
# to a child process, never a setting looked up in the library.
ALLOWED = {
    # A reader without its own embed_fn takes a hosted model's key from the process.
    ("models/embedders.py", "query_vectors"): "the read side's query embedder (Ops, serve)",
    # What a child process starts with: copied whole, never consulted.
    ("system/child_env.py", "without_git_variables"): "git must ask the repository that holds DOCS",
    ("system/child_env.py", "with_python_path"): "the grep child imports this very package",
    # The evaluation harness: a retriever an external runner (ragbisect) constructs.
    ("eval/api_loop.py", "ApiLoopRetriever.__init__"): "the harness's model key",
    ("eval/claude_code.py", "ClaudeCodeRetriever.__init__"): "CONTEXTPULL_SERVER_PYTHON",
    ("eval/stores.py", "store_path"): "CONTEXTPULL_STORE, the harness's default store",
}


def _reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, enclosing function's dotted name) of every environment read in ``tree``."""
    found: list[tuple[int, str]] = []
    bound = set()  # names ``from os import environ/getenv`` bound
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            bound |= {a.asname or a.name for a in node.names if a.name in ("environ", "getenv", "environb")}

    def is_read(node: ast.AST) -> bool:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os":
            return node.attr in ("environ", "environb", "getenv", "getenvb", "putenv", "unsetenv")
        return isinstance(node, ast.Name) and node.id in bound and isinstance(node.ctx, ast.Load)

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(child, scope + [child.name])
                continue
            if is_read(child):
                found.append((child.lineno, ".".join(scope) or "<module>"))
            visit(child, scope)

    visit(tree, [])
    return found


def environment_reads() -> list[str]:
    out = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR).as_posix()
        if rel.startswith(SURFACE_PREFIXES):
            continue
        for line, scope in _reads(ast.parse(path.read_text(encoding="utf-8"))):
            if (rel, scope) not in ALLOWED:
                out.append(f"{rel}:{line} in {scope}")
    return out


def test_only_the_surfaces_read_the_environment():
    assert environment_reads() == []


def test_the_finder_sees_every_spelling_of_a_read():
    code = (
        "import os\nfrom os import environ as env, getenv\n"
        "X = os.environ.get('A')\n"
        "def f(environ=os.environ):\n    return environ\n"
        "class C:\n    def m(self):\n        return env['B'] + getenv('C') + os.getenv('D')\n"
        "def g(environ):\n    return environ.get('E')\n"  # a mapping passed in: an argument, not a read
    )
    assert _reads(ast.parse(code)) == [(3, "<module>"), (4, "f"), (8, "C.m"), (8, "C.m"), (8, "C.m")]


def test_every_allowed_read_still_exists():
    """An allowance whose read has gone is removed, so the list stays the list of exceptions."""
    seen = set()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR).as_posix()
        seen |= {(rel, scope) for _, scope in _reads(ast.parse(path.read_text(encoding="utf-8")))}
    assert set(ALLOWED) - seen == set()
