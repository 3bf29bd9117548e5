"""A build's rows, written chunk by chunk: each chunk is indexed, or copied from the cache.

Why (issue 4, items 3 and 4): a fresh build and a cache-assisted one must leave the same rows in
every table, and the cache-assisted one should only redo what changed. Documents arrive in path
order and are grouped into chunks (``chunks.py``). At the end of a chunk:

- if every document in it is unchanged and the cache holds exactly this chunk (same key, same
  paths and sha256, built by this builder on this SQLite), its rows are copied from the cache
  with SQL: documents' sections, the word index's content and sizes, and both FTS5 segments
  (``segments.move_segment``), renumbered to this chunk's position;
- otherwise it is indexed: its documents, sections and the word index's content rows are
  inserted and committed in parts of ``chunks.PART_BYTES``, and each part's rowid range goes to
  the index thread (``index_thread.py``), which builds the chunk's segment in both FTS5 tables
  on the second core.

When the build file is a copy of the cache (``patch.py``), an unchanged chunk is kept where
it lies instead of copied, and in a chunk being indexed an unchanged document keeps its rows, or
has them copied from the cache with SQL when its rowids moved; only new and changed documents
are written from Python.

Either way the chunk ends up as segment number ``position`` in both FTS5 tables, so the
result does not depend on which path each chunk took. The index thread writes the records FTS5
keeps beside its segments at the end (``segments.write_records``), with the copied chunks'
totals summed here.
"""

from __future__ import annotations

import sqlite3

from . import chunks

from ..indexing import segments

from ..indexing import trigram
from .cache import CachedRecord, CacheRejected
from ..writing.records import DocumentRecord

WORD_TABLE = "sections_fts"
_CACHE = "cache"


