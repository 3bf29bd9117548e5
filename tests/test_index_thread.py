"""The index workers (contextpull/indexing/index_thread.py, index_process.py): both FTS5 tables of a
build, one segment per chunk, the same rows from a thread, a child process and the in-thread
fallback, whichever way the work went."""

from __future__ import annotations

import sqlite3

from contextpull.indexing import index_process

from contextpull.indexing import index_thread

from contextpull.indexing import segments

from contextpull.indexing import trigram
from contextpull.writing.writer import fts_normalize
from contextpull.grep.literal import trigram_query
from contextpull.schema import FTS_TOKENIZE

CHUNKS = [  # (rowid, doc_id, id, heading_path, text)
    [((7 << 32) + 1, 1, "a.md#0", "Alpha", "alpha KX-1 and more cache"), ((7 << 32) + 2, 1, "a.md#1", "Alpha > Beta", "beta KX-2"),
     ((7 << 32) + 3, 2, "a2.md#0", "Alpha > Gamma", "gamma ÄÖ-5 install")],
    [((3 << 32) + 1, 3, "b.md#0", "Delta", "delta KX-9 cache cache"), ((3 << 32) + 2, 3, "b.md#1", "Delta > E", "Epsilon\tKX-9 CACHE")],
    [((9 << 32) + 1, 4, "c.md#0", "Zeta", "zeta KX-1 again\x00after a NUL")],
]
# The trigram table's rows here: each part holds one document (trigram.py: runs are whole
# documents of one part), keyed by its first section, with its distinct words.
DOCUMENT_ROWS = {
    (7 << 32) + 1: "alpha kx-1 and more cache beta kx-2",
    (7 << 32) + 3: "gamma ÄÖ-5 install",
    (3 << 32) + 1: "delta kx-9 cache epsilon",
    (9 << 32) + 1: "zeta kx-1 again after a nul",  # NUL separates words, like whitespace
}
TABLES = ("sections_fts", trigram.TABLE)


