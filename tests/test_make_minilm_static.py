"""``benchmarks/make_minilm_static.py`` stays able to make the committed static table, checked
without MiniLM (whose paragraph vectors take ten minutes): the teacher's paragraphs are cut
from an unpadded tokenizer and the piece counts from one padded to 128 pieces, as the committed
table was made; a teacher cache written from other paragraphs is refused; and the steps after
the teacher (the fit, the principal axes, the SIF weights, the int8 rows) give the same bytes
twice and rows that stand for what they were made from. No digest of those steps is pinned
here: they run through the platform's BLAS and LAPACK, whose last bits a numpy upgrade may move,
and a test must not fail for the machine it runs on. The whole table is checked, bytes and all,
by ``make_minilm_static.py --msdocs DIR --check``. Skipped without numpy and tokenizers; the fit's
tests also without scipy, which only the generator needs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("tokenizers")

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "make_minilm_static.py"


@pytest.fixture(scope="module")
def gen():
    spec = importlib.util.spec_from_file_location("make_minilm_static", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tiny_fit_input():
    rng = np.random.default_rng(38)
    raw = rng.standard_normal((300, 384)).astype(np.float32)
    pieces = [rng.integers(0, 200, rng.integers(3, 40)).tolist() for _ in range(60)]
    targets = rng.standard_normal((60, 384)).astype(np.float32)
    counts = rng.integers(0, 1000, 300)
    return raw, pieces, targets, counts


def test_a_teacher_paragraph_is_its_own_pieces_never_padding(gen):
    tokenizer = gen.tokenizer(padded=False)
    text = "Use the /GS compiler option to detect some buffer overruns."
    pieces = gen.paragraph_pieces(tokenizer, text)
    assert 0 not in pieces  # [PAD]
    assert 5 < len(pieces) < 30
    assert pieces == tokenizer.encode(text, add_special_tokens=False).ids
    assert len(gen.paragraph_pieces(tokenizer, "driver " * 300)) == gen.TEACHER_PIECES == 126
    with pytest.raises(ValueError, match="unpadded"):
        gen.paragraph_pieces(gen.tokenizer(padded=True), text)


def test_piece_counts_are_taken_with_padding_to_128(gen, tmp_path):
    (tmp_path / "repo" / "docs").mkdir(parents=True)
    text = "Use the /GS compiler option to detect some buffer overruns."
    (tmp_path / "repo" / "docs" / "gs.md").write_text(text, encoding="utf-8")
    tokenizer = gen.tokenizer(padded=True)
    vocab = tokenizer.get_vocab_size()
    counts = gen.piece_counts(tokenizer, tmp_path, vocab)
    own = gen.tokenizer(padded=False).encode(text, add_special_tokens=False).ids
    assert counts.sum() == 128
    assert counts[0] == 128 - len(own)


def test_a_teacher_cache_from_other_paragraphs_is_refused(gen, tmp_path):
    pieces = [[1996, 3332], [7592]]
    assert gen.cached_teacher(tmp_path, pieces) is None
    vectors = np.arange(2 * 384, dtype=np.float32).reshape(2, 384)
    np.save(tmp_path / "teacher_y.npy", vectors)
    np.save(tmp_path / "teacher_ids.npy", np.array([np.array(p, dtype=np.int32) for p in pieces], dtype=object),
            allow_pickle=True)
    assert np.array_equal(gen.cached_teacher(tmp_path, pieces), vectors)
    padded = [[1996, 3332, 0, 0], [7592, 0, 0, 0]]  # the same paragraphs cut from a padded tokenizer
    with pytest.raises(gen.StaleCache, match="not the 2 this script cuts"):
        gen.cached_teacher(tmp_path, padded)


def test_the_steps_after_the_fit_give_the_same_bytes_twice(gen):
    rng = np.random.default_rng(38)
    fitted = rng.standard_normal((300, 384)).astype(np.float32)
    counts = rng.integers(0, 1000, 300)
    first = gen.quantise(fitted, counts)
    second = gen.quantise(fitted.copy(), counts.copy())
    assert first[0].dtype == np.int8 and first[0].shape == (300, gen.DIMS)
    assert first[1].dtype == np.uint8 and first[1].min() >= 1
    assert gen.npy_bytes(first[0]) == gen.npy_bytes(second[0])
    assert gen.npy_bytes(first[1]) == gen.npy_bytes(second[1])
    # each stored row points where its weighted principal-axis row points (the int8 rounding
    # aside), and the multipliers span the rows' peaks, the largest at 255
    table, multiplier = first
    centred = fitted.astype(np.float64) - fitted.mean(0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    p = (counts + 1) / counts.sum()
    rows = (centred @ axes[gen.DROPPED_AXES:gen.DROPPED_AXES + gen.DIMS].T) * (gen.SIF_A / (gen.SIF_A + p))[:, None]
    stored = table.astype(np.float64) * multiplier[:, None]
    cosine = (stored * rows).sum(1) / (np.linalg.norm(stored, axis=1) * np.linalg.norm(rows, axis=1))
    assert cosine.min() > 0.99
    assert multiplier.max() == 255


def test_the_fit_gives_the_same_bytes_twice_and_leaves_unused_pieces_raw(gen):
    pytest.importorskip("scipy")
    raw, pieces, targets, counts = _tiny_fit_input()
    first = gen.fit(raw, pieces, targets)
    second = gen.fit(raw.copy(), [list(p) for p in pieces], targets.copy())
    assert gen.npy_bytes(first) == gen.npy_bytes(second)
    # a piece no paragraph uses keeps its raw row, scaled like all rows
    scale = np.linalg.norm(np.array([raw[p].astype(np.float64).mean(0) for p in pieces]), axis=1).mean()
    used = np.unique(np.concatenate(pieces))
    unused = np.setdiff1d(np.arange(300), used)
    assert len(unused) >= 100
    assert np.allclose(first[unused], raw[unused] / scale, rtol=1e-6, atol=0)
    moved = ~np.isclose(first[used], (raw[used].astype(np.float64) / scale).astype(np.float32)).all(axis=1)
    assert moved.all()
    # the fit moves the used rows towards the targets: paragraphs' means come nearer them
    def error(table):
        means = np.array([table[p].astype(np.float64).mean(0) for p in pieces])
        return np.linalg.norm(means - targets / np.linalg.norm(targets, axis=1, keepdims=True), axis=1).mean()
    assert error(first) < error(raw / scale)


def test_a_msdocs_folder_that_is_missing_or_holds_no_markdown_is_named(tmp_path):
    import subprocess
    import sys

    (tmp_path / "empty" / "repo").mkdir(parents=True)
    for folder, why in ((tmp_path / "missing", "not a folder"), (tmp_path / "empty", "no Markdown files")):
        done = subprocess.run([sys.executable, str(SCRIPT), "--msdocs", str(folder), "--check"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2
        assert f"--msdocs {folder}: {why}" in done.stderr
