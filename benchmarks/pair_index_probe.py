#!/usr/bin/env python3
"""What an exact word-pair index would give search, and what it would cost a build (issue 8).

  python benchmarks/pair_index_probe.py STORE [--corpus /tmp/cpbench/corpora/synthetic-5000] [--calls 30]

The search targets are missed because a phrase of common words is ranked by FTS5 over every
section it matches (``README.md``, "Where the rest goes"). This probe measures the most direct
exact remedy, not built into the product: a second, contentless FTS5 table whose tokens are the
store's adjacent word pairs (``a|b``), so the phrase "a b" is one token there and "a b c" the
two-token phrase "a|b b|c". Its ``%_docsize`` rows and averages record are then overwritten with
``sections_fts``'s, so that ``bm25`` sees the same row lengths, row count and match counts and
returns the same values, which the probe checks row by row.

On a copy of STORE, in a temporary folder: times making the pair text from ``sections_fts``'s
content (Python, the words as the spec's query tokeniser finds them, which equals unicode61 on
ASCII text), inserting it, and merging it to one segment; then, alternating per query, the phrase
pass of the harness's two-common-word and 3-word queries on both tables (``bm25`` top
``limit + 256``), and whether every matching row's score is identical.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from search_probe import store_and_queries

WORD = re.compile(r"[\w.\-]+")  # normalised FTS text: edge runs of ._- are already gone
TOP = 10 + 256  # the reader's first ranking query for limit 10 (contextpull/search/ranking.py)


def _pairs(text: str) -> str:
    words = WORD.findall(text.lower())
    return " ".join(map("|".join, zip(words, words[1:])))


def _build(path: Path) -> dict[str, float]:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA cache_size = -16384")
    conn.execute("PRAGMA journal_mode = MEMORY")
    conn.execute("PRAGMA synchronous = OFF")
    times = {}
    started = time.perf_counter()
    rows = conn.execute("SELECT id, c1, c2 FROM sections_fts_content ORDER BY id").fetchall()
    made = [(rowid, _pairs(heading), _pairs(text)) for rowid, heading, text in rows]
    times["pair text (Python)"] = time.perf_counter() - started
    started = time.perf_counter()
    conn.execute(
        "CREATE VIRTUAL TABLE pairs USING fts5(id UNINDEXED, heading_path, text, content='',"
        " tokenize=\"unicode61 remove_diacritics 2 tokenchars '-_.|'\")"
    )
    conn.executemany("INSERT INTO pairs (rowid, heading_path, text) VALUES (?, ?, ?)", made)
    conn.commit()
    times["FTS5 insert"] = time.perf_counter() - started
    started = time.perf_counter()
    conn.execute("INSERT INTO pairs (pairs) VALUES ('optimize')")
    # bm25's inputs other than the match counts: each row's length and the table's averages
    conn.execute("DELETE FROM pairs_docsize")
    conn.execute("INSERT INTO pairs_docsize SELECT id, sz FROM sections_fts_docsize")
    conn.execute("UPDATE pairs_data SET block = (SELECT block FROM sections_fts_data WHERE id = 1) WHERE id = 1")
    conn.commit()
    times["merge + lengths"] = time.perf_counter() - started
    conn.close()
    return times


def _ranked(conn, table: str, query: str, limit: int | None) -> list:
    sql = f"SELECT rowid, bm25({table}, 0.0, 2.0, 1.0) AS r FROM {table} WHERE {table} MATCH ? ORDER BY r, rowid"
    if limit is None:
        return conn.execute(sql, (query,)).fetchall()
    return conn.execute(sql + " LIMIT ?", (query, limit)).fetchall()


def _compare(conn, label: str, queries: list[list[str]]) -> None:
    times: dict[str, list[float]] = {"sections_fts": [], "pairs": []}
    same = 0
    for words in queries:
        phrase = '"' + " ".join(words) + '"'
        pairs = '"' + " ".join(f"{a}|{b}" for a, b in zip(words, words[1:])) + '"'
        results = []
        for table, query in (("sections_fts", phrase), ("pairs", pairs)):
            started = time.perf_counter()
            results.append(_ranked(conn, table, query, TOP))
            times[table].append((time.perf_counter() - started) * 1000)
        same += _ranked(conn, "sections_fts", phrase, None) == _ranked(conn, "pairs", pairs, None)
    for table, values in times.items():
        values.sort()
        p95 = values[max(0, int(len(values) * 0.95) - 1)]
        print(f"{label}, phrase pass on {table:12s} p50 {statistics.median(values):6.1f} ms  p95 {p95:6.1f} ms")
    print(f"{label}: every matching row's bm25 identical in {same} of {len(queries)} queries")


def main() -> int:
    store, queries = store_and_queries(__doc__.splitlines()[0])
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "store.sqlite"
        shutil.copyfile(store, copy)
        before = copy.stat().st_size
        for step, seconds in _build(copy).items():
            print(f"build: {step:20s} {seconds:6.2f} s")
        print(f"store: {before / 1e6:.1f} -> {copy.stat().st_size / 1e6:.1f} MB")
        conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        _compare(conn, "two common words", [q.split() for q in queries["search_common2"]])
        _compare(conn, "3-word query", [q.split() for q in queries["search_nl3"]])
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
