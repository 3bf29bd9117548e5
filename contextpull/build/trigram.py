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
is laid out one segment per chunk (``segments.py``): ``Builder`` receives each indexed chunk's
(rowid, text) rows and, on its own thread (SQLite releases the GIL while it works), indexes them
into a fresh scratch table with one statement and splices the segment into an accumulating copy
of the shadow tables in its scratch file; ``finish_into`` moves those into the build file.
Chunks reused from a cache never reach the thread. If the thread fails, the same function runs
in the caller's thread, so every path writes the same rows.
Figures in benchmarks/README.md, "Speed at scale".
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
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


def add(conn: sqlite3.Connection) -> None:
    """Create and fill the table from ``sections`` in one statement (the caller commits); for
    stores that are not builds (benchmarks), where the layout does not need to be canonical."""
    conn.execute(DDL)
    conn.execute(f"INSERT INTO {TABLE} (rowid, text) SELECT rowid, text FROM sections")


def index_chunk(scratch: sqlite3.Connection, position: int, rows: Sequence[tuple[int, str]]) -> None:
    """Index one chunk's rows (consecutive rowids) and add its segment to the accumulator."""
    segments.create_scratch(scratch, _SCRATCH, DDL_BODY)
    if any("\x00" in text for _, text in rows):
        # SQLite's JSON functions stop at NUL: row by row instead. Single-row statements do not
        # flush FTS5's pending terms, so this too gives one segment per chunk (at the commit).
        scratch.executemany(f"INSERT INTO {_SCRATCH} (rowid, text) VALUES (?, ?)", rows)
    else:
        # One statement for the chunk: FTS5 flushes at the start of every multi-row statement,
        # and one statement takes the GIL once instead of once per row.
        scratch.execute(
            f"INSERT INTO {_SCRATCH} (rowid, text) SELECT ? + key, value FROM json_each(?) ORDER BY key",
            (rows[0][0], json.dumps([text for _, text in rows], ensure_ascii=False)),
        )
    scratch.commit()
    segments.splice(scratch, _SCRATCH, _ACCUMULATOR, position)
    scratch.execute(f"DROP TABLE {_SCRATCH}")
    scratch.commit()


def _open_scratch(path: Path) -> sqlite3.Connection:
    for suffix in ("", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -16384")
    for statement in _ACCUMULATOR_DDL:
        conn.execute(statement)
    conn.commit()
    return conn


_QUEUE_CHUNKS = 1  # chunks waiting for the thread at most: memory stays bounded
_DONE = None


class Builder:
    """Indexes chunks in ``scratch`` on a thread; ``finish_into(conn)`` moves them into ``conn``."""

    def __init__(self, scratch: Path):
        self.scratch = Path(scratch)
        self._chunks: list[tuple[int, int, int]] = []  # (position, first rowid, last rowid)
        self._queue: queue.Queue = queue.Queue(maxsize=_QUEUE_CHUNKS)
        self._error: BaseException | None = None
        self._failed = False
        self._thread = threading.Thread(target=self._run, name="trigram", daemon=True)
        self._thread.start()

    def chunk(self, position: int, rows: Sequence[tuple[int, str]]) -> None:
        """One indexed chunk's sections as (rowid, text), rowids consecutive and ascending."""
        if not rows:
            return
        self._chunks.append((position, rows[0][0], rows[-1][0]))
        while not self._failed:
            try:
                self._queue.put((position, rows), timeout=0.5)
                return
            except queue.Full:
                if not self._thread.is_alive():  # it stopped on an error: finish_into falls back
                    self._failed = True

    def _run(self) -> None:
        try:
            conn = _open_scratch(self.scratch)
            try:
                while (item := self._queue.get()) is not _DONE:
                    index_chunk(conn, *item)
            finally:
                conn.close()
        except BaseException as exc:  # reported by finish_into, which then falls back
            self._error = exc
            while self._queue.get() is not _DONE:  # keep draining so chunk() never blocks
                pass

    def _join(self) -> None:
        while self._thread.is_alive():
            try:
                self._queue.put(_DONE, timeout=0.5)
                break
            except queue.Full:
                continue
        self._thread.join()

    def finish_into(self, conn: sqlite3.Connection) -> str:
        """Add the indexed chunks' segments to ``conn``'s table, which holds any reused ones, and
        write its records; returns 'thread' or 'fallback'. ``conn`` must have no open
        transaction (ATTACH needs that)."""
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
            segments.write_records(conn, f"main.{TABLE}")
            conn.commit()
        finally:
            conn.execute("DETACH DATABASE trigram_scratch")
        self.discard()
        return how

    def _redo(self, conn: sqlite3.Connection) -> None:
        """The thread's work, in this thread, from the rows already in ``conn``."""
        scratch = _open_scratch(self.scratch)
        try:
            for position, first, last in self._chunks:
                rows = conn.execute(
                    "SELECT rowid, text FROM sections WHERE rowid BETWEEN ? AND ? ORDER BY rowid", (first, last)
                ).fetchall()
                index_chunk(scratch, position, rows)
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
