#!/usr/bin/env python3
"""Where a search for two common words spends its time (issue 8, "Search" under "Where the rest goes").

  python benchmarks/search_probe.py STORE [--corpus /tmp/cpbench/corpora/synthetic-5000] [--calls 30]

Takes the shared harness's two-common-word and 3-word queries for CORPUS (cpbench's own
``derive_queries``) and times, per query, on STORE with our reader's connection settings:
``ops.search`` as a whole, then the phrase and AND passes alone as FTS5 sees them: counting the
matches, ranking them with ``bm25`` (our weights, top 26) and with ``ORDER BY rank``.
Prints p50 / p95 per line and the match counts of a few queries.

Last, for the two-word, 3-word and identifier queries, ``ops.search`` against the spec's own
statement run once per pass (``id``, ``bm25`` and the snippet, ``ORDER BY bm25, id LIMIT 10``,
passes until 10 are found, then the sections' details): the published reader's shape, which
wins where passes match few sections and loses where they match tens of thousands.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from compare import DEFAULT_CPBENCH, load_cpbench

from contextpull import Ops, Store
from contextpull.ops import SNIPPET
from contextpull.search.ranking import BM25
from contextpull.text import query_tokens


def _phrase(query: str) -> str:
    return '"' + query + '"'


def _and(query: str) -> str:
    return " AND ".join(f'"{word}"' for word in query.split())


def _spec_statement(conn, query: str, limit: int = 10) -> list:
    """The store-format "Search" steps with one statement per pass, snippets included."""
    tokens = ['"' + t.replace('"', '""') + '"' for t in query_tokens(query)]
    passes = ([f'"{" ".join(t[1:-1] for t in tokens)}"', " AND ".join(tokens)] if len(tokens) > 1 else []) + [" OR ".join(tokens)]
    found: dict[str, str] = {}
    for fts_query in passes:
        sql = f"SELECT id, {BM25} AS r, {SNIPPET} FROM sections_fts WHERE sections_fts MATCH ? ORDER BY r, id LIMIT ?"
        for sid, _, snippet in conn.execute(sql, (fts_query, limit)):
            found.setdefault(sid, snippet)
        if len(found) >= limit:
            break
    ids = list(found)[:limit]
    marks = ",".join("?" * len(ids))
    return conn.execute(f"SELECT id, doc_id, heading_path, kind FROM sections WHERE id IN ({marks})", ids).fetchall()


def _bench(name: str, fn, queries) -> None:
    times = []
    for query in queries:
        started = time.perf_counter()
        fn(query)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p95 = times[max(0, int(len(times) * 0.95) - 1)]
    print(f"{name:34s} p50 {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms")


def store_and_queries(description: str) -> tuple[str, dict]:
    """STORE and the harness's queries for --corpus, from the command line (shared with
    ``pair_index_probe.py``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("store")
    parser.add_argument("--corpus", default="/tmp/cpbench/corpora/synthetic-5000")
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--cpbench", default=str(DEFAULT_CPBENCH))
    args = parser.parse_args()
    cpbench = load_cpbench(Path(args.cpbench))
    root = Path(args.corpus)
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.md"))
    return args.store, cpbench.derive_queries(root, files, args.calls, 1)["queries"]


def main() -> int:
    store, queries = store_and_queries(__doc__.splitlines()[0])
    common, nl3 = queries["search_common2"], queries["search_nl3"]
    bm25 = "bm25(sections_fts, 0.0, 2.0, 1.0)"
    with Store.open(store) as opened:
        ops, conn = Ops(opened), opened.conn
        _bench("ops.search, two common words", ops.search, common)
        _bench("ops.search, 3-word query", ops.search, nl3)
        for label, build in (("phrase", _phrase), ("AND", _and)):
            _bench(f"{label}: count matches", lambda q: conn.execute(
                "SELECT count(*) FROM sections_fts WHERE sections_fts MATCH ?", (build(q),)).fetchall(), common)
            _bench(f"{label}: bm25, top 26", lambda q: conn.execute(
                f"SELECT rowid, {bm25} AS r FROM sections_fts WHERE sections_fts MATCH ? ORDER BY r LIMIT 26",
                (build(q),)).fetchall(), common)
            _bench(f"{label}: ORDER BY rank, top 26", lambda q: conn.execute(
                "SELECT rowid FROM sections_fts WHERE sections_fts MATCH ? ORDER BY rank LIMIT 26",
                (build(q),)).fetchall(), common)
        for query in common[:3]:
            counts = [conn.execute("SELECT count(*) FROM sections_fts WHERE sections_fts MATCH ?", (b(query),)).fetchone()[0]
                      for b in (_phrase, _and)]
            print(f"{query!r}: phrase matches {counts[0]:,}, AND matches {counts[1]:,}")
        identifiers = [token for token, _ in queries["search_identifier"]]
        for label, workload in (("two common words", common), ("3-word query", nl3), ("identifier", identifiers)):
            _bench(f"ops.search, {label}", ops.search, workload)
            _bench(f"one statement a pass, {label}", lambda q: _spec_statement(conn, q), workload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
