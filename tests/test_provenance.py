"""The reader's view of a store's provenance meta keys (issue 27, "Provenance in every store")."""

from __future__ import annotations

import sqlite3

import pytest

from contextpull.provenance import PROVENANCE_KEYS, Provenance
from contextpull.store import Store

COMMIT = "2ac89889f4cc330eabd50f295dcef02828522c69"

FULL = {
    "source_repository": "https://github.com/pallets/flask",
    "source_commit": COMMIT,
    "source_ref": "3.0.0",
    "source_dirty": "false",
    "docs_version": "3.0.0",
    "built_at": "2026-11-30T08:15:00Z",
}


def test_keys_are_the_published_names():
    assert PROVENANCE_KEYS == (
        "source_repository", "source_commit", "source_ref", "source_dirty", "docs_version", "built_at",
    )


def test_from_meta_mapping_and_callable_agree():
    assert Provenance.from_meta(FULL) == Provenance.from_meta(FULL.get)
    p = Provenance.from_meta(FULL)
    assert (p.repository, p.commit, p.ref, p.dirty, p.version, p.built_at) == (
        "https://github.com/pallets/flask", COMMIT, "3.0.0", False, "3.0.0", "2026-11-30T08:15:00Z",
    )


def test_meta_round_trip_keeps_only_known_values():
    p = Provenance.from_meta(FULL)
    assert p.to_meta() == FULL
    assert list(p.to_meta()) == list(PROVENANCE_KEYS)
    partial = Provenance(commit=COMMIT, dirty=True)
    assert partial.to_meta() == {"source_commit": COMMIT, "source_dirty": "true"}


def test_a_store_without_provenance_reads_as_empty():
    p = Provenance.from_meta({"schema_version": "1.0", "source_dirty": "maybe", "built_at": "  "})
    assert p.empty
    assert p.dirty is None
    assert p.line() == ""
    assert p.name() is None


def test_line_names_repository_commit_version_and_date():
    p = Provenance.from_meta(FULL)
    assert p.short_commit == "2ac8988"
    assert p.line() == "Docs from github.com/pallets/flask at 2ac8988 (version 3.0.0), built 2026-11-30."
    dirty = Provenance(repository="git@example.org:team/handbook.git", commit=COMMIT, ref="main", dirty=True)
    assert dirty.line() == "Docs from git@example.org:team/handbook at 2ac8988 (ref main, uncommitted changes)."
    assert Provenance(built_at="2026-01-02T03:04:05Z").line() == "Docs built 2026-01-02."
    assert Provenance(commit=COMMIT, ref="main", built_at="2026-01-02T03:04:05Z").line() == "Docs at 2ac8988 (ref main), built 2026-01-02."


@pytest.mark.parametrize(
    "meta, name",
    [
        (FULL, "flask@3.0.0"),
        ({"source_repository": "https://github.com/pallets/flask.git", "source_commit": COMMIT}, "flask@2ac8988"),
        ({"source_repository": "https://github.com/pallets/flask/"}, "flask"),
        ({"source_repository": "git@example.org:handbook.git", "docs_version": "release/2.0"}, "handbook@release-2.0"),
        ({"docs_version": "1.0"}, None),
    ],
)
def test_mount_name_is_last_path_part_at_version(meta, name):
    assert Provenance.from_meta(meta).name() == name


def test_from_store_reads_the_meta_table(tmp_path):
    from contextpull.artifact import build

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    out = tmp_path / "out"
    build(docs, out)
    conn = sqlite3.connect(out / "store.sqlite")
    conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", FULL.items())
    conn.commit()
    conn.close()
    with Store.open(out / "store.sqlite") as store:
        assert Provenance.from_store(store) == Provenance.from_meta(FULL)