class Assembler:
    """Owns the build file's rows from the first document to the FTS5 records."""

    def __init__(self, conn: sqlite3.Connection, indexer, cache, ingested_at: str, patch=None):
        self.conn = conn
        self.patch = patch  # a patch.Patch when the build file is a copy of the cache
        self.indexer = indexer  # an index_thread.IndexThread
        self.cache = cache  # a BuildCache or None
        self.ingested_at = ingested_at
        self._keys = chunks.Keys()
        self._chunker = chunks.Chunker()
        self._current: list[DocumentRecord] = []  # cache hits held while the chunk may be copied
        self._open: _OpenChunk | None = None  # the chunk being indexed, if any
        self.position = 0
        self.doc_id = 0
        self.copied_chunks = 0
        self.indexed_chunks = 0
        self.kept_documents = 0  # unchanged, in indexed chunks: rows left in place or moved with SQL
        self._cache_attached = False
        # Totals of the copied chunks, by table; the index thread sums those it indexed.
        self.copied_totals = {WORD_TABLE: segments.Totals(), trigram.TABLE: segments.Totals()}
        if patch is not None:
            self.copied_totals = patch.totals  # the cache's, less what the patch removes

    def add(self, record: DocumentRecord) -> None:
        """Documents arrive in path order. Cache hits are held (they are small: no sections yet)
        while the chunk may still be copied; the first document that must be written makes
        the chunk an indexed one, and from then on each document is written as it arrives, so
        memory holds one parsed document, not a chunk of them."""
        if self._chunker.starts(record.path, record.bytes) and (self._current or self._open):
            self._end_chunk()
        if self._open is None and not isinstance(record, CachedRecord):
            self._begin_index(self._take_key((self._current[0] if self._current else record).path))
        if self._open is None:
            self._current.append(record)
        else:
            self._write(record)

    def finish(self) -> None:
        if self._current or self._open:
            self._end_chunk()
        if self.patch is not None:
            self.patch.finish(self.conn, self.position)
        self.conn.commit()
        if self._cache_attached:
            self.conn.execute(f"DETACH DATABASE {_CACHE}")

    def _attach_cache(self) -> None:
        if not self._cache_attached:
            self.conn.commit()  # ATTACH needs no open transaction
            self.conn.execute(f"ATTACH DATABASE ? AS {_CACHE}", (str(self.cache.path),))
            self._cache_attached = True

    def _take_key(self, path: str) -> int:
        self.position += 1
        return self._keys.take(path)

    def _end_chunk(self) -> None:
        if self._open is not None:
            self._end_index()
            return
        records, self._current = self._current, []
        key = self._take_key(records[0].path)
        first_doc_id = self.doc_id + 1
        source = self.cache.chunk_source(key, records) if self.cache is not None else None
        if source is not None:
            if self.patch is not None:
                self._keep(records, key, first_doc_id, *source)
            else:
                self._copy(records, key, first_doc_id, *source)
            self.copied_chunks += 1
            return
        self._begin_index(key)
        for record in records:
            self._write(record)
        self._end_index()

    # -- a chunk from the cache -----------------------------------------------------------------
    def _copy(self, records, key: int, first_doc_id: int, cache_position: int, cache_first_doc_id: int) -> None:
        try:
            self._copy_rows(records, key, first_doc_id, cache_position, cache_first_doc_id)
        except sqlite3.DatabaseError as exc:  # the cache is not what its meta says: build without it
            raise CacheRejected(f"copying its chunk at {records[0].path} failed: {exc}") from None

    def _copy_rows(self, records, key: int, first_doc_id: int, cache_position: int, cache_first_doc_id: int) -> None:
        conn = self.conn
        self._attach_cache()
        expected = self._document_rows(records, first_doc_id)
        lo, hi = chunks.rowid_range(key)
        copied = conn.execute(
            "INSERT INTO main.sections (rowid, id, doc_id, ordinal, heading_path, level, kind, text,"
            " char_len, hash, prev_id, next_id) SELECT rowid, id, doc_id + ?, ordinal, heading_path,"
            f" level, kind, text, char_len, hash, prev_id, next_id FROM {_CACHE}.sections"
            " WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
            (first_doc_id - cache_first_doc_id, lo, hi),
        ).rowcount
        if copied != expected:  # not laid out as its meta says: build again without it
            raise CacheRejected(f"its chunk at {records[0].path} holds {copied} sections, not {expected}")
        for table in (WORD_TABLE, trigram.TABLE):
            if table == WORD_TABLE:
                conn.execute(
                    f"INSERT INTO main.{table}_content SELECT * FROM {_CACHE}.{table}_content"
                    " WHERE id BETWEEN ? AND ? ORDER BY id", (lo, hi),
                )
            conn.execute(
                f"INSERT INTO main.{table}_docsize SELECT * FROM {_CACHE}.{table}_docsize"
                " WHERE id BETWEEN ? AND ? ORDER BY id", (lo, hi),
            )
            self.copied_totals[table].add(*segments.docsize_totals(conn, f"{_CACHE}.{table}", lo, hi))
            segments.move_segment(conn, f"{_CACHE}.{table}", cache_position, f"main.{table}", self.position)
        conn.commit()

    def _keep(self, records, key: int, first_doc_id: int, cache_position: int, cache_first_doc_id: int) -> None:
        """The build file is a copy of the cache (``patch.py``): the chunk's rows are there already."""
        self.patch.note_document(self.conn, first_doc_id, cache_first_doc_id)
        held = self.patch.keep(self.conn, key, self.position, cache_position, first_doc_id - cache_first_doc_id)
        expected = self._document_rows(records, first_doc_id)
        if held != expected:  # not laid out as its meta says: build again without it
            raise CacheRejected(f"its chunk at {records[0].path} holds {held} sections, not {expected}")

    def _document_rows(self, records, first_doc_id: int) -> int:
        """The ``documents`` rows of a chunk taken from the cache; returns its section count."""
        from ..writing.writer import insert_document_row

        self.doc_id += len(records)
        total = 0
        for offset, record in enumerate(records):
            n_sections = self.cache.section_count(record.path)
            insert_document_row(self.conn, record, doc_id=first_doc_id + offset, n_sections=n_sections, ingested_at=self.ingested_at)
            total += n_sections
        return total

    # -- a chunk indexed here -----------------------------------------------------------------
    def _begin_index(self, key: int) -> None:
        held, self._current = self._current, []
        if self.patch is not None:
            self.patch.begin_chunk(self.conn, key, self.position)
        self._open = _OpenChunk(key, chunks.first_rowid(key))
        for record in held:
            self._write(record)

    def _write(self, record: DocumentRecord) -> None:
        from ..writing.writer import insert_document_row, section_rows

        conn, chunk, patch = self.conn, self._open, self.patch
        if patch is not None and isinstance(record, CachedRecord):
            if patch.in_place(record.path, chunk.key, chunk.next_rowid):
                self._keep_document(record)
            else:
                self._move_document(record)
            return
        if patch is not None:
            cached = self.cache.documents.get(record.path)
            patch.note_document(conn, self.doc_id + 1, cached[0] if cached else None)
        if self.cache is not None:
            record = self.cache.load(record)
        self.doc_id += 1
        insert_document_row(conn, record, doc_id=self.doc_id, n_sections=len(record.sections), ingested_at=self.ingested_at)
        if patch is not None:
            patch.make_room(conn, record.path, chunk.key, chunk.next_rowid, len(record.sections))
        if not record.sections:
            return
        rows, fts = section_rows(record, doc_id=self.doc_id, base=chunk.next_rowid)
        conn.executemany(
            "INSERT INTO main.sections (rowid, id, doc_id, ordinal, heading_path, level, kind, text,"
            " char_len, hash, prev_id, next_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.executemany(f"INSERT INTO main.{WORD_TABLE}_content (id, c0, c1, c2) VALUES (?, ?, ?, ?)", fts)
        self._advance(len(rows), record.bytes)

    def _keep_document(self, record: CachedRecord) -> None:
        """An unchanged document whose rows in the copied cache already sit at its rowids."""
        from ..writing.writer import insert_document_row

        chunk, n_sections = self._open, self.cache.section_count(record.path)
        self.patch.note_document(self.conn, self.doc_id + 1, record.cache_doc_id)
        self.doc_id += 1
        self.patch.final_doc_ids(self.conn, chunk.next_rowid, chunk.next_rowid + n_sections - 1, self.doc_id - record.cache_doc_id)
        insert_document_row(self.conn, record, doc_id=self.doc_id, n_sections=n_sections, ingested_at=self.ingested_at)
        self.kept_documents += 1
        self._advance(n_sections, record.bytes)

    def _move_document(self, record: CachedRecord) -> None:
        """An unchanged document whose sections take other rowids now: its rows are copied from
        the cache with SQL, shifted (``patch.py``); nothing passes through Python."""
        from ..writing.writer import insert_document_row

        conn, chunk, n_sections = self.conn, self._open, self.cache.section_count(record.path)
        self.patch.note_document(conn, self.doc_id + 1, record.cache_doc_id)
        self.doc_id += 1
        insert_document_row(conn, record, doc_id=self.doc_id, n_sections=n_sections, ingested_at=self.ingested_at)
        if n_sections:
            self._attach_cache()
            first = chunk.next_rowid
            old = self.patch.make_room(conn, record.path, chunk.key, first, n_sections)
            moved = conn.execute(
                "INSERT INTO main.sections (rowid, id, doc_id, ordinal, heading_path, level, kind, text,"
                " char_len, hash, prev_id, next_id) SELECT rowid + ?, id, ?, ordinal, heading_path, level,"
                f" kind, text, char_len, hash, prev_id, next_id FROM {_CACHE}.sections"
                " WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
                (first - old, self.doc_id, old, old + n_sections - 1),
            ).rowcount
            if moved != n_sections:  # not laid out as its meta says: build again without it
                raise CacheRejected(f"{record.path} holds {moved} sections in it, not {n_sections}")
            conn.execute(
                f"INSERT INTO main.{WORD_TABLE}_content (id, c0, c1, c2) SELECT id + ?, c0, c1, c2"
                f" FROM {_CACHE}.{WORD_TABLE}_content WHERE id BETWEEN ? AND ? ORDER BY id",
                (first - old, old, old + n_sections - 1),
            )
        self.kept_documents += 1
        self._advance(n_sections, record.bytes)

    def _advance(self, n_sections: int, size: int) -> None:
        chunk = self._open
        chunk.next_rowid += n_sections
        chunk.part_bytes += size
        if chunk.part_bytes >= chunks.PART_BYTES:
            self._end_part()

    def _end_part(self) -> None:
        """Commit the part, so the index thread can read its rows."""
        chunk = self._open
        self.conn.commit()
        self.indexer.part(self.position, chunk.part_first, chunk.next_rowid - 1)
        chunk.part_first, chunk.part_bytes = chunk.next_rowid, 0

    def _end_index(self) -> None:
        if self.patch is not None:
            self.patch.end_chunk(self.conn, self._open.key, self._open.next_rowid)
        self._end_part()
        self._open = None
        self.indexer.end(self.position)
        self.indexed_chunks += 1


class _OpenChunk:
    """The chunk being indexed: where its next section's rowid is, and where its current part began."""

    def __init__(self, key: int, first_rowid: int):
        self.key = key
        self.next_rowid = first_rowid
        self.part_first = first_rowid  # the current part's first rowid
        self.part_bytes = 0
