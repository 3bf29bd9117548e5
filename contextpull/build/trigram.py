"""The optional ``sections_trigram`` table of a built store (issue 8; store-format.txt "Grep").

store-format.txt allows a trigram index for literal grep when results stay identical. The reader
side of the contract is ``contextpull/literal_grep.py``: a contentless FTS5 table with the
trigram tokenizer, ``detail='none'``, one row per section with ``rowid = sections.rowid`` and the
section's verbatim text. The reader uses it only to find candidates, then re-checks each one with
the spec's ``instr(lower(..))``, so a store with the table greps exactly like one without it.

Only ``contextpull build`` adds it. A built store is an immutable artifact, so the table can
never fall behind its sections; a store updated in place (``ingest``) does not carry it, and an
in-place update of a store that has one drops it first (``drop_if_present``), because another
writer that does not know the table could otherwise leave it stale.

Filling it costs about as much as the word index (the trigram tokenizer emits a token per
character), so a build fills it on a second core while the writer runs. Like the word index it
is laid out one segment per chunk (``segments.py``): ``Builder`` is told the rowid ranges of each
indexed chunk's parts as the writer commits them and, on its own thread, indexes each part into
a fresh scratch table with one ``INSERT .. SELECT`` from the build file (in WAL mode while it is
written, so reading does not stop the writer; no text passes through Python, so the thread does
not compete for the GIL), merges the chunk's parts into one segment and splices it into an
accumulating copy of the shadow tables in its scratch file; ``finish_into`` moves those into
the build file.
Chunks reused from a cache never reach the thread. If the thread fails, the same function runs
in the caller's thread, so every path writes the same rows.
Figures in benchmarks/README.md, "Speed at scale".
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from . import segments

TABLE = "sections_trigram"
DDL_BODY = "text, tokenize='trigram', content='', detail='none'"
DDL = f"CREATE VIRTUAL TABLE {TABLE} USING fts5({DDL_BODY})"
SHADOW_TABLES = tuple(f"{TABLE}_{part}" for part in ("data", "idx", "docsize", "config"))

_ACCUMULATOR = "acc"
_ACCUMULATOR_DDL = (
    "CREATE TABLE acc_data (id INTEGER PRIMARY KEY, block BLOB)",
    "CREATE TABLE acc_idx (segid, term, pgno, PRIMARY KEY (segid, term)) WITHOUT ROWID",
    "CREATE TABLE acc_docsize (id INTEGER PRIMARY KEY, sz BLOB)",
)
_SCRATCH = "chunk_trigram"
_SOURCE = "build"


def add(conn: sqlite3.Connection) -> None:
    """Create and fill the table from ``sections`` in one statement (the caller commits); for
    stores that are not builds (benchmarks), where the layout does not need to be canonical."""
    conn.execute(DDL)
    conn.execute(f"INSERT INTO {TABLE} (rowid, text) SELECT rowid, text FROM sections")


def begin_chunk(scratch: sqlite3.Connection) -> None:
    segments.create_scratch(scratch, _SCRATCH, DDL_BODY)


def add_part(scratch: sqlite3.Connection, first: int, last: int) -> None:
    """Index the sections with rowids ``first..last`` of the attached build file and commit them.

    One statement per part, reading the texts in SQLite: FTS5 flushes at the start of every
    multi-row statement (so a part is one segment), and no text passes through Python, so the
    thread never needs the GIL while it works.
    """
    scratch.execute(
        f"INSERT INTO {_SCRATCH} (rowid, text) SELECT rowid, text FROM {_SOURCE}.sections"
        " WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
        (first, last),
    )
    scratch.commit()


def end_chunk(scratch: sqlite3.Connection, position: int, totals: segments.Totals) -> None:
    """Merge the chunk's parts into one segment and add it to the accumulator as ``position``."""
    totals.add(*segments.splice(scratch, _SCRATCH, _ACCUMULATOR, position))
    scratch.execute(f"DROP TABLE {_SCRATCH}")
    scratch.commit()


def index_chunk(scratch: sqlite3.Connection, position: int, parts: Sequence[tuple[int, int]], totals: segments.Totals) -> None:
    begin_chunk(scratch)
    for first, last in parts:
        add_part(scratch, first, last)
    end_chunk(scratch, position, totals)


