"""An in-place ingest that stops, fails or has nothing usable: the store ends as a fresh ingest
would write it once the next run is done, and a run that writes nothing changes no byte."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from artifact_helpers import assert_verified, fixture_corpus, quiet_build
from ingest_helpers import SETTINGS, run

import contextpull.ingest.engine as ingest_mod
import contextpull.ingest.target as target_mod
import contextpull.ingest.update as ingest_update
from contextpull.writing.fingerprint import file_sha256
from contextpull.errors import InputError, StoreError

DOCS = {f"d{n:02d}.md": f"# Doc {n}\n\n" + "".join(f"## Part {p}\n\n{'Words of text. ' * 30}\n\n" for p in range(4)) for n in range(12)}


def _sections(store):
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT id, heading_path, text FROM sections ORDER BY id").fetchall()


def _meta(store):
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as conn:
        return dict(conn.execute("SELECT key, value FROM meta"))


def test_a_no_change_ingest_leaves_a_built_artifact_byte_for_byte(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    before = file_sha256(store)
    report = run(docs, store)
    assert (report.changed, report.wrote) == (0, False)
    assert file_sha256(store) == before
    assert_verified(store)  # the checksum and manifest beside it still hold


def test_a_read_only_store_is_refused_before_sqlite_leaves_files_by_it(tmp_path, monkeypatch):
    docs = fixture_corpus(tmp_path / "docs")
    store = tmp_path / "s.sqlite"
    run(docs, store)
    for suffix in ("-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    before = file_sha256(store)
    real_access = os.access
    monkeypatch.setattr(target_mod.os, "access", lambda path, mode: False if Path(path) == store else real_access(path, mode))
    assert not run(docs, store).wrote  # nothing to change: a read-only store is fine
    (docs / "notes.txt").write_text("Changed notes\n\nNew text.\n")
    with pytest.raises(StoreError) as info:
        run(docs, store)
    assert info.value.message == f"store {store} is read-only"
    assert file_sha256(store) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "s.sqlite"]


def test_build_only_meta_goes_in_the_same_transaction_as_the_new_index(tmp_path, monkeypatch):
    """Stopped inside the last step, the run must leave nothing the next run would take as done."""
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    (docs / "added.md").write_text("# Added\n\nA new page.\n")
    real_open = target_mod.open_store_for_ingest

    def open_with_a_failing_delete(path):
        conn = real_open(path)
        armed = []
        conn.set_trace_callback(lambda sql: armed.append(1) if sql.startswith("DELETE FROM meta") else None)
        conn.set_progress_handler(lambda: 1 if armed else 0, 1)  # the statement fails part way
        return conn

    monkeypatch.setattr(target_mod, "open_store_for_ingest", open_with_a_failing_delete)
    with pytest.raises(StoreError):
        run(docs, store)
    monkeypatch.undo()
    assert "content_fingerprint" in _meta(store)  # nothing of the last step was kept
    report = run(docs, store)
    assert report.wrote and report.changed == 0
    meta = _meta(store)
    assert "content_fingerprint" not in meta and "ingest_pending" not in meta
    assert "Added" in meta["index_text"]


@pytest.mark.parametrize("then", ["old settings", "new settings"])
def test_a_stopped_change_of_settings_is_finished_either_way(make_corpus, tmp_path, monkeypatch, then):
    docs = make_corpus(DOCS)
    store = tmp_path / "s.sqlite"
    run(docs, store)
    small = replace(SETTINGS, section_max_chars=200)
    monkeypatch.setattr(ingest_update, "COMMIT_EVERY_SECTIONS", 10)
    real = ingest_mod.build_record
    seen = []

    def stop_half_way(path, data, sha, settings, reader=None):
        seen.append(path)
        if len(seen) == 8:
            raise KeyboardInterrupt
        return real(path, data, sha, settings, reader)

    monkeypatch.setattr(ingest_mod, "build_record", stop_half_way)
    with pytest.raises(KeyboardInterrupt):
        run(docs, store, settings=small)
    monkeypatch.setattr(ingest_mod, "build_record", real)
    assert _meta(store)["ingest_pending"] == "reparse"  # some documents were cut the new way
    settings = SETTINGS if then == "old settings" else small
    run(docs, store, settings=settings)
    fresh = tmp_path / "fresh.sqlite"
    run(docs, fresh, settings=settings)
    assert _sections(store) == _sections(fresh)
    assert "ingest_pending" not in _meta(store)


def test_when_every_file_is_skipped_the_store_is_left_as_it_was(make_corpus, tmp_path):
    docs = make_corpus({"a.md": "# A\n\nFirst.\n", "b.md": "# B\n\nSecond.\n"})
    store = tmp_path / "s.sqlite"
    run(docs, store)
    before = _sections(store)
    for name in ("a.md", "b.md"):
        (docs / name).write_text("")
    with pytest.raises(InputError) as info:
        run(docs, store)
    assert info.value.message == f"no usable documents in {docs} (2 file(s) skipped: a.md: empty file; b.md: empty file)"
    assert _sections(store) == before
    with pytest.raises(InputError):
        run(docs, tmp_path / "new.sqlite")
    assert not any(p.name.startswith("new.sqlite") for p in tmp_path.iterdir())


@pytest.mark.parametrize("failure", [KeyboardInterrupt(), sqlite3.OperationalError("database or disk is full")])
def test_a_new_store_that_cannot_be_started_leaves_no_scratch_file(make_corpus, tmp_path, monkeypatch, failure):
    docs = make_corpus({"a.md": "# A\n\nFirst.\n"})
    real_create = target_mod.create_store

    def create_then_fail(path):
        real_create(path).close()
        raise failure

    monkeypatch.setattr(target_mod, "create_store", create_then_fail)
    expected = KeyboardInterrupt if isinstance(failure, KeyboardInterrupt) else StoreError
    with pytest.raises(expected):
        run(docs, tmp_path / "out" / "s.sqlite")
    assert list((tmp_path / "out").iterdir()) == []


def test_a_store_path_that_cannot_be_looked_at_is_one_clear_error(make_corpus, tmp_path, monkeypatch):
    docs = make_corpus({"a.md": "# A\n\nFirst.\n"})
    store = tmp_path / "locked" / "s.sqlite"
    real_exists = Path.exists

    def exists(self, *args, **kwargs):
        if self == store:
            raise PermissionError(13, "Permission denied", str(self))
        return real_exists(self, *args, **kwargs)

    monkeypatch.setattr(Path, "exists", exists)
    with pytest.raises(InputError) as info:
        run(docs, store)
    assert info.value.message == f"cannot open store {store}: Permission denied"


def test_a_store_from_a_writer_that_does_not_record_a_setting_was_cut_with_its_default(make_corpus, tmp_path):
    docs = make_corpus(DOCS)
    store = tmp_path / "s.sqlite"
    run(docs, store)
    with sqlite3.connect(store) as conn:  # as the published writer leaves it
        conn.execute("DELETE FROM meta WHERE key IN ('section_min_chars', 'section_heading_depth')")
    before = _sections(store)
    assert run(docs, store).changed == 0  # the defaults: only the missing keys are recorded
    assert _sections(store) == before
    shallow = replace(SETTINGS, section_heading_depth=1)
    run(docs, store, settings=shallow)
    fresh = tmp_path / "fresh.sqlite"
    run(docs, fresh, settings=shallow)
    assert _sections(store) == _sections(fresh)
