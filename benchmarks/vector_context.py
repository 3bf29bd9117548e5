"""Would a section's vector find its page more often with its page's context in it? (issue 38,
"find out why on the misses and fix what the builder controls").

A question often names what a page is about, not what its one answering section says ("What
are the core principles Redux is based on?" against a section that lists them). A common remedy
is to give each section's vector some of its page's: here ``unit(v + beta * unit(mean of the
page's section vectors))``, which needs no second model call. This script tries it on the stores
``recall_sites.py`` built (``--work``), without building again: for each site and each ``beta``
it copies the model's store, rewrites the ``embeddings`` rows, and asks the questions as
``recall_sites.py`` does (hybrid, the published fusion). beta 0 is the stores as built.

    .venv/bin/python benchmarks/recall_sites.py --corpora /work/corpora/sites --models local:minilm --work /tmp/rs
    .venv/bin/python benchmarks/vector_context.py --work /tmp/rs --model local:minilm --betas 0,0.2,0.4,0.7

Needs numpy (the ``embed-local`` extra) and the model itself, for the queries.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recall_sites  # noqa: E402

from contextpull.search.dense import to_blob  # noqa: E402

SITES = [name for name, *_ in recall_sites.REPOSITORIES[:6]] + ["uv"]


def questions(site: str) -> list[dict]:
    return recall_sites.load_questions(recall_sites.UV_QUESTIONS if site == "uv" else recall_sites.QUESTIONS / f"{site}.jsonl")


def with_context(store: Path, beta: float, copy: Path) -> Path:
    """``store`` copied to ``copy`` with each vector given ``beta`` of its page's mean direction."""
    shutil.copyfile(store, copy)
    conn = sqlite3.connect(copy)
    try:
        rows = conn.execute(
            "SELECT s.id, s.doc_id, e.vec FROM sections s JOIN embeddings e ON e.section_id = s.id ORDER BY s.id"
        ).fetchall()
        vectors = np.stack([np.frombuffer(vec, dtype="<f4") for _, _, vec in rows]).astype(np.float64)
        docs = np.array([doc for _, doc, _ in rows])
        page = np.zeros_like(vectors)
        for doc in np.unique(docs):
            mine = docs == doc
            mean = vectors[mine].mean(axis=0)
            page[mine] = mean / max(np.linalg.norm(mean), 1e-12)
        mixed = vectors + beta * page
        mixed /= np.maximum(np.linalg.norm(mixed, axis=1, keepdims=True), 1e-12)
        conn.executemany(
            "UPDATE embeddings SET vec = ? WHERE section_id = ?",
            [(to_blob(vector.astype(np.float32).tolist()), sid) for vector, (sid, _, _) in zip(mixed, rows)],
        )
        conn.commit()
    finally:
        conn.close()
    return copy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, required=True, help="recall_sites.py's --work folder")
    parser.add_argument("--model", default="local:minilm-static")
    parser.add_argument("--betas", default="0,0.2,0.4,0.7")
    args = parser.parse_args(argv)
    betas = [float(b) for b in args.betas.split(",")]
    tag = args.model.replace(":", "-")
    print(f"{args.model}: recall@5 / MRR@10 (uv: pages, then sections)")
    print("beta  " + "  ".join(f"{site:>13}" for site in SITES) + "  mean of six  min")
    with tempfile.TemporaryDirectory() as tmp:
        for beta in betas:
            cells, six = [], []
            for site in SITES:
                store = args.work / site / tag / "store.sqlite"
                if not store.is_file():
                    raise SystemExit(f"{store}: not built (run recall_sites.py --models {args.model} --work {args.work})")
                asked = questions(site)
                copy = with_context(store, beta, Path(tmp) / f"{site}.sqlite") if beta else store
                row = recall_sites.score(asked, recall_sites.ask(copy, asked, "hybrid"))
                cells.append(f"{row['recall5']:.3f}/{row['mrr10']:.3f}" + (f" {row['section_recall5']:.3f}" if site == "uv" else ""))
                if site != "uv":
                    six.append(row["recall5"])
            print(f"{beta:<5} " + "  ".join(f"{cell:>13}" for cell in cells) + f"  {np.mean(six):.3f}  {min(six):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
