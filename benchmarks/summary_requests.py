"""Model summaries: what a build asks the provider for, first and after one document changed.

Runs against a stand-in chat-completions server on loopback (no network, no key spent): builds
DOCS with ``--summarizer openai:stand-in``, appends a line to one document, builds again with
``--cache`` and prints each build's ``summaries`` report (generated, cached, offline, requests,
retries, tokens). Usage::

    python benchmarks/summary_requests.py /work/shared/corpora/uv-docs [--doc concepts/cache.md]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class StandIn(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        prompt = body["messages"][-1]["content"]
        title = prompt.splitlines()[0].removeprefix("Title: ")
        answer = {
            "choices": [{"message": {"content": f"What {title} covers"}}],
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 8},
        }
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def build(docs: Path, out: Path, env: dict, *extra: str) -> dict:
    cmd = [sys.executable, "-m", "contextpull", "build", str(docs), "--out", str(out), "--json",
           "--summarizer", "openai:stand-in", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    return json.loads(proc.stdout)["summaries"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("docs", type=Path)
    parser.add_argument("--doc", default="concepts/cache.md", help="the document to change")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    env = {**os.environ, "OPENAI_BASE_URL": f"http://{host}:{port}/v1", "OPENAI_API_KEY": "stand-in", "SOURCE_DATE_EPOCH": "0"}
    with tempfile.TemporaryDirectory(prefix="summary-bench-") as tmp:
        docs = Path(tmp) / "docs"
        shutil.copytree(args.docs, docs)
        first = build(docs, Path(tmp) / "out1", env)
        with open(docs / args.doc, "a", encoding="utf-8") as handle:
            handle.write("\nOne more line.\n")
        second = build(docs, Path(tmp) / "out2", env, "--cache", str(Path(tmp) / "out1" / "store.sqlite"))
        third = build(docs, Path(tmp) / "out3", env, "--cache", str(Path(tmp) / "out2" / "store.sqlite"))
    server.shutdown()
    for label, report in (("first build", first), (f"{args.doc} changed, --cache", second), ("nothing changed, --cache", third)):
        counts = {k: v for k, v in report.items() if k not in ("summarizer", "failed")}
        print(f"{label:<40} " + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
