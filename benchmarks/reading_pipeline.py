"""The reading pipeline's shape, counted from a checkout's source (issue 35, "Reading pipeline").

    python benchmarks/reading_pipeline.py CHECKOUT [CHECKOUT ...]

Prints one column per checkout (side by side, so a before and an after read in one table):

- modules and lines in ``contextpull/dialects/`` (lines as ``wc -l`` counts them);
- module-level caches on the write side: functions decorated with ``functools.cache`` or
  ``lru_cache``, and module-level names bound to an empty ``dict``/``list``/``set`` (a literal or
  a call) that a function of the module then fills — state that outlives a build and leaks
  between sites read in one process;
- regular expressions on the write side: ``re.compile`` calls and ``re.search/match/...`` calls
  whose pattern is a literal (whether each runs in bounded time is
  ``benchmarks/pattern_census.py``'s to measure);
- places that spell the dialect names as a list (a literal of at least four of them in the
  package's or ``builder/``'s code, a line of ``action.yml`` naming four): each is a list to keep
  in step by hand (``action.yml``'s is held to the table by a test now);
- modules under ``contextpull/`` outside ``cli/`` and the MCP server that name the process
  environment (``os.environ``, ``os.getenv``); ``tests/test_environment_reads.py`` says why each
  one left does.

Counting is by syntax only, so it runs on any commit without installing it.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

WRITE_SIDE = ("dialects", "parsing", "writing", "ingest", "artifact", "checks", "settings", "apiref", "scan")
RE_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "finditer", "findall"}
NAMES = ("mkdocs", "docusaurus", "hugo", "mdbook", "sphinx", "jekyll")
ENV_ALLOWED = ("contextpull/cli/", "contextpull/serving/mcp_server.py")


def _write_side_files(root: Path) -> list[Path]:
    package = root / "contextpull"
    files = [p for sub in WRITE_SIDE if (package / sub).is_dir() for p in (package / sub).rglob("*.py")]
    return sorted(files)


def _is_cache_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in {"lru_cache", "cache"}


def _empty_container(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set)):
        return not getattr(value, "keys", None) and not getattr(value, "elts", None)
    if isinstance(value, ast.Call) and not value.args and not value.keywords:
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in {"dict", "list", "set", "OrderedDict", "defaultdict"}
    return False


def module_caches(tree: ast.Module) -> list[str]:
    found: list[str] = []
    empties: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(_is_cache_decorator(d) for d in node.decorator_list):
                found.append(f"{node.name} (decorated cache, line {node.lineno})")
        elif isinstance(node, ast.Assign) and _empty_container(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    empties[target.id] = node.lineno
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _empty_container(node.value):
            empties[node.target.id] = node.lineno
    if empties:
        filled = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Subscript, ast.Attribute)) and isinstance(inner.value, ast.Name):
                        if inner.value.id in empties and (
                            isinstance(inner, ast.Subscript) and isinstance(inner.ctx, ast.Store)
                            or isinstance(inner, ast.Attribute) and inner.attr in {"setdefault", "update", "append", "add"}
                        ):
                            filled.add(inner.value.id)
        found += [f"{name} (module {kind}, line {empties[name]})" for name, kind in
                  ((n, "container") for n in sorted(filled))]
    return found


def patterns(tree: ast.Module) -> int:
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RE_CALLS:
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "re" and node.args:
                first = node.args[0]
                if node.func.attr == "compile" or isinstance(first, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                    count += 1
    return count


_NAME_RE = re.compile(r"\b(" + "|".join(NAMES) + r")\b")


def name_lists(root: Path) -> list[str]:
    """Literal lists, tuples and sets of at least four dialect names in code (docstrings and
    comments are prose, not lists to keep in step), and lines of ``action.yml`` naming four."""
    places = []
    candidates = [*root.joinpath("contextpull").rglob("*.py"), *root.joinpath("builder").rglob("*.py")]
    for path in sorted(p for p in candidates if p.is_file()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                names = {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in NAMES}
                if len(names) >= 4:
                    places.append(f"{path.relative_to(root)}:{node.lineno}")
    action = root / "action.yml"
    if action.is_file():
        for number, line in enumerate(action.read_text(encoding="utf-8").splitlines(), 1):
            if len(set(_NAME_RE.findall(line))) >= 4:
                places.append(f"action.yml:{number}")
    return places


def environment_reads(root: Path) -> list[str]:
    found = []
    for path in sorted(root.joinpath("contextpull").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(ENV_ALLOWED):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv")
                    and isinstance(node.value, ast.Name) and node.value.id == "os"):
                found.append(rel)
                break
    return found


def measure(root: Path) -> dict[str, object]:
    dialects = sorted(root.joinpath("contextpull", "dialects").rglob("*.py"))
    caches: list[str] = []
    pattern_count = 0
    for path in _write_side_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        caches += [f"{path.relative_to(root)}: {c}" for c in module_caches(tree)]
        pattern_count += patterns(tree)
    return {
        "dialects modules": len(dialects),
        "dialects lines": sum(len(p.read_text(encoding="utf-8").splitlines()) for p in dialects),
        "module-level caches (write side)": caches,
        "regular expressions (write side)": pattern_count,
        "dialect name lists": name_lists(root),
        "modules reading the environment": environment_reads(root),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--list", action="store_true", help="print what each count is made of")
    args = parser.parse_args(argv)
    results = [measure(c.resolve()) for c in args.checkouts]
    width = max(len(str(c)) for c in args.checkouts) + 2
    print(f"{'':36}" + "".join(f"{str(c):>{width}}" for c in args.checkouts))
    for key in results[0]:
        cells = [r[key] if isinstance(r[key], int) else len(r[key]) for r in results]
        print(f"{key:36}" + "".join(f"{cell:>{width}}" for cell in cells))
    if args.list:
        for checkout, result in zip(args.checkouts, results):
            for key, value in result.items():
                if isinstance(value, list) and value:
                    print(f"\n{checkout}: {key}")
                    for item in value:
                        print(f"  {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
