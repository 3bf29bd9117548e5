"""``local:minilm-static`` (contextpull/models/embed_static.py): the shipped table loads with no
network, a vector is the normalised integer sum of its word pieces' rows, texts are cut at
MAX_PIECES, and a damaged table is one clear error naming the file. Skipped cleanly without
numpy and tokenizers (the embed-local extra)."""

from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("tokenizers")

from contextpull.models import embed_static, embedders  # noqa: E402
from contextpull.models.embed import EmbedUnavailable  # noqa: E402


@pytest.fixture(scope="module")
def model():
    return embed_static.MiniLMStatic()


def _cos(a, b):
    return math.fsum(x * y for x, y in zip(a, b))


def test_the_setting_is_a_local_model_of_its_own():
    assert embedders.check("local:minilm-static", {}).text == "local:minilm-static"
    assert embedders.load("local:minilm-static", {}).setting == "local:minilm-static"


def test_a_vector_is_the_sum_of_its_pieces_rows(model):
    text = "Caching\nuv keeps a global cache of downloaded wheels"
    ids = model.tokenizer.encode(text, add_special_tokens=False).ids
    table = np.load(embed_static.TABLE).astype(np.int64) * np.load(embed_static.MULTIPLIER).astype(np.int64)[:, None]
    expected = table[ids].sum(axis=0)
    expected = expected / np.sqrt((expected.astype(np.float64) ** 2).sum())
    (got,) = model.embed_documents([text])
    assert len(got) == table.shape[1]
    assert np.allclose(got, expected, atol=1e-12)


def test_related_texts_are_nearer_than_unrelated_ones(model):
    query, install, weather = model.embed_documents([
        "how do I install a python version",
        "Installing Python\nuv python install downloads and installs a managed interpreter.",
        "Weather\nrain and wind over the hills tomorrow",
    ])
    assert _cos(query, install) > _cos(query, weather) + 0.1


def test_a_text_past_the_cut_is_its_first_pieces(model):
    head = "resolver " * embed_static.MAX_PIECES
    (cut,) = model.embed_documents([head.strip()])
    (longer,) = model.embed_documents([head + "a completely different tail about weather and rain " * 50])
    assert cut == longer


def test_an_empty_text_still_has_a_unit_vector(model):
    empty, blank = model.embed_documents(["", "   \n"])
    assert empty == blank
    assert abs(math.fsum(x * x for x in empty) - 1.0) < 1e-12


def test_a_damaged_table_names_the_file(tmp_path):
    bad = tmp_path / "table.npy"
    data = bytearray(embed_static.TABLE.read_bytes())
    data[-1] ^= 1  # one bit of one weight
    bad.write_bytes(bytes(data))
    with pytest.raises(EmbedUnavailable, match="table.npy and multiplier.npy are not the table this release names"):
        embed_static.MiniLMStatic(table=bad)
    garbage = tmp_path / "garbage.npy"
    garbage.write_bytes(b"not a numpy file")
    with pytest.raises(EmbedUnavailable, match="local:minilm-static could not be loaded"):
        embed_static.MiniLMStatic(table=garbage)