def _build_file(path):
    """What the writer leaves for the thread: sections and the word index's content rows, both
    FTS5 tables empty, in WAL mode."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE sections (doc_id INTEGER, id TEXT, heading_path TEXT, text TEXT)")
    conn.execute(f'CREATE VIRTUAL TABLE sections_fts USING fts5(id UNINDEXED, heading_path, text, tokenize = "{FTS_TOKENIZE}")')
    conn.execute(trigram.DDL)
    for rows in CHUNKS:
        conn.executemany("INSERT INTO sections (rowid, doc_id, id, heading_path, text) VALUES (?, ?, ?, ?, ?)", rows)
        conn.executemany(
            "INSERT INTO sections_fts_content (id, c0, c1, c2) VALUES (?, ?, ?, ?)",
            [(r, sid, fts_normalize(h), fts_normalize(t)) for r, _, sid, h, t in rows],
        )
    conn.commit()
    return conn


def _fill(tmp_path, name, *, fail_thread=False, worker=index_thread.IndexThread, kill_child=False):
    conn = _build_file(tmp_path / f"{name}.sqlite")
    thread = worker(tmp_path / f"{name}.scratch", tmp_path / f"{name}.sqlite")
    if isinstance(thread, index_process.IndexProcess) and worker is index_process.IndexProcess and thread._proc is not None:
        assert thread._ready.wait(30)  # a child not started by the end is overtaken (below)
    if kill_child:  # the child dies after it started: finish_into must redo its chunks
        thread._proc.kill()
        thread._proc.wait()
    if fail_thread:
        thread._queue.put(None)  # the thread ends before the first chunk: finish_into must redo them
        thread._thread.join()
        thread._error = RuntimeError("thread gone")
    for position, rows in enumerate(CHUNKS, start=1):
        for part in (rows[:2], rows[2:]):  # the first chunk in two parts, merged into one segment
            if part:
                thread.part(position, part[0][0], part[-1][0])
        thread.end(position)
    how = thread.finish_into(conn, {})
    conn.commit()
    assert not (tmp_path / f"{name}.scratch").exists()
    return conn, how


def _shadow(conn):
    return {
        f"{table}_{part}": conn.execute(f"SELECT * FROM {table}_{part} ORDER BY 1").fetchall()
        for table in TABLES for part in ("data", "idx", "docsize")
    }


def test_the_thread_and_its_fallback_write_the_same_rows_one_segment_per_chunk(tmp_path):
    threaded, how = _fill(tmp_path, "threaded")
    assert how == "thread"
    fallback, how = _fill(tmp_path, "fallback", fail_thread=True)
    assert how == "fallback"
    assert _shadow(threaded) == _shadow(fallback)
    for table in TABLES:
        segids = sorted({rowid >> 37 for (rowid,) in threaded.execute(f"SELECT id FROM {table}_data")} - {0})
        assert segids == [1, 2, 3], table
        assert segments.averages(threaded, table) == segments.docsize_totals(threaded, table, -(1 << 63), (1 << 63) - 1)
    threaded.execute("INSERT INTO sections_fts (sections_fts) VALUES ('integrity-check')")
    assert [r for (r,) in threaded.execute("SELECT id FROM sections_fts WHERE sections_fts MATCH 'cache' ORDER BY rank")] == ["b.md#0", "b.md#1", "a.md#0"]
    for rows in CHUNKS:
        for rowid, _, _, _, text in rows:
            first = max(key for key in DOCUMENT_ROWS if key <= rowid)
            for probe in text.replace("\x00", " ").split():  # words after a NUL too
                query = trigram_query(probe)
                if query is not None:
                    found = threaded.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ?", (query,)).fetchall()
                    assert (first,) in found, probe
    found = threaded.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ? ORDER BY rowid", (trigram_query("KX-1"),))
    assert [r for (r,) in found] == [(7 << 32) + 1, (9 << 32) + 1]


def test_a_run_holds_whole_documents_and_their_distinct_words_once_ascii_lowered(monkeypatch):
    sections = [(rowid, doc_id, text) for chunk in CHUNKS for rowid, doc_id, _, _, text in chunk]
    monkeypatch.setattr(trigram, "RUN_CHARS", 1)  # every document closes its run
    assert dict(trigram.rows(sections)) == DOCUMENT_ROWS
    # 35 + 18 + 41 characters reach 60 at the third document, which closes the first run
    monkeypatch.setattr(trigram, "RUN_CHARS", 60)
    assert trigram.rows(sections) == [
        ((7 << 32) + 1, "alpha kx-1 and more cache beta kx-2 gamma ÄÖ-5 install delta kx-9 epsilon"),
        ((9 << 32) + 1, "zeta kx-1 again after a nul"),
    ]


def test_a_child_process_writes_the_same_rows_or_its_work_is_redone(tmp_path):
    threaded, _ = _fill(tmp_path, "threaded")
    child, how = _fill(tmp_path, "child", worker=index_process.IndexProcess)
    assert how == "process"
    assert _shadow(child) == _shadow(threaded)
    killed, how = _fill(tmp_path, "killed", worker=index_process.IndexProcess, kill_child=True)
    assert how == "fallback"
    assert _shadow(killed) == _shadow(threaded)

    class NeverReady(index_process.IndexProcess):
        def _read(self):
            for line in self._proc.stdout:
                if line != "ready\n":
                    self._reply = line

    late, how = _fill(tmp_path, "late", worker=NeverReady)
    assert how == "inline"
    assert _shadow(late) == _shadow(threaded)


def test_a_child_that_cannot_start_leaves_the_work_to_the_caller(tmp_path, monkeypatch):
    import sys

    threaded, _ = _fill(tmp_path, "threaded")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    orphan, how = _fill(tmp_path, "orphan", worker=index_process.IndexProcess)
    assert how == "fallback"
    assert _shadow(orphan) == _shadow(threaded)


def test_a_build_whose_index_process_cannot_start_says_so_and_writes_the_same_bytes(tmp_path, monkeypatch):
    import sys

    from artifact_helpers import fixture_corpus, quiet_build
    from contextpull.writing.fingerprint import file_sha256

    docs = fixture_corpus(tmp_path / "docs")
    report, warnings = quiet_build(docs, tmp_path / "normal")
    assert warnings == []
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    report, warnings = quiet_build(docs, tmp_path / "orphan")
    assert len(warnings) == 1 and "the index process for documents_trigram failed" in warnings[0], warnings
    assert "indexed in this process instead" in warnings[0]
    assert file_sha256(tmp_path / "orphan" / "store.sqlite") == file_sha256(tmp_path / "normal" / "store.sqlite")
