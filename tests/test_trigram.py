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
