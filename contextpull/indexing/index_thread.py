"""Indexing a build's chunks beside the writer: the word index and the trigram table.

Why (issue 8, "use both cores where it pays"): tokenising is most of a build's CPU after parsing,
and FTS5 does it with the GIL released. The writer (``assemble.py``) commits each part of an
indexed chunk to the build file and tells the worker the part's rowid range; the worker, on its
own connection with the build file attached (WAL mode while it is written, so reading does not
stop the writer), indexes the part into a fresh scratch table per index (``Index.fill``), and at
the chunk's end merges its parts into one segment and splices it into an accumulating copy of
that index's shadow tables (``segments.py``). ``finish_into`` moves the accumulated segments
into the build file, beside the segments the writer copied from a cache, and writes each
index's FTS5 records. ``Indexers`` runs one worker per index and looks like one to the writer:
this module's thread for the word index (one ``INSERT .. SELECT``, no text through Python), and
``index_process.py``'s child process for the trigram table, whose rows Python computes.

If a worker fails, the same statements run in the caller's thread, so every path writes the
same rows. Figures in benchmarks/README.md, "Ingest and build".
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..schema import FTS_TOKENIZE
from ..system.sqlite_files import remove_files
from . import segments
from . import trigram

_SOURCE = "build"


@dataclass(frozen=True)
class Index:
    """One FTS5 table of the store, as this thread fills it."""

    target: str  # the store's table
    scratch_ddl: str  # the scratch table's columns and options: the target's, contentless
    fill: Callable[[sqlite3.Connection, str, int, int], None]  # (conn, scratch table, first, last rowid)

    @property
    def scratch(self) -> str:
        return f"chunk_{self.target}"

    @property
    def accumulator(self) -> str:
        return f"acc_{self.target}"


def _fill_words(conn: sqlite3.Connection, scratch: str, first: int, last: int) -> None:
    # The content rows the writer inserted hold the normalised FTS text (store-format.txt,
    # "Tokenisation"), which is what the word index is built from. No text passes through Python.
    conn.execute(
        f"INSERT INTO {scratch} (rowid, id, heading_path, text)"
        f" SELECT id, c0, c1, c2 FROM {_SOURCE}.sections_fts_content WHERE id BETWEEN ? AND ? ORDER BY id",
        (first, last),
    )


def _fill_trigrams(conn: sqlite3.Connection, scratch: str, first: int, last: int) -> None:
    # Parts end at document boundaries (assemble.py), so each document is one row (trigram.py).
    trigram.fill(
        conn,
        scratch,
        f"SELECT rowid, doc_id, text FROM {_SOURCE}.sections WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
        (first, last),
    )


WORDS = Index(
    target="sections_fts",
    scratch_ddl=f"id UNINDEXED, heading_path, text, tokenize = \"{FTS_TOKENIZE}\", content=''",
    fill=_fill_words,
)
TRIGRAMS = Index(target=trigram.TABLE, scratch_ddl=trigram.DDL_BODY, fill=_fill_trigrams)
INDEXES = (WORDS, TRIGRAMS)


def _begin_chunk(scratch: sqlite3.Connection, indexes: Sequence[Index]) -> None:
    for index in indexes:
        segments.create_scratch(scratch, index.scratch, index.scratch_ddl)


def _add_part(scratch: sqlite3.Connection, indexes: Sequence[Index], first: int, last: int) -> None:
    """Index the part's rows and commit, so each part ends in its own segment(s), merged into one
    at the chunk's end."""
    for index in indexes:
        index.fill(scratch, index.scratch, first, last)
    scratch.commit()


def _end_chunk(scratch: sqlite3.Connection, indexes: Sequence[Index], position: int, totals: Mapping[str, segments.Totals]) -> None:
    for index in indexes:
        totals[index.target].add(*segments.splice(scratch, index.scratch, index.accumulator, position))
        scratch.execute(f"DROP TABLE {index.scratch}")
    scratch.commit()


