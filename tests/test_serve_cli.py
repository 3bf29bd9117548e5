"""``serve``'s argument handling, ``serve URL`` and ``claude-md``, without starting a server loop."""

from __future__ import annotations

import contextlib
import hashlib
import sys

import pytest
from click.testing import CliRunner

from contextpull.cli import cli
from contextpull.cli.serve import CLAUDE_MD, resolve_store

try:
    from mcp_fixtures import corpus_store, write_corpus
    from release_host import ReleaseHost
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import corpus_store, write_corpus
    from tests.release_host import ReleaseHost


@pytest.mark.parametrize(
    ("args", "env"),
    [(["--port", "eighty"], {}), (["--port", "70000"], {}), ([], {"CONTEXTPULL_PORT": "not-a-port"})],
)
def test_bad_port_is_a_usage_error_not_a_traceback(tmp_path, args, env):
    result = CliRunner().invoke(cli, ["serve", str(tmp_path), "--transport", "http", *args], env=env)
    assert result.exit_code == 2
    assert "port" in result.stderr.lower()
    assert "Traceback" not in result.stderr


def test_missing_path_is_one_line(tmp_path):
    result = CliRunner().invoke(cli, ["serve", str(tmp_path / "nope")])
    assert result.exit_code == 3
    assert result.stderr.strip().count("\n") == 0
    assert "does not exist" in result.stderr


def test_no_ingest_needs_an_existing_store(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    result = CliRunner().invoke(cli, ["serve", str(corpus), "--no-ingest"])
    assert result.exit_code == 3
    assert "no store at" in result.stderr and "--no-ingest" in result.stderr
    assert not (corpus / ".contextpull").exists()


def test_a_file_that_is_not_a_store_fails_before_serving(tmp_path):
    bogus = tmp_path / "notes.sqlite"
    bogus.write_text("hello")
    result = CliRunner().invoke(cli, ["serve", str(bogus)])
    assert result.exit_code == 3
    assert "not a SQLite file" in result.stderr


def test_missing_mcp_extra_gives_install_hint(tmp_path, monkeypatch):
    store = corpus_store(tmp_path)
    monkeypatch.setitem(sys.modules, "mcp", None)
    result = CliRunner().invoke(cli, ["serve", str(store)])
    assert result.exit_code != 0
    assert 'pip install "contextpull[mcp] @ git+https://github.com/OWNER/contextpull@v' in result.stderr
    assert "Traceback" not in result.stderr


def test_folder_is_ingested_into_its_own_store(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    store = resolve_store(str(corpus), ingest=True, summarizer=None)
    assert store == corpus / ".contextpull" / "store.sqlite"
    assert store.is_file()
    assert resolve_store(str(corpus), ingest=False, summarizer=None) == store


@contextlib.contextmanager
def published(body: bytes):
    """A loopback release serving ``store.sqlite`` and its ``.sha256``; yields the store URL."""
    with ReleaseHost() as host:
        host.publish("acme/docs", "docs", body)
        yield f"{host.url}/acme/docs/releases/download/docs/store.sqlite"


def test_url_is_fetched_into_the_cache(tmp_path, monkeypatch):
    body = corpus_store(tmp_path).read_bytes()
    monkeypatch.setenv("CONTEXTPULL_CACHE", str(tmp_path / "cache"))
    with published(body) as url:
        path = resolve_store(url, ingest=True, summarizer=None)
    assert path.is_relative_to(tmp_path / "cache")
    assert path.read_bytes() == body


def test_claude_md_snippet():
    result = CliRunner().invoke(cli, ["claude-md"])
    assert result.exit_code == 0
    assert result.stdout == CLAUDE_MD
    for tool in ("search", "read", "grep", "neighbours", "contextpull://index"):
        assert tool in result.stdout


def test_an_sdk_without_the_2x_api_is_named(tmp_path, monkeypatch):
    store = corpus_store(tmp_path)
    import contextpull.serving

    monkeypatch.setitem(sys.modules, "contextpull.serving.mcp_server", None)  # import fails like mcp 1.x would
    monkeypatch.delattr(contextpull.serving, "mcp_server", raising=False)
    result = CliRunner().invoke(cli, ["serve", str(store)])
    assert result.exit_code != 0
    assert "MCP SDK 2.3 or newer" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_url_with_sha256_uses_the_cached_copy_offline(tmp_path, monkeypatch):
    """A host that cannot reach the release still starts from the verified cache."""
    from contextpull.errors import ContextPullError

    body = corpus_store(tmp_path).read_bytes()
    digest = hashlib.sha256(body).hexdigest()
    monkeypatch.setenv("CONTEXTPULL_CACHE", str(tmp_path / "cache"))
    with published(body) as url:
        first = resolve_store(url, ingest=True, summarizer=None)
    # The server is gone: the pinned checksum, or the one recorded by the last verified fetch
    # (issue 27: cached for offline starts), finds the cached copy without the network.
    assert resolve_store(url, ingest=True, summarizer=None, sha256=digest) == first
    assert resolve_store(url, ingest=True, summarizer=None) == first
    # A copy that no longer verifies is no copy: the start fails with the network's reason.
    first.write_bytes(b"not a store any more")
    with pytest.raises(ContextPullError, match="no checksum for"):
        resolve_store(url, ingest=True, summarizer=None)


def test_sha256_with_a_folder_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["serve", str(tmp_path), "--sha256", "0" * 64])
    assert result.exit_code == 2
    assert "--sha256 applies to a URL" in result.stderr


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_stopping_the_server_with_a_signal_is_a_normal_end(tmp_path, sig):
    """Ctrl-C or a service manager's SIGTERM is how a server stops: exit 0 for both."""
    import json
    import signal
    import subprocess

    pytest.importorskip("mcp")
    store = corpus_store(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "contextpull", "serve", str(store)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Serving once it answers: an initialize request, one JSON-RPC line each way.
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    proc.stdin.write((json.dumps(hello) + "\n").encode())
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    proc.send_signal(getattr(signal, sig))
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err.decode()


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_stops_a_stdio_server_once_the_call_in_flight_is_answered(tmp_path, sig):
    """The stop waits for the store's lock (a call in flight holds it), closes the store and
    exits 0: closed under a running query the process crashed, and unwinding the SDK's stdio
    transport with requests in flight ended in an exception group or a hung exit."""
    import subprocess
    import textwrap

    pytest.importorskip("mcp")
    script = textwrap.dedent(f"""
        import os, signal, sys, threading, time
        from contextpull.cli.serve import _stopped_by_signals
        from contextpull.serving.mcp_server import LiveStore

        live = LiveStore(sys.argv[1])
        live.current()
        held = threading.Event()

        def call():
            with live.lock:
                held.set()
                time.sleep(0.5)
                print("answered", len(live.current().search("widget daemon").hits) > 0, flush=True)

        threading.Thread(target=call).start()
        held.wait()
        with _stopped_by_signals(live, "stdio"):
            os.kill(os.getpid(), signal.{sig})
            time.sleep(20)
        print("still running", flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script, str(corpus_store(tmp_path))],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "answered True\n"), done.stderr


def test_a_folder_with_no_documents_leaves_nothing_behind(tmp_path):
    empty = tmp_path / "docs"
    empty.mkdir()
    (empty / "picture.png").write_bytes(b"\x89PNG")
    result = CliRunner().invoke(cli, ["serve", str(empty)])
    assert result.exit_code == 3 and "no documents found" in result.stderr
    assert sorted(p.name for p in empty.iterdir()) == ["picture.png"]
