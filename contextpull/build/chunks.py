"""How a build groups documents into chunks, and the section rowids each chunk owns.

Why (issue 4, item 4): a chunk is the unit a cache-assisted build re-indexes (``segments.py``),
so both its membership and its rowids must depend on as little of the corpus as possible.

- Membership is content-defined: documents go in path order, and a document starts a new chunk
  when a hash of its path says so (one path in ``CHUNK_ODDS``), or when the chunk already holds
  ``CHUNK_MAX_BYTES`` of source files, which bounds the memory a chunk takes while it is indexed.
  Editing a document changes no chunk's membership unless it moves a size cut, and then only
  until the next path boundary; adding or removing a document changes only its own chunk (or,
  for a boundary path, two neighbours). Position-based grouping (every N documents) would shift
  every later chunk.
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

CHUNK_ODDS = 512  # path boundaries: about one in 512 documents
CHUNK_MAX_BYTES = 4 << 20  # size cuts: at most 4 MiB of source files (plus the last document)
KEY_BITS = 28
ROW_BITS = 32


def path_boundary(path: str) -> bool:
    digest = hashlib.sha256(path.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % CHUNK_ODDS == 0


class Chunker:
    """Says, document by document in path order, where a new chunk starts."""

    def __init__(self):
        self._bytes = -1  # source bytes in the current chunk; -1 before the first document

    def starts(self, path: str, size: int) -> bool:
        new = self._bytes < 0 or self._bytes >= CHUNK_MAX_BYTES or path_boundary(path)
        self._bytes = (0 if new else self._bytes) + size
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
