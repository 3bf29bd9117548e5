"""search_impacts: the fast path's passes equal the plain FTS5 query's (ids, order, scores).

Random small corpora in an FTS5 table with the store's schema and tokenizer, the table written
by the builder's own function, random queries answered both ways. The impact lists are cut at
a few postings (HEAD, MID and DEPTHS patched small) so that bounds, deepening, look-ups in the
docno-ordered part and the fallback all come into play on corpora of a few dozen sections.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.schema import FTS_TOKENIZE
from contextpull.search import impact_format as fmt
from contextpull.search import frequency_groups, impact_pass, impacts, passes
from contextpull.indexing import impacts as writer

VOCAB = ["alpha", "beta", "gamma", "delta", "tx-4419", "3.12", "tool.uv", "gate_ms", "the", "a", "zeta", "eta"]
BM25 = "bm25(sections_fts, 0.0, 2.0, 1.0)"


@contextmanager
def small_lists(head: int = 3, mid: int = 9, and_max_df: int = 6, min_df: int = 3):
    with mock.patch.object(fmt, "HEAD", head), mock.patch.object(fmt, "MID", mid), mock.patch.object(fmt, "MIN_DF", min_df), \
            mock.patch.object(impact_pass, "DEPTHS", (1, 2, 4, mid)), mock.patch.object(impacts, "AND_MAX_DF", and_max_df), \
            mock.patch.object(impacts, "AND_MAX_SHARE", 0.0):
        yield


def make_store(sections) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute(f'CREATE VIRTUAL TABLE sections_fts USING fts5(id UNINDEXED, heading_path, text, tokenize = "{FTS_TOKENIZE}")')
    conn.executemany("INSERT INTO sections_fts (rowid, id, heading_path, text) VALUES (?, ?, ?, ?)", sections)
    writer.write(conn)
    return conn


def plain(conn, tokens, limit, conjunctive):
    query = (" AND " if conjunctive else " OR ").join('"' + t + '"' for t in tokens)
    sql = f"SELECT id, rowid, {BM25} AS r FROM sections_fts WHERE sections_fts MATCH ? ORDER BY r, id LIMIT ?"
    return [tuple(row) for row in conn.execute(sql, (query, limit))]


words = st.lists(st.sampled_from(VOCAB), max_size=30)
section = st.tuples(words, st.lists(st.sampled_from(VOCAB), max_size=4), st.integers(0, 3))


@st.composite
def corpora(draw):
    rows = draw(st.lists(section, min_size=1, max_size=40))
    out = []
    for i, (text, heading, copies) in enumerate(rows):
        for copy in range(1 + (copies == 3)):  # some sections repeat: their scores tie exactly
            rowid = (i * 2 + copy) * 7919 + 10**12
            out.append((rowid, f"doc{i % 7}.md#{i}{'x' * copy}", " ".join(heading), " ".join(text)))
    return out


queries = st.tuples(
    st.lists(st.sampled_from(VOCAB + ["absent", "omega"]), min_size=1, max_size=5),
    st.integers(1, 12),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(corpora(), st.lists(queries, min_size=1, max_size=6))
def test_fast_path_equals_plain_fts5(sections, batch):
    with small_lists():
        conn = make_store(sections)
        table = impacts.Impacts.load(conn)
        if table is None:  # no word in any section: nothing to rank
            assert all(plain(conn, t, n, c) == [] for t, n, c in batch)
            return
        for tokens, limit, conjunctive in batch:
            fast = table.top(conn, tokens, limit, conjunctive)
            if fast is not None:  # None: not proven, the caller runs the plain query
                assert [tuple(r) for r in fast] == plain(conn, tokens, limit, conjunctive)


@settings(max_examples=100, deadline=None)
@given(corpora(), st.lists(queries, min_size=1, max_size=4))
def test_a_pass_of_words_the_table_leaves_out_is_left_to_fts5(sections, batch):
    """With the real ``min_df`` every word of a small corpus is rare: the table holds none of
    them, and a pass of such words is FTS5's (its few postings are as fast to rank there)."""
    conn = make_store(sections)
    table = impacts.Impacts.load(conn)
    for tokens, limit, conjunctive in batch:
        assert table is None or table.top(conn, tokens, limit, conjunctive) is None


