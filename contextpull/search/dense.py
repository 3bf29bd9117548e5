"""Hybrid search's dense half and the fusion (store-format.txt "Search" step 8; supplement.md
``embed_model``): cosine over every stored vector, then reciprocal rank fusion with the lexical
hits.

The published 0.2.1 reader is the reference, and two readers must return identical ids, so its
rules are followed exactly:

- the dense ranking is the ``max(4 x limit, 20)`` best vectors of the whole store by cosine,
  then id; the ``in`` filter then drops the ones outside it, the others keeping their ranks;
- each list adds ``1 / (60 + rank)`` (ranks from 1) to an id's score; ids are ordered by score,
  then id, and the first ``limit`` are the answer;
- a cosine is ``math.fsum`` of the float32 components (as doubles) times the query's.

Standard library only; with numpy present (the ``embed-local`` extra brings it) a float32
matrix product picks the candidates and only those within a safe margin of the cut are scored
exactly, so the order is the exact one at a fraction of the cost (38k vectors: milliseconds
instead of about a second).
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
import struct
import sys
from array import array
from collections.abc import Sequence

from ..errors import ContextPullError, StoreError

RRF_K = 60
HINT_NO_EMBEDDINGS = "no embeddings in store; ran lexical"  # the published words for store-format "Search" step 8
MIN_DEPTH = 20
# A query longer than this is embedded on its first characters only, with a hint: a model's cost
# and a hosted model's input limit grow with its text, and 64 words (ops.QUERY_MAX_WORDS, the
# lexical cap) fit in far fewer; a 100,000-character word passes that cap.
QUERY_EMBED_CHARS = 2000
# A float32 dot product of unit vectors of a few thousand components is within about 1e-4 of
# the exact one; candidates within this of the cut are all scored exactly.
_MARGIN = 1e-3


def section_text(heading_path: str, text: str) -> str:
    """What a section's vector is computed from (the published writer's input)."""
    return f"{heading_path}\n{text}"


def to_blob(vector: Sequence[float]) -> bytes:
    """A vector as the store holds it: float32 little-endian, whatever the machine's byte order."""
    return struct.pack(f"<{len(vector)}f", *vector)


def from_blob(blob: bytes) -> array:
    if len(blob) % 4:
        raise StoreError(f"a stored vector of {len(blob)} bytes is not float32: the store is damaged")
    values = array("f")
    values.frombytes(blob)
    if sys.byteorder == "big":
        values.byteswap()
    return values


def _readable(blob) -> array | None:
    """A stored vector, or None when the row is not one (not bytes, not float32, empty, not finite)."""
    if not isinstance(blob, bytes) or not blob or len(blob) % 4:
        return None
    vector = from_blob(blob)
    try:
        total = math.fsum(vector)  # at C speed; any inf or nan makes the sum one (or raises)
    except (ValueError, OverflowError):
        return None
    return vector if math.isfinite(total) else None


def depth(limit: int) -> int:
    return max(4 * limit, MIN_DEPTH)


def _exact(vector, query: Sequence[float]) -> float:
    return math.fsum(x * y for x, y in zip(vector, query))


class Vectors:
    """The vectors of one store, read on the first hybrid search. A row that is not a vector of
    the store's length (its rows' most common), or holds a value that is not finite, is left out and
    named in ``damaged``: one damaged row costs that section its dense rank, not the search."""

    def __init__(self, conn: sqlite3.Connection):
        rows = conn.execute("SELECT section_id, model, vec FROM embeddings ORDER BY rowid").fetchall()
        self.model: str | None = rows[0][1] if rows else None
        self.ids: list[str] = []
        self.vectors: list[array] = []
        self.damaged: list[str] = []
        read = [(sid, blob, _readable(blob)) for sid, _model, blob in rows]
        lengths = Counter(len(vector) for _, _, vector in read if vector is not None)
        # the store's length is its rows' most common one (the longer on a tie, never a row of 1)
        self.dim = max(lengths, key=lambda n: (lengths[n], n)) if lengths else 0
        blobs = []
        for sid, blob, vector in read:
            if vector is None or len(vector) != self.dim:
                self.damaged.append(sid)
                continue
            self.ids.append(sid)
            self.vectors.append(vector)
            blobs.append(blob)
        self._matrix = None
        try:
            import numpy
        except ImportError:
            numpy = None
        if numpy is not None and blobs:
            self._np = numpy
            self._matrix = numpy.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), self.dim)

    def __bool__(self) -> bool:
        return bool(self.ids)

    def nearest(self, query: Sequence[float], count: int) -> list[str]:
        """The ``count`` best ids by cosine, then id."""
        candidates = range(len(self.ids))
        if self._matrix is not None and len(query) == self._matrix.shape[1] and len(self.ids) > count:
            np = self._np
            rough = self._matrix @ np.asarray(query, dtype=np.float32)
            cut = np.partition(rough, len(rough) - count)[len(rough) - count]
            candidates = np.flatnonzero(rough >= cut - _MARGIN).tolist()
        scored = sorted(((-_exact(self.vectors[i], query), self.ids[i]) for i in candidates))
        return [sid for _, sid in scored[:count]]


def fuse(lexical: Sequence[str], dense: Sequence[str], allowed, limit: int) -> list[tuple[str, float]]:
    """(id, fused score) of the best ``limit``; ``allowed`` (a container of ids, or None) is the
    ``in`` filter applied to the dense ranking (the lexical hits are already filtered)."""
    scores: dict[str, float] = {}
    for rank, sid in enumerate(lexical, 1):
        scores[sid] = scores.get(sid, 0.0) + 1.0 / (RRF_K + rank)
    for rank, sid in enumerate(dense, 1):
        if allowed is None or sid in allowed:
            scores[sid] = scores.get(sid, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]


def query_vector(vectors: "Vectors", query: str, embed, hints: list[str]):
    """store-format "Search" step 8: the query embedded with the store's model by
    ``embed(model, texts)``, or None with a hint saying why the search runs lexical (no vectors;
    a model this process cannot run; a vector of the wrong length). Damaged rows and a query cut
    for embedding are said in a hint too; the search stays hybrid."""
    if not vectors:
        if vectors.damaged:
            hints.append(f"all {len(vectors.damaged)} stored vectors are damaged (first: {vectors.damaged[0]}); ran lexical;"
                         " rebuild the store to restore them")
        else:
            hints.append(HINT_NO_EMBEDDINGS)
        return None
    model = vectors.model
    if vectors.damaged:
        hints.append(f"{len(vectors.damaged)} stored vectors are damaged and were left out (first: {vectors.damaged[0]});"
                     " rebuild the store to restore them")
    if len(query) > QUERY_EMBED_CHARS:
        hints.append(f"the query's first {QUERY_EMBED_CHARS} of {len(query)} characters were embedded")
        query = query[:QUERY_EMBED_CHARS]
    try:
        vector = list(embed(model, [query])[0])
    except ContextPullError as exc:
        hint = f"hybrid search needs the store's embedding model {model}: {exc.message}"
        if exc.suggestion:
            hint += f" ({exc.suggestion})"
        hints.append(hint + "; ran lexical")
        return None
    if len(vector) != vectors.dim:
        hints.append(f"the query vector of {model} has {len(vector)} components, the stored ones {vectors.dim}; ran lexical")
        return None
    return vector
