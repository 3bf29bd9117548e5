"""Conformance suite runner: ``generate`` the store and cases from corpus/, ``check`` a reader against them.

  python conformance/run.py generate                      # corpus/ -> store.sqlite + cases.json
  python conformance/run.py check                         # this reader over store.sqlite + cases.json
  python conformance/run.py check --store S --cases C     # any store and case file of this format

The case format (and so the projection, see README.md) is the one the published ContextPull 0.2.1
suites use, so ``check`` also runs their ``conformance/cases.json`` and
``conformance/scenarios/cases.json`` over the stores their generator builds. Every call goes
through ``contextpull.tools.call``, the dispatch the CLI and the MCP server use. Regex grep and
hybrid search are not covered (host regex engine, external embedding model).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from contextpull.errors import ToolError  # noqa: E402
from contextpull.ops import Ops  # noqa: E402
from contextpull.store import Store  # noqa: E402
from contextpull.tools import call  # noqa: E402

CORPUS = HERE / "corpus"
STORE = HERE / "store.sqlite"
CASES = HERE / "cases.json"

R25 = "policies/returns-2025.md"
CALLS: list[dict] = [
    {"op": "index", "args": {}},
    {"op": "index", "args": {"prefix": "policies/"}},
    {"op": "index", "args": {"prefix": "reference/errors/"}},
    {"op": "index", "args": {"prefix": "nothing/"}},
    {"op": "search", "args": {"query": "TX-4419"}},
    {"op": "search", "args": {"query": "return window"}},
    {"op": "search", "args": {"query": "return window", "in": ["policies/returns-2024.md", R25]}},
    {"op": "search", "args": {"query": "refund", "in": ["policies"]}},
    {"op": "search", "args": {"query": "refund", "in": ["policies/"]}},
    {"op": "search", "args": {"query": "retry", "in": ["guides"], "limit": 3}},
    {"op": "search", "args": {"query": "retries", "in": ["reference/*"]}},
    {"op": "search", "args": {"query": "store credit expires"}},
    {"op": "search", "args": {"query": "restocking fee bicycles"}},
    {"op": "search", "args": {"query": "--no-retry flag"}},
    {"op": "search", "args": {"query": "GATEWAY_TIMEOUT_MS"}},
    {"op": "search", "args": {"query": "python 3.12"}},
    {"op": "search", "args": {"query": "idempotency key retry", "limit": 2}},
    {"op": "search", "args": {"query": "draft 2026"}},
    {"op": "search", "args": {"query": "!!! ???"}},
    {"op": "search", "args": {"query": "zzzz-nothing-here"}},
    {"op": "read", "args": {"id": f"{R25}#0"}},
    {"op": "read", "args": {"id": f"{R25}#1", "context": 1}},
    {"op": "read", "args": {"id": f"{R25}#5"}},
    {"op": "read", "args": {"id": "specs/gateway-spec.md#1", "context": 2}},
    {"op": "read", "args": {"id": "notes/release-notes.txt#0"}},
    {"op": "read", "args": {"id": "missing.md#0"}},
    {"op": "read", "args": {"id": "drafts/returns-2026-draft.md#0"}},
    {"op": "grep", "args": {"pattern": "TX-45"}},
    {"op": "grep", "args": {"pattern": "tx-4419"}},
    {"op": "grep", "args": {"pattern": "retry", "limit": 3}},
    {"op": "grep", "args": {"pattern": "fee", "in": ["policies/returns-2025.md"]}},
    {"op": "grep", "args": {"pattern": "SH-10", "in": ["reference"]}},
    {"op": "grep", "args": {"pattern": "--no-retry"}},
    {"op": "grep", "args": {"pattern": "€", "limit": 1}},
    {"op": "neighbours", "args": {"id": f"{R25}#5"}},
    {"op": "neighbours", "args": {"id": f"{R25}#4", "before": 1, "after": 1}},
    {"op": "neighbours", "args": {"id": f"{R25}#0", "before": 2, "after": 0}},
    {"op": "neighbours", "args": {"id": "guides/getting-started.md#0", "before": 0, "after": 5}},
    {"op": "neighbours", "args": {"id": "missing.md#0"}},
]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def project(ops: Ops, op: str, args: dict) -> dict:
    """Reduce one call's result to what two conforming readers must agree on (README.md)."""
    try:
        result = call(ops, op, args)
    except ToolError:
        return {"error": True}
    if op == "index":
        return {"text_sha": _sha(result)}
    if op == "search":
        return {"ids": [h["id"] for h in result["hits"]], "mode": result["mode"], "empty": not result["hits"]}
    if op == "read":
        return {
            "id": result["id"],
            "text_sha": _sha(result["text"]),
            "heading_path": result["heading_path"],
            "context_ids": [c["id"] for c in result["context"]],
            "prev": result["prev_id"],
            "next": result["next_id"],
        }
    if op == "grep":
        matches = result["matches"]
        return {"ids": [m["id"] for m in matches], "lines_sha": [_sha(m["line"]) for m in matches], "truncated": result["truncated"]}
    if op == "neighbours":
        return {"ids": [s["id"] for s in result["sections"]], "header": result["header"]["id"] if result["header"] else None}
    raise KeyError(op)


