"""A build's own threads and processes cannot fail it, however a busy machine schedules them
(issue 34): each test makes the unlucky order happen on purpose, instead of hoping for it."""

from __future__ import annotations

import threading

from artifact_helpers import fixture_corpus, quiet_build

from contextpull.artifact import build_file, build_job


def test_a_content_fingerprint_scheduled_after_vacuum_into_still_reads_the_build_file(tmp_path, monkeypatch):
    """The fingerprint thread may first run after VACUUM INTO has returned (a busy runner); the
    build file it reads must still be there, and the store must be the one a quick thread gives."""
    docs = fixture_corpus(tmp_path / "docs")
    expected = quiet_build(docs, tmp_path / "prompt")[0].manifest["store"]["sha256"]

    vacuumed = threading.Event()
    real_vacuum, real_fingerprint = build_file.vacuum_into, build_job.content_fingerprint

    def vacuum_then_signal(*args, **kwargs):
        real_vacuum(*args, **kwargs)
        vacuumed.set()

    def late_fingerprint(conn):
        assert vacuumed.wait(timeout=60), "VACUUM INTO never returned"
        return real_fingerprint(conn)

    monkeypatch.setattr(build_file, "vacuum_into", vacuum_then_signal)
    monkeypatch.setattr(build_job, "content_fingerprint", late_fingerprint)
    report, _ = quiet_build(docs, tmp_path / "late")
    assert vacuumed.is_set()
    assert report.manifest["store"]["sha256"] == expected
    assert sorted(p.name for p in (tmp_path / "late").iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]
