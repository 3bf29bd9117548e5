"""The optional trigram table: built stores carry it (documents_trigram, one row per document),
it finds every section's words, literal grep gives the same matches with it, without it and with
the earlier builds' sections_trigram, and an in-place ingest does not leave either stale."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from artifact_helpers import assert_verified, fixture_corpus, quiet_build, write_files
from contextpull import Ops, Store
from contextpull.indexing import trigram
from contextpull.grep.literal import trigram_query, trigram_table

EXTRA = {
    f"ref/part{i}.md": (
        f"# Part {i}\n\n"
        + "".join(
            f"## Code KX-{i:02d}-{j}\n\nSet `FLAG_{i}_{j}` or pass --opt-{j}. Ab{j}cd and ÄÖ{i} text.\n\n"
            for j in range(6)
        )
    )
    for i in range(12)
}
EXTRA["odd.md"] = "# Odd\n\n## Characters\n\nTabs\tand emoji 😀 and \u2028 line sep, quotes \"q\" and \\ back, é̃ combined.\n"


def _built(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    write_files(docs, EXTRA)
    out = tmp_path / "out"
    quiet_build(docs, out)
    return docs, out / "store.sqlite"


def _matches(store_path, pattern):
    with Store.open(store_path) as store:
        result = Ops(store).grep(pattern, limit=50)
        return [(m.id, m.line) for m in result.matches], result.truncated


@pytest.fixture
def small_runs(monkeypatch):
    """Several runs in this small corpus; the table filled in this process, where the patch holds."""
    from contextpull.indexing import index_process
    from contextpull.indexing import index_thread

    monkeypatch.setattr(trigram, "RUN_CHARS", 400)
    monkeypatch.setattr(index_process, "IndexProcess", index_thread.IndexThread)


def test_a_built_store_carries_the_table_with_runs_of_whole_documents(tmp_path, small_runs):
    _, store = _built(tmp_path)
    assert_verified(store)
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        assert trigram_table(conn) == trigram.TABLE
        firsts = {r for (r,) in conn.execute("SELECT min(rowid) FROM sections GROUP BY doc_id")}
        rows = [r for (r,) in conn.execute(f"SELECT id FROM {trigram.TABLE}_docsize ORDER BY id")]
        assert set(rows) <= firsts  # each run starts at a document's first section
        # each run is whole documents, closed as soon as it holds RUN_CHARS of text; only the
        # last run of a chunk (rowid key << 32) may hold less
        sections = conn.execute("SELECT rowid, doc_id, text FROM sections ORDER BY rowid").fetchall()
        runs = []
        for first, after in zip(rows, rows[1:] + [None]):
            run = [(doc_id, text) for rowid, doc_id, text in sections if rowid >= first and (after is None or rowid < after)]
            sizes: dict[int, int] = {}
            for doc_id, text in run:
                sizes[doc_id] = sizes.get(doc_id, -1) + len(text) + 1  # texts joined by a newline
            last_of_chunk = after is None or after >> 32 != first >> 32
            runs.append((list(sizes.values()), last_of_chunk))
        assert len(runs) > 1  # RUN_CHARS = 400 splits this corpus
        assert any(len(docs) > 1 for docs, _ in runs)  # and some runs hold several documents
        for docs, last_of_chunk in runs:
            assert sum(docs[:-1]) < trigram.RUN_CHARS, docs
            if not last_of_chunk:
                assert sum(docs) >= trigram.RUN_CHARS, docs
        # every section is found through its run's row by any substring of its words
        for rowid, text in conn.execute("SELECT rowid, text FROM sections"):
            run = max(r for r in rows if r <= rowid)
            for probe in (text[:12], text[-9:], text[len(text) // 2:len(text) // 2 + 7]):
                query = trigram_query(probe)
                if query is None:
                    continue
                found = {r for (r,) in conn.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ?", (query,))}
                assert run in found, probe
    finally:
        conn.close()


def test_trigram_query_takes_the_whitespace_free_pieces_of_three_characters_or_more():
    assert trigram_query("ab") is None
    assert trigram_query("a b\tc d") is None
    assert trigram_query("KX-03 x") == '"-03" AND "KX-" AND "X-0"'
    assert trigram_query("KX-03 x", every=3) == '"-03" AND "KX-"'  # every third, and the last
    assert trigram_query("abcdefg", every=3) == '"abc" AND "def" AND "efg"'
    assert trigram_query("ab cde\nfgh") == '"cde" AND "fgh"'
    assert trigram_query("ab\x00cde") == '"cde"'  # NUL separates pieces: no query holds one
    assert trigram_query('a"bc') == '"""bc" AND "a""b"'  # sorted, quotes doubled


