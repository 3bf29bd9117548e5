"""``contextpull serve`` as a real subprocess over stdio, through the SDK's stdio client.

Two shapes from system-design.txt section 7: a prebuilt store file served as it is, and a docs
folder ingested into ``<folder>/.contextpull/store.sqlite`` first. stdout carries protocol
messages only (the client would fail on anything else); progress and ``--log`` go to stderr.
"""

from __future__ import annotations

import sys
import tempfile

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from contextpull.store import Store  # noqa: E402

try:
    from mcp_fixtures import corpus_store, write_corpus
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import corpus_store, write_corpus


def _session(args, mode="legacy"):
    """Start ``contextpull serve ARGS``, make a few calls, return what came back and stderr."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "contextpull", "serve", *args])
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as errlog:

        async def main():
            async with Client(stdio_client(params, errlog=errlog), mode=mode, read_timeout_seconds=60) as client:
                tools = [tool.name for tool in (await client.list_tools()).tools]
                search = await client.call_tool("search", {"query": "cache folder"})
                missing = await client.call_tool("read", {"id": "nowhere.md#1"})
                return client.instructions, tools, search, missing

        result = anyio.run(main)
        errlog.seek(0)
        return (*result, errlog.read())


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_serves_a_store_file(tmp_path, mode):
    store = corpus_store(tmp_path)
    instructions, tools, search, missing, stderr = _session([str(store), "--log"], mode)
    with Store.open(store) as opened:
        assert opened.meta["index_text"] in instructions
    assert tools == ["index", "search", "read", "grep", "neighbours"]
    assert not search.is_error and search.structured_content["hits"]
    assert missing.is_error and "nowhere.md#1" in missing.content[0].text
    logged = [line for line in stderr.splitlines() if line.startswith("contextpull tool=")]
    assert len(logged) == 2 and "tool=search" in logged[0]


def test_serves_a_docs_folder_after_ingesting_it(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    instructions, tools, search, _, stderr = _session([str(corpus)])
    store = corpus / ".contextpull" / "store.sqlite"
    assert store.is_file()
    assert "guides/install.md" in instructions and "reference/errors.md" in instructions
    assert search.structured_content["hits"][0]["doc"] in ("guides/install.md", "reference/errors.md")
    assert "documents seen" in stderr  # the ingest summary went to stderr, not into the protocol


def test_stdout_carries_only_protocol_messages(tmp_path):
    """Raw pipes, no SDK client: every stdout line is a JSON-RPC message, all else is stderr."""
    import json
    import subprocess
    import threading

    corpus = write_corpus(tmp_path / "docs")
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "daemon"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "read", "arguments": {"id": "x#1"}}},
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "contextpull", "serve", str(corpus), "--log"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(120, proc.kill)  # bounded: a hung server fails the test
    watchdog.start()
    try:
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        proc.stdin.flush()
        messages = []
        while len([m for m in messages if "id" in m]) < 3:
            line = proc.stdout.readline()
            if not line:
                break
            messages.append(json.loads(line))  # anything but JSON-RPC on stdout fails here
        proc.stdin.close()  # EOF: the server exits
        rest = proc.stdout.read()
        stderr = proc.stderr.read()
        proc.wait(timeout=60)
    finally:
        watchdog.cancel()
    assert rest == ""
    assert all(m.get("jsonrpc") == "2.0" for m in messages)
    by_id = {m["id"]: m for m in messages if "id" in m}
    assert by_id[1]["result"]["protocolVersion"] == "2025-06-18"
    assert "guides/install.md" in by_id[1]["result"]["instructions"]
    assert by_id[2]["result"]["isError"] is False
    assert by_id[3]["result"]["isError"] is True
    assert "documents seen" in stderr and "contextpull tool=search" in stderr
