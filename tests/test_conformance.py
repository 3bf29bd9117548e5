"""The conformance suite: the checked-in store and cases pass, and the runner notices a difference."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from contextpull import Ops, Store
from read_store import make_store

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "conformance"))

import run as conformance  # noqa: E402


def test_checked_in_suite_passes(capsys):
    store, cases = ROOT / "conformance" / "store.sqlite", ROOT / "conformance" / "cases.json"
    assert conformance.main(["check", "--store", str(store), "--cases", str(cases)]) == 0
    out = capsys.readouterr().out
    total = len(json.loads(cases.read_text(encoding="utf-8"))["cases"])
    assert f"{total}/{total} conformance cases pass" in out


def test_checked_in_store_is_self_contained():
    store = ROOT / "conformance" / "store.sqlite"
    assert not Path(str(store) + "-wal").exists()
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        paths = [p for (p,) in conn.execute("SELECT path FROM documents")]
    finally:
        conn.close()
    assert not any(p.startswith("drafts/") for p in paths)  # .contextpullignore
    assert any(p.endswith(".txt") for p in paths)


@pytest.fixture
def suite(tmp_path):
    store = make_store(tmp_path / "store.sqlite")
    calls = [
        {"op": "search", "args": {"query": "refund window"}},
        {"op": "read", "args": {"id": "policies/b.md#3", "context": 1}},
        {"op": "grep", "args": {"pattern": "TX-45"}},
        {"op": "neighbours", "args": {"id": "policies/b.md#4"}},
        {"op": "index", "args": {"prefix": "guides/"}},
        {"op": "read", "args": {"id": "nope.md#1"}},
    ]
    with Store.open(store) as opened:
        ops = Ops(opened)
        cases = [{**c, "expect": conformance.project(ops, c["op"], c["args"])} for c in calls]
        meta = conformance.store_meta(opened)
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"meta": meta, "cases": cases}), encoding="utf-8")
    return store, path, cases


def test_projection_shapes(suite):
    _store, _path, cases = suite
    search, read, grep, neighbours, index, error = (c["expect"] for c in cases)
    assert search["ids"][:2] == ["policies/a.md#0", "policies/b.md#0"] and search["mode"] == "lexical"
    assert read["context_ids"] == ["policies/b.md#2", "policies/b.md#4"] and read["prev"] == "policies/b.md#2"
    assert grep == {"ids": ["errors.md#2"], "lines_sha": [conformance._sha("## TX-45xx")], "truncated": False}
    assert neighbours == {"ids": ["policies/b.md#3", "policies/b.md#4", "policies/b.md#5"], "header": "policies/b.md#2"}
    assert len(index["text_sha"]) == 16
    assert error == {"error": True}


def test_check_reports_differences(suite, capsys):
    store, path, cases = suite
    assert conformance.check(store, path) == (len(cases), len(cases))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cases"][0]["expect"]["ids"].reverse()
    data["cases"][5]["expect"] = {"id": "nope.md#1"}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert conformance.check(store, path) == (len(cases) - 2, len(cases))
    assert capsys.readouterr().out.count("FAIL ") == 2
    assert conformance.main(["check", "--store", str(store), "--cases", str(path)]) == 1
