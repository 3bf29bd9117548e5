"""``contextpull serve`` with several sources, end to end through the MCP SDK's clients (issue 27).

A loopback release host plays GitHub (``gh:acme/gadget@v2`` is its release asset); the server
is a real subprocess over stdio and over streamable HTTP: mounts listed by ``index()``,
prefixed ids, ``in`` by mount, an unknown mount, a dead source beside good ones, a start with
no usable source. The live refresh is in test_serve_refresh.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

try:
    from mcp_fixtures import free_port, mount_stores, stop_server, wait_listening
    from release_host import ReleaseHost
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import free_port, mount_stores, stop_server, wait_listening
    from tests.release_host import ReleaseHost


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve-mounts")
    return mount_stores(tmp)


@pytest.fixture()
def release(stores):
    with ReleaseHost() as host:
        host.publish("acme/gadget", "v2", stores[1].read_bytes())
        yield host


@pytest.fixture()
def env(release, tmp_path):
    return {**os.environ, "CONTEXTPULL_GITHUB_URL": release.url, "CONTEXTPULL_CACHE": str(tmp_path / "cache")}


async def _calls(client):
    index = await client.call_tool("index", {})
    own = await client.call_tool("index", {"prefix": "gadget@2.1/"})
    search = await client.call_tool("search", {"query": "cache", "limit": 10})
    scoped = await client.call_tool("search", {"query": "cache", "in": ["gadget@2.1/ops/"]})
    read = await client.call_tool("read", {"id": "widget/reference/errors.md#1"})
    unknown = await client.call_tool("read", {"id": "flask/x.md#1"})
    return client.instructions, index, own, search, scoped, read, unknown


def _check(instructions, index, own, search, scoped, read, unknown):
    assert "several read-only stores" in instructions
    listing = index.content[0].text
    assert listing.startswith("ContextPull mounts · 2 stores") and listing in instructions
    assert "gadget@2.1/ " in listing and "version 2.1 · commit 0123456 · built 2026-11-30" in listing
    assert own.content[0].text.startswith("ContextPull index · 3 documents")
    prefixes = {h["id"].split("/", 1)[0] for h in search.structured_content["hits"]}
    assert prefixes == {"widget", "gadget@2.1"}
    assert scoped.structured_content["hits"] and all(
        h["id"].startswith("gadget@2.1/ops/") for h in scoped.structured_content["hits"]
    )
    assert read.structured_content["id"] == "widget/reference/errors.md#1" and "TX-4419" in read.structured_content["text"]
    assert unknown.is_error and "no mount 'flask'" in unknown.content[0].text and "widget, gadget@2.1" in unknown.content[0].text


def test_stdio_serves_a_file_and_a_release_beside_a_dead_source(stores, env):
    widget, _ = stores
    args = ["-m", "contextpull", "serve", f"widget={widget}", "gh:acme/gadget@v2", "gh:acme/gone@v1"]
    params = StdioServerParameters(command=sys.executable, args=args, env=env)
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as errlog:

        async def main():
            async with Client(stdio_client(params, errlog=errlog), mode="legacy", read_timeout_seconds=60) as client:
                return await _calls(client)

        result = anyio.run(main)
        errlog.seek(0)
        stderr = errlog.read()
    _check(*result)
    dead = [line for line in stderr.splitlines() if "gh:acme/gone@v1" in line]
    assert len(dead) == 1 and dead[0].startswith("contextpull: not serving gh:acme/gone@v1 (argument 3")
    assert "HTTP 404" in dead[0]
    assert "mounted 2 mounts (widget, gadget@2.1)" in stderr


def test_http_serves_a_catalog_and_a_second_start_needs_no_network(stores, env, release, tmp_path):
    widget, _ = stores
    catalog = tmp_path / "docs.toml"
    catalog.write_text(f'[[mount]]\nname = "widget"\nsource = "{widget}"\n\n[[mount]]\nsource = "gh:acme/gadget@v2"\n')
    for round_ in ("online", "offline"):
        if round_ == "offline":
            release.withdraw("acme/gadget", "v2")  # the release host is gone: the cache serves
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "contextpull", "serve", "--catalog", str(catalog), "--transport", "http", "--port", str(port)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        try:
            wait_listening(port, proc)

            async def main():
                async with Client(f"http://127.0.0.1:{port}/mcp", mode="auto", read_timeout_seconds=30) as client:
                    return await _calls(client)

            result = anyio.run(main)
        finally:
            stop_server(proc)
        _check(*result)
        stderr = proc.stderr.read()
        assert proc.returncode == 0
        if round_ == "offline":
            assert "serving the cached copy" in stderr and "HTTP 404" in stderr


def test_no_usable_source_exits_3_naming_each(tmp_path, env):
    not_a_store = tmp_path / "notes.sqlite"
    not_a_store.write_bytes(b"plain text, not SQLite")
    proc = subprocess.run(
        [sys.executable, "-m", "contextpull", "serve", str(not_a_store), "gh:acme/gone@v1", str(tmp_path / "missing")],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert [line.split(" (argument")[0] for line in lines[:3]] == [
        f"contextpull: not serving {not_a_store}",
        "contextpull: not serving gh:acme/gone@v1",
        f"contextpull: not serving {tmp_path / 'missing'}",
    ]
    assert "no usable source among 3" in lines[3] and "Traceback" not in proc.stderr
