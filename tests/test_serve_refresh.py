"""``serve --refresh``: a moving release tag followed while clients keep asking (issue 27).

The loopback release host republishes ``gh:acme/gadget@latest``; the server (a subprocess over
streamable HTTP or stdio, polling every 200 ms) must swap the new store in between requests. Clients
call all the while: no call may fail, and no answer may mix the two builds (every hit of one
answer comes from one of them). A republished store whose body does not match its ``.sha256``
must leave the old store in service, with one line on stderr.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

try:
    from mcp_fixtures import PROVENANCE, corpus_store, free_port, set_meta, stop_server, wait_listening
    from release_host import ReleaseHost
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import PROVENANCE, corpus_store, free_port, set_meta, stop_server, wait_listening
    from tests.release_host import ReleaseHost

WAIT_S = 30  # a swap is due within 200 ms; this bounds a broken server, it is not a timing


def _build(tmp, version: str, word: str):
    docs = {f"notes/{n}.md": f"# Release notes {n}\n\nThe gadget release {word} changes part {n}.\n" for n in range(6)}
    store = corpus_store(tmp, f"gadget-{version}.sqlite", docs)
    set_meta(store, **{**PROVENANCE, "docs_version": version})
    return store.read_bytes()


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("refresh")
    return {"one": _build(tmp, "1.0", "alpha"), "two": _build(tmp, "2.0", "beta"), "widget": corpus_store(tmp)}


def _start(args, env):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "contextpull", "serve", *args, "--refresh", "200ms", "--transport", "http", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    wait_listening(port, proc)
    return f"http://127.0.0.1:{port}/mcp", proc


def _words(result) -> set[str]:
    """Which build each hit's snippet comes from."""
    return {w for h in result.structured_content["hits"] for w in ("alpha", "beta") if w in h["snippet"]}


@contextlib.contextmanager
def _clients(transport: str, args: list[str], env: dict):
    """``connect()`` opens one more SDK client on the server; stderr is read at the end."""
    if transport == "http":
        url, proc = _start(args, env)
        stderr: list[str] = []
        try:
            yield lambda: Client(url, read_timeout_seconds=30), stderr
        finally:
            stop_server(proc)
            stderr.append(proc.stderr.read())
        return
    command = ["-m", "contextpull", "serve", *args, "--refresh", "200ms"]
    params = StdioServerParameters(command=sys.executable, args=command, env=env)
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as errlog:
        stderr = []
        # over stdio a client is the server's one session: each connect() starts a server
        yield lambda: Client(stdio_client(params, errlog=errlog), mode="legacy", read_timeout_seconds=60), stderr
        errlog.seek(0)
        stderr.append(errlog.read())


@pytest.mark.parametrize("transport", ["http", "stdio"])
def test_a_refresh_swaps_under_concurrent_requests_without_an_error_or_a_mixed_answer(builds, tmp_path, transport):
    with ReleaseHost() as host:
        host.publish("acme/gadget", "latest", builds["one"])
        env = {**os.environ, "CONTEXTPULL_GITHUB_URL": host.url, "CONTEXTPULL_CACHE": str(tmp_path / "cache")}
        answers, errors = [], []
        with _clients(transport, [f"widget={builds['widget']}", "gadget=gh:acme/gadget@latest"], env) as (connect, stderr):

            async def ask(client, stop: anyio.Event):
                while not stop.is_set():
                    result = await client.call_tool("search", {"query": "gadget release", "in": ["gadget"], "limit": 6})
                    (errors if result.is_error else answers).append(result)

            async def main():
                stop = anyio.Event()
                async with connect() as client:
                    async with anyio.create_task_group() as tasks:
                        for _ in range(4):  # four requests in flight at a time
                            tasks.start_soon(ask, client, stop)
                        await anyio.sleep(0.5)
                        host.publish("acme/gadget", "latest", builds["two"])
                        deadline = time.monotonic() + WAIT_S
                        while time.monotonic() < deadline and not (answers and _words(answers[-1]) == {"beta"}):
                            await anyio.sleep(0.05)
                        await anyio.sleep(0.3)  # keep asking across and after the swap
                        stop.set()
                    listing = (await client.call_tool("index", {})).content[0].text
                if transport == "http":  # a new session is told the new build at initialize
                    async with connect() as fresh:
                        return fresh.instructions, listing
                return None, listing

            instructions, listing = anyio.run(main)
        stderr = stderr[0]
    assert not errors, errors[0].content[0].text
    seen = [_words(a) for a in answers]
    assert all(len(words) == 1 for words in seen), "an answer mixed the two builds"
    assert seen[0] == {"alpha"} and seen[-1] == {"beta"}
    assert "gadget/" in listing and "version 2.0" in listing
    assert instructions is None or "version 2.0" in instructions
    assert stderr.count("contextpull: refreshed gadget: now sha256") == 1


def test_a_refreshed_store_that_fails_its_checksum_keeps_the_old_one(builds, tmp_path):
    with ReleaseHost() as host:
        first = host.publish("acme/gadget", "latest", builds["one"])
        env = {**os.environ, "CONTEXTPULL_GITHUB_URL": host.url, "CONTEXTPULL_CACHE": str(tmp_path / "cache")}
        url, proc = _start(["gh:acme/gadget@latest"], env)  # one source: today's server, following the tag
        try:
            host.publish("acme/gadget", "latest", builds["two"], checksum="0" * 64)  # body and .sha256 disagree

            async def asks():
                async with Client(url, read_timeout_seconds=30) as client:
                    deadline = time.monotonic() + WAIT_S
                    while time.monotonic() < deadline and host.hits.count("/acme/gadget/releases/download/latest/store.sqlite") < 3:
                        await anyio.sleep(0.05)  # the server tried to fetch the bad body more than once
                    bad = await client.call_tool("search", {"query": "gadget release"})
                    host.publish("acme/gadget", "latest", builds["two"])  # now published right
                    while time.monotonic() < deadline:
                        good = await client.call_tool("search", {"query": "gadget release"})
                        if _words(good) == {"beta"}:
                            break
                        await anyio.sleep(0.05)
                    return bad, good

            bad, good = anyio.run(asks)
        finally:
            stop_server(proc)
        stderr = proc.stderr.read()
    assert not bad.is_error and _words(bad) == {"alpha"}
    assert bad.structured_content["hits"][0]["id"].startswith("notes/")  # one source: ids as they always were
    assert _words(good) == {"beta"}
    failed = [line for line in stderr.splitlines() if "refresh of gh:acme/gadget@latest failed" in line]
    assert failed and f"still serving sha256 {first[:12]}: checksum mismatch" in failed[0]
