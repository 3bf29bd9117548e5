"""The content fingerprint (contextpull/writing/fingerprint.py): the batched framing hashes exactly
the bytes of the plain one, whatever the values."""

from __future__ import annotations

import sqlite3

from artifact_helpers import assert_verified, fixture_corpus, quiet_build
from contextpull.writing.fingerprint import content_fingerprint, reference_fingerprint
from contextpull.schema import DDL


def test_batched_and_plain_framing_agree_on_a_built_store(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    report, _ = quiet_build(docs, tmp_path / "out")
    conn = sqlite3.connect(tmp_path / "out" / "store.sqlite")
    assert content_fingerprint(conn) == reference_fingerprint(conn) == report.manifest["fingerprints"]["content"]
    conn.close()
    assert_verified(tmp_path / "out" / "store.sqlite")


def test_batched_and_plain_framing_agree_on_awkward_values():
    conn = sqlite3.connect(":memory:")
    conn.executescript(DDL)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("schema_version", "1.0"), ("index_text", "ü\x00 index")])
    long_heading = "Ä" * 40000  # 80,000 bytes: past the looked-up prefixes (under 4,096)
    rows = [
        (1, "a.md", "Tïtle", None, None, "0" * 64, 0, "markdown", 2),
        (2, "b\x00.md", "", "summary " * 5000, "offline", "f" * 64, -7, "text", 0),
    ]
    conn.executemany("INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '1980-01-01T00:00:00+00:00')", rows)
    conn.executemany(
        "INSERT INTO sections (id, doc_id, ordinal, heading_path, level, kind, text, char_len, hash, prev_id, next_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            ("a.md#0", 1, 0, long_heading, 1, "prose", "x", 1, "1" * 64, None, "a.md#1"),
            ("a.md#1", 1, 1, "", 0, "table", "", 0, "2" * 64, "a.md#0", None),
        ],
    )
    assert content_fingerprint(conn) == reference_fingerprint(conn)
    before = content_fingerprint(conn)
    conn.execute("UPDATE sections SET heading_path = heading_path || 'x' WHERE id = 'a.md#0'")
    assert content_fingerprint(conn) == reference_fingerprint(conn) != before
