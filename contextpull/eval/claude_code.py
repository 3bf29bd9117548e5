"""``ClaudeCodeRetriever``: ``claude -p`` headless against ``contextpull serve`` (ADR 008).

This measures the development client as people use it: Claude Code with our MCP server attached
and nothing else (``--mcp-config`` of a generated file, ``--strict-mcp-config``, ``--allowedTools
"mcp__contextpull__*"``), its trace read from ``--output-format stream-json`` (``claude_trace``).

The server is started once in the constructor and asked to ``initialize``: if it cannot start
(no ``mcp`` extra in the interpreter, a store it cannot open), Claude Code would answer from its
own knowledge at full price and the figures would measure nothing, so the constructor raises
instead. A run without a single ContextPull tool call is an error for the same reason. As in the
API loop, errored runs are counted and never cached.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from ..errors import ConfigError
from .cache import DEFAULT_CACHE, RunCache, cache_key
from .claude_trace import parse_trace
from .record import LoopRecord, RecordedRuns, summarize
from .stores import store_path as resolve_store

RECORD_VERSION = 1
ASK = " Answer from the documents: use the contextpull tools, read the sections you rely on and cite their ids like [path.md#3]."
SERVER_CHECK_SECONDS = 60.0


class ClaudeCodeRetriever(RecordedRuns):
    concurrency = 2

    def __init__(
        self,
        store_path: str | None = None,
        max_turns: int = 12,
        model: str | None = None,
        cache_path: str | None = DEFAULT_CACHE,
        claude_bin: str = "claude",
        timeout: float = 600.0,
        server_python: str | None = None,
    ):
        from ..store import Store

        self.store_path = str(resolve_store(store_path).resolve())
        with Store.open(self.store_path) as store:
            self.fingerprint = store.corpus_fingerprint
        self.max_turns = max_turns
        self.model = model
        self.timeout = timeout
        found = shutil.which(claude_bin)
        if found is None:
            raise ConfigError(f"the Claude Code executable {claude_bin!r} was not found on PATH",
                              "install Claude Code, or pass claude_bin")
        self.claude = found
        self.server_python = server_python or os.environ.get("CONTEXTPULL_SERVER_PYTHON") or sys.executable
        self.server = [self.server_python, "-m", "contextpull", "serve", self.store_path]
        check_server(self.server)
        self._dir = Path(tempfile.mkdtemp(prefix="contextpull-claude-"))
        self.config = self._dir / "mcp.json"
        config = {"mcpServers": {"contextpull": {"command": self.server[0], "args": self.server[1:]}}}
        self.config.write_text(json.dumps(config), encoding="utf-8")
        self.cache = RunCache(cache_path) if cache_path else None
        self.records: dict[str, LoopRecord] = {}
        self._lock = threading.Lock()

    def retrieve(self, query: str, k: int) -> list[str]:
        return self.record(query).ranked(k)

    def generate(self, query: str, chunk_ids: list[str] | None = None) -> str:
        return self.record(query).answer

    def stats(self) -> dict:
        with self._lock:
            records = list(self.records.values())
        return {**summarize(records), "model": self.model or "claude-code-default"}

    def _key(self, query: str) -> str:
        return cache_key("claude-code", RECORD_VERSION, self.model, self.max_turns, ASK, self.fingerprint, query)

    def command(self, query: str) -> list[str]:
        cmd = [
            self.claude, "-p", query + ASK,
            "--mcp-config", str(self.config), "--strict-mcp-config",
            "--allowedTools", "mcp__contextpull__*",
            "--output-format", "stream-json", "--verbose",
            "--max-turns", str(self.max_turns),
        ]
        return cmd + (["--model", self.model] if self.model else [])

    def close(self) -> None:
        shutil.rmtree(self._dir, ignore_errors=True)
        if self.cache:
            self.cache.close()

    def _run(self, query: str) -> LoopRecord:
        started = time.perf_counter()
        try:
            proc = subprocess.run(self.command(query), capture_output=True, text=True, timeout=self.timeout,
                                  cwd=self._dir, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return LoopRecord(error=f"claude did not finish within {self.timeout:g} s",
                              ms=round((time.perf_counter() - started) * 1000, 1))
        rec = parse_trace(proc.stdout)
        rec.ms = round((time.perf_counter() - started) * 1000, 1)
        stderr = " ".join(proc.stderr.split())[-300:]
        if proc.returncode != 0 and rec.error is None:
            rec.error = f"claude exited {proc.returncode}: {stderr or 'no message'}"
        elif rec.error is None and not rec.tool_calls:
            rec.error = "the trace has no contextpull tool call (the server or the tools were not available)"
        return rec


def check_server(command: list[str], timeout: float = SERVER_CHECK_SECONDS) -> None:
    """Start the MCP server, ask it to ``initialize``, and raise ``ConfigError`` unless it answers."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "contextpull-eval", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    payload = "".join(json.dumps(m) + "\n" for m in messages)
    try:
        proc = subprocess.run(command, input=payload, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ConfigError(f"the MCP server ({' '.join(command)}) did not answer initialize within {timeout:g} s") from None
    except OSError as exc:
        raise ConfigError(f"the MCP server cannot start: {exc}") from None
    for line in proc.stdout.splitlines():
        try:
            answer = json.loads(line)
        except ValueError:
            continue
        if isinstance(answer, dict) and answer.get("id") == 1 and "result" in answer:
            return
    last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
    raise ConfigError(
        f"the MCP server ({' '.join(command)}) did not start: {last}",
        "set CONTEXTPULL_SERVER_PYTHON to an interpreter with contextpull[mcp] installed",
    )
