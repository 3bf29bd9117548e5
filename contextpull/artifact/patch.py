"""A cache-assisted build that starts from a copy of the cache instead of an empty file.

Why (issue 4, item 4: "the work done is proportional to the changed documents"): copying each
unchanged chunk's rows and segment pages into an empty build file with SQL cost about 1.5 s of a
5,000-document one-edit build, a second full copy of the store before ``VACUUM INTO`` made the
first. When the cache's chunks keep their positions, the build file is instead a byte copy of the
cache (the kernel copies it), and only what changed is rewritten in it:

- ``meta`` and ``documents`` are emptied and written again as a fresh build writes them, in the
  same order, so their rows and rowids are the fresh build's;
- an unchanged chunk stays where it is (its documents' ``doc_id`` shifted if documents before it
  came or went);
- a chunk to index loses the segment at its position and its ``%_docsize`` rows (the index
  threads write the chunk's again). Within it, an unchanged document whose sections still take
  the rowids they had keeps its rows; every other document's rowid range is emptied before its
  rows are inserted, and whatever the cache held past the chunk's last rowid is removed;
- at the end, chunks of the cache no longer in the corpus and segments past the last position
  are removed, and the FTS5 records are written as in every build (``segments.write_records``),
  with the averages record's totals taken from the cache's minus the ``%_docsize`` rows removed.

The build file then holds exactly the rows a fresh build leaves, and ``VACUUM INTO`` turns them
into the same bytes (tests compare them). Should a kept chunk have moved to another position, the
segments would have to be renumbered in place; that case raises ``PatchAborted`` and the build
starts again, copying chunk by chunk (``assemble.py``).
"""

from __future__ import annotations

import sqlite3

from . import chunks

from ..indexing import segments

from ..indexing import trigram

WORD_TABLE = "sections_fts"
INDEXES = (WORD_TABLE, trigram.TABLE)
# Rows keyed by section rowid that an unchanged document keeps; %_docsize rows are rewritten by
# the index threads for every indexed chunk.
_ROW_TABLES = (("sections", "rowid"), (f"{WORD_TABLE}_content", "id"))
# Tables a build writes whole at its end (``build_job``): the vectors, in section id order, taking
# the cache's where the content is the same, and summary_cache, carried from the cache by a build
# with a model summarizer. A copy starts with them empty, so their rowids start at 1 as in a
# fresh file.
_REWRITTEN_TABLES = ("embeddings", "summary_cache")


class PatchAborted(Exception):
    """The cache's layout cannot be patched into this build's; copy chunk by chunk instead."""


