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


def _sections_db(path, chunks):
    """A database with a ``sections`` table holding these chunks' (rowid, text) rows and an empty trigram table."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sections (text TEXT)")
    for rows in chunks:
        conn.executemany("INSERT INTO sections (rowid, text) VALUES (?, ?)", rows)
    conn.execute(trigram.DDL)
    conn.commit()
    return conn


CHUNKS = [
    [((7 << 32) + 1, "alpha KX-1 and more"), ((7 << 32) + 2, "beta KX-2"), ((7 << 32) + 3, "gamma ÄÖ-5")],
    [((3 << 32) + 1, "delta KX-9"), ((3 << 32) + 2, "epsilon")],
    [((9 << 32) + 1, "zeta KX-1 again")],
]


def _fill(tmp_path, name, *, fail_thread=False):
    conn = _sections_db(tmp_path / f"{name}.sqlite", CHUNKS)
    builder = trigram.Builder(tmp_path / f"{name}.scratch", tmp_path / f"{name}.sqlite")
    if fail_thread:
        builder._queue.put(None)  # the thread ends before the first chunk: finish_into must redo them
        builder._thread.join()
        builder._error = RuntimeError("thread gone")
    for position, rows in enumerate(CHUNKS, start=1):
        for part in (rows[:2], rows[2:]):  # the first chunk in two parts, merged into one segment
            if part:
                builder.part(position, part[0][0], part[-1][0])
        builder.end(position)
    how = builder.finish_into(conn)
    conn.commit()
    assert not (tmp_path / f"{name}.scratch").exists()
    return conn, how


def test_the_thread_and_the_fallback_write_the_same_rows_one_segment_per_chunk(tmp_path):
    threaded, how = _fill(tmp_path, "threaded")
    assert how == "thread"
    fallback, how = _fill(tmp_path, "fallback", fail_thread=True)
    assert how == "fallback"
    assert _shadow(threaded) == _shadow(fallback)
    segids = sorted({rowid >> 37 for (rowid,) in threaded.execute(f"SELECT id FROM {trigram.TABLE}_data")} - {0})
    assert segids == [1, 2, 3]
    for rows in CHUNKS:
        for rowid, text in rows:
            found = threaded.execute(
                f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ?", (_trigram_query(text),)
            ).fetchall()
            assert (rowid,) in found, text
    found = threaded.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ? ORDER BY rowid", (_trigram_query("KX-1"),))
    assert [r for (r,) in found] == [(7 << 32) + 1, (9 << 32) + 1]


def test_a_chunk_with_nul_in_a_text_is_indexed_into_one_segment(tmp_path):
    rows = [(1, "before\x00after KX-1"), (2, "plain KX-2")]
    conn = _sections_db(tmp_path / "nul.sqlite", [rows])
    builder = trigram.Builder(tmp_path / "scratch.tmp", tmp_path / "nul.sqlite")
    builder.part(1, 1, 2)
    builder.end(1)
    assert builder.finish_into(conn) == "thread"
    conn.commit()
    assert conn.execute(f"SELECT id FROM {trigram.TABLE}_docsize ORDER BY id").fetchall() == [(1,), (2,)]
    assert {rowid >> 37 for (rowid,) in conn.execute(f"SELECT id FROM {trigram.TABLE}_data")} == {0, 1}
    for text, rowid in (("plain", 2), ("before", 1)):
        found = conn.execute(f"SELECT rowid FROM {trigram.TABLE} WHERE {trigram.TABLE} MATCH ?", (_trigram_query(text),)).fetchall()
        assert found == [(rowid,)], text
    conn.close()


