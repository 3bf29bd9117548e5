"""Hybrid search and the vectors a build writes, with a deterministic fake embedder
(tests/fake_embedder.py): fusion, the published reader's ids, caching and invalidation,
the lexical fallback and its hints (store-format "Search" step 8, supplement ``embed_model``)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from artifact_helpers import fixture_corpus, quiet_build
from fake_embedder import SETTING, FakeEmbedder, embed_fn

import contextpull.artifact.run as run_mod
import contextpull.ingest.engine as engine
from contextpull.search import dense
from contextpull.config import Settings
from contextpull.ops import HINT_NO_EMBEDDINGS, Ops
from contextpull.store import Store

PEER_PYTHON = Path("/tmp/peer/bin/python")
QUERIES = ["install python", "cache wheels", "how do I configure the project", "lock file resolution", "zzzz unknown"]

DOCS = {
    "guide/install.md": "# Install\n\nInstall python with the installer script and check the version.\n\n"
    "## Upgrade\n\nUpgrade the tool itself with the self update command when a release is out.\n",
    "guide/cache.md": "# Cache\n\nThe cache keeps downloaded wheels so later installs are fast.\n\n"
    "## Clean\n\nRemove old entries with the prune command to free disk space.\n",
    "ref/config.md": "# Configuration\n\nSettings live in the project file under a tool table.\n\n"
    "## Lock\n\nThe lock file records the exact resolution of every dependency.\n",
    "ref/dup.md": "# Cache\n\nThe cache keeps downloaded wheels so later installs are fast.\n",
}


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def fake(monkeypatch):
    embedder = FakeEmbedder()
    loader = lambda setting, environ: embedder if setting else None  # noqa: E731
    monkeypatch.setattr(engine, "load_embedder", loader)
    monkeypatch.setattr(run_mod, "load_embedder", loader)
    return embedder


def ingest(corpus: Path, store: Path):
    return engine.ingest(corpus, store, Settings(embed_model=SETTING))


def vectors(store: Path) -> dict[str, bytes]:
    with sqlite3.connect(store) as conn:
        return dict(conn.execute("SELECT section_id, vec FROM embeddings"))


def test_fusion_is_reciprocal_rank_with_ties_by_id():
    fused = dense.fuse(["b", "a"], ["a", "c", "b", "x"], None, 3)
    assert [sid for sid, _ in fused] == ["a", "b", "c"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)
    # equal scores: by id; a filtered dense id keeps its rank for the others
    assert dense.fuse(["d"], ["c"], None, 2) == [("c", 1 / 61), ("d", 1 / 61)]
    assert dense.fuse([], ["x", "c"], {"c"}, 5) == [("c", 1 / 62)]
    assert dense.depth(3) == 20 and dense.depth(10) == 40


def test_ingest_writes_one_vector_per_section_in_the_published_encoding(tmp_path, fake):
    corpus = write(tmp_path / "docs", DOCS)
    report = ingest(corpus, tmp_path / "s.sqlite")
    with sqlite3.connect(tmp_path / "s.sqlite") as conn:
        rows = conn.execute("SELECT e.model, e.dim, e.vec, s.heading_path, s.text FROM embeddings e"
                            " JOIN sections s ON s.id = e.section_id").fetchall()
        n_sections = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
        meta = conn.execute("SELECT value FROM meta WHERE key = 'embed_model'").fetchone()[0]
    assert len(rows) == n_sections and meta == SETTING
    from contextpull.models.embed import normalize, to_blob
    from fake_embedder import vector

    for model, dim, vec, heading, text in rows:
        assert model == SETTING and dim == 16
        assert vec == to_blob(normalize(vector(f"{heading}\n{text}")))
    # the page copied into ref/dup.md is embedded once
    assert report.embeddings == {"model": SETTING, "embedded": n_sections - 1, "kept": 1}
    assert "embeddings openai:fake-embed:" in report.summary_lines()[-1]


def test_a_rebuild_embeds_only_changed_sections_and_drops_other_models(tmp_path, fake):
    corpus = write(tmp_path / "docs", DOCS)
    store = tmp_path / "s.sqlite"
    ingest(corpus, store)
    before = vectors(store)
    fake.calls.clear()
    write(corpus, {"guide/install.md": DOCS["guide/install.md"].replace("self update", "upgrade")})
    report = ingest(corpus, store)
    assert len(fake.calls) == 1 and "upgrade command" in fake.calls[0]
    assert report.embeddings["embedded"] == 1
    after = vectors(store)
    assert set(after) == set(before)
    assert [sid for sid in after if after[sid] != before[sid]] == ["guide/install.md#1"]
    fake.calls.clear()
    assert ingest(corpus, store).embeddings == {"model": SETTING, "embedded": 0, "kept": len(after)}
    assert fake.calls == []
    fake.setting = "openai:other"
    assert ingest(corpus, store).embeddings["embedded"] == len(after) - 1
    with sqlite3.connect(store) as conn:
        assert {m for (m,) in conn.execute("SELECT model FROM embeddings")} == {"openai:other"}


def test_hybrid_fuses_and_keeps_the_path_filter(tmp_path, fake):
    store = tmp_path / "s.sqlite"
    ingest(write(tmp_path / "docs", DOCS), store)
    with Store.open(store) as opened:
        ops = Ops(opened, embed_fn=embed_fn)
        result = ops.search("wheels", mode="hybrid", limit=3)
        assert result.mode == "hybrid" and result.hint is None
        assert [h.id for h in result.hits][:2] == ["guide/cache.md#0", "ref/dup.md#0"]
        # a word no section holds: the dense half still answers
        dense_only = ops.search("zzzz installer", mode="hybrid", limit=2)
        assert dense_only.mode == "hybrid" and dense_only.hits
        filtered = ops.search("cache wheels", in_=["ref"], mode="hybrid", limit=5)
        assert filtered.hits and all(h.doc.startswith("ref/") for h in filtered.hits)
        assert ops.search("wheels", mode="lexical").mode == "lexical"


def test_without_vectors_or_model_hybrid_is_lexical_with_a_hint(tmp_path, fake, monkeypatch):
    corpus = write(tmp_path / "docs", DOCS)
    plain = tmp_path / "plain.sqlite"
    engine.ingest(corpus, plain, Settings())
    with Store.open(plain) as opened:
        result = Ops(opened).search("wheels", mode="hybrid")
    assert result.mode == "lexical" and result.hint == HINT_NO_EMBEDDINGS
    store = tmp_path / "s.sqlite"
    ingest(corpus, store)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with Store.open(store) as opened:
        result = Ops(opened).search("wheels", mode="hybrid")
        lexical = Ops(opened).search("wheels")
    assert result.mode == "lexical" and [h.id for h in result.hits] == [h.id for h in lexical.hits]
    assert "OPENAI_API_KEY" in result.hint and SETTING in result.hint and result.hint.endswith("ran lexical")
    with Store.open(store) as opened:
        wrong = Ops(opened, embed_fn=lambda model, texts: [[1.0, 0.0]]).search("wheels", mode="hybrid")
    assert wrong.mode == "lexical" and "2 components, the stored ones 16" in wrong.hint


PEER_DRIVER = r"""
import json, sys
sys.path.insert(0, sys.argv[2])
from fake_vectors import embed_fn
from contextpull.store import Store
from contextpull.ops import Ops
ops = Ops(Store.open(sys.argv[1]), embed_fn=embed_fn)
out = []
for query, in_, limit in json.loads(sys.argv[3]):
    out.append([h.id for h in ops.search(query, in_=in_, limit=limit, mode="hybrid").hits])
