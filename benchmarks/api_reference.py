#!/usr/bin/env python3
"""API reference from source (issue 37): each project built twice side by side, with and without
``--no-api-reference``, then ten queries against the store built with it.

Per project it prints: pages that were stubs (skipped as "no text to index" without API
reference) and are now read, objects rendered (summed from the ``resolved`` notes) and the
unresolved API constructs, sections added, build wall time with and without and their ratio
(target under 2x) and CPU time (user + system, workers included: steadier than wall time on a
busy machine), peak RSS of each build (wait4, reaped workers included). Then ten queries:
``grep`` of a method's signature must find the method's section (its heading path ends in the
method, or a short section merged before it carries its heading),
``search`` for a class name must rank a section of its API page in the top 3; the place is
recorded up to 20, and the class is asked for again by its qualified name (``flask.Flask``).

    .venv/bin/python benchmarks/api_reference.py
    .venv/bin/python benchmarks/api_reference.py --project pydantic=/tmp/pydantic:docs --json api.json

Projects are plain trees with a ``.git`` folder (the guard root); defaults are the fastapi and
flask trees of issue 26 and a pydantic tree (extracted from pydantic/pydantic at the commit the
README names). Builds run with ``SOURCE_DATE_EPOCH`` fixed, one at a time, after this checkout's
bytecode is compiled (``precompile.py``): the build with API reference imports modules the one
without never does, and under ``PYTHONDONTWRITEBYTECODE`` it compiled them on every run.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from precompile import compile_package  # noqa: E402
from real_docs import run_child  # noqa: E402

DEFAULTS = {
    "fastapi": "/work/corpora/six/fastapi:docs/en/docs",
    "flask": "/work/corpora/six/flask:docs",
    "pydantic": "/tmp/api-corp/pydantic:docs",
}
API_CONSTRUCTS = ("mkdocstrings", "rst autodoc", "myst autodoc")

# (signature grep, the method it belongs to, a class name searched, the page that documents it);
# each method is one the site's own options show (fastapi lists the members of each class).
QUERIES = {
    "fastapi": [
        ("def include_router(", "include_router", "APIRouter", "reference/apirouter.md"),
        ("def add_task(", "add_task", "BackgroundTasks", "reference/background.md"),
        ("def exception_handler(", "exception_handler", "FastAPI", "reference/fastapi.md"),
        ("async def read(", "read", "UploadFile", "reference/uploadfile.md"),
        ("def websocket(", "websocket", "HTTPException", "reference/exceptions.md"),
        ("def Depends(", "Depends", "WebSocketException", "reference/exceptions.md"),
        ("def Query(", "Query", "OAuth2PasswordBearer", "reference/security/index.md"),
        ("def jsonable_encoder(", "jsonable_encoder", "HTTPBearer", "reference/security/index.md"),
        ("def Security(", "Security", "SecurityScopes", "reference/security/index.md"),
        ("def on_event(", "on_event", "APIKeyHeader", "reference/security/index.md"),
    ],
    "flask": [
        ("def test_client(", "test_client", "Flask", "api.rst"),
        ("def register_blueprint(", "register_blueprint", "Blueprint", "api.rst"),
        ("def make_response(", "make_response", "SessionInterface", "api.rst"),
        ("def from_object(", "from_object", "Config", "api.rst"),
        ("def as_view(", "as_view", "MethodView", "api.rst"),
        ("def open_session(", "open_session", "SecureCookieSessionInterface", "api.rst"),
        ("def get_namespace(", "get_namespace", "FlaskClient", "api.rst"),
        ("def redirect(", "redirect", "FlaskCliRunner", "api.rst"),
        ("def add_url_rule(", "add_url_rule", "DefaultJSONProvider", "api.rst"),
        ("def load_dotenv(", "load_dotenv", "ScriptInfo", "api.rst"),
    ],
    "pydantic": [
        ("def model_dump(", "model_dump", "BaseModel", "api/base_model.md"),
        ("def model_validate_json(", "model_validate_json", "RootModel", "api/root_model.md"),
        ("def validate_python(", "validate_python", "TypeAdapter", "api/type_adapter.md"),
        ("def create_model(", "create_model", "ConfigDict", "api/config.md"),
        ("def field_validator(", "field_validator", "AliasChoices", "api/aliases.md"),
        ("def computed_field(", "computed_field", "AliasPath", "api/aliases.md"),
        ("def validate_call(", "validate_call", "PydanticUserError", "api/errors.md"),
        ("def Field(", "Field", "FieldInfo", "api/fields.md"),
        ("def model_serializer(", "model_serializer", "GenerateJsonSchema", "api/json_schema.md"),
        ("def with_config(", "with_config", "PlainSerializer", "api/functional_serializers.md"),
    ],
}


# The import name each project's docs write before a class (``flask.Flask``): the second search
# asks for the class by it, as an agent that read the name in code would.
PACKAGES = {"fastapi": "fastapi", "flask": "flask", "pydantic": "pydantic"}
RANKS = 20  # hits asked for: the tools' default page is 10, the target is the first 3

CHECKOUT = Path(__file__).resolve().parent.parent


def _cli() -> list[str]:
    return [sys.executable, "-m", "contextpull"]


def _env() -> dict:
    """The children's environment: this checkout's ``contextpull`` first on the path. A build
    runs in the project's tree, where ``-m`` finds no ``contextpull``, and a query wherever the
    script was started: without it they imported whichever checkout the virtualenv installs (a
    worktree's builds ran the main checkout's code)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CONTEXTPULL_"))}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(CHECKOUT), os.environ.get("PYTHONPATH", "")) if p)
    return env


