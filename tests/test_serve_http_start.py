"""``serve --transport http`` start-up: bind before announcing; a wildcard bind answers its names.

Every request goes to 127.0.0.1; the wildcard case only sets the ``Host`` header a client on
another machine would send.
"""

from __future__ import annotations

import json
import queue
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("mcp")

try:
    from mcp_fixtures import INIT, corpus_store, stop_server
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import INIT, corpus_store, stop_server

from contextpull.errors import InputError
from contextpull.serving.listen import listen, machine_names


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return corpus_store(tmp_path_factory.mktemp("start"))


def _serve(store, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "contextpull", "serve", str(store), "--transport", "http", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _stderr_queue(proc: subprocess.Popen) -> queue.Queue:
    """The server's stderr lines, read by a thread as they come (``None`` at the end). Polling
    the pipe with select() missed lines that readline() had already buffered, and then waited
    the whole timeout for a line that was there."""
    if not hasattr(proc, "stderr_lines"):
        lines: queue.Queue = queue.Queue()

        def pump() -> None:
            for line in proc.stderr:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        proc.stderr_lines = lines
    return proc.stderr_lines


def _stderr_lines_until(proc: subprocess.Popen, marker: str, timeout: float = 60.0) -> list[str]:
    """stderr lines up to the first holding ``marker`` (bounded in time)."""
    lines: list[str] = []
    source = _stderr_queue(proc)
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = source.get(timeout=left)
        except queue.Empty:
            break
        if line is None:
            break
        lines.append(line.rstrip("\n"))
        if marker in line:
            return lines
    raise AssertionError(f"no {marker!r} on stderr: {lines}")


def _post(url: str, host: str) -> int:
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Host": host}
    request = urllib.request.Request(url, data=json.dumps(INIT).encode(), headers=base)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_busy_port_fails_with_one_line_and_never_says_serving(store):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _serve(store, "--port", str(port))
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert proc.returncode == 3
    assert "serving" not in err
    assert err.strip().splitlines() == [
        f"Error: cannot listen on 127.0.0.1:{port}: Address already in use (another process is listening "
        "there: stop it, or pass --port with a free port (or set CONTEXTPULL_PORT))"
    ]


def test_listen_names_the_address_and_what_to_do():
    with listen("127.0.0.1", 0) as taken:
        port = taken.getsockname()[1]
        with pytest.raises(InputError) as err:
            listen("127.0.0.1", port)
    assert f"127.0.0.1:{port}" in err.value.message and "--port" in err.value.suggestion


def test_the_announced_port_is_already_listening(store):
    proc = _serve(store, "--port", "0")
    try:
        line = _stderr_lines_until(proc, "serving")[-1]
        port = int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
        # no wait, no retry: the line comes after the bind, so the port answers at once
        assert _post(f"http://127.0.0.1:{port}/mcp", f"127.0.0.1:{port}") == 200
    finally:
        stop_server(proc)


def test_a_wildcard_bind_answers_this_machines_names_and_says_so(store):
    names = machine_names("0.0.0.0")
    assert names and names[0] == socket.gethostname()
    proc = _serve(store, "--host", "0.0.0.0", "--port", "0")
    try:
        lines = _stderr_lines_until(proc, "listening on every interface")
        port = int(lines[-2].split("http://0.0.0.0:", 1)[1].split("/", 1)[0])
        assert f"{names[0]}:{port}" in lines[-1] and f"--allow-origin http://NAME:{port}" in lines[-1]
        url = f"http://127.0.0.1:{port}/mcp"  # loopback only; the Host header is what a LAN client sends
        for name in names:
            assert _post(url, f"{name}:{port}") == 200, name
        assert _post(url, f"evil.example:{port}") == 421
    finally:
        stop_server(proc)


def test_a_wildcard_bind_takes_extra_names_from_allow_origin(store):
    proc = _serve(store, "--host", "0.0.0.0", "--port", "0", "--allow-origin", "http://docs.internal")
    try:
        lines = _stderr_lines_until(proc, "listening on every interface")
        port = int(lines[-2].split("http://0.0.0.0:", 1)[1].split("/", 1)[0])
        assert _post(f"http://127.0.0.1:{port}/mcp", f"docs.internal:{port}") == 200
    finally:
        stop_server(proc)
