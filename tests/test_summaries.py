"""Model summaries in the in-place ingest (issue 17; system-design.txt section 3 "Summarize"),
against a loopback server speaking both providers' APIs."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from contextpull.config import Settings
from contextpull.cli.environment import read_environment
from contextpull.errors import CheckFailed, ModelSettingError
from contextpull.ingest.engine import build_record, ingest
from contextpull.models import summarize
from contextpull.models.http import Retry
from loopback_api import LoopbackAPI, Reply
from summary_helpers import (
    DOCS, SENTINEL, Concurrency, anthropic_answer, env_for, model, openai_answer, title_of, write_corpus,
)

OPENAI = Settings(summarizer="openai:gpt-test")
ANTHROPIC = Settings(summarizer="anthropic:claude-test")


@pytest.fixture(autouse=True)
def fast_requests(monkeypatch):
    """Short waits between attempts; the product's per-request timeout except where a test
    makes the server slow on purpose. The loopback server shares the test process's interpreter
    lock, and a collector pause in a long test run outlasts a short timeout, which would turn a
    prompt answer into a retry the counts below do not expect."""
    monkeypatch.setattr(summarize, "RETRY", Retry(attempts=3, base=0.01, cap=0.05))


def rows(store):
    with sqlite3.connect(store) as conn:
        return conn.execute("SELECT path, summary, summary_src FROM documents ORDER BY path").fetchall()


def meta(store, key):
    with sqlite3.connect(store) as conn:
        return conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0]


def offline(rel):
    """The summary an offline build writes for ``rel``: what a failed request falls back to."""
    return build_record(rel, DOCS[rel].encode(), "0" * 64, Settings()).summary


def test_openai_summaries_are_written_counted_and_marked_llm(tmp_path, data_regression):
    corpus = write_corpus(tmp_path / "docs")
    with LoopbackAPI(model()) as api:
        report = ingest(corpus, tmp_path / "s.sqlite", OPENAI, environment=read_environment(env_for(api)))
    assert rows(tmp_path / "s.sqlite") == [
        ("cache.md", "What Caching covers", "llm"),
        ("guide/install.md", "What Installing uv covers", "llm"),
        ("tools.md", "What Tools covers", "llm"),
    ]
    assert "summaries: llm" in meta(tmp_path / "s.sqlite", "index_text").splitlines()[0]
    assert meta(tmp_path / "s.sqlite", "summarizer") == "openai:gpt-test"
    first = next(r for r in api.requests if title_of(r) == "Caching")
    assert first.path == "/v1/chat/completions" and first.headers["Authorization"] == f"Bearer {SENTINEL}"
    assert first.body["model"] == "gpt-test"
    prompt = first.body["messages"][-1]["content"]
    assert "Caching > Cache directory" in prompt and "UV_CACHE_DIR" in prompt
    data_regression.check({"report": report.to_dict()["summaries"], "lines": report.summary_lines()[1:2]})


def test_anthropic_messages_api(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    with LoopbackAPI(model(anthropic_answer)) as api:
        report = ingest(corpus, tmp_path / "s.sqlite", ANTHROPIC, environment=read_environment(env_for(api, "anthropic")))
    request = api.requests[0]
    headers = {name.lower(): value for name, value in request.headers.items()}
    assert request.path == "/v1/messages"
    assert headers["x-api-key"] == SENTINEL and headers["anthropic-version"] == "2023-06-01"
    assert request.body["model"] == "claude-test" and request.body["system"]
    assert [r[2] for r in rows(tmp_path / "s.sqlite")] == ["llm"] * 3
    assert report.summaries["tokens_in"] == 90 and report.summaries["tokens_out"] == 18


def test_a_429_is_retried_after_its_retry_after(tmp_path):
    corpus = write_corpus(tmp_path / "docs", {"a.md": DOCS["tools.md"]})
    script = [Reply(429, {"error": "slow down"}, {"Retry-After": "0.02"}), Reply(200, openai_answer("Running tools with uvx"))]
    with LoopbackAPI(script) as api:
        report = ingest(corpus, tmp_path / "s.sqlite", OPENAI, environment=read_environment(env_for(api)))
    assert rows(tmp_path / "s.sqlite")[0][1:] == ("Running tools with uvx", "llm")
    assert (report.summaries["requests"], report.summaries["retries"], report.summaries["generated"]) == (2, 1, 1)


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(503, {"error": "overloaded"}), "HTTP 503"),
        (Reply(200, openai_answer("late"), delay=1.0), "after 3 attempts"),  # each attempt times out
        (Reply(200, "<html>not json</html>"), "not JSON"),
        (Reply(200, {"choices": []}), "no message text"),
        (Reply(200, openai_answer("  **\n\n  ")), "empty summary"),
    ],
    ids=["5xx", "timeout", "malformed-json", "wrong-shape", "empty"],
)
def test_a_failed_request_keeps_the_offline_summary_and_names_the_document(tmp_path, monkeypatch, reply, reason):
    if reply.delay:  # each attempt outlasts the timeout, however loaded the machine
        monkeypatch.setattr(summarize, "TIMEOUT", reply.delay / 2)
    corpus = write_corpus(tmp_path / "docs", {"tools.md": DOCS["tools.md"]})
    with LoopbackAPI(lambda request: reply) as api:
        report = ingest(corpus, tmp_path / "s.sqlite", OPENAI, environment=read_environment(env_for(api)))
    assert rows(tmp_path / "s.sqlite") == [("tools.md", offline("tools.md"), "offline")]
    [failed] = report.summaries["failed"]
    assert failed["path"] == "tools.md" and reason in failed["reason"]
    assert report.summaries["offline"] == 1 and report.summaries["generated"] == 0
    assert "summaries: offline" in meta(tmp_path / "s.sqlite", "index_text").splitlines()[0]
    assert SENTINEL not in failed["reason"]


def test_strict_fails_on_a_fallback_after_writing_and_the_next_run_retries(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    store = tmp_path / "s.sqlite"
    fail_tools = lambda r: Reply(500, {}) if title_of(r) == "Tools" else model()(r)  # noqa: E731
    with LoopbackAPI(fail_tools) as api:
        with pytest.raises(CheckFailed) as info:
            ingest(corpus, store, OPENAI, strict=True, environment=read_environment(env_for(api)))
    assert info.value.exit_code == 1 and "1 summary fell back to offline" in info.value.message
    assert [r[2] for r in rows(store)] == ["llm", "llm", "offline"]
    with LoopbackAPI(model()) as api:
        report = ingest(corpus, store, OPENAI, strict=True, environment=read_environment(env_for(api)))
    assert [title_of(r) for r in api.requests] == ["Tools"]  # only the document that fell back
    assert [r[2] for r in rows(store)] == ["llm"] * 3 and report.summaries["generated"] == 1


def test_a_retry_that_fails_again_writes_nothing(tmp_path):
    corpus = write_corpus(tmp_path / "docs", {"tools.md": DOCS["tools.md"]})
    store = tmp_path / "s.sqlite"
    empty = lambda request: Reply(200, openai_answer(""))  # noqa: E731
    with LoopbackAPI(empty) as api:
        ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
        first = store.read_bytes()
        for _ in range(2):
            again = ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
            assert store.read_bytes() == first
            assert (again.changed, again.unchanged, again.wrote) == (0, 1, False)
            assert again.summaries["offline"] == 1  # the request was still made, and reported
        assert len(api.requests) == 3
    assert rows(store) == [("tools.md", offline("tools.md"), "offline")]


def test_unchanged_documents_cost_nothing_and_a_re_added_one_neither(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    store = tmp_path / "s.sqlite"
    with LoopbackAPI(model()) as api:
        ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
        assert len(api.requests) == 3
        again = ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
        assert len(api.requests) == 3 and again.summaries["requests"] == 0 and not again.wrote
        (corpus / "tools.md").unlink()
        ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
        (corpus / "tools.md").write_text(DOCS["tools.md"], encoding="utf-8")
        back = ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
        assert len(api.requests) == 3
    assert (back.summaries["cached"], back.summaries["generated"]) == (1, 0)
    assert ("tools.md", "What Tools covers", "llm") in rows(store)


def test_one_changed_document_is_one_request(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    store = tmp_path / "s.sqlite"
    with LoopbackAPI(model()) as api:
        ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
        (corpus / "cache.md").write_text(DOCS["cache.md"] + "\nPrune it with uv cache prune.\n", encoding="utf-8")
        report = ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
    assert report.summaries["requests"] == 1 and [title_of(r) for r in api.requests[3:]] == ["Caching"]


def test_switching_back_to_offline_rewrites_the_summaries(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    store = tmp_path / "s.sqlite"
    with LoopbackAPI(model()) as api:
        ingest(corpus, store, OPENAI, environment=read_environment(env_for(api)))
    ingest(corpus, store, Settings(), environment=read_environment({}))
    assert [r[2] for r in rows(store)] == ["offline"] * 3
    assert meta(store, "summarizer") == "offline"
    assert "summaries: offline" in meta(store, "index_text").splitlines()[0]


def test_requests_in_flight_never_exceed_the_concurrency_setting(tmp_path):
    docs = {f"d{i}.md": f"# Doc {i}\n\nSome text about topic {i}, long enough to matter.\n" for i in range(8)}
    corpus = write_corpus(tmp_path / "docs", docs)
    counter = Concurrency(model())
    with LoopbackAPI(counter) as api:
        report = ingest(corpus, tmp_path / "s.sqlite", Settings(summarizer="openai:m", summary_concurrency=3), environment=read_environment(env_for(api)))
    assert report.summaries["requests"] == 8
    assert counter.most == 3  # requests do overlap, and never beyond the bound


def test_missing_key_and_unknown_provider_fail_before_any_work(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    with pytest.raises(ModelSettingError, match="OPENAI_API_KEY") as info:
        ingest(corpus, tmp_path / "s.sqlite", OPENAI, environment=read_environment({}))
    assert info.value.exit_code == 3 and not (tmp_path / "s.sqlite").exists()
    with pytest.raises(ModelSettingError, match="unknown provider 'mistral'"):
        ingest(corpus, tmp_path / "s.sqlite", Settings(summarizer="mistral:small"), environment=read_environment({}))


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ('"Caching: where uv keeps wheels."', "Caching: where uv keeps wheels."),
        ("**Summary:** Cache dir,\n\n- `UV_CACHE_DIR` and\n- [pruning](x.md)", "Cache dir, UV_CACHE_DIR and pruning"),
        ("# Heading\n\n  one   line  ", "Heading one line"),
        ("snake_case_name stays, a*b*c too", "snake_case_name stays, a*b*c too"),
        ("“ ”", ""),
    ],
)
def test_an_answer_is_cleaned_to_one_line(answer, expected):
    assert summarize.clean(answer) == expected


def test_an_overlong_answer_is_cut_to_160_characters():
    text = summarize.clean("word " * 100)
    assert len(text) == 160 and text.endswith("…") and "\n" not in text


def test_the_offline_default_never_loads_the_model_room(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    code = (
        "import sys, json\n"
        "from contextpull.ingest.engine import ingest\n"
        "from contextpull.config import Settings\n"
        f"ingest({str(corpus)!r}, {str(tmp_path / 's.sqlite')!r}, Settings())\n"
        "print(json.dumps([m for m in sys.modules if m.startswith('contextpull.models')]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"
