"""Embedding cost and hybrid search latency (issue 17). Installs nothing: run it with an
interpreter that has the embed-local extra.

    python benchmarks/embed_bench.py cost STORE [--model local:minilm] [--n 200]
        embeds the first N sections of STORE one by one and prints ms per section
    python benchmarks/embed_bench.py batching STORE [--n 200]
        MiniLM (int8) on the first N sections run one by one, then in padded batches of 8 and 32
        (sorted by length, as a batching writer would), each with 1 and 2 threads: ms a section,
        alternated three rounds, medians (is its cost the per-call overhead batching removes?)
    python benchmarks/embed_bench.py latency STORE [--queries FILE] [--n 200] [--limit 10]
        hybrid search p50/p95 over the questions' text on STORE (which holds vectors), and the
        query embedding's share of it

Figures are machine-dependent; the harness prints what it measured and how.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from contextpull.models.embed import section_text
from contextpull.models.embedders import load, query_vectors
from contextpull.ops import Ops
from contextpull.store import Store

QUESTIONS = Path(__file__).resolve().parents[2] / "shared" / "bench" / "uv-questions.jsonl"


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def cost(store: Path, model: str, n: int) -> None:
    embedder = load(model, os.environ)  # a benchmark is a surface: its keys come from the process
    with Store.open(store) as opened:
        rows = opened.conn.execute("SELECT heading_path, text FROM sections ORDER BY id LIMIT ?", (n,)).fetchall()
    texts = [section_text(h, t) for h, t in rows]
    embedder.embed_documents(texts[:3])  # warm up
    started = time.perf_counter()
    embedder.embed_documents(texts)
    elapsed = time.perf_counter() - started
    print(json.dumps({"model": model, "sections": len(texts), "ms_per_section": round(1000 * elapsed / len(texts), 1)}))


def batching(store: Path, n: int) -> None:
    import statistics

    import numpy as np

    from contextpull.models.embed_local import MiniLM

    with Store.open(store) as opened:
        rows = opened.conn.execute("SELECT heading_path, text FROM sections ORDER BY id LIMIT ?", (n,)).fetchall()
    texts = sorted((section_text(h, t) for h, t in rows), key=len)
    minilm = MiniLM()
    ort = minilm._ort
    sessions = {}
    model = _int8(minilm)
    for threads in (1, 2):
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        sessions[threads] = ort.InferenceSession(model,
                                                 sess_options=options, providers=["CPUExecutionProvider"])

    def run(session, batch: int) -> float:
        started = time.perf_counter()
        for start in range(0, len(texts), batch):
            encodings = minilm.tokenizer.encode_batch(texts[start:start + batch])
            width = max(len(e.ids) for e in encodings)
            ids = np.array([e.ids + [0] * (width - len(e.ids)) for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask + [0] * (width - len(e.ids)) for e in encodings], dtype=np.int64)
            session.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
        return 1000 * (time.perf_counter() - started) / len(texts)

    figures: dict = {}
    for _ in range(3):
        for threads, session in sessions.items():
            for batch in (1, 8, 32):
                figures.setdefault(f"batch {batch}, {threads} thread(s)", []).append(run(session, batch))
    print(json.dumps({"sections": len(texts), "ms_per_section": {k: round(statistics.median(v), 1) for k, v in figures.items()}}))


def _int8(minilm) -> bytes:
    from contextpull.models.onnx_int8 import int8_model

    return int8_model(minilm._ort, minilm._weights.model_path())


def latency(store: Path, questions: Path, n: int, limit: int) -> None:
    queries = [json.loads(line)["q"] for line in questions.read_text().splitlines() if line.strip()][:n]
    embed_times: list[float] = []

    def timed_embed(model, texts):
        started = time.perf_counter()
        out = query_vectors(model, texts)
        embed_times.append(time.perf_counter() - started)
        return out

    with Store.open(store) as opened:
        ops = Ops(opened, embed_fn=timed_embed)
        ops.search(queries[0], mode="hybrid", limit=limit)  # load the vectors and the model
        embed_times.clear()
        totals = []
        for query in queries:
            started = time.perf_counter()
            result = ops.search(query, mode="hybrid", limit=limit)
            totals.append(time.perf_counter() - started)
            assert result.mode == "hybrid", result.hint
        sections = opened.conn.execute("SELECT count(*) FROM embeddings").fetchone()[0]
    ms = lambda v: round(1000 * v, 1)  # noqa: E731
    print(json.dumps({
        "store_vectors": sections, "queries": len(queries), "limit": limit,
        "p50_ms": ms(_pct(totals, 0.5)), "p95_ms": ms(_pct(totals, 0.95)),
        "query_embedding_p50_ms": ms(_pct(embed_times, 0.5)), "query_embedding_p95_ms": ms(_pct(embed_times, 0.95)),
        "query_embedding_share": round(sum(embed_times) / sum(totals), 3),
    }))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("cost", "latency", "batching"))
    parser.add_argument("store", type=Path)
    parser.add_argument("--model", default="local:minilm")
    parser.add_argument("--queries", type=Path, default=QUESTIONS)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--limit", type=int, default=10)
    args = parser.parse_args()
    if args.what == "cost":
        cost(args.store, args.model, args.n)
    elif args.what == "batching":
        batching(args.store, args.n)
    else:
        latency(args.store, args.queries, args.n, args.limit)


if __name__ == "__main__":
    main()
