"""Load figure for the streamable HTTP server (issue 6, "What it must show").

Starts ``contextpull serve STORE --transport http`` on a free loopback port, then runs N client
threads for a fixed number of seconds. Each client holds one keep-alive HTTP connection and
sends JSON-RPC ``tools/call`` requests, as a 2025-11-25 client does against a stateless server,
cycling through a mix of the five tools with arguments taken from the store itself. Prints
requests per second, p50/p99 latency, the error count (HTTP errors, JSON-RPC errors and
``isError`` results: every call here is valid, so any error is a failure) and the server's
resident memory before and after the run.

    python benchmarks/mcp_load.py /tmp/ours-uv.sqlite --clients 16 --seconds 30

Bounded: the run stops at the deadline; loopback only; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

QUERIES = [
    "cache directory", "python version", "lock file", "workspace members", "install python",
    "dependency groups", "index url", "build backend", "tool.uv.sources", "pip compile",
    "resolution strategy", "environment variables", "docker image", "script inline metadata",
]
GREPS = ["--no-cache", "UV_CACHE_DIR", "pyproject.toml", "requires-python", "uv lock", "[tool.uv]"]


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def sample_arguments(store: Path, seed: int = 7) -> list[tuple[str, dict]]:
    """A fixed, shuffled mix of calls: search 40 %, read 25 %, grep 15 %, neighbours 10 %, index 10 %."""
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    ids = [row[0] for row in conn.execute("SELECT id FROM sections ORDER BY id")]
    prefixes = sorted({row[0].split("/", 1)[0] + "/" for row in conn.execute("SELECT path FROM documents") if "/" in row[0]})
    conn.close()
    rng = random.Random(seed)
    calls: list[tuple[str, dict]] = []
    for i in range(200):
        r = i % 20
        if r < 8:
            calls.append(("search", {"query": rng.choice(QUERIES), "limit": 10}))
        elif r < 13:
            calls.append(("read", {"id": rng.choice(ids)}))
        elif r < 16:
            calls.append(("grep", {"pattern": rng.choice(GREPS), "limit": 20}))
        elif r < 18:
            calls.append(("neighbours", {"id": rng.choice(ids), "before": 1, "after": 1}))
        else:
            calls.append(("index", {"prefix": rng.choice(prefixes)} if prefixes and rng.random() < 0.5 else {}))
    rng.shuffle(calls)
    return calls


def client_loop(port: int, calls, deadline: float, offset: int, latencies: list, errors: list) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
    }
    i = offset
    while time.perf_counter() < deadline:
        name, arguments = calls[i % len(calls)]
        i += 1
        body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
        started = time.perf_counter()
        try:
            conn.request("POST", "/mcp", body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            elapsed = time.perf_counter() - started
            if response.status != 200:
                errors.append(f"HTTP {response.status}")
                continue
            message = json.loads(data)
            if "error" in message or message.get("result", {}).get("isError"):
                errors.append(f"{name}: {str(message)[:200]}")
                continue
            latencies.append(elapsed)
        except (OSError, http.client.HTTPException, ValueError) as exc:
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.close()


def wait_listening(port: int, proc: subprocess.Popen) -> None:
    for _ in range(240):  # bounded: 60 s
        if proc.poll() is not None:
            sys.exit(f"server exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.25)
    sys.exit("server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    if not 1 <= args.clients <= 64 or not 1 <= args.seconds <= 120:
        sys.exit("--clients 1..64 and --seconds 1..120 keep the run bounded")

    calls = sample_arguments(args.store)
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "contextpull", "serve", str(args.store), "--transport", "http", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_listening(port, proc)
        rss_start = rss_kb(proc.pid)
        latencies: list[float] = []
        errors: list[str] = []
        deadline = time.perf_counter() + args.seconds
        threads = [
            threading.Thread(target=client_loop, args=(port, calls, deadline, k * 13, latencies, errors))
            for k in range(args.clients)
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started
        rss_end = rss_kb(proc.pid)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()

    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000 if ordered else float("nan")
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000 if ordered else float("nan")
    print(f"store: {args.store} ({args.store.stat().st_size:,} bytes)")
    print(f"clients: {args.clients}, duration: {wall:.1f} s, requests ok: {len(latencies)}, errors: {len(errors)}")
    print(f"throughput: {len(latencies) / wall:.1f} requests/s")
    print(f"latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"server RSS: start {rss_start / 1024:.1f} MB, end {rss_end / 1024:.1f} MB")
    print(f"machine: {os.cpu_count()} cpus (shared), Python {sys.version.split()[0]}")
    for line in errors[:5]:
        print("error:", line)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
