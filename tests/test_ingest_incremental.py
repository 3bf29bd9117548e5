"""Incremental ingest and determinism (system-design.txt sections 2 and 3: unchanged documents
skipped whole, changed ones replaced, deleted ones removed with their FTS rows, no-change runs
write nothing, two ingests give the same store)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from ingest_helpers import CACHE_DOC, db, dump, fts_ids, run

from contextpull.writing.fingerprint import content_fingerprint
from contextpull.config import Settings


def test_incremental_unchanged_changed_added_deleted(make_corpus, tmp_path):
    corpus = make_corpus(
        {
            "keep.md": "# Keep\n\nThis one never changes at all.\n",
            "edit.md": "# Edit\n\nOriginal wording of the edited file.\n",
            "drop.md": "# Drop\n\nThis file will be deleted; zebra.\n",
        }
    )
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    with db(store) as conn:
        keep_before = conn.execute("SELECT * FROM documents WHERE path = 'keep.md'").fetchone()
        keep_ids = conn.execute("SELECT id, hash FROM sections WHERE id LIKE 'keep.md#%'").fetchall()
    (corpus / "edit.md").write_text("# Edit\n\nNew wording with the word quokka.\n", encoding="utf-8")
    (corpus / "drop.md").unlink()
    (corpus / "new.md").write_text("# New\n\nA freshly added document.\n", encoding="utf-8")
    report = run(corpus, store)
    assert (report.seen, report.changed, report.unchanged, report.deleted) == (3, 2, 1, 1)
    with db(store) as conn:
        assert conn.execute("SELECT * FROM documents WHERE path = 'keep.md'").fetchone() == keep_before
        assert conn.execute("SELECT id, hash FROM sections WHERE id LIKE 'keep.md#%'").fetchall() == keep_ids
        assert conn.execute("SELECT count(*) FROM sections WHERE id LIKE 'drop.md#%'").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM sections_fts WHERE id LIKE 'drop.md#%'").fetchone()[0] == 0
        assert (
            conn.execute("SELECT count(*) FROM sections_fts").fetchone()[0]
            == conn.execute("SELECT count(*) FROM sections").fetchone()[0]
        )
        index_text = conn.execute("SELECT value FROM meta WHERE key = 'index_text'").fetchone()[0]
    assert "drop.md" not in index_text and "new.md" in index_text
    assert fts_ids(store, "zebra") == []
    assert fts_ids(store, "quokka") == ["edit.md#0"]
    assert fts_ids(store, "original") == []


def test_no_change_reingest_writes_nothing(make_corpus, tmp_path):
    corpus = make_corpus({"a.md": CACHE_DOC, "b/c.md": "# C\n\nAnother document body.\n"})
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    before = dump(store, drop_times=False)
    report = run(corpus, store)
    assert (report.changed, report.unchanged, report.deleted, report.wrote) == (0, 2, 0, False)
    assert dump(store, drop_times=False) == before  # index_text and ingested_at byte-identical
    assert "nothing changed" in report.summary_lines()[-1]


def test_a_settings_change_resections_unchanged_files(make_corpus, tmp_path):
    corpus = make_corpus({"a.md": CACHE_DOC})
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    report = run(corpus, store, settings=Settings(index_budget_tokens=2000))
    assert report.changed == 0 and report.wrote  # only the index meta changed
    report = run(corpus, store, settings=Settings(section_heading_depth=1))
    assert report.changed == 1
    with db(store) as conn:
        assert conn.execute("SELECT n_sections FROM documents").fetchone()[0] == 1


def test_a_file_that_turns_bad_leaves_the_store(make_corpus, tmp_path):
    corpus = make_corpus({"a.md": "# A\n\nGood at first, then emptied.\n", "b.md": "# B\n\nStays good.\n"})
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    (corpus / "a.md").write_text("", encoding="utf-8")
    report = run(corpus, store)
    assert report.deleted == 1 and [s.path for s in report.skipped] == ["a.md"]
    with db(store) as conn:
        assert conn.execute("SELECT path FROM documents").fetchall() == [("b.md",)]


def test_two_ingests_of_one_corpus_are_identical_apart_from_timestamps(make_corpus, tmp_path):
    corpus = make_corpus(
        {"a.md": CACHE_DOC, "z/y.md": "# Y\n\nSome text.\n", "m.txt": "Heading Here\n\nBody text.\n"}
    )
    run(corpus, tmp_path / "one.sqlite")
    run(corpus, tmp_path / "two.sqlite")
    assert dump(tmp_path / "one.sqlite") == dump(tmp_path / "two.sqlite")


def test_incremental_ingest_into_a_store_whose_fts_rowids_do_not_line_up(make_corpus, tmp_path):
    corpus = make_corpus(
        {"a.md": "# A\n\nApples grow on trees.\n", "b.md": "# B\n\nBananas grow in bunches.\n"}
    )
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    with db(store) as conn:  # renumber the FTS rows as another writer (or VACUUM) might
        rows = conn.execute("SELECT rowid, id, heading_path, text FROM sections_fts").fetchall()
        conn.execute("DELETE FROM sections_fts")
        conn.executemany(
            "INSERT INTO sections_fts (rowid, id, heading_path, text) VALUES (?, ?, ?, ?)",
            [(1000 - r[0], *r[1:]) for r in rows],
        )
    (corpus / "a.md").write_text("# A\n\nApricots grow on trees.\n", encoding="utf-8")
    report = run(corpus, store)
    assert report.changed == 1
    assert fts_ids(store, "bananas") == ["b.md#0"]
    assert fts_ids(store, "apples") == []
    assert fts_ids(store, "apricots") == ["a.md#0"]


# --- property: any sequence of edits ends where a fresh ingest starts ---------------------

_NAMES = ["a.md", "b.md", "sub/c.md", "sub/d.txt", "z.md"]
_BODIES = [
    "# Alpha\n\nApples and pears.\n",
    "# Beta\n\n## One\n\nFirst part with enough words to stay a section.\n\n## Two\n\nSecond part here.\n",
    "Plain Title\n\nSome plain text body.\n",
    "",  # becomes a skipped file
    "# Gamma\n\n| k | v |\n|---|---|\n| x | 1 |\n",
]
_edits = st.lists(
    st.lists(st.tuples(st.sampled_from(_NAMES), st.sampled_from([None, *range(len(_BODIES))])), max_size=4),
    min_size=1,
    max_size=4,
)


@hsettings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=_edits)
def test_incremental_rounds_match_a_fresh_ingest(rounds):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        corpus = tmp / "docs"
        (corpus / "sub").mkdir(parents=True)
        (corpus / "keep.md").write_text("# Keep\n\nAlways here so the corpus is never empty.\n")
        store = tmp / "inc.sqlite"
        for edits in rounds:
            for name, body in edits:
                target = corpus / name
                if body is None:
                    target.unlink(missing_ok=True)
                else:
                    target.write_text(_BODIES[body], encoding="utf-8")
            run(corpus, store)
        fresh = tmp / "fresh.sqlite"
        run(corpus, fresh)
        with db(store) as a, db(fresh) as b:
            assert content_fingerprint(a) == content_fingerprint(b)
            for conn in (a, b):
                n_sections = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
                assert conn.execute("SELECT count(*) FROM sections_fts").fetchone()[0] == n_sections
                assert conn.execute("SELECT sum(n_sections) FROM documents").fetchone()[0] == n_sections
        shutil.rmtree(corpus)


def test_no_change_run_only_discovers_and_hashes(make_corpus, tmp_path, monkeypatch):
    """system-design section 3: the index is not even recomputed when nothing changed."""
    import contextpull.ingest.update as ingest_update

    corpus = make_corpus({"a.md": CACHE_DOC})
    store = tmp_path / "s.sqlite"
    run(corpus, store)

    def forbidden(*args, **kwargs):
        raise AssertionError("index recomputed on a no-change run")

    monkeypatch.setattr(ingest_update, "index_meta", forbidden)
    report = run(corpus, store)
    assert (report.changed, report.wrote) == (0, False)
    assert report.index_mode == "flat" and report.index_tokens > 0
