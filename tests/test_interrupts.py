"""Ctrl-C and SIGTERM (a cancelled CI job): the previous artifact or store stays whole, nothing
temporary is left, and the exit status is the signal's, not 1 (which means a check failed)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
from pathlib import Path

import pytest
from artifact_helpers import assert_verified, clean_env, fixture_corpus, quiet_build
from click.testing import CliRunner

import contextpull.ingest.engine as ingest_mod
import contextpull.ingest.update as ingest_update
from contextpull.artifact import build_job
from contextpull.writing import writer as writer_mod
from contextpull.writing.fingerprint import corpus_fingerprint, file_sha256
from contextpull.writing.held_signals import held_signals
from contextpull.cli import cli
from contextpull.config import Settings

ARTIFACT = ["manifest.json", "store.sqlite", "store.sqlite.sha256"]


def _artifact_bytes(out):
    return {name: (out / name).read_bytes() for name in ARTIFACT}


def _build(docs, out):
    return CliRunner().invoke(cli, ["build", str(docs), "--out", str(out)], env=clean_env())


def _interrupt_on_third_document(monkeypatch, deliver):
    real = writer_mod.insert_document_row
    calls = []

    def insert(conn, doc, **kwargs):
        calls.append(doc.path)
        if len(calls) == 3:
            deliver()
        return real(conn, doc, **kwargs)

    monkeypatch.setattr(writer_mod, "insert_document_row", insert)
    return calls


@pytest.fixture
def built(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    out = tmp_path / "out"
    quiet_build(docs, out)
    (docs / "notes.txt").write_text("Changed notes\n\nNew content for the next build.\n")
    return docs, out, _artifact_bytes(out)


@pytest.fixture
def ctrl_c_raises():
    """Python's own SIGINT handler for the test's duration. A process started in the background
    by a non-interactive shell (``pytest &``, some CI runners) inherits SIGINT ignored, and then a
    raised SIGINT is rightly dropped; these tests are about where a delivered Ctrl-C lands, so
    they must not depend on how the suite was started."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _raise(exc):
    def deliver():
        raise exc

    return deliver


def test_ctrl_c_during_a_build_exits_130_and_leaves_the_previous_artifact(built, monkeypatch):
    docs, out, before = built
    calls = _interrupt_on_third_document(monkeypatch, _raise(KeyboardInterrupt))
    result = _build(docs, out)
    assert len(calls) == 3
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines()[-1] == "Error: interrupted by SIGINT"
    assert _artifact_bytes(out) == before
    assert sorted(p.name for p in out.iterdir()) == ARTIFACT


def test_sigterm_during_a_build_exits_143_and_restores_the_handler(built, monkeypatch):
    docs, out, before = built
    handler_before = signal.getsignal(signal.SIGTERM)
    # A signal a process sends itself goes to the sending thread (the kernel prefers the target
    # when it does not block it), and Python runs the handler before the next instruction of
    # insert(): it lands on the third document whatever else runs.
    _interrupt_on_third_document(monkeypatch, lambda: os.kill(os.getpid(), signal.SIGTERM))
    result = _build(docs, out)
    assert result.exit_code == 143
    assert result.stderr.strip().splitlines()[-1] == "Error: interrupted by SIGTERM"
    assert _artifact_bytes(out) == before
    assert sorted(p.name for p in out.iterdir()) == ARTIFACT
    assert signal.getsignal(signal.SIGTERM) == handler_before