def _open_scratch(path: Path, source: Path) -> sqlite3.Connection:
    for suffix in ("", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("PRAGMA main.journal_mode = OFF")
    conn.execute("PRAGMA main.synchronous = OFF")
    conn.execute("PRAGMA main.cache_size = -16384")
    for statement in _ACCUMULATOR_DDL:
        conn.execute(statement)
    conn.commit()
    # The build file is in WAL mode while it is written, so this connection reads each part the
    # writer has committed while the writer goes on. (Pragmas above name main: a bare one would
    # try to change the build file's journal mode too.)
    conn.execute(f"ATTACH DATABASE ? AS {_SOURCE}", (str(source),))
    return conn


_QUEUE_PARTS = 2  # parts waiting for the thread at most: memory stays bounded
_DONE = None


class Builder:
    """Indexes chunks in ``scratch`` on a thread; ``finish_into(conn)`` moves them into ``conn``.

    The caller sends each indexed chunk as ``part`` calls (rowid ranges it has committed) followed
    by one ``end``; the same parts are replayed by the fallback, so both write the same rows.
    """

    def __init__(self, scratch: Path, source: Path):
        self.scratch = Path(scratch)
        self.source = Path(source)  # the build file, which holds the sections
        self._chunks: list[tuple[int, list[tuple[int, int]]]] = []  # (position, [(first, last) rowid of each part])
        self._queue: queue.Queue = queue.Queue(maxsize=_QUEUE_PARTS)
        self._error: BaseException | None = None
        self._failed = False
        self.waited = 0.0  # seconds the writer spent waiting for the thread to take a part
        self.totals = segments.Totals()  # of the chunks the thread indexed
        self._thread = threading.Thread(target=self._run, name="trigram", daemon=True)
        self._thread.start()

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
                self._queue.put(item, timeout=0.5)
                break
            except queue.Full:
                if not self._thread.is_alive():  # it stopped on an error: finish_into falls back
                    self._failed = True
        self.waited += time.perf_counter() - started

    def _run(self) -> None:
        try:
            conn = _open_scratch(self.scratch, self.source)
            try:
                while (item := self._queue.get()) is not _DONE:
                    kind, position, rows = item
                    if kind == "begin":
                        begin_chunk(conn)
                    elif kind == "part":
                        add_part(conn, *rows)
                    else:
                        end_chunk(conn, position, self.totals)
            finally:
                conn.close()
        except BaseException as exc:  # reported by finish_into, which then falls back
            self._error = exc
            while self._queue.get() is not _DONE:  # keep draining so part() never blocks
                pass

    def _join(self) -> None:
        while self._thread.is_alive():
            try:
                self._queue.put(_DONE, timeout=0.5)
                break
            except queue.Full:
                continue
        self._thread.join()

    def finish_into(self, conn: sqlite3.Connection, copied: segments.Totals | None = None) -> str:
        """Add the indexed chunks' segments to ``conn``'s table, which holds any copied ones
        (whose totals are ``copied``), and write its records; returns 'thread' or 'fallback'.
        ``conn`` must have no open transaction (ATTACH needs that)."""
        self._join()
        how = "thread"
        if self._error is not None or self._failed:
            how = "fallback"
            self._redo(conn)
        conn.commit()
        conn.execute("ATTACH DATABASE ? AS trigram_scratch", (str(self.scratch),))
        try:
            conn.execute(f"INSERT INTO main.{TABLE}_data SELECT * FROM trigram_scratch.acc_data ORDER BY id")
            conn.execute(f"INSERT INTO main.{TABLE}_idx SELECT * FROM trigram_scratch.acc_idx")
            conn.execute(f"INSERT INTO main.{TABLE}_docsize SELECT * FROM trigram_scratch.acc_docsize ORDER BY id")
            totals = segments.Totals()
            totals.add(self.totals.rows, self.totals.columns)
            if copied is not None:
                totals.add(copied.rows, copied.columns)
            segments.write_records(conn, f"main.{TABLE}", totals)
            conn.commit()
        finally:
            conn.execute("DETACH DATABASE trigram_scratch")
        self.discard()
        return how

    def _redo(self, conn: sqlite3.Connection) -> None:
        """The thread's work, in this thread, with the same statements."""
        conn.commit()
        scratch = _open_scratch(self.scratch, self.source)
        self.totals = segments.Totals()
        try:
            for position, parts in self._chunks:
                index_chunk(scratch, position, parts, self.totals)
        finally:
            scratch.close()

    def discard(self) -> None:
        """Stop the thread (if still running) and remove the scratch file."""
        if self._thread.is_alive():
            self._join()
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{self.scratch}{suffix}").unlink(missing_ok=True)


def present(conn: sqlite3.Connection) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)
    ).fetchone()
    return row is not None


def drop_if_present(conn: sqlite3.Connection) -> bool:
    """Drop the table before an in-place update; True when there was one (the caller commits)."""
    if not present(conn):
        return False
    conn.execute(f"DROP TABLE {TABLE}")
    return True
