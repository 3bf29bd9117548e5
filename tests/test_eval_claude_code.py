"""ClaudeCodeRetriever with a fake ``claude`` that replays a recorded stream-json trace (issue 18).

``eval_data/claude-stream.jsonl`` is a headless run against the store of ``read_store.make_store``:
a search, two reads (one of an unknown id, answered with an error), a neighbours call, a tool
outside ContextPull that was refused, and the result event with usage and cost.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from contextpull.errors import ConfigError
from contextpull.eval import ClaudeCodeRetriever
from contextpull.eval import claude_code
from contextpull.eval.claude_trace import parse_trace
from read_store import make_store

TRACE = Path(__file__).parent / "eval_data" / "claude-stream.jsonl"

FAKE = """#!{python}
import json, os, sys
with open(os.environ["FAKE_CLAUDE_ARGV"], "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
sys.stdout.write(open(os.environ["FAKE_CLAUDE_TRACE"]).read())
sys.stderr.write(os.environ.get("FAKE_CLAUDE_STDERR", ""))
sys.exit(int(os.environ.get("FAKE_CLAUDE_EXIT", "0")))
"""


@pytest.fixture
def fake_claude(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "claude"
    exe.write_text(FAKE.format(python=sys.executable))
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_CLAUDE_ARGV", str(tmp_path / "argv.jsonl"))
    monkeypatch.setenv("FAKE_CLAUDE_TRACE", str(TRACE))
    return tmp_path / "argv.jsonl"


@pytest.fixture
def store(tmp_path):
    return make_store(tmp_path / "store.sqlite")


@pytest.fixture
def no_server_check(monkeypatch):
    monkeypatch.setattr(claude_code, "check_server", lambda command: None)


def test_the_trace_gives_ids_read_tokens_cost_and_tool_calls():
    rec = parse_trace(TRACE.read_text())
    assert rec.error is None
    # a.md#0 read, c.md#0 refused (unknown id), then neighbours' b.md#0 and b.md#1
    assert rec.read_ids == ["policies/a.md#0", "policies/b.md#0", "policies/b.md#1"]
    assert rec.surfaced_ids[0] == "policies/a.md#0"
    assert rec.tool_calls == {"search": 1, "read": 2, "neighbours": 1}  # Bash is not ours
    assert rec.tool_errors == 1
    assert (rec.tokens_in, rec.tokens_out, rec.turns, rec.usd) == (15 + 4200 + 12000, 150, 4, 0.0421)
    assert rec.answer == "The refund window is 30 days [policies/a.md#0]."


def test_a_trace_without_a_result_or_with_an_error_result_is_an_error():
    lines = TRACE.read_text().splitlines()
    assert parse_trace("\n".join(lines[:-1])).error == "the trace has no result event (claude stopped early)"
    last = json.loads(lines[-1]) | {"subtype": "error_max_turns", "is_error": True}
    assert "error_max_turns" in parse_trace("\n".join(lines[:-1] + ["not json", json.dumps(last)])).error


def test_runs_claude_headless_with_only_our_server_and_caches_the_run(fake_claude, store, tmp_path, no_server_check):
    cache = str(tmp_path / "cache.sqlite")
    with ClaudeCodeRetriever(str(store), model="sonnet", cache_path=cache, max_turns=6) as r:
        assert r.retrieve("How long is the refund window?", 2) == ["policies/a.md#0", "policies/b.md#0"]
        config = json.loads(r.config.read_text())
        stats = r.stats()
    argv = [json.loads(line) for line in fake_claude.read_text().splitlines()]
    assert len(argv) == 1
    args = argv[0]
    assert args[0] == "-p" and args[1].startswith("How long is the refund window?")
    for flag, value in [("--strict-mcp-config", None), ("--allowedTools", "mcp__contextpull__*"),
                        ("--output-format", "stream-json"), ("--max-turns", "6"), ("--model", "sonnet")]:
        assert flag in args
        if value:
            assert args[args.index(flag) + 1] == value
    assert "--mcp-config" in args
    server = config["mcpServers"]["contextpull"]
    assert server["args"] == ["-m", "contextpull", "serve", str(Path(store).resolve())]
    assert stats["queries"] == 1 and stats["usd"] == 0.0421 and stats["tool_calls"] == 4 and stats["errors"] == 0
    with ClaudeCodeRetriever(str(store), model="sonnet", cache_path=cache, max_turns=6) as r:
        assert r.record("How long is the refund window?").cached
    assert len(fake_claude.read_text().splitlines()) == 1  # the second run came from the cache


def test_a_run_without_our_tools_or_with_a_failing_claude_is_an_error_not_cached(
    fake_claude, store, tmp_path, monkeypatch, no_server_check
):
    answer_only = tmp_path / "answer-only.jsonl"
    answer_only.write_text(TRACE.read_text().splitlines()[-1] + "\n")
    monkeypatch.setenv("FAKE_CLAUDE_TRACE", str(answer_only))
    cache = str(tmp_path / "cache.sqlite")
    with ClaudeCodeRetriever(str(store), cache_path=cache) as r:
        assert "no contextpull tool call" in r.record("q").error
    monkeypatch.setenv("FAKE_CLAUDE_TRACE", str(TRACE))
    monkeypatch.setenv("FAKE_CLAUDE_EXIT", "1")
    monkeypatch.setenv("FAKE_CLAUDE_STDERR", "Invalid API key")
    with ClaudeCodeRetriever(str(store), cache_path=cache) as r:
        assert r.record("q").error == "claude exited 1: Invalid API key"
        assert r.stats()["errors"] == 1
    assert len(fake_claude.read_text().splitlines()) == 2


def test_the_server_is_checked_up_front(fake_claude, store, tmp_path):
    broken = tmp_path / "python-without-mcp"
    broken.write_text(f"#!{sys.executable}\nimport sys\nsys.stderr.write('ModuleNotFoundError: No module named mcp\\n')\nsys.exit(1)\n")
    broken.chmod(0o755)
    with pytest.raises(ConfigError, match="did not start: ModuleNotFoundError: No module named mcp"):
        ClaudeCodeRetriever(str(store), server_python=str(broken), cache_path=None)
    claude_code.check_server([sys.executable, "-m", "contextpull", "serve", str(store)])  # the real one answers


def test_a_missing_claude_executable_is_one_config_error(store, monkeypatch, no_server_check):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ConfigError, match="Claude Code executable 'claude' was not found"):
        ClaudeCodeRetriever(str(store), cache_path=None)