def _index_chunk(scratch, indexes: Sequence[Index], position: int, parts: Sequence[tuple[int, int]], totals) -> None:
    _begin_chunk(scratch, indexes)
    for first, last in parts:
        _add_part(scratch, indexes, first, last)
    _end_chunk(scratch, indexes, position, totals)


def _open_scratch(path: Path, source: Path, indexes: Sequence[Index]) -> sqlite3.Connection:
    remove_files(path)
    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("PRAGMA main.journal_mode = OFF")
    conn.execute("PRAGMA main.synchronous = OFF")
    conn.execute("PRAGMA main.cache_size = -16384")
    for index in indexes:
        conn.execute(f"CREATE TABLE {index.accumulator}_data (id INTEGER PRIMARY KEY, block BLOB)")
        conn.execute(f"CREATE TABLE {index.accumulator}_idx (segid, term, pgno, PRIMARY KEY (segid, term)) WITHOUT ROWID")
        conn.execute(f"CREATE TABLE {index.accumulator}_docsize (id INTEGER PRIMARY KEY, sz BLOB)")
    conn.commit()
    # Attached last: the pragmas above name main, and a bare journal_mode pragma would try to
    # switch the build file too (database is locked).
    conn.execute(f"ATTACH DATABASE ? AS {_SOURCE}", (str(source),))
    return conn


# A part is two rowids; its rows wait in the build file, so a long queue costs no memory. It lets
# the writer run ahead of the threads: a cached build that keeps most rows in place (patch.py)
# goes on hashing the corpus while the edited chunk is indexed (with 2 parts, the writer waited
# 0.9 s of a 4.4 s one-edit build on the synthetic 5,000-document corpus).
_QUEUE_PARTS = 64
_DONE = None
_NOT_STARTED = RuntimeError("the worker had not started when the writer ended")


def serve(scratch: Path, source: Path, indexes: Sequence[Index], get: Callable[[], tuple | None],
          totals: Mapping[str, segments.Totals], ready: Callable[[], None] = lambda: None) -> None:
    """Index the chunks ``get`` returns, as ``(kind, position, (first, last) or None)`` until
    ``_DONE``, into ``scratch``'s accumulators; a thread's or a process's whole work."""
    conn = _open_scratch(scratch, source, indexes)
    try:
        ready()
        while (item := get()) is not _DONE:
            kind, position, rows = item
            if kind == "begin":
                _begin_chunk(conn, indexes)
            elif kind == "part":
                _add_part(conn, indexes, *rows)
            else:
                _end_chunk(conn, indexes, position, totals)
    finally:
        conn.close()