def store_meta(store: Store) -> dict:
    documents, sections = store.counts()
    return {
        "store_schema": store.schema_version,
        "corpus_fingerprint": store.corpus_fingerprint,
        "documents": documents,
        "sections": sections,
    }


def build_store(corpus: Path, target: Path) -> None:
    """Build ``target`` with our builder (``contextpull build``), journal mode DELETE, no -wal file."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        env = {**os.environ, "SOURCE_DATE_EPOCH": "0"}
        proc = subprocess.run(
            [sys.executable, "-m", "contextpull", "build", str(corpus), "--out", str(out)],
            capture_output=True, text=True, env=env, cwd=HERE.parent,
        )
        if proc.returncode != 0:
            sys.exit(f"contextpull build failed ({proc.returncode}): {proc.stderr.strip()}")
        built = out / "store.sqlite"
        conn = sqlite3.connect(built)
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        if mode.lower() != "delete":
            conn.execute("PRAGMA journal_mode=DELETE")
        conn.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(target) + suffix).unlink(missing_ok=True)
        shutil.copyfile(built, target)


def generate(corpus: Path, store_path: Path, cases_path: Path) -> int:
    build_store(corpus, store_path)
    with Store.open(store_path) as store:
        ops = Ops(store)
        cases = [{"op": c["op"], "args": c["args"], "expect": project(ops, c["op"], c["args"])} for c in CALLS]
        meta = store_meta(store)
    cases_path.write_text(json.dumps({"meta": meta, "cases": cases}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"generated {len(cases)} cases; {meta['documents']} documents, {meta['sections']} sections, "
          f"corpus {meta['corpus_fingerprint']}")
    return 0


def check(store_path: Path, cases_path: Path, *, quiet: bool = False) -> tuple[int, int]:
    """(passed, total); prints each failure with what was expected and what came back."""
    data = json.loads(cases_path.read_text(encoding="utf-8"))
    passed = 0
    with Store.open(store_path) as store:
        expected_meta = data.get("meta") or {}
        got_meta = store_meta(store)
        wrong = {k: (v, got_meta.get(k)) for k, v in expected_meta.items() if got_meta.get(k) != v}
        if wrong and not quiet:
            print(f"WARNING store does not match the cases' meta: {wrong}")
        ops = Ops(store)
        for case in data["cases"]:
            got = project(ops, case["op"], case["args"])
            if got == case["expect"]:
                passed += 1
            elif not quiet:
                print(f"FAIL {case['op']} {json.dumps(case['args'], ensure_ascii=False)}\n"
                      f"  expect {case['expect']}\n  got    {got}")
    return passed, len(data["cases"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["generate", "check"], nargs="?", default="check")
    parser.add_argument("--store", type=Path, default=STORE)
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="generate only")
    args = parser.parse_args(argv)
    if args.command == "generate":
        return generate(args.corpus, args.store, args.cases)
    try:
        passed, total = check(args.store, args.cases)
    except Exception as exc:  # a store that cannot be opened is a failed check, said in one line
        print(f"error: {exc}")
        return 1
    print(f"{passed}/{total} conformance cases pass ({args.cases})")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
