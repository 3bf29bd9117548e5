"""A scripted HTTP server on loopback that stands in for the model providers' APIs.

Tests never reach a real API. A test gives the server a handler, ``handler(request) -> Reply``,
or a list of replies served in order; the server records every request (path, headers, JSON
body) so a test can assert what was sent, and that no key leaked into anything but the header
that carries it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: dict | None


@dataclass
class Reply:
    status: int = 200
    body: object = field(default_factory=dict)  # dict/list -> JSON; str/bytes -> sent as is
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (timeouts)


class _Server(ThreadingHTTPServer):
    # socketserver's backlog of 5 is less than a build's 8 concurrent requests: while the test
    # process is busy the kernel drops the connections beyond it, and the client sends them again
    # a second later. A backlog that holds them all keeps a prompt answer prompt.
    request_queue_size = 64
    daemon_threads = True


class LoopbackAPI:
    """``with LoopbackAPI(handler) as api: api.url``; ``api.requests`` lists what arrived."""

    def __init__(self, handler: Callable[[Request], Reply] | list[Reply]):
        if isinstance(handler, list):
            replies = list(handler)
            lock = threading.Lock()

            def scripted(_request: Request) -> Reply:
                with lock:
                    return replies.pop(0) if replies else Reply(500, {"error": "script exhausted"})

            self.handler = scripted
        else:
            self.handler = handler
        self.requests: list[Request] = []
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> "LoopbackAPI":
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = None
                request = Request("POST", self.path, {k: v for k, v in self.headers.items()}, body)
                api.requests.append(request)
                reply = api.handler(request)
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.body
                if isinstance(payload, (dict, list)):
                    payload = json.dumps(payload)
                if isinstance(payload, str):
                    payload = payload.encode("utf-8")
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out first
                    pass

        self._server = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()