class Patch:
    """What is left to remove from a copy of the cache, as this build's chunks arrive in order.

    ``plan`` is the cache's chunk plan (``BuildCache.plan``): key -> (position, [(path, sha256)],
    first doc_id); ``section_count(path)`` is a cached document's section count.
    """

    def __init__(self, plan: dict[int, tuple[int, list, int]], section_count):
        self._position_of = {key: found[0] for key, found in plan.items()}
        self._key_at = {found[0]: key for key, found in plan.items()}
        self._settled: set[int] = set()  # cache keys whose rowid range holds this build's rows now
        self._negated = False  # rows of documents still to come carry -doc_id (note_document)
        self._rows_of: dict[str, tuple[int, int, int]] = {}  # path -> (key, first rowid, sections) in the cache
        for key, (_, documents, _) in plan.items():
            rowid = chunks.first_rowid(key)
            for path, _ in documents:
                n_sections = section_count(path)
                self._rows_of[path] = (key, rowid, n_sections)
                rowid += n_sections
        # The kept rows' FTS5 totals: the cache's, less every %_docsize row removed.
        self.totals = {table: segments.Totals() for table in INDEXES}

    def begin(self, conn: sqlite3.Connection, first_meta) -> None:
        """Empty what every build writes whole; ``first_meta(conn)`` writes a new store's meta."""
        for table in INDEXES:
            self.totals[table].add(*segments.averages(conn, f"main.{table}"))
        conn.commit()
        # sections reference documents ON DELETE CASCADE: the documents go, their sections stay.
        # Off for the rest of the patch too: kept sections point at documents written again
        # later, and doc_ids pass through negative values (``note_document``). What the checks
        # would have caught is checked at the end (``finish``) and by FTS5 and ``verify`` in tests.
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("DELETE FROM meta")
        conn.execute("DELETE FROM documents")
        for table in _REWRITTEN_TABLES:
            conn.execute(f"DELETE FROM {table}")
        first_meta(conn)
        conn.commit()

    # -- doc_ids -------------------------------------------------------------------------------
    def note_document(self, conn: sqlite3.Connection, doc_id: int, cache_doc_id: int | None) -> None:
        """Document ``doc_id`` is next (``cache_doc_id``: its id in the cache, None if new).

        Until a document's doc_id differs from the cache's, every kept row already has its
        final doc_id. From the first that differs on, the rows still to come would collide with
        new ones on ``UNIQUE (doc_id, ordinal)``, so they all move to negative doc_ids at once,
        and each kept document or chunk takes its final doc_id from there (``final_doc_ids``).
        """
        if not self._negated and cache_doc_id != doc_id:
            conn.execute("UPDATE sections SET doc_id = -doc_id WHERE doc_id >= ?", (doc_id,))
            self._negated = True

    def final_doc_ids(self, conn: sqlite3.Connection, first: int, last: int, shift: int) -> None:
        """Kept rows ``first..last``: cache doc_id + ``shift`` is their doc_id now."""
        if self._negated:
            conn.execute("UPDATE sections SET doc_id = ? - doc_id WHERE rowid BETWEEN ? AND ?", (shift, first, last))

    # -- whole chunks -------------------------------------------------------------------------
    def keep(self, conn: sqlite3.Connection, key: int, position: int, cache_position: int, doc_shift: int) -> int:
        """An unchanged chunk: its rows stay, with doc_ids moved by ``doc_shift``.
        Returns how many sections it holds, for the caller to check."""
        if cache_position != position:
            raise PatchAborted(f"chunk {key:#x} moved from position {cache_position} to {position}")
        self._settled.add(key)
        lo, hi = chunks.rowid_range(key)
        self.final_doc_ids(conn, lo, hi, doc_shift)
        return conn.execute(f"SELECT count(*) FROM {WORD_TABLE}_docsize WHERE id BETWEEN ? AND ?", (lo, hi)).fetchone()[0]

    def begin_chunk(self, conn: sqlite3.Connection, key: int, position: int) -> None:
        """A chunk about to be indexed: the segment at its position and its ``%_docsize`` rows go."""
        if position in self._key_at:
            _delete_segment(conn, position)
        if key in self._position_of and key not in self._settled:
            self._delete_docsizes(conn, *chunks.rowid_range(key))

    def end_chunk(self, conn: sqlite3.Connection, key: int, next_rowid: int) -> None:
        """The chunk's rows end before ``next_rowid``: what the cache held after that goes."""
        if key in self._position_of and key not in self._settled:
            _delete_rows(conn, next_rowid, chunks.rowid_range(key)[1])
        self._settled.add(key)

    def finish(self, conn: sqlite3.Connection, last_position: int) -> None:
        """Remove the cache's chunks this build does not have, and segments past its last one."""
        for key in self._position_of:
            if key not in self._settled:
                lo, hi = chunks.rowid_range(key)
                self._delete_docsizes(conn, lo, hi)
                _delete_rows(conn, lo, hi)
        for position in self._key_at:
            if position > last_position:
                _delete_segment(conn, position)
        stray = conn.execute("SELECT count(*) FROM sections WHERE doc_id < 0").fetchone()[0]
        if stray:  # a row this build neither kept nor removed: never publish it
            raise PatchAborted(f"{stray} section(s) of the cache were left over")

    # -- documents of a chunk being indexed ---------------------------------------------------
    def in_place(self, path: str, key: int, first_rowid: int) -> bool:
        """Whether the cache's rows of this (unchanged) document sit at the rowids it takes now."""
        old = self._rows_of.get(path)
        return key not in self._settled and old is not None and old[:2] == (key, first_rowid)

    def make_room(self, conn: sqlite3.Connection, path: str, key: int, first: int, n_sections: int) -> int | None:
        """Document ``path`` is about to be written to rowids ``first..first + n_sections - 1``:
        what the build file holds there goes, and so do the document's own rows from the cache,
        whose ids would collide. Returns its first rowid in the cache (None for a new document).

        Writes go up in rowid order through a chunk, so in the chunk being written, rowids
        below ``first`` hold this build's rows and rowids from ``first`` up still hold the
        cache's. The document's old rows in this chunk therefore all lie at ``first`` or above,
        within ``first..max(new last, old last)``; in another chunk not settled yet they are
        intact, and in a settled one they are gone. A kept chunk never holds them: it has the
        same documents, so none of them is written again.
        """
        last = first + n_sections - 1
        old = self._rows_of.get(path)
        if old is not None and old[0] == key:
            _delete_rows(conn, first, max(last, old[1] + old[2] - 1))
            return old[1]
        if key in self._position_of and key not in self._settled:
            _delete_rows(conn, first, last)
        if old is None:
            return None
        old_key, old_first, old_sections = old
        if old_key not in self._settled:
            _delete_rows(conn, old_first, old_first + old_sections - 1)
        return old_first

    def _delete_docsizes(self, conn: sqlite3.Connection, lo: int, hi: int) -> None:
        for table in INDEXES:
            rows, columns = segments.docsize_totals(conn, f"main.{table}", lo, hi)
            self.totals[table].add(-rows, [-value for value in columns])
            conn.execute(f"DELETE FROM {table}_docsize WHERE id BETWEEN ? AND ?", (lo, hi))


def _delete_rows(conn: sqlite3.Connection, lo: int, hi: int) -> None:
    for table, column in _ROW_TABLES:
        conn.execute(f"DELETE FROM {table} WHERE {column} BETWEEN ? AND ?", (lo, hi))


def _delete_segment(conn: sqlite3.Connection, position: int) -> None:
    lo, hi = position << segments.SEGID_SHIFT, (position + 1) << segments.SEGID_SHIFT
    for table in INDEXES:
        conn.execute(f"DELETE FROM {table}_data WHERE id >= ? AND id < ?", (lo, hi))
        conn.execute(f"DELETE FROM {table}_idx WHERE segid = ?", (position,))
