"""Each example in examples/ runs, against the scripted loopback model server where it needs one."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chat_scripts import answer, calls, openai
from loopback_api import LoopbackAPI
from read_store import make_store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def store(tmp_path):
    return make_store(tmp_path / "store.sqlite")


def run(script: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_", "CONTEXTPULL_"))}
    environ.update(env or {})
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          env=environ, timeout=60)


def test_direct_api_loop_answers_with_cited_ids_through_the_five_tools(store):
    script = [
        calls(("search", {"query": "refund window"}), ("fetch", {})),
        calls(("read", {"id": "policies/a.md#0"})),
        answer("The refund window is 30 days [policies/a.md#0]."),
    ]
    with LoopbackAPI(openai(script)) as api:
        proc = run("direct_api_loop.py", "--store", str(store), "How long is the refund window?",
                   env={"OPENAI_API_KEY": "sk-example", "OPENAI_BASE_URL": api.url + "/v1"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "The refund window is 30 days [policies/a.md#0]."
    assert proc.stderr.splitlines()[-1] == "sections read: policies/a.md#0"
    first = api.requests[0].body
    assert [t["function"]["name"] for t in first["tools"]] == ["index", "search", "read", "grep", "neighbours"]
    assert "ContextPull index · test" in first["messages"][0]["content"]
    results = [m for m in api.requests[1].body["messages"] if m["role"] == "tool"]
    assert json.loads(results[0]["content"])["hits"][0]["id"] == "policies/a.md#0"
    assert "unknown tool 'fetch'" in results[1]["content"]  # a tool error goes back to the model


def test_direct_api_loop_without_a_key_says_so_in_one_line_and_exits_2(store):
    proc = run("direct_api_loop.py", "--store", str(store), "anything")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "direct_api_loop: set OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server) to run this example"
    ]


def test_embed_with_acl_limits_every_tool_to_the_users_paths(store):
    proc = run("embed_with_acl.py", "--store", str(store), "bob", "refund cache")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "guides/setup.md#1" in out and "policies/" not in out.split("--- read")[0]
    assert "guides/setup.md#0  readable" in out
    assert "policies/a.md#0  {\"error\": \"no section 'policies/a.md#0'\"" in out

    sys.path.insert(0, str(EXAMPLES))
    try:
        from embed_with_acl import ScopedTools
    finally:
        sys.path.remove(str(EXAMPLES))
    from contextpull import Ops, Store, ToolError

    with Store.open(store) as opened:
        bob = ScopedTools(Ops(opened), ["guides/"])
        assert bob.call("search", {"query": "refund", "in": ["policies"]})["hits"] == []  # narrowed, never widened
        assert [m["doc"] for m in bob.call("grep", {"pattern": "cache"})["matches"]] == ["guides/deep/more.md", "guides/setup.md"]
        assert [s["id"] for s in bob.call("neighbours", {"id": "guides/setup.md#1"})["sections"]] == [
            "guides/setup.md#0", "guides/setup.md#1", "guides/setup.md#2"]
        with pytest.raises(ToolError, match="no section 'errors.md#0'"):
            bob.call("neighbours", {"id": "errors.md#0"})
        with pytest.raises(ToolError, match="missing required argument 'id'"):
            bob.call("read", {})
        with pytest.raises(ToolError) as hidden:  # exists, but not for bob
            bob.call("read", {"id": "policies/a.md#0"})
        with pytest.raises(ToolError) as absent:  # does not exist at all
            Ops(opened).read("policies/a.md#7")
        assert hidden.value.to_dict() == {k: v.replace("#7", "#0") for k, v in absent.value.to_dict().items()}
        everyone = ScopedTools(Ops(opened), [""])
        assert everyone.call("search", {"query": "refund"})["hits"]


def test_embed_with_acl_counts_only_the_users_documents_in_the_index(tmp_path):
    header = "ContextPull index · 6 documents · 16 sections · corpus 01234567 · summaries: offline"
    store = make_store(tmp_path / "s.sqlite", meta={"index_text": "\n".join([
        header, "", "guides/   2 documents, 4 sections · More, Setup", "policies/   2 documents, 8 sections · A, B",
        "guidesextra.md   (1)"])})
    sys.path.insert(0, str(EXAMPLES))
    try:
        from embed_with_acl import ScopedTools
    finally:
        sys.path.remove(str(EXAMPLES))
    from contextpull import Ops, Store

    with Store.open(store) as opened:
        bob = ScopedTools(Ops(opened), ["guides/", "guidesextra.md"])
        assert bob.instructions().splitlines() == [
            header.replace("6 documents · 16 sections", "3 documents · 5 sections"), "",
            "guides/   2 documents, 4 sections · More, Setup", "guidesextra.md   (1)"]
        assert bob.call("index", {"prefix": "guides"}).splitlines()[0] == "ContextPull index · guides · 3 documents · 5 sections"
        narrow = ScopedTools(Ops(opened), ["guides/setup.md"])
        assert narrow.call("index", {}).splitlines()[2].startswith("guides/   1 documents, 3 sections")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(EXAMPLES))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(EXAMPLES))
    return module


def test_ragbisect_adapters_build_with_no_arguments_and_retrieve_section_ids(store, monkeypatch, tmp_path):
    monkeypatch.setenv("CONTEXTPULL_STORE", str(store))
    adapter = _load("ragbisect_adapter")
    with adapter.ContextPullSearch() as search, adapter.ContextPullHybrid() as hybrid:
        assert search.retrieve("refund window", 3) == ["policies/a.md#0", "policies/b.md#0", "guidesextra.md#0"]
        assert hybrid.retrieve("refund window", 3) == search.retrieve("refund window", 3)
    monkeypatch.chdir(tmp_path)  # the API loop's default cache folder lands here
    with LoopbackAPI(openai([calls(("read", {"id": "errors.md#2"})), answer("[errors.md#2]")])) as api:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-example")
        monkeypatch.setenv("OPENAI_BASE_URL", api.url + "/v1")
        monkeypatch.setenv("CONTEXTPULL_LOOP_MODEL", "openai:scripted")
        agentic = _load("ragbisect_agentic")
        with agentic.ApiLoopSurfaced() as loop:
            assert loop.retrieve("gateway timeout", 5) == ["errors.md#2"]
            assert loop.stats()["tokens_in"] > 0
            assert loop.stats()["model"] == "openai:scripted" and loop.count_surfaced and not loop.strict
        with agentic.ApiLoopStrict() as strict:
            assert strict.stats()["model"] == "openai:scripted" and strict.strict and not strict.count_surfaced
    assert (tmp_path / ".contextpull-eval" / "cache.sqlite").exists()
