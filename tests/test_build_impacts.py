"""search_impacts in a build: written for a store of MIN_SECTIONS sections and up, absent below;
a cached build is byte-identical to a fresh one either way; search answers as without it."""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import sqlite3

import pytest

from artifact_helpers import assert_verified, fixture_corpus, quiet_build
from contextpull import Ops, Store
from contextpull.artifact import chunks as chunks_mod
from contextpull.search import impact_format as fmt
from contextpull.search import impacts as reader
from contextpull.indexing import impacts as writer

QUERIES = ["timeout", "install the tool", "TX-4501 timeout codes", "config", "error codes and their meaning", "absent words"]


def _sha(out) -> str:
    return hashlib.sha256((out / "store.sqlite").read_bytes()).hexdigest()


def _has_table(store) -> bool:
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM sqlite_master WHERE name = ?", (fmt.TABLE,)).fetchone()[0] == 1
    finally:
        conn.close()


def _answers(store, use_table: bool) -> list:
    with Store.open(store) as opened:
        ops = Ops(opened)
        if not use_table:
            ops._impacts = False  # as a store without the table reads
        return [ops.search(q, limit=limit).to_dict() for q in QUERIES for limit in (1, 3, 10)]


@pytest.fixture
def everywhere(monkeypatch):
    """Every store gets the table, and rare words are few sections: both reading paths run."""
    monkeypatch.setattr(writer, "MIN_SECTIONS", 1)
    monkeypatch.setattr(fmt, "MIN_DF", 2)


def test_a_small_store_has_no_table(tmp_path):
    quiet_build(fixture_corpus(tmp_path / "docs"), tmp_path / "out")
    assert not _has_table(tmp_path / "out" / "store.sqlite")


def test_the_table_answers_as_fts5_does(tmp_path, everywhere):
    report, _ = quiet_build(fixture_corpus(tmp_path / "docs"), tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    assert _has_table(store)
    assert report.timings["impacts"]["terms"] > 0
    assert report.timings["impacts"]["rows_by"] == ("numpy" if importlib.util.find_spec("numpy") else "python")
    assert_verified(store)
    with Store.open(store) as opened:
        assert Ops(opened).impacts is not None
    assert _answers(store, True) == _answers(store, False)


@pytest.mark.parametrize("per_document", [True, False], ids=["chunk-per-document", "one-chunk"])
def test_a_cached_build_with_the_table_equals_a_fresh_build(tmp_path, everywhere, monkeypatch, per_document, cache_mode):
    if per_document:
        monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 1)
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    (docs / "errors.md").write_text("# Error codes\n\nRewritten: codes and their meaning.\n\n## TX-45xx\n\nTX-4501 is a timeout.\n")
    cached, warnings = quiet_build(docs, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    fresh, _ = quiet_build(docs, tmp_path / "fresh")
    assert warnings == [] and cached.parsed_documents == 1
    assert _has_table(tmp_path / "fresh" / "store.sqlite")
    assert _sha(tmp_path / "out") == _sha(tmp_path / "fresh")


def test_a_cache_with_the_table_builds_a_store_without_it_where_it_is_not_wanted(tmp_path, monkeypatch, cache_mode):
    docs = fixture_corpus(tmp_path / "docs")
    monkeypatch.setattr(writer, "MIN_SECTIONS", 1)
    quiet_build(docs, tmp_path / "out")
    assert _has_table(tmp_path / "out" / "store.sqlite")
    monkeypatch.setattr(writer, "MIN_SECTIONS", 10**9)
    (docs / "notes.txt").write_text("Notes, rewritten.\n")
    quiet_build(docs, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    quiet_build(docs, tmp_path / "fresh")
    assert not _has_table(tmp_path / "out" / "store.sqlite")
    assert _sha(tmp_path / "out") == _sha(tmp_path / "fresh")


def _table_rows(store) -> list:
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return conn.execute(f"SELECT term, part, data FROM {fmt.TABLE} ORDER BY term, part").fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("child", ["writes", "fails"])
def test_the_children_write_what_one_process_would(tmp_path, everywhere, monkeypatch, child):
    """A build's table is written by two child processes while the store is copied; a child
    that fails is named in the counts and its words are written by the build, to the same rows."""
    if child == "fails":
        monkeypatch.setattr(writer, "_CHILD", "import sys; sys.exit(3)")
    report, _ = quiet_build(fixture_corpus(tmp_path / "docs"), tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    counts = report.timings["impacts"]
    assert ("redone" in counts) == (child == "fails")
    if child == "fails":
        assert len(counts["redone"]) == 2 and "exit code 3" in counts["redone"][0]
    serial = tmp_path / "serial.sqlite"
    shutil.copy(store, serial)
    conn = sqlite3.connect(serial)
    assert writer.write(conn) == {"terms": counts["terms"], "postings": counts["postings"]}
    conn.commit()
    conn.close()
    assert _table_rows(store) == _table_rows(serial)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]


def test_a_word_the_table_should_hold_and_does_not_is_left_to_fts5(tmp_path, everywhere):
    quiet_build(fixture_corpus(tmp_path / "docs"), tmp_path / "out")
    copy = tmp_path / "damaged.sqlite"
    shutil.copy(tmp_path / "out" / "store.sqlite", copy)
    conn = sqlite3.connect(copy)
    (word,) = conn.execute(f"SELECT term FROM {fmt.TABLE} WHERE term <> '' AND part = 0 LIMIT 1").fetchone()
    conn.execute(f"DELETE FROM {fmt.TABLE} WHERE term = ?", (word,))
    conn.commit()
    table = reader.Impacts.load(conn)
    assert table.top(conn, [word], 3, False) is None


def _layout(store) -> tuple[int, str]:
    """The word index's segment count and the layout the store's meta records."""
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        segs = conn.execute("SELECT count(DISTINCT id >> 37) FROM sections_fts_data WHERE id >> 37 > 0").fetchone()[0]
        return segs, conn.execute("SELECT value FROM meta WHERE key = 'build_layout'").fetchone()[0]
    finally:
        conn.close()


def test_a_store_with_the_table_has_its_word_index_in_one_segment(tmp_path, monkeypatch):
    monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 1)  # a chunk, and a segment, per document
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "small")
    small = _layout(tmp_path / "small" / "store.sqlite")
    assert small[0] > 1 and small[1] == "chunks-5"
    monkeypatch.setattr(writer, "MIN_SECTIONS", 1)
    quiet_build(docs, tmp_path / "large")
    assert _layout(tmp_path / "large" / "store.sqlite") == (1, "chunks-5-merged")
    assert_verified(tmp_path / "large" / "store.sqlite")
    assert _answers(tmp_path / "large" / "store.sqlite", False) == _answers(tmp_path / "small" / "store.sqlite", False)


def test_a_merged_cache_is_reused_whole_or_indexed_again(tmp_path, everywhere, monkeypatch, cache_mode):
    """A merged store has no chunk segments to copy: with nothing changed it is published as it
    is; otherwise its documents are reused, indexed again, and the store equals a fresh build."""
    monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 1)
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    before = _sha(tmp_path / "out")
    same, _ = quiet_build(docs, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    assert same.reuse == "whole" and _sha(tmp_path / "out") == before
    (docs / "notes.txt").write_text("Notes, rewritten.\n")
    cached, warnings = quiet_build(docs, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    assert warnings == [] and cached.parsed_documents == 1 and cached.copied_chunks == 0
    quiet_build(docs, tmp_path / "fresh")
    assert _sha(tmp_path / "out") == _sha(tmp_path / "fresh")
