"""Where an ingest writes (system-design.txt sections 1 and 9): the store in place, in WAL mode
so readers keep reading while it is updated, or, for a store that does not exist yet, a scratch
file beside it that is renamed into place when the run succeeds."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..errors import InputError, StoreError
from ..schema import SUPPORTED_MAJOR
from .flush import Flusher, flush
from .writer import connect, create_store


def open_store_for_ingest(store: Path) -> sqlite3.Connection:
    """Open an existing store for an in-place update, in WAL mode (system-design §1, §9)."""
    try:
        conn = connect(store)
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{store} is not a ContextPull store ({exc})") from None
    if row is None:
        conn.close()
        raise StoreError(f"{store} is not a ContextPull store: meta.schema_version is missing")
    major = str(row[0]).split(".", 1)[0]
    if major != str(SUPPORTED_MAJOR):
        conn.close()
        raise StoreError(
            f"{store} has schema version {row[0]}; this contextpull writes {SUPPORTED_MAJOR}.x",
            "ingest into a new store file",
        )
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


# The scratch file's pages are written out every so often while the ingest goes on, so the
# flush before the rename has little left to do.
_FLUSH_EVERY = 0.5


class StoreTarget:
    """Where this run writes: the store in place, or, for a store that does not exist yet, a
    scratch file beside it that is renamed into place at the end.

    Nobody can be reading a store that does not exist, so the first ingest writes with no
    journal and no fsync per commit (several times faster on large corpora), switches the
    finished file to WAL, and flushes it to disk before renaming it into place (written out as
    it goes, ``flush.Flusher``): a failed first run leaves no half-written store behind, and a
    crash after the rename no store whose pages were never written. Later ingests commit in WAL
    mode as SQLite does.
    """

    def __init__(self, store: Path):
        self.store = store
        self.fresh = not store.exists() or (store.is_file() and store.stat().st_size == 0)
        if self.fresh:
            self.path = store.with_name(f"{store.name}.tmp-{os.getpid()}")
            try:
                store.parent.mkdir(parents=True, exist_ok=True)
                if self.path.exists():
                    self.path.unlink()
                self.conn = create_store(self.path)
                self._flusher = Flusher(self.path, every=_FLUSH_EVERY)
            except OSError as exc:
                raise InputError(f"cannot create store {store}: {exc.strerror or exc}") from None
        else:
            self.path = store
            self.conn = open_store_for_ingest(store)

    def commit_and_close(self) -> None:
        if self.fresh:
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.close()
            self._flusher.stop()
            try:
                flush(self.path)
            except OSError as exc:
                raise StoreError(f"cannot write store {self.store} to disk: {exc.strerror or exc}") from None
            os.replace(self.path, self.store)
        else:
            self.conn.close()
        self.conn = None

    def abandon(self) -> None:
        if self.conn is not None:
            self.conn.close()
        if self.fresh:
            self._flusher.stop()
            for suffix in ("", "-journal", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
