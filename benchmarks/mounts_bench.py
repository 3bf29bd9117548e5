"""Several stores in one server: latency, memory, refresh and recall (issue 27).

Prints the figures of benchmarks/README.md, "Many stores in one server":

- search and grep latency, p50 and p95, through the server's dispatch (``tools.call``) over 1, 5
  and 20 mounted copies of the uv docs store, against one store built from as many copies of
  the uv docs (the same total size);
- memory per mount (resident set growth of a fresh process opening 20 mounts and searching
  them once);
- refresh: the time of one ``Refresher.check`` (poll the ``.sha256``, download and verify the
  new store beside the old, open it, swap), how long the swap itself held the lock, and the
  requests a client thread completed during the check and their worst latency;
- document-level recall@5 on the uv questions: the uv store alone, and mounted beside four other
  corpora, with the merge rule of ``serving/merge.py`` and, for comparison, plain round-robin by
  per-store rank.

    .venv/bin/python benchmarks/mounts_bench.py [--work /tmp/cp-mounts] [--queries 80]

Stores are built once into --work with ``contextpull build`` and reused.
"""

from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CONTEXTPULL_SHARED") or (ROOT.parent / "shared"))  # beside the repository in CI
UV = SHARED / "corpora" / "uv-docs"
QUESTIONS = SHARED / "bench" / "uv-questions.jsonl"
CORPORA = Path("/work/corpora")
BESIDE = {  # four other corpora mounted beside uv for the recall figure
    "conformance": ROOT / "conformance" / "corpus",
    "fastapi": CORPORA / "fastapi" / "docs" / "en" / "docs",
    "redux": CORPORA / "redux" / "docs",
    "rust-book": CORPORA / "book" / "src",
}

sys.path.insert(0, str(ROOT))


def build(corpus: Path, out: Path) -> Path:
    store = out / "store.sqlite"
    if not store.is_file():
        subprocess.run(
            [sys.executable, "-m", "contextpull", "build", str(corpus), "--out", str(out)],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    return store


def replicate(times: int, work: Path) -> Path:
    folder = work / f"uv-x{times}-docs"
    if not folder.is_dir():
        for i in range(times):
            shutil.copytree(UV, folder / f"c{i:02d}")
    return folder


def questions(limit: int | None = None) -> list[dict]:
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows[:limit] if limit else rows


def live(path: Path):
    from contextpull.serving.mcp_server import LiveStore

    opened = LiveStore(path)
    opened.current()
    return opened


def mount_set(paths: dict[str, Path]):
    from contextpull.serving.mounts import Mount, MountSet

    return MountSet([Mount(name, live(path), str(path)) for name, path in paths.items()])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def timed(fn, calls: list[dict], name: str) -> tuple[float, float]:
    from contextpull.tools import call

    for args in calls:  # warm the page cache, the statements and the word counts
        call(fn(), name, args)
    took = []
    for args in calls:
        started = time.perf_counter()
        call(fn(), name, args)
        took.append((time.perf_counter() - started) * 1000)
    return pct(took, 0.5), pct(took, 0.95)


def latency(work: Path, uv: Path, n_queries: int) -> list[str]:
    from contextpull.ops import Ops
    from contextpull.store import Store

    qs = questions(n_queries)
    searches = [{"query": q["q"], "limit": 10} for q in qs]
    patterns = [q["identifier"] for q in qs if q.get("identifier")] or ["uv pip"]
    greps = [{"pattern": p[:200], "limit": 20} for p in patterns]
    lines = ["| stores | search p50 / p95 | grep p50 / p95 |", "|---|---|---|"]
    for n in (1, 5, 20):
        copies = {}
        for i in range(n):
            target = work / "copies" / f"uv{i:02d}.sqlite"
            if not target.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(uv, target)
            copies[f"uv{i:02d}"] = target
        mounts = mount_set(copies)
        with mounts.lock:
            current = mounts.current
            s = timed(current, searches, "search")
            g = timed(current, greps, "grep")
        mounts.close()
        one = uv if n == 1 else build(replicate(n, work), work / f"uv-x{n}")
        with Store.open(one) as store:
            ops = Ops(store)
            s1 = timed(lambda: ops, searches, "search")
            g1 = timed(lambda: ops, greps, "grep")
        lines.append(f"| {n} mounted | {s[0]:.2f} / {s[1]:.2f} ms | {g[0]:.2f} / {g[1]:.2f} ms |")
        lines.append(f"| one store of {n}x the docs | {s1[0]:.2f} / {s1[1]:.2f} ms | {g1[0]:.2f} / {g1[1]:.2f} ms |")
    lines.append(f"\n{len(searches)} uv questions as search queries, {len(greps)} of their identifiers as grep patterns.")
    return lines


_MEMORY_CHILD = """
import sys, json
sys.path.insert(0, sys.argv[1])
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
import contextpull.serving.mcp_server, contextpull.serving.mounts, contextpull.tools
before = rss()
from contextpull.serving.mcp_server import LiveStore
from contextpull.serving.mounts import Mount, MountSet
from contextpull.tools import call
paths = json.loads(sys.argv[2])
mounts = MountSet([Mount(f"m{i}", LiveStore(p), p) for i, p in enumerate(paths)])
with mounts.lock:
    opened = rss()
    call(mounts.current(), "search", {"query": "install a python version with uv", "limit": 10})
    call(mounts.current(), "grep", {"pattern": "UV_CACHE_DIR"})
print(json.dumps({"before": before, "opened": opened, "searched": rss()}))
"""


def memory(work: Path) -> list[str]:
    paths = sorted(str(p) for p in (work / "copies").glob("uv*.sqlite"))[:20]
    out = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, str(ROOT), json.dumps(paths)],
                         check=True, capture_output=True, text=True)
    kib = json.loads(out.stdout)
    per_open = (kib["opened"] - kib["before"]) / len(paths)
    per_used = (kib["searched"] - kib["before"]) / len(paths)
    size = os.path.getsize(paths[0]) / 1024
    return [
        f"{len(paths)} mounts of the uv store ({size:,.0f} KiB each): {per_open:,.0f} KiB resident per mount once opened,"
        f" {per_used:,.0f} KiB after one search and one grep over all of them (RSS growth / mounts)."
    ]