class IndexThread:
    """Indexes chunks into ``indexes`` in ``scratch`` on a thread; ``finish_into(conn)`` moves
    them into ``conn``.

    The caller sends each indexed chunk as ``part`` calls (rowid ranges it has committed) followed
    by one ``end``; the same parts are replayed by the fallback, so both write the same rows.
    A build runs one worker per index: with the word index on the writer's thread or sharing
    the trigram worker, one of them waited for the other (benchmarks/README.md).
    """

    how = "thread"
    failure: str | None = None  # why the work was redone in the caller's thread, if it failed

    def __init__(self, scratch: Path, source: Path, indexes: Sequence[Index] = INDEXES):
        self.scratch = Path(scratch)
        self.source = Path(source)  # the build file
        self.indexes = tuple(indexes)
        self._chunks: list[tuple[int, list[tuple[int, int]]]] = []  # (position, [(first, last) rowid of each part])
        self._queue: queue.Queue = queue.Queue(maxsize=_QUEUE_PARTS)
        self._error: BaseException | None = None
        self._failed = False
        self.waited = 0.0  # seconds the writer spent waiting for the thread to take a part
        self.totals = {index.target: segments.Totals() for index in self.indexes}  # of the chunks indexed here
        self._start()

    # -- what runs the work: a thread here, a process in index_process.py -----------------------
    def _start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="index", daemon=True)
        self._thread.start()

    def _alive(self) -> bool:
        return self._thread.is_alive()

    def _send(self, item, timeout: float) -> None:
        """Hand ``item`` over; raises queue.Full after ``timeout`` seconds."""
        self._queue.put(item, timeout=timeout)

    def _run(self) -> None:
        try:
            serve(self.scratch, self.source, self.indexes, self._queue.get, self.totals)
        except BaseException as exc:  # reported by finish_into, which then falls back
            self._error = exc
            while self._queue.get() is not _DONE:  # keep draining so part() never blocks
                pass

    def _join(self) -> None:
        """Send ``_DONE`` and wait for the work to end; ``_error`` says whether it failed."""
        while self._thread.is_alive():
            try:
                self._queue.put(_DONE, timeout=0.5)
                break
            except queue.Full:
                continue
        self._thread.join()

    # -- the writer's side ------------------------------------------------------------------------

    def part(self, position: int, first: int, last: int) -> None:
        """Chunk ``position``'s sections with rowids ``first..last``, committed to the build file."""
        if not self._chunks or self._chunks[-1][0] != position:
            self._chunks.append((position, []))
            self._put(("begin", position, None))
        if first <= last:
            self._chunks[-1][1].append((first, last))
            self._put(("part", position, (first, last)))

    def end(self, position: int) -> None:
        if self._chunks and self._chunks[-1][0] == position:
            self._put(("end", position, None))

    def _put(self, item) -> None:
        started = time.perf_counter()
        while not self._failed:
            try:
                self._send(item, 0.5)
                break
            except queue.Full:
                if not self._alive():  # it stopped on an error: finish_into falls back
                    self._failed = True
        self.waited += time.perf_counter() - started

    def finish_into(self, conn: sqlite3.Connection, copied: Mapping[str, segments.Totals]) -> str:
        """Add the indexed chunks' segments to ``conn``'s tables, which hold the copied ones
        (whose totals are ``copied``, by table), and write their records; returns how the work
        was done: ``self.how``, or 'fallback' when it failed and was redone here, or 'inline' when
        a process had not started by then and it was done here. ``conn`` must have no open
        transaction (ATTACH needs that)."""
        self._join()
        how = self.how
        if self._error is not None or self._failed:
            how = "inline" if self._error is _NOT_STARTED else "fallback"
            if how == "fallback":
                tables = ", ".join(index.target for index in self.indexes)
                reason = self._error or "it stopped taking parts"
                self.failure = f"the index {self.how} for {tables} failed ({reason}); indexed in this process instead"
            self._redo(conn)
        conn.commit()
        conn.execute("ATTACH DATABASE ? AS index_scratch", (str(self.scratch),))
        try:
            for index in self.indexes:
                source, target = f"index_scratch.{index.accumulator}", f"main.{index.target}"
                conn.execute(f"INSERT INTO {target}_data SELECT * FROM {source}_data ORDER BY id")
                conn.execute(f"INSERT INTO {target}_idx SELECT * FROM {source}_idx")
                conn.execute(f"INSERT INTO {target}_docsize SELECT * FROM {source}_docsize ORDER BY id")
                totals = segments.Totals()
                for part in (self.totals[index.target], copied.get(index.target)):
                    if part is not None:
                        totals.add(part.rows, part.columns)
                segments.write_records(conn, target, totals)
            conn.commit()
        finally:
            conn.execute("DETACH DATABASE index_scratch")
        self.discard()
        return how

    def _redo(self, conn: sqlite3.Connection) -> None:
        """The thread's work, in this thread, with the same statements."""
        conn.commit()
        scratch = _open_scratch(self.scratch, self.source, self.indexes)
        self.totals = {index.target: segments.Totals() for index in self.indexes}
        try:
            for position, parts in self._chunks:
                _index_chunk(scratch, self.indexes, position, parts, self.totals)
        finally:
            scratch.close()

    def discard(self) -> None:
        """Stop the work (if still running) and remove the scratch file."""
        if self._alive():
            self._join()
        remove_files(self.scratch)
