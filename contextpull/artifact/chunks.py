"""How a build groups documents into chunks, and the section rowids each chunk owns.

Why (issue 4, item 4): a chunk is the unit a cache-assisted build re-indexes (``segments.py``),
so both its membership and its rowids must depend on as little of the corpus as possible.

- Membership is content-defined: documents go in path order, and a document starts a new chunk
  when a hash of its path falls below its share of ``CHUNK_BYTES`` (a 16 KiB file starts one
  with odds 1 in 512 at 8 MiB), so chunks hold about ``CHUNK_BYTES`` of sources on average.
  The decision for a document depends on that document alone: editing it can at most join or
  split its own chunk and the one before, adding or removing one changes only its own chunk.
  Cutting after a fixed count or size would shift every later chunk (tried: one shrunken
  document re-indexed every chunk after it). Memory does not depend on chunk size: a chunk is
  indexed in parts of ``PART_BYTES`` (``assemble.py``).
- Rowids are ``key << 32 | n``: ``key`` comes from the chunk's first path, ``n`` counts the
  chunk's sections from 1 in path and ordinal order. So a chunk's rowids, which FTS5 writes into
  its segment, do not move when a document elsewhere gains or loses a section. Within a chunk a
  document's sections stay contiguous, which is what the reader's filtered search relies on
  (``ranking.py``); nothing in store-format.txt gives rowids any other meaning.

A key that collides with an earlier chunk's is bumped to the next free one, in chunk order, so
keys are a function of the list of paths alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

# Sources per chunk, on average. An edit re-indexes its chunk, and an edited document falls in a
# large chunk more often than in a small one (sizes are exponential; the expected share is about
# twice the mean), so this decides a one-edit build: 16 MiB re-indexed 22% of the synthetic
# corpus on average, 8 MiB 11%. Each chunk is a segment reads visit: 8 MiB made literal grep
# 0.8 -> 3 ms there and search no slower within noise (benchmarks/README.md).
CHUNK_BYTES = 8 << 20
# A chunk is indexed in parts of about this many source bytes, each committed (so FTS5's pending
# terms, which live in memory, stay bounded) and then merged into the chunk's one segment. Fewer,
# larger chunks keep the segment count low, which is what reads pay for (benchmarks/README.md).
PART_BYTES = 4 << 20
KEY_BITS = 28
ROW_BITS = 32


def _starts(path: str, size: int) -> bool:
    digest = hashlib.sha256(path.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") * CHUNK_BYTES < size << 32


class Chunker:
    """Says, document by document in path order, where a new chunk starts."""

    def __init__(self):
        self._first = True

    def starts(self, path: str, size: int) -> bool:
        new, self._first = self._first or _starts(path, size), False
        return new


def _natural_key(path: str) -> int:
    digest = hashlib.sha256(b"chunk-key\x00" + path.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % (1 << KEY_BITS) + 1


class Keys:
    """Chunk keys in chunk order, each unique."""

    def __init__(self):
        self._used: set[int] = set()

    def take(self, first_path: str) -> int:
        key = _natural_key(first_path)
        while key in self._used:
            key = key % (1 << KEY_BITS) + 1
        self._used.add(key)
        return key


def first_rowid(key: int) -> int:
    return (key << ROW_BITS) + 1


def rowid_range(key: int) -> tuple[int, int]:
    """The rowids a chunk may use, inclusive."""
    return key << ROW_BITS, ((key + 1) << ROW_BITS) - 1


def plan(documents: Iterable[tuple[str, int]]) -> list[tuple[int, list[str]]]:
    """(key, paths) of every chunk of these (path, bytes), which must be in path order."""
    chunks: list[tuple[int, list[str]]] = []
    keys, chunker = Keys(), Chunker()
    for path, size in documents:
        if chunker.starts(path, size):
            chunks.append((keys.take(path), []))
        chunks[-1][1].append(path)
    return chunks