def test_sigterm_during_an_ingest_exits_143_and_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    docs = fixture_corpus(tmp_path / "docs")
    store = tmp_path / "s.sqlite"
    first = CliRunner().invoke(cli, ["ingest", str(docs), "--store", str(store), "--quiet"], env=clean_env())
    assert first.exit_code == 0, first.output
    before = file_sha256(store)
    (docs / "notes.txt").write_text("Changed notes\n\nNew content for the next ingest.\n")
    (docs / "errors.md").write_text("# Error codes\n\nAll of them retired.\n")
    real = ingest_mod.build_record

    def build_record(path, data, sha, settings, reader=None):
        if path == "notes.txt":
            os.kill(os.getpid(), signal.SIGTERM)
        return real(path, data, sha, settings, reader)

    monkeypatch.setattr(ingest_mod, "build_record", build_record)
    result = CliRunner().invoke(cli, ["ingest", str(docs), "--store", str(store), "--quiet"], env=clean_env())
    assert result.exit_code == 143
    assert result.stderr.strip().splitlines()[-1] == "Error: interrupted by SIGTERM"
    assert file_sha256(store) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "s.sqlite"]


def test_a_signal_while_publishing_lands_after_all_three_files(built, monkeypatch, ctrl_c_raises):
    """The three renames are held together: OUT never has the new store beside the old manifest."""
    docs, out, before = built
    real_replace = os.replace
    renamed = []

    def replace(src, dst):
        real_replace(src, dst)
        renamed.append(os.path.basename(dst))
        if len(renamed) == 1:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C with the new store in place, nothing else

    monkeypatch.setattr(build_job.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        quiet_build(docs, out)
    assert renamed == ["store.sqlite", "store.sqlite.sha256", "manifest.json"]
    assert _artifact_bytes(out) != before
    assert_verified(out / "store.sqlite")  # checksum and manifest are the new store's
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["store"]["sha256"] == file_sha256(out / "store.sqlite")


def test_held_signals_delivers_each_signal_once_after_the_block():
    seen = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with held_signals():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGTERM)
            assert seen == []
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_held_signals_leaves_handlers_alone_off_the_main_thread():
    observed = []

    def work():
        with held_signals():
            observed.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert observed == [signal.getsignal(signal.SIGINT)]


def test_an_ingest_stopped_after_its_writes_is_finished_by_the_next_one(tmp_path, monkeypatch):
    """Batches are committed as they go; a stop before the index is redone must not leave the
    index and fingerprints stale for good, even though the next run finds no file changed."""
    docs = fixture_corpus(tmp_path / "docs")
    store = tmp_path / "out" / "store.sqlite"
    quiet_build(docs, tmp_path / "out")  # a built artifact: it carries the build-only meta keys
    (docs / "added.md").write_text("# Added later\n\nA page the index must come to list.\n")

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest_update, "index_meta", stopped)
    with pytest.raises(KeyboardInterrupt):
        ingest_mod.ingest(docs, store, Settings())
    monkeypatch.undo()

    def meta():
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as conn:
            return dict(conn.execute("SELECT key, value FROM meta")), conn.execute(
                "SELECT path, sha256 FROM documents").fetchall()

    stale, documents = meta()
    assert "added.md" in dict(documents) and "Added later" not in stale["index_text"]
    report = ingest_mod.ingest(docs, store, Settings())
    assert report.changed == 0 and report.wrote
    fresh, documents = meta()
    assert "Added later" in fresh["index_text"]
    assert fresh["corpus_fingerprint"] == corpus_fingerprint(documents)
    assert "content_fingerprint" not in fresh  # no longer the artifact that was built
    again = ingest_mod.ingest(docs, store, Settings())
    assert not again.wrote  # and from then on, nothing to do


def test_a_signal_while_golden_files_are_renamed_lands_after_both(tmp_path, monkeypatch, ctrl_c_raises):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    (docs / "errors.md").write_text("# Error codes\n\nAll of them retired.\n")
    real_replace = Path.replace
    renamed = []

    def replace(self, target):
        result = real_replace(self, target)
        renamed.append(Path(target).name)
        if len(renamed) == 1:
            signal.raise_signal(signal.SIGINT)
        return result

    monkeypatch.setattr(Path, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    monkeypatch.undo()
    assert renamed == ["index.txt", "ids.txt"]
    assert sorted(p.name for p in golden.iterdir()) == ["ids.txt", "index.txt"]
    assert quiet_build(docs, tmp_path / "fresh", golden=golden)[0].golden.status == "match"
