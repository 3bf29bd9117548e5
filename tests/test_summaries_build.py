"""Model summaries in ``contextpull build`` and at the CLI edge (issue 17): ``--cache`` carries
``summary_cache``, ``--strict`` fails on a fallback, a bad setting is exit 3 in one line, and the
key appears in no output and no file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from contextpull.cli import cli
from contextpull.models import summarize
from contextpull.models.http import Retry
from artifact_helpers import clean_env
from loopback_api import LoopbackAPI, Reply
from summary_helpers import DOCS, SENTINEL, env_for, model, title_of, write_corpus


@pytest.fixture(autouse=True)
def fast_requests(monkeypatch):
    """Short waits between attempts, and the product's own per-request timeout.

    The loopback server runs in the test process and shares its interpreter lock: a full
    collection of a long test run's heap (0.8 s measured in a whole-suite run) holds up its
    answer, and a short client timeout turns that pause into a retry, so a second request for
    the same document that no test here means. Timeouts are test_summaries.py's and
    test_models_http.py's, with a server that is slow on purpose."""
    monkeypatch.setattr(summarize, "RETRY", Retry(attempts=2, base=0.01, cap=0.05))


def invoke(args, env):
    return CliRunner().invoke(cli, args, env={**clean_env(SOURCE_DATE_EPOCH="0"), **env}, catch_exceptions=False)


def build(docs, out, env, *extra):
    result = invoke(["build", str(docs), "--out", str(out), "--json", "--summarizer", "openai:gpt-test", *extra], env)
    return result, json.loads(result.stdout)


def cache_rows(store: Path):
    with sqlite3.connect(store) as conn:
        return conn.execute("SELECT sha256, model, summary FROM summary_cache ORDER BY sha256").fetchall()


def test_build_cache_carries_summaries_so_one_change_is_one_request(tmp_path, data_regression):
    docs = write_corpus(tmp_path / "docs")
    with LoopbackAPI(model()) as api:
        first, report = build(docs, tmp_path / "out1", env_for(api))
        assert first.exit_code == 0
        # One request per document, each once, as the server saw them. The report counts the
        # client's attempts: a connection the loopback resets before it reads a request (seen
        # about once in three full-suite runs on a loaded machine) is retried, and counted as a
        # request and a retry, so what is exact is attempts less retries: one per document.
        assert sorted(title_of(r) for r in api.requests) == ["Caching", "Installing uv", "Tools"]
        assert report["summaries"]["requests"] - report["summaries"]["retries"] == 3
        assert len(cache_rows(tmp_path / "out1" / "store.sqlite")) == 3
        assert report["manifest"]["settings"]["summarizer"] == "openai:gpt-test"
        (docs / "tools.md").write_text(DOCS["tools.md"] + "\nList them with uv tool list.\n", encoding="utf-8")
        second, report = build(docs, tmp_path / "out2", env_for(api), "--cache", str(tmp_path / "out1" / "store.sqlite"))
        assert [title_of(r) for r in api.requests[3:]] == ["Tools"]
        # Carried: the cache's three rows (the old tools.md's among them) and the new one.
        assert len(cache_rows(tmp_path / "out2" / "store.sqlite")) == 4
        third, again = build(docs, tmp_path / "out3", env_for(api), "--cache", str(tmp_path / "out2" / "store.sqlite"))
        assert len(api.requests) == 4 and again["summaries"]["requests"] == 0
    data_regression.check({"after_one_change": report["summaries"], "unchanged": again["summaries"]})
    assert "summaries (openai:gpt-test): 0 generated, 0 cached, 0 offline; 0 requests" in invoke(
        ["build", str(docs), "--out", str(tmp_path / "out4"), "--summarizer", "openai:gpt-test",
         "--cache", str(tmp_path / "out3" / "store.sqlite")], env_for(api),
    ).stdout


