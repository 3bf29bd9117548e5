"""ApiLoopRetriever against a scripted model server on loopback, for both APIs (issue 18).

No real API is reachable: what these prove is the loop's accounting (tokens, tool calls by tool,
turns, requests), the ids it reports as read, what goes back to the model when a tool call is
wrong, the treatment of provider failures, and the run cache.
"""

from __future__ import annotations

import json

import pytest

from chat_scripts import USAGE_IN, USAGE_OUT, anthropic, answer, calls, openai, tool_results
from contextpull.errors import ConfigError
from contextpull.eval import ApiLoopRetriever
from contextpull.models.http import Retry
from loopback_api import LoopbackAPI, Reply
from read_store import make_store

KEY = "sk-eval-sentinel-51f0"
FAST = Retry(attempts=3, base=0.0, cap=0.0)
SCRIPTS = {"openai": openai, "anthropic": anthropic}
MODELS = {"openai": "openai:test-model", "anthropic": "anthropic:test-model"}

READING = [
    calls(("search", {"query": "refund window"})),
    calls(("read", {"id": "policies/b.md#0"}), ("read", {"id": "policies/a.md#0", "context": 1})),
    answer("Refunds within 30 days [policies/a.md#0]."),
]


@pytest.fixture
def store(tmp_path):
    return make_store(tmp_path / "store.sqlite")


