"""The optional sections_trigram table: built stores carry it, it matches their sections, literal
grep gives the same matches with and without it, and an in-place ingest does not leave it stale."""

from __future__ import annotations

import shutil
import sqlite3

from artifact_helpers import assert_verified, fixture_corpus, quiet_build, write_files
from contextpull import Ops, Store
from contextpull.build import trigram
from contextpull.literal_grep import _trigram_query, has_trigram_table

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


def test_a_built_store_carries_the_table_with_one_row_per_section(tmp_path):
    _, store = _built(tmp_path)
    assert_verified(store)
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        assert has_trigram_table(conn)
        sections = [r for (r,) in conn.execute("SELECT rowid FROM sections ORDER BY rowid")]
        rows = [r for (r,) in conn.execute(f"SELECT id FROM {trigram.TABLE}_docsize ORDER BY id")]
        assert rows == sections
        # every section is found through the table by a substring of its own text
        for rowid, text in conn.execute("SELECT rowid, text FROM sections"):
            probe = text[:12]
            if len(probe) < 3 or '"' in probe:
                continue
            query = _trigram_query(probe)
            found = {r for (r,) in conn.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ?", (query,))}
            assert rowid in found
    finally:
        conn.close()


def test_grep_matches_are_identical_with_and_without_the_table(tmp_path):
    _, store = _built(tmp_path)
    bare = tmp_path / "bare.sqlite"
    shutil.copyfile(store, bare)
    conn = sqlite3.connect(bare)
    assert trigram.drop_if_present(conn)
    conn.commit()
    assert not has_trigram_table(conn)
    conn.close()
    for pattern in ("KX-03-4", "kx-03", "flag_1", "--opt-5", "äö1", "ÄÖ1", "cache_dir", "TX-44", "ab3CD", "zzz-none", "ab"):
        assert _matches(store, pattern) == _matches(bare, pattern), pattern


def test_ingest_into_a_built_store_drops_the_table_and_stays_exact(tmp_path):
    from contextpull.build.ingest import ingest
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
    from contextpull.build.ingest import ingest
    from contextpull.config import resolve_settings

    docs = fixture_corpus(tmp_path / "docs")
    store = tmp_path / "s.sqlite"
    ingest(docs, store, resolve_settings(docs, {}, {}))
    conn = sqlite3.connect(store)
    try:
        assert not trigram.present(conn)
    finally:
        conn.close()


def _shadow(conn):
    return {name: conn.execute(f"SELECT * FROM {name} ORDER BY 1").fetchall() for name in trigram.SHADOW_TABLES}


def test_the_threaded_builder_writes_the_same_table_as_the_fill_in_one_thread(tmp_path, monkeypatch):
    monkeypatch.setattr(trigram, "_BATCH_ROWS", 16)  # several batches, as on a real corpus
    _, store = _built(tmp_path)
    one, threaded = tmp_path / "one.sqlite", tmp_path / "threaded.sqlite"
    for path in (one, threaded):
        shutil.copyfile(store, path)
        conn = sqlite3.connect(path)
        trigram.drop_if_present(conn)
        conn.commit()
        conn.close()
    conn = sqlite3.connect(one)
    trigram.fill(conn)
    conn.commit()
    expected = _shadow(conn)
    conn.close()

    conn = sqlite3.connect(threaded)
    builder = trigram.Builder(tmp_path / "scratch.tmp")
    for (doc_id,) in conn.execute("SELECT doc_id FROM documents ORDER BY doc_id").fetchall():
        builder.feed(conn.execute("SELECT rowid, text FROM sections WHERE doc_id = ? ORDER BY rowid", (doc_id,)).fetchall())
    assert builder.finish_into(conn) == "thread"
    conn.commit()
    assert _shadow(conn) == expected
    assert has_trigram_table(conn)
    conn.close()
    assert not (tmp_path / "scratch.tmp").exists()
    assert _matches(threaded, "KX-07-2") == _matches(one, "KX-07-2") != ([], False)


def test_the_builder_falls_back_when_rows_are_missing(tmp_path):
    _, store = _built(tmp_path)
    conn = sqlite3.connect(store)
    trigram.drop_if_present(conn)
    conn.commit()
    builder = trigram.Builder(tmp_path / "scratch.tmp")
    builder.feed(conn.execute("SELECT rowid, text FROM sections ORDER BY rowid LIMIT 3").fetchall())
    assert builder.finish_into(conn) == "fallback"
    conn.commit()
    count = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
    assert conn.execute(f"SELECT count(*) FROM {trigram.TABLE}_docsize").fetchone()[0] == count
    conn.close()
    assert not (tmp_path / "scratch.tmp").exists()


def test_the_builder_keeps_rowids_across_gaps(tmp_path, monkeypatch):
    monkeypatch.setattr(trigram, "_BATCH_ROWS", 2)
    docs = [[(1, "alpha KX-1"), (2, "beta KX-2"), (5, "gamma KX-5")], [(9, "delta KX-9"), (10, "epsilon")]]
    paths = []
    for name in ("one", "threaded"):
        path = tmp_path / f"{name}.sqlite"
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE sections (doc_id INTEGER, text TEXT)")
        for doc_id, rows in enumerate(docs, 1):
            conn.executemany("INSERT INTO sections (rowid, doc_id, text) VALUES (?, ?, ?)", [(r, doc_id, t) for r, t in rows])
        conn.commit()
        conn.close()
        paths.append(path)
    conn = sqlite3.connect(paths[0])
    trigram.fill(conn)
    conn.commit()
    expected = _shadow(conn)
    conn.close()
    conn = sqlite3.connect(paths[1])
    builder = trigram.Builder(tmp_path / "scratch.tmp")
    for rows in docs:
        builder.feed(rows)
    assert builder.finish_into(conn) == "thread"
    conn.commit()
    assert _shadow(conn) == expected
    for rowid, text in (r for rows in docs for r in rows):
        found = conn.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ?", (_trigram_query(text),)).fetchall()
        assert found == [(rowid,)]
    conn.close()


def test_a_text_with_nul_takes_the_one_statement_fill(tmp_path):
    path = tmp_path / "nul.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sections (doc_id INTEGER, text TEXT)")
    rows = [(1, "before\x00after KX-1"), (2, "plain KX-2")]
    conn.executemany("INSERT INTO sections (rowid, doc_id, text) VALUES (?, 1, ?)", rows)
    conn.commit()
    builder = trigram.Builder(tmp_path / "scratch.tmp")
    builder.feed(rows)
    assert builder.finish_into(conn) == "statement"
    conn.commit()
    assert conn.execute(f"SELECT id FROM {trigram.TABLE}_docsize ORDER BY id").fetchall() == [(1,), (2,)]
    found = conn.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ?", (_trigram_query("plain"),)).fetchall()
    assert found == [(2,)]
    conn.close()