def test_deep_lists_prove_past_the_head():
    """A corpus where a word's list is longer than its head: the answer still comes from the
    table (the proof closes after reading deeper), equal to FTS5's."""
    sections = [(10**12 + i, f"a.md#{i}", "", " ".join(["alpha"] * (1 + i % 5) + ["beta"] * (i % 3) + ["pad"] * (i % 11)))
                for i in range(200)]
    sections += [(10**12 + 200 + i, f"b.md#{i}", "", "pad") for i in range(201)]  # alpha in under half: its idf is not floored
    with small_lists(head=4, mid=32, and_max_df=10**9):
        conn = make_store(sections)
        table = impacts.Impacts.load(conn)
        for conjunctive in (False, True):
            fast = table.top(conn, ["alpha", "beta"], 5, conjunctive)
            assert fast is not None
            assert [tuple(r) for r in fast] == plain(conn, ["alpha", "beta"], 5, conjunctive)


def test_a_table_for_another_state_of_the_index_is_ignored():
    conn = make_store([(1, "a.md#1", "h", "alpha beta"), (2, "a.md#2", "", "beta")])
    assert impacts.Impacts.load(conn) is not None
    conn.execute("INSERT INTO sections_fts (rowid, id, heading_path, text) VALUES (3, 'a.md#3', '', 'alpha')")
    conn.commit()
    assert impacts.Impacts.load(conn) is None


def test_a_store_without_the_table_has_none():
    conn = sqlite3.connect(":memory:")
    conn.execute(f'CREATE VIRTUAL TABLE sections_fts USING fts5(id UNINDEXED, heading_path, text, tokenize = "{FTS_TOKENIZE}")')
    assert impacts.Impacts.load(conn) is None


def test_words_that_are_not_plain_ascii_take_the_plain_query():
    conn = make_store([(1, "a.md#1", "", "café alpha"), (2, "a.md#2", "", "cafe")])
    assert impacts.Impacts.load(conn).top(conn, ["café"], 5, False) is None


def test_an_and_of_common_words_is_answered_from_their_frequency_groups():
    sections = [(10**12 + i, f"a.md#{i}", "", "alpha beta" * (1 + i % 3) + " pad" * i) for i in range(40)]
    sections += [(10**12 + 40 + i, f"b.md#{i}", "", "pad") for i in range(41)]  # in under half the sections
    with small_lists(head=4, mid=32, and_max_df=39):
        conn = make_store(sections)
        table = impacts.Impacts.load(conn)
        fast = table.top(conn, ["alpha", "beta"], 5, True)
        assert fast is not None and [tuple(r) for r in fast] == plain(conn, ["alpha", "beta"], 5, True)
        assert table.cache["alpha"].groups is not None  # not the threshold algorithm's lists
        assert [tuple(r) for r in table.top(conn, ["alpha", "beta"], 5, False)] == plain(conn, ["alpha", "beta"], 5, False)
        with mock.patch.object(frequency_groups, "MAX_STEPS", 2):  # too many combinations: FTS5 answers
            assert table.top(conn, ["alpha", "beta"], 5, True) is None
        with mock.patch.object(frequency_groups, "MAX_SCANNED", 3), mock.patch.object(frequency_groups, "CHUNK", 2):
            assert table.top(conn, ["alpha", "beta"], 5, True) is None  # too many sections walked
        assert table.top(conn, ["alpha", "beta", "pad"], 5, True) is None  # three words: FTS5's


@settings(max_examples=200, deadline=None)
@given(corpora(), st.lists(queries, min_size=1, max_size=6))
def test_an_and_of_common_words_equals_plain_fts5(sections, batch):
    """Every word common (``AND_MAX_DF`` 0): each AND pass the table answers is answered by the
    frequency groups, ties between repeated sections included, and equals FTS5's."""
    with small_lists(and_max_df=0):
        conn = make_store(sections)
        table = impacts.Impacts.load(conn)
        if table is None:
            return
        for tokens, limit, _ in batch:
            fast = table.top(conn, tokens, limit, True)
            if fast is not None:
                assert [tuple(r) for r in fast] == plain(conn, tokens, limit, True)
            elif len(set(tokens)) <= frequency_groups.MAX_WORDS and all(w in table.in_table for w in tokens) \
                    and any(table.cache[w].idf > impacts.FLOORED_IDF for w in tokens):
                raise AssertionError(f"{tokens}: common words the groups did not answer")


