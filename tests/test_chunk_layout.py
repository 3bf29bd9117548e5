"""The chunked layout of a built store (contextpull/artifact/chunks.py, assemble.py): readers answer
exactly as on a store written by ``ingest``, and a cache is never trusted past what it proves."""

from __future__ import annotations

import sqlite3

import pytest

from artifact_helpers import assert_verified, fixture_corpus, quiet_build, write_files
from contextpull import Ops, Store
from contextpull.artifact import chunks as chunks_mod
from contextpull.indexing import segments
from contextpull.writing.fingerprint import file_sha256

EXTRA = {
    f"area{i % 3}/part{i:02d}.md": (
        f"# Part {i}\n\nIntro to part {i}: cache install and tool run.\n\n"
        + "".join(f"## Step {j}\n\nRun `uv tool run` with KX-{i:02d}-{j} and the cache dir. Step {j} of part {i}.\n\n" for j in range(5))
    )
    for i in range(18)
}


def _results(store):
    with Store.open(store) as opened:
        ops = Ops(opened)
        out = []
        for query in ("cache", "tool run", "cache install tool", "KX-07-3", "step part", "nothing-here"):
            result = ops.search(query, limit=12)
            out.append([(h.id, h.score) for h in result.hits])
        out.append([h.id for h in ops.search("cache", in_=["area1"], limit=12).hits])
        for pattern in ("KX-1", "kx-07", "cache dir", "Step 4 of part 1"):
            out.append([(m.id, m.line) for m in ops.grep(pattern, limit=30).matches])
        out.append(ops.read("area2/part05.md#2", context=1).to_dict())
        return out


@pytest.fixture
def corpus(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    write_files(docs, EXTRA)
    return docs


def test_a_store_of_many_chunks_answers_exactly_like_one_from_ingest(corpus, tmp_path, monkeypatch):
    from contextpull.ingest.engine import ingest
    from contextpull.config import resolve_settings

    monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 600)  # a few documents per chunk
    report, _ = quiet_build(corpus, tmp_path / "out")
    built = tmp_path / "out" / "store.sqlite"
    conn = sqlite3.connect(built)
    segids = {rowid >> 37 for (rowid,) in conn.execute("SELECT id FROM sections_fts_data")} - {0}
    conn.execute("INSERT INTO sections_fts (sections_fts) VALUES ('integrity-check')")
    # the chunks' summed totals are the rows' totals: a row per section, and per run of documents
    documents = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    for table in ("sections_fts", "documents_trigram"):
        whole = segments.docsize_totals(conn, table, -(1 << 63), (1 << 63) - 1)
        rows, columns = segments.averages(conn, table)
        assert (rows, columns) == whole
    assert segments.averages(conn, "sections_fts")[0] == conn.execute("SELECT count(*) FROM sections").fetchone()[0]
    assert len(segids) <= segments.averages(conn, "documents_trigram")[0] <= documents
    conn.close()
    assert len(segids) == report.indexed_chunks > 5
    ingested = tmp_path / "ingested.sqlite"
    ingest(corpus, ingested, resolve_settings(corpus, {}, {}))
    assert _results(built) == _results(ingested)
    assert_verified(built)


def test_parts_of_a_chunk_are_merged_into_its_one_segment(corpus, tmp_path, monkeypatch):
    monkeypatch.setattr(chunks_mod, "PART_BYTES", 300)  # several commits per chunk
    parts, _ = quiet_build(corpus, tmp_path / "parts")
    monkeypatch.undo()
    whole, _ = quiet_build(corpus, tmp_path / "whole")
    assert parts.indexed_chunks == whole.indexed_chunks == 1
    assert _results(tmp_path / "parts" / "store.sqlite") == _results(tmp_path / "whole" / "store.sqlite")
    assert_verified(tmp_path / "parts" / "store.sqlite")


def test_one_edit_reindexes_only_its_chunk_and_adding_a_document_stays_exact(corpus, tmp_path, monkeypatch, cache_mode):
    monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 600)
    first, _ = quiet_build(corpus, tmp_path / "out")
    (corpus / "area1" / "part04.md").write_text("# Part 4\n\nRewritten: only KX-NEW here.\n", encoding="utf-8")
    edited, warnings = quiet_build(corpus, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    assert warnings == []
    # its own chunk, joined with or split from the one before if the edit moved the cut between them
    assert edited.indexed_chunks <= 2 and edited.copied_chunks >= first.indexed_chunks - 2
    (corpus / "area0" / "new.md").write_text("# New\n\nA document added between others.\n", encoding="utf-8")
    added, _ = quiet_build(corpus, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    assert added.copied_chunks >= first.indexed_chunks - 3
    fresh, _ = quiet_build(corpus, tmp_path / "fresh")
    assert file_sha256(tmp_path / "out" / "store.sqlite") == file_sha256(tmp_path / "fresh" / "store.sqlite")
    assert added.manifest == fresh.manifest
    conn = sqlite3.connect(tmp_path / "out" / "store.sqlite")
    for table in ("sections_fts", "documents_trigram"):
        assert segments.averages(conn, table) == segments.docsize_totals(conn, table, -(1 << 63), (1 << 63) - 1)
    conn.close()
    assert_verified(tmp_path / "out" / "store.sqlite")


def test_a_cache_whose_chunks_do_not_hold_what_its_documents_say_is_dropped(corpus, tmp_path, monkeypatch, cache_mode):
    from contextpull.artifact import assemble
    from contextpull.artifact import patch

    monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 600)
    quiet_build(corpus, tmp_path / "out")
    (corpus / "notes.txt").write_text("Changed notes\n\nNew content.\n", encoding="utf-8")
    real_range = chunks_mod.rowid_range

    class Misplaced:  # as if the cache's rowids were laid out another way than its meta says
        def __getattr__(self, name):
            return getattr(chunks_mod, name)

        @staticmethod
        def rowid_range(key):
            low, high = real_range(key + 1)
            return low, high

    monkeypatch.setattr(assemble, "chunks", Misplaced())
    monkeypatch.setattr(patch, "chunks", Misplaced())
    report, warnings = quiet_build(corpus, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    assert len(warnings) == 1 and "ignoring cache" in warnings[0] and "holds 0 sections" in warnings[0]
    assert report.copied_chunks == 0 and report.reuse == "none"
    monkeypatch.setattr(assemble, "chunks", chunks_mod)
    monkeypatch.setattr(patch, "chunks", chunks_mod)
    quiet_build(corpus, tmp_path / "fresh")
    assert file_sha256(tmp_path / "out" / "store.sqlite") == file_sha256(tmp_path / "fresh" / "store.sqlite")


def test_chunk_plans_depend_on_paths_and_sizes_only():
    docs = [(f"d/{i:03d}.md", 1000 + i) for i in range(3000)]
    plan = chunks_mod.plan(docs)
    assert [p for _, paths in plan for p in paths] == [p for p, _ in docs]
    assert len({key for key, _ in plan}) == len(plan)
    # an edit that keeps sizes, or one document removed, leaves the other chunks as they were
    assert chunks_mod.plan(docs) == plan
    removed = chunks_mod.plan(docs[:1500] + docs[1501:])
    assert len(set(map(repr, plan)) - set(map(repr, removed))) <= 2
