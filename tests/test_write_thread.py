"""The ingest's writer thread and its batched writes (issue 8, "use both cores where it pays"):
jobs run in order, a failure is never lost, an abort leaves nothing running, and documents
written in batches of multi-row statements are the rows one statement per row would write."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from ingest_helpers import db, run

import contextpull.ingest.update as ingest_update
import contextpull.writing.writer as writer_mod
from contextpull.ingest.write_thread import WriteThread


def test_jobs_run_in_the_order_submitted_on_another_thread():
    seen, threads = [], set()
    writer = WriteThread(depth=2)
    for n in range(50):
        writer.submit(lambda n: (seen.append(n), threads.add(threading.get_ident())), n)
    writer.close()
    assert seen == list(range(50))
    assert threads and threading.get_ident() not in threads


def test_a_failed_job_is_raised_in_the_caller_and_nothing_after_it_runs():
    seen = []
    failed = threading.Event()

    def fail():
        failed.set()
        raise sqlite3.OperationalError("disk I/O error")

    writer = WriteThread(depth=4)
    writer.submit(seen.append, 1)
    writer.submit(fail)
    failed.wait(5)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        writer.submit(seen.append, 2)  # raised here, before anything else is queued
    writer.close()  # already reported: not raised twice
    assert seen == [1]


def test_a_failure_of_the_last_job_is_raised_by_close():
    writer = WriteThread()
    writer.submit(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        writer.close()


def test_abort_waits_for_the_running_job_and_drops_the_rest():
    started, release = threading.Event(), threading.Event()
    seen = []

    def slow():
        started.set()
        release.wait(5)
        seen.append("slow")

    writer = WriteThread(depth=4)
    writer.submit(slow)
    writer.submit(seen.append, "queued")
    started.wait(5)
    # The timer only lets abort() start waiting first; had it fired earlier, abort() would wait
    # for the same job all the same, so no order of the two can change the outcome.
    threading.Timer(0.05, release.set).start()
    writer.abort()
    assert seen == ["slow"]  # the job in hand finished; the queued one never ran
    assert not writer._thread.is_alive()


def test_insert_rows_splits_into_statements_and_keeps_the_order(monkeypatch):
    monkeypatch.setattr(writer_mod, "ROWS_PER_STATEMENT", 3)
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (a, b)")
    statements = []
    conn.set_trace_callback(statements.append)
    rows = [(n, f"row {n}") for n in range(10)]
    writer_mod.insert_rows(conn, "INSERT INTO t (a, b) VALUES ", rows)
    assert conn.execute("SELECT a, b FROM t ORDER BY rowid").fetchall() == rows
    assert len([s for s in statements if s.startswith("INSERT")]) == 4  # 3 + 3 + 3 + 1 rows
    writer_mod.insert_rows(conn, "INSERT INTO t (a, b) VALUES ", [])  # nothing to write: no statement
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 10


def _rows(store):
    with db(store) as conn:
        return (
            conn.execute("SELECT doc_id, path, n_sections FROM documents ORDER BY doc_id").fetchall(),
            conn.execute("SELECT rowid, id, doc_id, text, prev_id, next_id FROM sections ORDER BY rowid").fetchall(),
            conn.execute("SELECT rowid, id, heading_path, text FROM sections_fts ORDER BY rowid").fetchall(),
        )


def test_small_batches_and_statements_write_the_same_rows_as_one_batch(make_corpus, tmp_path, monkeypatch):
    files = {f"d{n:02d}.md": f"# Doc {n}\n\n## One\n\nText {n} one.\n\n## Two\n\nText {n} two.\n" for n in range(12)}
    corpus = make_corpus(files)
    run(corpus, tmp_path / "one.sqlite")
    monkeypatch.setattr(ingest_update, "COMMIT_EVERY_SECTIONS", 5)
    monkeypatch.setattr(writer_mod, "ROWS_PER_STATEMENT", 2)
    commits = []
    real = ingest_update.write_batch
    monkeypatch.setattr(ingest_update, "write_batch", lambda conn, batch, drop, mark: (commits.append(len(batch.documents)), real(conn, batch, drop, mark)))
    run(corpus, tmp_path / "many.sqlite")
    assert len(commits) > 3 and sum(commits) == 12
    assert _rows(tmp_path / "one.sqlite") == _rows(tmp_path / "many.sqlite")


def test_new_documents_take_the_doc_ids_sqlite_would_give_them(make_corpus, tmp_path):
    corpus = make_corpus({"b.md": "# B\n\nBee text.\n", "d.md": "# D\n\nDee text.\n"})
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    (corpus / "a.md").write_text("# A\n\nAy text.\n", encoding="utf-8")
    (corpus / "c.md").write_text("# C\n\nSee text.\n", encoding="utf-8")
    (corpus / "d.md").write_text("# D\n\nDee text, changed.\n", encoding="utf-8")
    run(corpus, store)
    docs, sections, fts = _rows(store)
    assert [(doc_id, path) for doc_id, path, _ in docs] == [(1, "b.md"), (2, "d.md"), (3, "a.md"), (4, "c.md")]
    # every section keeps its FTS row's rowid, and the rewritten ones sit above the kept ones
    assert [(rowid, sid) for rowid, sid, *_ in sections] == [(rowid, sid) for rowid, sid, *_ in fts]
    assert [sid for _, sid, *_ in sections][0] == "b.md#0"
