"""Hybrid search on bad input (issue 38): a store whose model this reader cannot load answers
lexically with a hint naming the model and what is missing; damaged vector rows are left out and
named, the search staying hybrid; a 100,000-character query is embedded on its first
characters only, said in a hint."""

from __future__ import annotations

import sqlite3
import struct
import sys

import pytest
from fake_embedder import SETTING, vector
from test_hybrid import DOCS, fake, ingest, write  # noqa: F401  (fake: the fixture)

from contextpull.models import embedders
from contextpull.ops import Ops
from contextpull.search import dense
from contextpull.store import Store


@pytest.fixture
def store(tmp_path, fake):  # noqa: F811
    path = tmp_path / "s.sqlite"
    ingest(write(tmp_path / "docs", DOCS), path)
    return path


def fake_embed(seen: list):
    def embed(model, texts):
        seen.extend(texts)
        return [vector(t) for t in texts]
    return embed


def _set_model(path, model: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE embeddings SET model = ?", (model,))


def _search(path, query, embed=None, mode="hybrid"):
    with Store.open(path) as opened:
        return Ops(opened, embed_fn=embed).search(query, mode=mode)


@pytest.mark.parametrize(
    ("model", "named"),
    [
        ("local:no-such-model", "unknown local model 'no-such-model'"),
        ("cohere:embed-v9", "unknown provider 'cohere'"),
    ],
)
def test_a_model_the_reader_cannot_load_answers_lexically_with_a_hint(store, monkeypatch, model, named):
    _set_model(store, model)
    monkeypatch.setattr(embedders, "_loaded", {})
    result = _search(store, "cache wheels")
    lexical = _search(store, "cache wheels", mode="lexical")
    assert result.mode == "lexical"
    assert [h.id for h in result.hits] == [h.id for h in lexical.hits] != []
    assert result.hint.startswith(f"hybrid search needs the store's embedding model {model}: ")
    assert named in result.hint and result.hint.endswith("; ran lexical")


def test_a_static_model_store_without_its_packages_names_the_extra(store, monkeypatch):
    _set_model(store, "local:minilm-static")
    monkeypatch.setattr(embedders, "_loaded", {})
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # import tokenizers raises ImportError
    result = _search(store, "cache wheels")
    assert result.mode == "lexical"
    assert "need the package 'tokenizers', which is not installed" in result.hint and 'pip install "contextpull[embed-static]"' in result.hint


def _damage(path) -> list[str]:
    """Three rows made unreadable three ways; returns their ids."""
    with sqlite3.connect(path) as conn:
        ids = [row[0] for row in conn.execute("SELECT section_id FROM embeddings ORDER BY section_id")]
        dims = len(conn.execute("SELECT vec FROM embeddings").fetchone()[0]) // 4
        conn.execute("UPDATE embeddings SET vec = ? WHERE section_id = ?", (b"\x00\x01\x02", ids[0]))  # not float32
        conn.execute("UPDATE embeddings SET vec = ? WHERE section_id = ?", (struct.pack(f"<{dims}f", *([float("nan")] * dims)), ids[1]))
        conn.execute("UPDATE embeddings SET vec = ? WHERE section_id = ?", (struct.pack("<2f", 0.6, 0.8), ids[2]))  # wrong length
    return ids[:3]


def test_damaged_vector_rows_are_left_out_and_named(store, tmp_path):
    damaged = _damage(store)
    result = _search(store, "cache wheels", fake_embed([]))
    assert result.mode == "hybrid"
    assert result.hint == (f"3 stored vectors are damaged and were left out (first: {damaged[0]}); "
                           "rebuild the store to restore them")
    # exactly the search of a store without those rows
    without = tmp_path / "without.sqlite"
    with sqlite3.connect(store) as conn, sqlite3.connect(without) as out:
        conn.backup(out)
    with sqlite3.connect(without) as conn:
        conn.executemany("DELETE FROM embeddings WHERE section_id = ?", [(sid,) for sid in damaged])
    expected = _search(without, "cache wheels", fake_embed([]))
    assert expected.hint is None
    assert [(h.id, h.score) for h in result.hits] == [(h.id, h.score) for h in expected.hits]


def test_a_store_whose_every_vector_is_damaged_runs_lexical_and_says_why(store):
    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE embeddings SET vec = x'00'")
        first = conn.execute("SELECT section_id FROM embeddings ORDER BY rowid").fetchone()[0]
    result = _search(store, "cache wheels", fake_embed([]))
    assert result.mode == "lexical"
    assert result.hint.startswith(f"all {len(DOCS) + 3} stored vectors are damaged (first: {first}); ran lexical")


def test_a_query_of_100000_characters_is_embedded_on_its_first_characters(store):
    seen: list[str] = []
    query = "wheels" + "x" * 99_994
    result = _search(store, query, fake_embed(seen))
    assert result.mode == "hybrid"
    assert seen == [query[:dense.QUERY_EMBED_CHARS]]
    assert result.hint == f"the query's first {dense.QUERY_EMBED_CHARS} of 100000 characters were embedded"
    # lexical search is the spec's: the whole query, no hint
    lexical = _search(store, query, mode="lexical")
    assert lexical.mode == "lexical" and "characters" not in (lexical.hint or "")
    # many words are the lexical cap's, in both modes
    with pytest.raises(Exception, match="at most 64 are searched"):
        _search(store, "word " * 20_000, fake_embed([]))


def _second_store_and_counted_loads(store, tmp_path, monkeypatch) -> tuple:
    """A copy of ``store`` beside it, and the list every load of the query model appends its
    setting to (the loader counts, the embedder is the test's)."""
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(store) as conn, sqlite3.connect(other) as out:
        conn.backup(out)
    loads: list[str] = []

    class Counting:
        def embed_queries(self, texts):
            return [vector(t) for t in texts]

    def load(setting, environ=None):
        loads.append(setting)
        return Counting()

    monkeypatch.setattr(embedders, "_loaded", {})
    monkeypatch.setattr(embedders, "load", load)
    return other, loads


def test_the_query_model_is_loaded_once_a_process_for_every_store_of_it(store, tmp_path, monkeypatch):
    """The server's mounts each open their store; stores of one model share one loaded model."""
    other, loads = _second_store_and_counted_loads(store, tmp_path, monkeypatch)
    for path in (store, other, store):
        assert _search(path, "cache wheels").mode == "hybrid"
    assert loads == [SETTING]


def test_mounts_of_one_model_share_its_query_model(store, tmp_path, monkeypatch):
    """The server: two mounts whose stores were embedded with one model load it once, on the
    first hybrid search, and both answer hybrid."""
    from contextpull.serving.mcp_server import LiveStore
    from contextpull.serving.mounts import Mount, MountSet
    from contextpull.tools import call

    other, loads = _second_store_and_counted_loads(store, tmp_path, monkeypatch)
    lives = [LiveStore(path) for path in (store, other)]
    for live in lives:
        live.current()
    mounted = MountSet([Mount("a", lives[0], str(store)), Mount("b", lives[1], str(other))])
    try:
        assert loads == []  # nothing loaded for a server that has not searched hybrid
        for query in ("cache wheels", "install python"):
            with mounted.lock:
                result = call(mounted.current(), "search", {"query": query, "mode": "hybrid"})
            assert result["mode"] == "hybrid", result
            assert {hit["id"].split("/", 1)[0] for hit in result["hits"]} == {"a", "b"}
        assert loads == [SETTING]
    finally:
        mounted.close()
