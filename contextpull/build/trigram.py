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
character), so a build fills it on a second core while the writer runs: ``Builder`` receives each
document's (rowid, text) rows, read back from the build file right after the writer wrote them,
and inserts them into a scratch database on its own thread (SQLite releases the GIL while it
works); at the end its shadow tables are copied into the build file. Rows go in batches, one
statement per batch (``_Plan``); FTS5 starts a new segment at every such statement, so the plan is
the same on every path (``fill`` runs it in the caller's thread if the thread fails), and a fresh
and a cache-assisted build write the same bytes. A text holding NUL, which JSON batches cannot
carry, sends the whole table through ``add`` (one statement), again the same for every build of
that content.
Figures in benchmarks/README.md, "Speed at scale".
"""

from __future__ import annotations

import itertools
import json
import queue
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

TABLE = "sections_trigram"
DDL = (
    f"CREATE VIRTUAL TABLE {TABLE} USING fts5("
    "text, tokenize='trigram', content='', detail='none')"
)


def add(conn: sqlite3.Connection) -> None:
    """Create and fill the table from ``sections`` in one statement (the caller commits).

    Used when a section text holds a NUL character, which JSON batches cannot carry (SQLite's
    JSON functions stop at it); that is a property of the content, so every build of the same
    content takes the same path and writes the same bytes.
    """
    conn.execute(DDL)
    conn.execute(f"INSERT INTO {TABLE} (rowid, text) SELECT rowid, text FROM sections")


def fill(conn: sqlite3.Connection) -> None:
    """Create and fill the table from ``sections`` with exactly the statements ``Builder`` runs
    (same batches, so the same segments and bytes), in this thread (the caller commits)."""
    conn.execute(DDL)
    plan = _Plan()
    rows = conn.execute("SELECT doc_id, rowid, text FROM sections ORDER BY doc_id, rowid").fetchall()
    batches = []
    for _, group in itertools.groupby(rows, key=lambda row: row[0]):
        batches.extend(plan.feed([(rowid, text) for _, rowid, text in group]))
    batches.extend(plan.flush())
    for batch in batches:
        conn.execute(INSERT_BATCH, batch)


SHADOW_TABLES = tuple(f"{TABLE}_{part}" for part in ("data", "idx", "docsize", "config"))
_BATCH_ROWS = 256  # sections per statement
INSERT_BATCH = f"INSERT INTO {TABLE} (rowid, text) SELECT ? + key, value FROM json_each(?) ORDER BY key"


class _Plan:
    """Which statements fill the table: documents' rows are gathered until ``_BATCH_ROWS``, then
    sent as one JSON array of texts per run of consecutive rowids (rowid = first + position).

    FTS5 writes its pending terms out as a new segment at the start of every multi-row statement,
    so the batches decide the table's bytes; this one plan is used on every path.
    """

    def __init__(self):
        self._pending: list[tuple[int, str]] = []

    def feed(self, rows: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
        self._pending.extend(rows)
        return self.flush() if len(self._pending) >= _BATCH_ROWS else []

    def flush(self) -> list[tuple[int, str]]:
        pending, self._pending = self._pending, []
        batches, start = [], 0
        for i in range(1, len(pending) + 1):
            if i == len(pending) or pending[i][0] != pending[i - 1][0] + 1:
                run = pending[start:i]
                batches.append((run[0][0], json.dumps([text for _, text in run], ensure_ascii=False)))
                start = i
        return batches


_QUEUE_BATCHES = 16  # batches waiting for the thread at most: memory stays bounded
_DONE = None


class Builder:
    """Fills the table in ``scratch`` on a thread; ``finish_into(conn)`` moves it into ``conn``."""

    def __init__(self, scratch: Path):
        self.scratch = Path(scratch)
        self.rows = 0
        self._plan = _Plan()
        self.nul = False  # a text holds NUL: the table is filled by ``add`` instead
        self._queue: queue.Queue = queue.Queue(maxsize=_QUEUE_BATCHES)
        self._error: BaseException | None = None
        self._failed = False
        self._thread = threading.Thread(target=self._run, name="trigram", daemon=True)
        self._thread.start()

    def feed(self, rows: Sequence[tuple[int, str]]) -> None:
        """One document's sections as (rowid, text), in rowid order."""
        if self._failed or self.nul or not rows:
            return
        if any("\x00" in text for _, text in rows):
            self.nul = True
            return
        self.rows += len(rows)
        # The thread runs one statement per batch, so it takes the GIL once per batch instead of
        # once per row (executemany takes it back after every row, and a busy main thread hands
        # it over only every few milliseconds); SQLite parses each text once.
        for batch in self._plan.feed(rows):
            self._put(batch)

    def _put(self, batch: tuple[int, str]) -> None:
        while not self._failed:
            try:
                self._queue.put(batch, timeout=0.5)
                return
            except queue.Full:
                if not self._thread.is_alive():  # it stopped on an error: finish_into falls back
                    self._failed = True

    def _run(self) -> None:
        try:
            self.scratch.unlink(missing_ok=True)
            conn = sqlite3.connect(str(self.scratch), check_same_thread=False)
            try:
                conn.execute("PRAGMA journal_mode = OFF")
                conn.execute("PRAGMA synchronous = OFF")
                conn.execute("PRAGMA cache_size = -16384")
                conn.execute(DDL)
                while (batch := self._queue.get()) is not _DONE:
                    conn.execute(INSERT_BATCH, batch)
                conn.commit()
            finally:
                conn.close()
        except BaseException as exc:  # reported by finish_into, which then falls back to add()
            self._error = exc
            while self._queue.get() is not _DONE:  # keep draining so feed() never blocks
                pass

    def _join(self) -> None:
        if not self._failed and not self.nul:
            for batch in self._plan.flush():
                self._put(batch)
        while self._thread.is_alive():
            try:
                self._queue.put(_DONE, timeout=0.5)
                break
            except queue.Full:
                continue
        self._thread.join()

    def finish_into(self, conn: sqlite3.Connection) -> str:
        """Put the table into ``conn``'s database (the caller commits); returns how: 'thread' or
        'fallback'. ``conn`` must have no open transaction (ATTACH needs that)."""
        self._join()
        if self.nul:
            self.discard()
            add(conn)
            return "statement"
        try:
            if self._error is not None or self._failed:
                raise RuntimeError(f"trigram thread failed: {self._error!r}")
            sections = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
            if sections != self.rows:
                raise RuntimeError(f"{self.rows} rows fed for {sections} sections")
            conn.commit()
            conn.execute("ATTACH DATABASE ? AS trigram_scratch", (str(self.scratch),))
            try:
                conn.execute(DDL)
                for name in SHADOW_TABLES:
                    conn.execute(f"DELETE FROM main.{name}")
                    conn.execute(f"INSERT INTO main.{name} SELECT * FROM trigram_scratch.{name}")
                conn.commit()
            finally:
                conn.execute("DETACH DATABASE trigram_scratch")
            return "thread"
        except (sqlite3.Error, RuntimeError):
            conn.rollback()
            drop_if_present(conn)
            fill(conn)
            return "fallback"
        finally:
            self.discard()

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