def test_a_retried_request_is_counted_as_a_request_and_a_retry_of_one_document(tmp_path):
    """The other side of "one document, one request": an answer the client must retry (here a
    503, once, for one document) is a second request for the same document, and the report
    says so in ``retries`` rather than hiding it or asking for the document anew next build."""
    docs = write_corpus(tmp_path / "docs")
    busy = {"Tools": 1}

    def once_busy(request):
        if busy.get(title_of(request)):
            busy[title_of(request)] -= 1
            return Reply(503, {"error": "overloaded"})
        return model()(request)

    with LoopbackAPI(once_busy) as api:
        result, report = build(docs, tmp_path / "out", env_for(api))
        assert result.exit_code == 0
        assert sorted(title_of(r) for r in api.requests) == ["Caching", "Installing uv", "Tools", "Tools"]
        summaries = report["summaries"]
        # The 503 is one retry the server saw; a reset connection would add one it did not
        # (see above), so the report has at least the one and one request per document besides.
        assert summaries["retries"] >= 1 and summaries["requests"] - summaries["retries"] == 3
        assert summaries["generated"] == 3
        _, again = build(docs, tmp_path / "out2", env_for(api), "--cache", str(tmp_path / "out" / "store.sqlite"))
    assert len(api.requests) == 4 and again["summaries"]["requests"] == 0


def test_build_strict_fails_on_a_fallback_and_publishes_nothing(tmp_path):
    docs = write_corpus(tmp_path / "docs")
    failing = lambda r: Reply(502, {}) if title_of(r) == "Caching" else model()(r)  # noqa: E731
    with LoopbackAPI(failing) as api:
        result, report = build(docs, tmp_path / "out", env_for(api), "--strict")
        assert result.exit_code == 1 and not (tmp_path / "out" / "store.sqlite").exists()
        assert report["summary_failures"][0]["path"] == "cache.md" and "HTTP 502" in report["summary_failures"][0]["reason"]
        loose, report = build(docs, tmp_path / "out", env_for(api))
    assert loose.exit_code == 0 and report["summaries"]["offline"] == 1
    assert [item["path"] for item in report["summaries"]["failed"]] == ["cache.md"]


@pytest.mark.parametrize(
    ("summarizer", "env", "named"),
    [
        ("openai:gpt-test", {}, "OPENAI_API_KEY"),
        ("anthropic:claude-test", {"OPENAI_API_KEY": SENTINEL}, "ANTHROPIC_API_KEY"),
        ("mistral:small", {}, "unknown provider 'mistral'"),
    ],
)
@pytest.mark.parametrize("command", ["ingest", "build"])
def test_a_model_setting_that_cannot_be_used_is_exit_3_in_one_line(tmp_path, command, summarizer, env, named):
    docs = write_corpus(tmp_path / "docs")
    target = ["--store", str(tmp_path / "s.sqlite")] if command == "ingest" else ["--out", str(tmp_path / "out")]
    result = invoke([command, str(docs), *target, "--summarizer", summarizer], env)
    assert result.exit_code == 3
    assert named in result.stderr and len(result.stderr.strip().splitlines()) <= 2  # the error, its hint
    assert not (tmp_path / "s.sqlite").exists() and not (tmp_path / "out").exists()
    assert SENTINEL not in result.stderr + result.stdout


def test_the_key_is_in_no_output_and_no_file(tmp_path):
    docs = write_corpus(tmp_path / "docs")
    # The provider echoes the key back in an error for one document: the reason must not carry it.
    leaky = lambda r: Reply(400, {"error": f"bad request for key {SENTINEL}"}) if title_of(r) == "Tools" else model()(r)  # noqa: E731
    outputs = []
    with LoopbackAPI(leaky) as api:
        env = env_for(api, CONTEXTPULL_SUMMARY_CONCURRENCY="2")
        for args in (
            ["ingest", str(docs), "--store", str(tmp_path / "s.sqlite"), "--summarizer", "openai:gpt-test"],
            ["ingest", str(docs), "--store", str(tmp_path / "s.sqlite"), "--summarizer", "openai:gpt-test", "--json"],
            ["build", str(docs), "--out", str(tmp_path / "out"), "--summarizer", "openai:gpt-test", "--json"],
            ["build", str(docs), "--out", str(tmp_path / "out"), "--summarizer", "openai:gpt-test"],
        ):
            result = invoke(args, env)
            assert result.exit_code == 0, result.stderr
            outputs += [result.stdout, result.stderr]
    assert any("Tools" in line or "tools.md" in line for line in outputs)  # the fallback was reported
    assert all(SENTINEL not in text for text in outputs)
    files = [p for p in tmp_path.rglob("*") if p.is_file() and "docs" not in p.parts]
    assert {p.name for p in files} >= {"s.sqlite", "store.sqlite", "manifest.json", "store.sqlite.sha256"}
    for path in files:
        assert SENTINEL.encode() not in path.read_bytes(), path