def test_a_pass_of_words_in_more_than_half_the_sections_is_left_to_fts5():
    """FTS5 floors such a word's idf: every score is about equal and nothing is proven early
    (the synthetic store, 20 words each in most sections), so FTS5 ranks the pass at once."""
    sections = [(10**12 + i, f"a.md#{i}", "", "alpha beta" + " pad" * (i % 7)) for i in range(30)]
    with small_lists(head=4, mid=32, min_df=2):
        conn = make_store(sections + [(10**12 + 99, "b.md#0", "", "gamma")])
        table = impacts.Impacts.load(conn)
        assert table.top(conn, ["alpha", "beta"], 5, False) is None
        mixed = table.top(conn, ["alpha", "gamma"], 5, False)  # gamma is rare: its idf counts
        assert mixed is not None and [tuple(r) for r in mixed] == plain(conn, ["alpha", "gamma"], 5, False)


@settings(max_examples=150, deadline=None)
@given(corpora(), st.lists(queries, min_size=1, max_size=6), st.integers(0, 12))
def test_the_passes_equal_the_spec_order_whichever_pass_is_asked_first(sections, batch, and_max_df):
    """Where every word is common the phrase pass is asked before the AND pass (``every_word_common``),
    elsewhere after it; the hits, their order and scores are the passes' in the spec's order."""
    with small_lists(and_max_df=and_max_df):
        conn = make_store(sections)
        table = impacts.Impacts.load(conn)
        for tokens, limit, _ in batch:
            assert passes.lexical(conn, tokens, None, limit, table) == passes.lexical(conn, tokens, None, limit, None)


def test_an_and_of_common_words_asks_the_phrase_first():
    sections = [(10**12 + i, f"a.md#{i}", "", ("alpha beta" if i % 2 else "beta alpha") + " pad" * i) for i in range(40)]
    sections += [(10**12 + 40 + i, f"b.md#{i}", "", "pad gamma" * (i < 5)) for i in range(41)]
    with small_lists(head=4, mid=32, and_max_df=30):
        conn = make_store(sections)
        table = impacts.Impacts.load(conn)
        assert table.every_word_common(conn, ["alpha", "beta"])
        assert not table.every_word_common(conn, ["alpha", "gamma"])  # gamma is rare: the table proves the AND
        assert not table.every_word_common(conn, ["alpha", "absent"])
        asked = []
        conn.set_trace_callback(asked.append)
        found = passes.lexical(conn, ["alpha", "beta"], None, 5, table)
        conn.set_trace_callback(None)
        assert not any('"alpha" AND "beta"' in sql for sql in asked)  # the phrase filled the limit
        assert found == passes.lexical(conn, ["alpha", "beta"], None, 5, None)
        assert all(query == '"alpha beta"' for _, _, query in found.values())


@pytest.mark.parametrize("part, damage", [(0, "cut"), (1, "cut"), (2, "cut"), (2, "gone"), (0, "format"), (1, "past the last")])
def test_a_damaged_row_turns_the_table_off_and_fts5_answers(part, damage):
    """A row not in the layout (cut short, missing, a wrong format byte, a section past the
    last) is never read as postings: the pass is FTS5's, and the table is not used again for
    the store."""
    sections = [(10**12 + i, f"a.md#{i}", "", "alpha beta" * (1 + i % 3) + " pad" * i) for i in range(40)]
    sections += [(10**12 + 40 + i, f"b.md#{i}", "", "pad") for i in range(41)]
    with small_lists(head=4, mid=8, and_max_df=39):
        conn = make_store(sections)
        where = ("WHERE term = 'alpha' AND part = ?", (part,))
        if damage == "cut":
            conn.execute(f"UPDATE search_impacts SET data = substr(data, 1, length(data) - 1) {where[0]}", where[1])
        elif damage == "gone":
            conn.execute(f"DELETE FROM search_impacts {where[0]}", where[1])
        elif damage == "format":
            conn.execute(f"UPDATE search_impacts SET data = CAST(x'000000005a' || substr(data, 6) AS BLOB) {where[0]}", where[1])
        else:
            conn.execute(f"UPDATE search_impacts SET data = x'48ffffff7f0100' {where[0]}", where[1])
        table = impacts.Impacts.load(conn)
        for tokens in (["alpha", "beta"], ["alpha", "pad"]):  # deep enough to read every part of alpha
            for limit in (5, 40):
                for conjunctive in (True, False):
                    fast = table.top(conn, tokens, limit, conjunctive)
                    assert fast is None or [tuple(r) for r in fast] == plain(conn, tokens, limit, conjunctive)
                assert passes.lexical(conn, tokens, None, limit, table) == passes.lexical(conn, tokens, None, limit, None)
        assert table.checked is False
