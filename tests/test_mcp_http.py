"""``contextpull serve --transport http``: streamable HTTP at /mcp, end to end (issue 6, part 3).

One server subprocess on a free loopback port for the module. The SDK's HTTP client talks to it
in both protocol eras; raw requests check the DNS-rebinding guard (a foreign ``Origin`` or
``Host`` is refused) and statelessness (no session id handed out, so replicas are
interchangeable).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402

try:
    from mcp_fixtures import INIT, corpus_store, free_port, stop_server, wait_listening
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import INIT, corpus_store, free_port, stop_server, wait_listening


def _start(store) -> tuple[str, subprocess.Popen]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "contextpull", "serve", str(store), "--transport", "http", "--port", str(port), "--log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_listening(port, proc)
    return f"http://127.0.0.1:{port}/mcp", proc


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return corpus_store(tmp_path_factory.mktemp("http"))


@pytest.fixture(scope="module")
def server(store):
    url, proc = _start(store)
    try:
        yield url, proc
    finally:
        stop_server(proc)


def _post(url: str, body: dict, **headers: str) -> tuple[int, dict, bytes]:
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={**base, **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_sdk_client_over_http(server, mode):
    url, _ = server

    async def main():
        async with Client(url, mode=mode, read_timeout_seconds=30) as client:
            tools = [tool.name for tool in (await client.list_tools()).tools]
            search = await client.call_tool("search", {"query": "cache folder", "limit": 3})
            read = await client.call_tool("read", {"id": search.structured_content["hits"][0]["id"]})
            bad = await client.call_tool("grep", {"pattern": "(", "regex": True})
            index = await client.read_resource("contextpull://index")
            return client.instructions, tools, search, read, bad, index

    instructions, tools, search, read, bad, index = anyio.run(main)
    assert tools == ["index", "search", "read", "grep", "neighbours"]
    assert "ContextPull index" in instructions
    assert not search.is_error and len(search.structured_content["hits"]) <= 3
    assert read.structured_content["text"]
    assert bad.is_error
    assert index.contents[0].text == instructions.split("\n\n", 1)[1]


def test_foreign_origin_is_refused(server):
    url, _ = server
    status, _, body = _post(url, INIT, Origin="http://evil.example")
    assert status == 403
    assert b"Origin" in body


def test_rebinding_host_header_is_refused(server):
    url, _ = server
    status, _, _ = _post(url, INIT, Host="evil.example:80")
    assert status == 421


def test_loopback_origin_is_served_without_session_state(server):
    url, _ = server
    status, headers, body = _post(url, INIT, Origin="http://localhost:5173")
    assert status == 200
    assert json.loads(body)["result"]["instructions"].startswith("ContextPull")
    assert not any(name.lower() == "mcp-session-id" for name in headers)


def test_two_replicas_of_one_artifact_are_interchangeable(server, store):
    """No session on the server: a call may land on any replica, as behind a load balancer."""
    first_url, _ = server
    second_url, second = _start(store)
    try:
        status, headers, _ = _post(first_url, INIT)
        assert status == 200 and "mcp-session-id" not in {k.lower() for k in headers}
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "grep", "arguments": {"pattern": "TX-4419"}}}
        answers = [_post(url, call, **{"MCP-Protocol-Version": "2025-11-25"}) for url in (first_url, second_url)]
    finally:
        stop_server(second)
    results = [json.loads(body)["result"] for status, _, body in answers if status == 200]
    assert len(results) == 2
    assert results[0] == results[1]
    assert results[0]["structuredContent"]["matches"]


def test_server_binds_loopback_only(server):
    """The listening socket's local address is 127.0.0.1 (read from /proc/net/tcp on Linux)."""
    url, _ = server
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    table = "/proc/net/tcp"
    if not os.path.exists(table):
        pytest.skip("no /proc/net/tcp on this platform")
    with open(table) as handle:
        rows = [line.split() for line in handle.readlines()[1:]]
    listening = [row[1] for row in rows if row[3] == "0A" and int(row[1].split(":")[1], 16) == port]
    assert listening == ["0100007F:%04X" % port]


def test_binding_elsewhere_allows_that_host_and_named_origins_only():
    from contextpull.serving.mcp_server import security_settings

    lan = security_settings("10.0.0.5", 8765)
    assert "10.0.0.5:*" in lan.allowed_hosts and "http://10.0.0.5:*" in lan.allowed_origins
    assert not any("evil" in entry for entry in lan.allowed_hosts + lan.allowed_origins)
    team = security_settings("0.0.0.0", 8765, ("https://docs.example.com/",))
    assert team.enable_dns_rebinding_protection
    assert "https://docs.example.com" in team.allowed_origins
    assert {"docs.example.com", "docs.example.com:*"} <= set(team.allowed_hosts)
    assert not any(entry.startswith("0.0.0.0") for entry in team.allowed_hosts)


def test_a_wildcard_start_looks_up_the_machines_names_once(monkeypatch, capsys):
    """``contextpull serve`` prints the names and hands the same list to the guard: one
    getaddrinfo and interface scan per start, not one for the message and one for the guard."""
    from contextpull.cli import serve as serve_cli
    from contextpull.serving import listen, mcp_server

    looked_up = []
    monkeypatch.setattr(listen, "machine_names", lambda host: looked_up.append(host) or ["box.lan"])
    handed = {}

    class Served:
        SUPPORTED_PROTOCOL_VERSIONS = mcp_server.SUPPORTED_PROTOCOL_VERSIONS

        @staticmethod
        def serve_http(server, sock, host, port, extra_origins=(), names=None):
            sock.close()
            handed["settings"] = mcp_server.security_settings(host, port, extra_origins, names)

    serve_cli._run(Served, None, "http", "store.sqlite", "0.0.0.0", 0, ())
    assert looked_up == ["0.0.0.0"]
    assert "box.lan:*" in handed["settings"].allowed_hosts
    assert "may name this machine as box.lan:" in capsys.readouterr().err
    # A library caller that passes no names still gets them looked up.
    assert "box.lan:*" in mcp_server.security_settings("0.0.0.0", 8765).allowed_hosts
    assert looked_up == ["0.0.0.0", "0.0.0.0"]
