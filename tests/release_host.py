"""A loopback release host laid out as GitHub's, for ``gh:OWNER/REPO@TAG`` sources (issue 27).

``/OWNER/REPO/releases/download/TAG/store.sqlite`` and its ``.sha256``, as the Action's release
upload attaches them (builder/release.py); ``publish`` replaces a tag's assets at once, which is
what a moving tag such as ``docs-latest`` does. Point ``CONTEXTPULL_GITHUB_URL`` at ``url``.
"""

from __future__ import annotations

import hashlib
import http.server
import threading


class ReleaseHost:
    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.hits: list[str] = []
        self._lock = threading.Lock()
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's naming
                with host._lock:
                    host.hits.append(self.path)
                    data = host.files.get(self.path)
                self.send_response(200 if data is not None else 404)
                self.send_header("Content-Length", str(len(data or b"")))
                self.end_headers()
                self.wfile.write(data or b"")

            def log_message(self, *args):  # keep test output clean
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def publish(self, repo: str, tag: str, body: bytes, *, checksum: str | None = None) -> str:
        """Attach ``body`` as the tag's store (``checksum``: a wrong one on purpose); its sha256."""
        digest = hashlib.sha256(body).hexdigest()
        base = f"/{repo}/releases/download/{tag}/store.sqlite"
        with self._lock:
            self.files[base] = body
            self.files[base + ".sha256"] = f"{checksum or digest}  store.sqlite\n".encode()
        return digest

    def withdraw(self, repo: str, tag: str) -> None:
        base = f"/{repo}/releases/download/{tag}/store.sqlite"
        with self._lock:
            self.files.pop(base, None)
            self.files.pop(base + ".sha256", None)

    def __enter__(self) -> "ReleaseHost":
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