print(json.dumps(out))
"""


@pytest.mark.skipif(not PEER_PYTHON.exists(), reason="the published 0.2.1 reader is not installed here")
def test_the_published_reader_returns_the_same_hybrid_ids(tmp_path, fake):
    """Same store, same fake embedder: our ids are the published reader's (its lexical passes
    agree with ours on this corpus, so any difference would be the fusion's)."""
    store = tmp_path / "s.sqlite"
    ingest(write(tmp_path / "docs", DOCS), store)
    cases = [[q, in_, limit] for q in QUERIES for in_ in (None, ["guide"]) for limit in (1, 3, 10)]
    proc = subprocess.run(
        [str(PEER_PYTHON), "-I", "-c", PEER_DRIVER, str(store), str(Path(__file__).parent), json.dumps(cases)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    theirs = json.loads(proc.stdout)
    with Store.open(store) as opened:
        ops = Ops(opened, embed_fn=embed_fn)
        ours = [[h.id for h in ops.search(q, in_=in_, limit=limit, mode="hybrid").hits] for q, in_, limit in cases]
    assert ours == theirs


def test_the_artifact_build_carries_vectors_from_the_cache(tmp_path, fake, monkeypatch):
    docs = fixture_corpus(tmp_path / "docs")
    first, _ = quiet_build(docs, tmp_path / "out1", settings=Settings(embed_model=SETTING))
    embedded = first.embeddings["embedded"]
    assert embedded > 0 and first.manifest["settings"]["embed_model"] == SETTING
    store1 = tmp_path / "out1" / "store.sqlite"
    n_sections = first.manifest["counts"]["sections"]
    assert len(vectors(store1)) == n_sections
    # one document changes: only its sections are embedded, the rest come from the cache
    name = sorted(p for p in docs.rglob("*.md"))[0]
    name.write_text(name.read_text() + "\n\nA new closing paragraph about something else entirely.\n")
    fake.calls.clear()
    second, _ = quiet_build(docs, tmp_path / "out2", cache=store1, settings=Settings(embed_model=SETTING))
    assert 0 < second.embeddings["embedded"] <= 2 and len(fake.calls) == second.embeddings["embedded"]
    # and the bytes are a fresh build's
    fresh, _ = quiet_build(docs, tmp_path / "out3", settings=Settings(embed_model=SETTING))
    assert second.manifest["store"]["sha256"] == fresh.manifest["store"]["sha256"]
    # nothing changed: the cache is the artifact, and no section is embedded
    fake.calls.clear()
    again, _ = quiet_build(docs, tmp_path / "out5", cache=tmp_path / "out3" / "store.sqlite",
                           settings=Settings(embed_model=SETTING))
    assert again.reuse == "whole" and again.embeddings == {"model": SETTING, "embedded": 0, "kept": n_sections}
    assert fake.calls == []
    # the default build records no embedding setting and writes no vectors
    plain, _ = quiet_build(docs, tmp_path / "out4")
    assert "embed_model" not in plain.manifest["settings"] and "embeddings" not in plain.to_dict()
    assert vectors(tmp_path / "out4" / "store.sqlite") == {}
