"""One FTS5 segment per chunk (contextpull/indexing/segments.py): the spliced table is one FTS5
itself accepts and answers exactly like a table FTS5 filled on its own."""

from __future__ import annotations

import sqlite3

import pytest

from contextpull.indexing import segments
from contextpull.schema import FTS_TOKENIZE

BODY = f'id UNINDEXED, heading_path, text, tokenize = "{FTS_TOKENIZE}"'
WORDS = "cache install python uv-lock TX-4501 tool run build index search read grep".split()


def _rows(key, n, seed):
    rows = []
    for i in range(1, n + 1):
        words = [WORDS[(seed * 7 + i * j) % len(WORDS)] for j in range(1, 4 + (i + seed) % 9)]
        rows.append(((key << 32) + i, f"doc{seed}.md#{i}", f"Heading {seed} > {words[0]}", " ".join(words)))
    return rows


CHUNKS = [_rows(5, 40, 1), _rows(2, 25, 2), _rows(11, 60, 3)]


def _direct(conn):
    """What FTS5 writes by itself, all rows in one transaction."""
    conn.execute(f"CREATE VIRTUAL TABLE t USING fts5({BODY})")
    for rows in CHUNKS:
        conn.executemany("INSERT INTO t (rowid, id, heading_path, text) VALUES (?, ?, ?, ?)", rows)
    conn.commit()


def _spliced(conn, chunks=CHUNKS, target="t"):
    conn.execute(f"CREATE VIRTUAL TABLE t USING fts5({BODY})")
    conn.commit()
    for position, rows in enumerate(chunks, start=1):
        segments.create_scratch(conn, "scratch", BODY + ", content=''")
        conn.executemany("INSERT INTO scratch (rowid, id, heading_path, text) VALUES (?, ?, ?, ?)", rows)
        conn.executemany("INSERT INTO t_content (id, c0, c1, c2) VALUES (?, ?, ?, ?)", rows)
        conn.commit()
        segments.splice(conn, "scratch", target, position)
        conn.execute("DROP TABLE scratch")
        conn.commit()
    segments.write_records(conn, target)
    conn.commit()


def _data(conn):
    return {name: conn.execute(f"SELECT * FROM t_{name} ORDER BY 1, 2").fetchall() for name in ("data", "idx", "docsize", "content")}


@pytest.mark.parametrize("value", [0, 1, 127, 128, 240, 16383, 16384, 2**32, 2**56 - 1, 2**56, 2**63 - 1])
def test_varints_round_trip_in_sqlites_encoding(value):
    encoded = segments.put_varint(value)
    assert segments.get_varints(encoded) == [value]
    assert len(encoded) <= 9


def test_column_totals_of_docsize_blobs_match_a_varint_by_varint_decode():
    import random

    rng = random.Random(7)
    blobs = [
        b"".join(segments.put_varint(rng.choice([0, 1, 5, 127, 128, 300, 16383, 16384, 70000, 2**21 + 3])) for _ in range(3))
        for _ in range(500)
    ]
    expected = [sum(segments.get_varints(b)[i] for b in blobs) for i in range(3)]
    assert segments.column_totals(blobs, 3) == expected
    assert segments.column_totals([], 2) == [0, 0]
    assert segments.column_totals([segments.put_varint(2**60)], 1) == [2**60]  # 9-byte varint: the slow way


@pytest.mark.parametrize("target", ["t", "main.t"])
def test_one_spliced_chunk_is_byte_for_byte_what_fts5_writes_itself(target):
    direct, spliced = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    merged = [row for rows in CHUNKS for row in rows]
    merged.sort()
    CHUNK = [merged]
    direct.execute(f"CREATE VIRTUAL TABLE t USING fts5({BODY})")
    direct.executemany("INSERT INTO t (rowid, id, heading_path, text) VALUES (?, ?, ?, ?)", merged)
    direct.commit()
    _spliced(spliced, CHUNK, target)
    assert _data(spliced) == _data(direct)  # segment pages, structure and averages records alike


def test_spliced_chunks_pass_integrity_check_and_rank_exactly_like_fts5s_own_table():
    direct, spliced = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    _direct(direct)
    _spliced(spliced)
    spliced.execute("INSERT INTO t (t) VALUES ('integrity-check')")
    segids = sorted({rowid >> segments.SEGID_SHIFT for (rowid,) in spliced.execute("SELECT id FROM t_data")} - {0})
    assert segids == [1, 2, 3]
    for query in ("cache", '"install python"', '"uv-lock" AND "grep"', "heading_path : read", '"TX-4501" OR "index"', "nothing"):
        sql = "SELECT rowid, id, bm25(t, 0.0, 2.0, 1.0) AS r FROM t WHERE t MATCH ? ORDER BY r, id"
        assert spliced.execute(sql, (query,)).fetchall() == direct.execute(sql, (query,)).fetchall(), query


def test_a_chunk_that_overflows_the_pending_terms_is_optimised_into_one_segment(monkeypatch):
    monkeypatch.setattr(segments, "_SCRATCH_CONFIG", (("automerge", 0), ("crisismerge", 1999), ("hashsize", 1024)))
    conn = sqlite3.connect(":memory:")
    _spliced(conn)
    conn.execute("INSERT INTO t (t) VALUES ('integrity-check')")
    segids = sorted({rowid >> segments.SEGID_SHIFT for (rowid,) in conn.execute("SELECT id FROM t_data")} - {0})
    assert segids == [1, 2, 3]


def test_a_spliced_table_takes_ordinary_fts5_writes_afterwards():
    conn = sqlite3.connect(":memory:")
    _spliced(conn)
    conn.execute("INSERT INTO t (rowid, id, heading_path, text) VALUES (1, 'new.md#0', 'New', 'cache fresh words')")
    conn.execute("DELETE FROM t WHERE rowid = ?", ((5 << 32) + 1,))
    conn.commit()
    conn.execute("INSERT INTO t (t) VALUES ('integrity-check')")
    assert conn.execute("SELECT id FROM t WHERE t MATCH 'fresh'").fetchall() == [("new.md#0",)]