def test_grep_matches_are_identical_with_and_without_the_table(tmp_path, small_runs, monkeypatch):
    from contextpull.grep import literal as literal_grep

    _, store = _built(tmp_path)
    bare = tmp_path / "bare.sqlite"
    shutil.copyfile(store, bare)
    conn = sqlite3.connect(bare)
    assert trigram.drop_if_present(conn)
    conn.commit()
    assert trigram_table(conn) is None
    conn.close()
    earlier = tmp_path / "earlier.sqlite"  # as the first two sessions' builds wrote it
    shutil.copyfile(bare, earlier)
    conn = sqlite3.connect(earlier)
    conn.execute(f"CREATE VIRTUAL TABLE sections_trigram USING fts5({trigram.DDL_BODY})")
    conn.execute("INSERT INTO sections_trigram (rowid, text) SELECT rowid, text FROM sections")
    conn.commit()
    assert trigram_table(conn) == "sections_trigram"
    conn.close()
    patterns = (
        "KX-03-4", "kx-03", "flag_1", "--opt-5", "äö1", "ÄÖ1", "cache_dir", "TX-44", "ab3CD", "zzz-none", "ab",
        "Set `FLAG_3", "cd and ÄÖ", "or pass --OPT", "Tabs\tand", "emoji 😀 and", "a b", "Code KX-05-", "-05-1\n\nSet",
        "q\" and \\ b", "é̃ comb", "Part 1", "art", " ",
        "KX-03\x004", "\x00cache_dir", "flag_1\x00",  # FTS5 reads a query only up to a NUL
    )
    for pattern in patterns:
        expected = _matches(bare, pattern)
        assert _matches(store, pattern) == expected, pattern
        assert _matches(earlier, pattern) == expected, pattern
    # every candidate checked, two runs (or sections) per query: the same matches again
    monkeypatch.setattr(literal_grep, "CANDIDATE_CAP", dict.fromkeys(literal_grep.CANDIDATE_CAP, 10**6))
    monkeypatch.setattr(literal_grep, "_RUNS_PER_QUERY", 1)
    for pattern in patterns:
        expected = _matches(bare, pattern)
        assert _matches(store, pattern) == expected, pattern
        assert _matches(earlier, pattern) == expected, pattern
    assert _matches(store, "Set `FLAG_3")[0]  # the patterns do find something
    # a NUL in a pattern is matched as the spec's instr() does: no text here holds one
    assert _matches(store, "\x00cache_dir") == _matches(bare, "flag_1\x00") == ([], False)
    conn = sqlite3.connect(store)  # and through a few candidate runs, not all of them
    total = conn.execute(f"SELECT count(*) FROM {trigram.TABLE}_docsize").fetchone()[0]
    found = conn.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ?", (trigram_query("KX-03-4"),)).fetchall()
    conn.close()
    assert 0 < len(found) < total


def test_ingest_into_a_built_store_drops_the_table_and_stays_exact(tmp_path):
    from contextpull.ingest.engine import ingest
    from contextpull.config import resolve_settings

    docs, built = _built(tmp_path)
    store = tmp_path / "live.sqlite"
    shutil.copyfile(built, store)
    (docs / "ref" / "part3.md").write_text("# Part 3\n\n## Gone\n\nNothing about KX-03-4 now, only QQ-77.\n", encoding="utf-8")
    ingest(docs, store, resolve_settings(docs, {}, {}))
    conn = sqlite3.connect(store)
    try:
        assert not trigram.present(conn)
    finally:
        conn.close()
    ids = [m for m, _ in _matches(store, "QQ-77")[0]]
    assert ids == ["ref/part3.md#1"] or ids == ["ref/part3.md#0"]
    assert [m for m, _ in _matches(store, "KX-03-4")[0]] == [m for m, _ in _matches(store, "QQ-77")[0]]


def test_a_fresh_ingest_store_has_no_table(tmp_path):
    from contextpull.ingest.engine import ingest
    from contextpull.config import resolve_settings

    docs = fixture_corpus(tmp_path / "docs")
    store = tmp_path / "s.sqlite"
    ingest(docs, store, resolve_settings(docs, {}, {}))
    conn = sqlite3.connect(store)
    try:
        assert not trigram.present(conn)
    finally:
        conn.close()