def _build(root: Path, docs: str, out: Path, *extra: str) -> dict:
    env = _env()
    env["SOURCE_DATE_EPOCH"] = "1700000000"
    cmd = [*_cli(), "build", docs, "--out", str(out), "--json", "--dialect", "auto", *extra]
    result = run_child(cmd, 1800, cwd=str(root), env=env)
    if result["rc"] != 0:
        raise SystemExit(f"build failed in {root}: {result['stderr'][-2000:]}")
    result["report"] = json.loads(result["stdout"])
    return result


def _rows(store: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _api_notes(store: Path) -> tuple[int, int]:
    """(objects rendered, unresolved API constructs) from the stored construct report."""
    (value,) = _rows(store, "SELECT value FROM meta WHERE key = 'dialect_reads'")[0]
    objects = unresolved = 0
    for entry in json.loads(value).values():
        for construct, outcome, _line, detail in entry.get("notes", []):
            if construct not in API_CONSTRUCTS:
                continue
            if outcome == "unresolved":
                unresolved += 1
            elif outcome == "resolved" and "objects from source" in detail:
                objects += int(detail.rsplit(": ", 1)[1].split()[0])
            elif outcome == "resolved" and detail.startswith("autosummary of "):
                objects += int(detail.split()[2])
    return objects, unresolved


def _shows(store: Path, match: dict, method: str) -> bool:
    """Whether the section grep found is the method's: its heading path ends in the method, or
    (a short section merged with the next one keeps the first heading path) its text holds the
    method's heading."""
    if match["heading_path"].rsplit(" > ", 1)[-1].rsplit(".", 1)[-1] == method:
        return True
    read = subprocess.run([*_cli(), "read", match["id"], "--store", str(store), "--json"],
                          capture_output=True, text=True, check=True, env=_env())
    return any(line.lstrip("#").strip().rsplit(".", 1)[-1] == method
               for line in json.loads(read.stdout)["text"].split("\n") if line.startswith("#"))


def _queries(name: str, store: Path) -> list[dict]:
    out = []
    for signature, method, cls, page in QUERIES.get(name, []):
        grep = json.loads(subprocess.run([*_cli(), "grep", signature, "--store", str(store), "--json", "--limit", "100"],
                                         capture_output=True, text=True, check=True, env=_env()).stdout)
        found = [m["id"] for m in grep["matches"] if _shows(store, m, method)]
        qualified = f"{PACKAGES[name]}.{cls}"
        out.append({"grep": signature, "grep_section": found[0] if found else None,
                    "search": cls, "page": page, "rank": _rank(store, cls, page),
                    "qualified": qualified, "qualified_rank": _rank(store, qualified, page)})
    return out


def _rank(store: Path, query: str, page: str) -> int | None:
    """The place of the first hit on ``page`` among the first ``RANKS`` hits of ``search``."""
    search = subprocess.run([*_cli(), "search", query, "--store", str(store), "--json", "--limit", str(RANKS)],
                            capture_output=True, text=True, check=False, env=_env())
    hits = json.loads(search.stdout).get("hits", []) if search.stdout.strip() else []
    ranks = [i + 1 for i, h in enumerate(hits) if h["id"].split("#", 1)[0] == page]
    return ranks[0] if ranks else None


def measure(name: str, spec: str, work: Path) -> dict:
    root_text, _, docs = spec.partition(":")
    root = Path(root_text)
    on = _build(root, docs, work / f"{name}-on")
    off = _build(root, docs, work / f"{name}-off", "--no-api-reference")
    store_on, store_off = work / f"{name}-on" / "store.sqlite", work / f"{name}-off" / "store.sqlite"
    docs_on = {p for (p,) in _rows(store_on, "SELECT path FROM documents")}
    docs_off = {p for (p,) in _rows(store_off, "SELECT path FROM documents")}
    sections_on = _rows(store_on, "SELECT count(*) FROM sections")[0][0]
    sections_off = _rows(store_off, "SELECT count(*) FROM sections")[0][0]
    objects, unresolved = _api_notes(store_on)
    queries = _queries(name, store_on)
    commit = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%h"], capture_output=True, text=True).stdout.strip()
    return {
        "project": name, "tree": str(root), "tree_commit": commit or None,
        "stubs_now_read": sorted(docs_on - docs_off), "documents_lost": sorted(docs_off - docs_on),
        "objects_rendered": objects, "api_unresolved": unresolved,
        "sections_without": sections_off, "sections_with": sections_on,
        "wall_without_s": round(off["wall_s"], 2), "wall_with_s": round(on["wall_s"], 2),
        "ratio": round(on["wall_s"] / off["wall_s"], 2),
        "cpu_without_s": round(off["cpu_s"], 2), "cpu_with_s": round(on["cpu_s"], 2),
        "cpu_ratio": round(on["cpu_s"] / off["cpu_s"], 2),
        "rss_without_mb": round(off["rss_mb"], 1), "rss_with_mb": round(on["rss_mb"], 1),
        "grep_found": sum(q["grep_section"] is not None for q in queries),
        "search_top3": sum(q["rank"] is not None and q["rank"] <= 3 for q in queries),
        "search_top10": sum(q["rank"] is not None and q["rank"] <= 10 for q in queries),
        "qualified_top3": sum(q["qualified_rank"] is not None and q["qualified_rank"] <= 3 for q in queries),
        "either_top3": sum(any(r is not None and r <= 3 for r in (q["rank"], q["qualified_rank"])) for q in queries),
        "queries": queries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--project", action="append", default=[],
                        help="NAME=ROOT:DOCS (repeatable); default: fastapi, flask, pydantic")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    compile_package()  # as pip would have: the API build imports modules the other does not
    projects = dict(p.split("=", 1) for p in args.project) if args.project else DEFAULTS
    results = []
    with tempfile.TemporaryDirectory(prefix="api-ref-") as tmp:
        for name, spec in projects.items():
            if not Path(spec.split(":", 1)[0]).is_dir():
                print(f"{name}: {spec.split(':', 1)[0]} not found, skipped")
                continue
            r = measure(name, spec, Path(tmp))
            results.append(r)
            print(f"{name} ({r['tree_commit']}): stubs now read {len(r['stubs_now_read'])}, objects {r['objects_rendered']}, "
                  f"unresolved {r['api_unresolved']}, sections {r['sections_without']} -> {r['sections_with']} "
                  f"(+{r['sections_with'] - r['sections_without']}), build {r['wall_without_s']} -> {r['wall_with_s']} s "
                  f"({r['ratio']}x; CPU {r['cpu_without_s']} -> {r['cpu_with_s']} s, {r['cpu_ratio']}x), peak RSS {r['rss_without_mb']} -> {r['rss_with_mb']} MB, "
                  f"grep {r['grep_found']}/10, search top 3 {r['search_top3']}/10 (top 10 {r['search_top10']}/10; "
                  f"by the qualified name top 3 {r['qualified_top3']}/10; either {r['either_top3']}/10)")
            for q in r["queries"]:
                print(f"    grep {q['grep']!r:32} -> {q['grep_section']}   search {q['search']!r:30} -> rank {q['rank']}, {q['qualified']!r} -> {q['qualified_rank']} ({q['page']})")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