def env(provider: str, url: str) -> dict:
    if provider == "openai":
        return {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": url + "/v1"}
    return {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": url}


def retriever(provider, api, store, tmp_path, **kw):
    kw.setdefault("cache_path", str(tmp_path / "cache.sqlite"))
    return ApiLoopRetriever(str(store), model=MODELS[provider], retry=FAST, environ=env(provider, api.url), **kw)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_tool_calls_then_an_answer_are_counted_and_the_read_ids_returned_in_order(provider, store, tmp_path):
    with LoopbackAPI(SCRIPTS[provider](READING)) as api, retriever(provider, api, store, tmp_path) as r:
        ids = r.retrieve("How long is the refund window?", 10)
        assert r.generate("How long is the refund window?", ids) == "Refunds within 30 days [policies/a.md#0]."
        stats = r.stats()
    # read returns the section, then its context sections (a.md#1 is a.md#0's neighbour)
    assert ids == ["policies/b.md#0", "policies/a.md#0", "policies/a.md#1"]
    assert stats["queries"] == 1 and stats["errors"] == 0
    assert stats["turns"] == 3 and stats["requests"] == 3
    assert stats["tokens_in"] == 3 * USAGE_IN and stats["tokens_out"] == 3 * USAGE_OUT
    assert stats["tool_calls"] == 3 and stats["by_tool"] == {"read": 2, "search": 1}
    paths = {req.path for req in api.requests}
    assert paths == ({"/v1/chat/completions"} if provider == "openai" else {"/v1/messages"})
    first = api.requests[0].body
    system = first["messages"][0]["content"] if provider == "openai" else first["system"]
    assert "ContextPull index · test" in system and "Pull, do not guess" in system
    names = [t["function"]["name"] if provider == "openai" else t["name"] for t in first["tools"]]
    assert names == ["index", "search", "read", "grep", "neighbours"]
    # the search result went back to the model verbatim; the key only in its header
    results = tool_results(api.requests[1], provider)
    assert json.loads(results[0]["content"])["hits"][0]["id"] == "policies/a.md#0"
    assert all(KEY not in json.dumps(req.body) for req in api.requests)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_an_unknown_tool_and_invalid_arguments_go_back_to_the_model(provider, store, tmp_path):
    bad_json = "{not json" if provider == "openai" else ["not", "an", "object"]
    script = [
        calls(("fetch_url", {"url": "x"}), ("search", {"query": "x", "limit": 500}), ("read", bad_json)),
        calls(("read", {"id": "nowhere.md#9"})),
        answer("I could not find it."),
    ]
    with LoopbackAPI(SCRIPTS[provider](script)) as api, retriever(provider, api, store, tmp_path) as r:
        assert r.retrieve("q", 5) == []
        stats = r.stats()
    errors = tool_results(api.requests[1], provider)
    assert [e["is_error"] for e in errors] == [True, True, True]
    assert "unknown tool 'fetch_url'" in errors[0]["content"]
    assert "search: argument 'limit' is invalid" in errors[1]["content"]
    assert "read:" in errors[2]["content"] or "JSON object" in errors[2]["content"]
    assert "nowhere.md#9" in tool_results(api.requests[2], provider)[0]["content"]
    assert stats["tool_errors"] == 4 and stats["infra_errors"] == 0 and stats["errors"] == 0
    assert stats["by_tool"] == {"fetch_url": 1, "read": 2, "search": 1}


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_running_out_of_turns_is_an_error_that_is_not_cached(provider, store, tmp_path):
    loop = [calls(("read", {"id": "errors.md#0"}))] * 3
    with LoopbackAPI(SCRIPTS[provider](loop)) as api, retriever(provider, api, store, tmp_path, max_turns=3) as r:
        assert r.retrieve("q", 5) == ["errors.md#0"]  # what it read still counts
        assert r.record("q").error == "no answer within 3 turns"
        assert r.stats()["errors"] == 1 and len(api.requests) == 3
    script = [answer("done")]
    with LoopbackAPI(SCRIPTS[provider](script)) as api, retriever(provider, api, store, tmp_path, max_turns=3) as r:
        assert r.record("q").error is None and not r.record("q").cached
        assert len(api.requests) == 1  # asked again: the failed run was not kept


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_429_is_retried_and_counted_as_a_request(provider, store, tmp_path):
    busy = Reply(429, {"error": "slow down"}, {"Retry-After": "0"})
    with LoopbackAPI([busy] + SCRIPTS[provider]([answer("ok")])) as api, retriever(provider, api, store, tmp_path) as r:
        assert r.generate("q") == "ok"
        assert r.stats()["requests"] == 2 and r.stats()["errors"] == 0 and r.stats()["turns"] == 1


def test_429_past_the_retries_is_counted_as_an_error_and_not_cached(store, tmp_path):
    busy = Reply(429, {"error": "slow down"}, {"Retry-After": "0"})
    with LoopbackAPI([busy, busy, busy]) as api, retriever("openai", api, store, tmp_path) as r:
        assert r.retrieve("q", 5) == []
        rec = r.record("q")
        assert "HTTP 429" in rec.error and "after 3 attempts" in rec.error and KEY not in rec.error
        assert r.stats()["errors"] == 1 and r.stats()["requests"] == 3
    with LoopbackAPI(openai([answer("ok")])) as api, retriever("openai", api, store, tmp_path) as r:
        assert r.generate("q") == "ok" and len(api.requests) == 1


def test_a_finished_run_is_cached_by_question_model_endpoint_and_corpus(store, tmp_path):
    cache = str(tmp_path / "cache.sqlite")
    script = openai(READING) + openai([answer("a")]) * 2

    def loop(api, path=store, model="openai:test-model"):
        return ApiLoopRetriever(str(path), model=model, retry=FAST, environ=env("openai", api.url), cache_path=cache)

    with LoopbackAPI(script) as api:
        with loop(api) as r:
            first = r.retrieve("refund?", 10)
        assert len(api.requests) == 3
        # same question, model, endpoint and corpus: no request at all
        with loop(api) as r:
            assert r.retrieve("refund?", 10) == first
            assert r.record("refund?").cached and len(api.requests) == 3
            assert r.stats()["requests"] == 0 and r.stats()["cached"] == 1 and r.stats()["tokens_in"] == 3 * USAGE_IN
        # another corpus fingerprint or another model: asked again
        other = make_store(tmp_path / "other.sqlite", meta={"corpus_fingerprint": "fedcba9876543210"})
        with loop(api, path=other) as r:
            assert not r.record("refund?").cached
        with loop(api, model="openai:other-model") as r:
            assert not r.record("refund?").cached
        assert len(api.requests) == 5
    # another endpoint (a scripted server is not the real API): asked again
    with LoopbackAPI(openai([answer("b")])) as api, loop(api) as r:
        assert r.generate("refund?") == "b"


def test_count_surfaced_appends_search_hits_after_the_reads(store, tmp_path):
    script = [calls(("search", {"query": "refund"})), calls(("read", {"id": "guidesextra.md#0"})), answer("x")]
    with LoopbackAPI(openai(script)) as api, retriever("openai", api, store, tmp_path, count_surfaced=True) as r:
        ids = r.retrieve("refund", 3)
    assert ids[0] == "guidesextra.md#0" and len(ids) == 3 and "policies/a.md#0" in ids


def test_a_store_failure_inside_a_tool_is_counted_not_hidden(store, tmp_path, monkeypatch):
    import sqlite3

    from contextpull.ops import Ops

    def broken(self, *a, **k):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(Ops, "read", broken)
    script = [calls(("read", {"id": "errors.md#0"})), answer("x")]
    with LoopbackAPI(openai(script)) as api, retriever("openai", api, store, tmp_path) as r:
        rec = r.record("q")
        stats = r.stats()
    assert "the store failed" in tool_results(api.requests[1], "openai")[0]["content"]
    assert stats["infra_errors"] == 1 and stats["errors"] == 1
    assert rec.error == "every one of the 1 tool calls failed in the store"


def test_a_missing_key_is_a_config_error_naming_the_variable(store):
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        ApiLoopRetriever(str(store), model="openai:m", environ={})
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        ApiLoopRetriever(str(store), model="anthropic:m", environ={})
    with pytest.raises(ConfigError, match="unknown provider"):
        ApiLoopRetriever(str(store), model="local:m", environ={})