def refresh(work: Path, uv: Path) -> list[str]:
    """One mount following a URL whose store changes between two builds, under a client loop."""
    from contextpull.serving.fetch import cached_path, fetch_store
    from contextpull.serving.refresh import Followed, Refresher
    from contextpull.tools import call

    other = build(replicate(5, work), work / "uv-x5")
    files: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            data = files.get(self.path)
            self.send_response(200 if data else 404)
            self.send_header("Content-Length", str(len(data or b"")))
            self.end_headers()
            self.wfile.write(data or b"")

        def log_message(self, *args):
            pass

    def publish(path: Path) -> None:
        body = path.read_bytes()
        files["/store.sqlite"] = body
        files["/store.sqlite.sha256"] = hashlib.sha256(body).hexdigest().encode()

    cache = work / "refresh-cache"
    shutil.rmtree(cache, ignore_errors=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/store.sqlite"
    publish(uv)
    first = fetch_store(url, cache=cache)
    mounts = mount_set({"uv": first.path, "beside": uv})
    swaps: list[float] = []

    def replace(path):
        opened = live(path)
        started = time.perf_counter()
        mounts.swap("uv", opened)
        swaps.append((time.perf_counter() - started) * 1000)

    followed = Followed("uv", url, first.sha256, replace)
    refresher = Refresher([followed], 3600, cache=cache, log=lambda line: None)
    rows = []
    for new in (other, uv, other, uv, other):
        publish(new)
        # each round downloads: drop the new file's cached copy (never the one being served)
        shutil.rmtree(cached_path(url, hashlib.sha256(new.read_bytes()).hexdigest(), cache).parent, ignore_errors=True)
        served, worst, stop = [0], [0.0], threading.Event()

        def client():
            while not stop.is_set():
                started = time.perf_counter()
                with mounts.lock:
                    call(mounts.current(), "search", {"query": "python version", "in": ["uv"], "limit": 5})
                worst[0] = max(worst[0], (time.perf_counter() - started) * 1000)
                served[0] += 1

        thread = threading.Thread(target=client)
        thread.start()
        time.sleep(0.05)
        before = served[0]
        started = time.perf_counter()
        assert refresher.check(followed)
        took = (time.perf_counter() - started) * 1000
        during = served[0] - before
        stop.set()
        thread.join()
        rows.append((took, swaps[-1], during, worst[0], len(files["/store.sqlite"])))
    mounts.close()
    server.shutdown()
    lines = ["| new store | whole refresh | swap (waits for the request in flight) | requests served during the refresh | worst request |",
             "|---|---:|---:|---:|---:|"]
    for took, swap, during, worst, size in rows:
        lines.append(f"| {size / 1e6:.1f} MB | {took:.0f} ms | {swap:.2f} ms | {during} | {worst:.1f} ms |")
    return lines


def recall(work: Path, uv: Path) -> list[str]:
    from contextpull.ops import Ops
    from contextpull.store import Store
    from contextpull.tools import call

    qs = questions()
    with Store.open(uv) as store:
        ops = Ops(store)
        alone = sum(q["source"] in {h.doc for h in ops.search(q["q"], limit=5).hits} for q in qs)
    stores = {"uv": uv, **{name: build(folder, work / name) for name, folder in BESIDE.items()}}
    mounts = mount_set(stores)
    merged = robin = 0
    with mounts.lock:
        current = mounts.current()
        for q in qs:
            hits = call(current, "search", {"query": q["q"], "limit": 5})["hits"]
            merged += f"uv/{q['source']}" in {h["doc"] for h in hits}
            lists = [[f"{m.name}/{h.doc}" for h in m.ops.search(q["q"], limit=5).hits] for m in current.mounts]
            interleaved = [doc for rank in range(5) for docs in lists if rank < len(docs) for doc in docs[rank:rank + 1]]
            robin += f"uv/{q['source']}" in set(interleaved[:5])
    sizes = []
    for name, path in stores.items():
        with Store.open(path) as store:
            sizes.append(f"{name} ({store.conn.execute('SELECT count(*) FROM sections').fetchone()[0]:,} sections)")
    mounts.close()
    n = len(qs)
    return [
        "| uv questions, document recall@5 | |", "|---|---:|",
        f"| uv store alone | {alone / n:.3f} |",
        f"| uv beside four corpora, merged by idf share (the server's rule) | {merged / n:.3f} |",
        f"| uv beside four corpora, round-robin by per-store rank | {robin / n:.3f} |",
        f"\n{n} questions; mounted: {', '.join(sizes)}.",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/cp-mounts"))
    parser.add_argument("--queries", type=int, default=80)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    uv = build(UV, args.work / "uv")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"# mounts_bench {time.strftime('%Y-%m-%d', time.gmtime())} commit {commit}, {os.cpu_count()} cores\n")
    for title, part in (("latency", lambda: latency(args.work, uv, args.queries)), ("memory", lambda: memory(args.work)),
                        ("refresh", lambda: refresh(args.work, uv)), ("recall", lambda: recall(args.work, uv))):
        print(f"## {title}\n")
        print("\n".join(part()))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
