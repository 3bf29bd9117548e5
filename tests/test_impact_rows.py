"""search_impacts rows: numpy's way and Python's give the same bytes (``indexing.impact_rows``).

A store must not depend on what happened to be installed beside the builder, so the two ways of
computing a word's rows are held to each other on random postings: frequencies that tie, that
are 0 (a word only in ``id``) or too wide for 16 bits, sections whose lengths tie, lists longer
than the head and the middle part.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.schema import FTS_TOKENIZE
from contextpull.search import impact_format as fmt
from contextpull.indexing import impact_rows

pytest.importorskip("numpy")


@st.composite
def tables(draw):
    count = draw(st.integers(1, 60))
    rowids = sorted(draw(st.sets(st.integers(-2**62, 2**62), min_size=count, max_size=count)))
    lengths = draw(st.lists(st.sampled_from([1, 2, 3, 7, 40, 41, 500]), min_size=count, max_size=count))
    avgdl = sum(lengths) / count
    factors = [fmt.length_factor(n, avgdl) for n in lengths]
    words = []
    for _ in range(draw(st.integers(1, 4))):
        chosen = sorted(draw(st.sets(st.integers(0, count - 1), min_size=1, max_size=count)))
        freqs = draw(st.lists(st.sampled_from([0, 1, 1, 2, 3, 5, 70000]), min_size=len(chosen), max_size=len(chosen)))
        words.append([(rowids[d], f) for d, f in zip(chosen, freqs)])
    return rowids, factors, words


@settings(max_examples=200, deadline=None)
@given(tables(), st.integers(1, 6), st.integers(0, 12))
def test_numpy_and_python_write_the_same_rows(table, head, extra):
    rowids, factors, words = table
    with mock.patch.object(fmt, "HEAD", head), mock.patch.object(fmt, "MID", head + extra):
        fast, slow = [], []
        for i, postings in enumerate(words):
            impact_rows.Encoder(None, "", rowids, factors, use_numpy=True).rows(f"w{i}", *zip(*postings), fast)
            impact_rows.Encoder(None, "", rowids, factors, use_numpy=False).rows(f"w{i}", *zip(*postings), slow)
    assert fast == slow


@pytest.mark.parametrize("use_numpy", [True, False])
def test_a_posting_of_a_section_the_index_lacks_is_an_error(use_numpy):
    encoder = impact_rows.Encoder(None, "", [10, 20, 30], [1.0, 1.0, 1.0], use_numpy=use_numpy)
    with pytest.raises(KeyError):
        encoder.rows("w", [10, 25], [1, 1], [])
    with pytest.raises(KeyError):
        encoder.rows("w", [10, 99], [1, 1], [])


WORDS = ["alpha", "beta", "gamma", "tx-4419", "3.12"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(WORDS), max_size=4), st.lists(st.sampled_from(WORDS), max_size=12)),
                min_size=1, max_size=30), st.sets(st.integers(-2**62, 2**62), min_size=30, max_size=30))
def test_numpy_and_python_read_the_same_postings(sections, rowids):
    """The occurrences summed per section by numpy equal SQLite's ``GROUP BY``: words in the
    heading (weight 2) and the text (1), repeated, in sections with any rowid."""
    conn = sqlite3.connect(":memory:")
    conn.execute(f'CREATE VIRTUAL TABLE sections_fts USING fts5(id UNINDEXED, heading_path, text, tokenize = "{FTS_TOKENIZE}")')
    conn.executemany("INSERT INTO sections_fts (rowid, id, heading_path, text) VALUES (?, ?, ?, ?)",
                     [(r, f"a.md#{i}", " ".join(h), " ".join(t)) for i, (r, (h, t)) in enumerate(zip(sorted(rowids), sections))])
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, sections_fts, instance)")
    ids = [r for (r,) in conn.execute("SELECT rowid FROM sections_fts ORDER BY rowid")]
    fast = impact_rows.Encoder(conn, "temp.v", ids, [1.0] * len(ids), use_numpy=True)
    slow = impact_rows.Encoder(conn, "temp.v", ids, [1.0] * len(ids), use_numpy=False)
    for word in WORDS + ["absent"]:
        want = slow.postings(word, 0)
        for occurrences in (0, impact_rows.MAX_JOINED + 1):  # joined as strings, or summed by SQLite
            got = fast.postings(word, occurrences)
            assert [list(map(int, got[0])), list(map(int, got[1]))] == [want[0], want[1]]


def test_a_build_of_a_small_store_does_not_import_numpy(tmp_path):
    """numpy is imported when a table is written, not at a build's start (0.11 s of a small
    site's 0.5 s build)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nSome text.\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "contextpull", "build", str(docs), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "contextpull.indexing.impacts" in imported  # the module is there; its numpy is not
    assert "numpy" not in imported
