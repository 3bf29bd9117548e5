"""Section vectors into ``embeddings``, cached by section content (store-format "Search" step 8).

Why a content cache: embedding costs far more than the rest of a build (31-40 ms a section
with the local MiniLM), and a document edit rewrites all of its sections. A vector is a function
of its model and of ``heading_path + "\\n" + text`` only, so ``known_vectors`` reads what a store
already holds (the store in place before an ingest, or a build's ``--cache``) keyed by the sha256
of that input, and ``write_vectors`` embeds only sections whose input is new; sections that
repeat (the same page in several folders) are embedded once.

Rows are written in section id order into the table as it stands (a build's is empty), so a
build that took vectors from a cache writes the same bytes as one that computed them all.
The embedder is ``contextpull.models.embed.Embedder``; nothing here knows a provider.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..search.dense import section_text, to_blob

if TYPE_CHECKING:  # pragma: no cover - the model room loads only when a build embeds
    from ..models.embed import Embedder

META_KEY = "embed_model"  # the published writer's meta key


@dataclass
class VectorCounts:
    """For the report: sections embedded now, and sections whose vector was kept or reused."""

    model: str
    embedded: int = 0
    kept: int = 0

    def to_dict(self) -> dict:
        return {"model": self.model, "embedded": self.embedded, "kept": self.kept}


def content_key(heading_path: str, text: str) -> bytes:
    return hashlib.sha256(section_text(heading_path, text).encode("utf-8")).digest()


def known_vectors(conn: sqlite3.Connection, model: str) -> dict[bytes, bytes]:
    """content key -> stored vector, for the vectors of ``model`` in a store."""
    try:
        rows = conn.execute(
            "SELECT s.heading_path, s.text, e.vec FROM embeddings e JOIN sections s ON s.id = e.section_id"
            " WHERE e.model = ?",
            (model,),
        )
        return {content_key(heading, text): vec for heading, text, vec in rows}
    except sqlite3.Error:  # a store without the table, or unreadable: nothing to reuse
        return {}


def write_vectors(
    conn: sqlite3.Connection,
    embedder: Embedder,
    known: dict[bytes, bytes] | None = None,
) -> VectorCounts:
    """Give every section a vector of ``embedder``'s model; vectors of another model go."""
    model = embedder.setting
    counts = VectorCounts(model)
    conn.execute("DELETE FROM embeddings WHERE model != ?", (model,))
    missing = conn.execute(
        "SELECT s.id, s.heading_path, s.text FROM sections s"
        " LEFT JOIN embeddings e ON e.section_id = s.id WHERE e.section_id IS NULL ORDER BY s.id"
    ).fetchall()
    cache = dict(known or {})
    step = max(1, embedder.batch)  # a hosted model's whole request, not a fixed 32 (Embedder.batch)
    for start in range(0, len(missing), step):
        rows = missing[start:start + step]
        keys = [content_key(heading, text) for _, heading, text in rows]
        new: dict[bytes, str] = {}
        for key, (_, heading, text) in zip(keys, rows):
            if key not in cache and key not in new:
                new[key] = section_text(heading, text)
        if new:
            vectors = embedder.embed_documents(list(new.values()))
            for key, vector in zip(new, vectors):
                cache[key] = to_blob(vector)
            counts.embedded += len(new)
        conn.executemany(
            "INSERT INTO embeddings (section_id, model, dim, vec) VALUES (?, ?, ?, ?)",
            [(sid, model, len(cache[key]) // 4, cache[key]) for key, (sid, _, _) in zip(keys, rows)],
        )
    counts.kept = conn.execute("SELECT count(*) FROM embeddings").fetchone()[0] - counts.embedded
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (META_KEY, model),
    )
    return counts
