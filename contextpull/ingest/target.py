"""Where an ingest writes (system-design.txt sections 1 and 9): the store in place, in WAL mode
so readers keep reading while it is updated, or, for a store that does not exist yet, a scratch
file beside it that is renamed into place when the run succeeds."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..system.bounded_read import NotRegularFile, require_regular
from ..system.sqlite_files import remove_files
from ..errors import InputError, StoreError
from ..schema import SUPPORTED_MAJOR
from ..writing.flush import Flusher, flush
from ..writing.writer import connect, create_store


def open_store_for_ingest(store: Path) -> sqlite3.Connection:
    """Open an existing store for an in-place update (system-design §1, §9). Nothing is written
    yet: a run that changes nothing must leave the file's bytes as they were (a built artifact's
    checksum included), so the switch to WAL waits for the first write (``StoreTarget``)."""
    try:
        require_regular(store)  # a named pipe would block SQLite's first read
    except NotRegularFile as exc:
        raise StoreError(f"{store} is {exc.kind}, not a store file", "pass the store.sqlite file") from None
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
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _check_writable(store: Path) -> None:
    """Before SQLite touches a store it cannot write: it would leave ``-wal`` and ``-shm`` files
    with the store's read-only mode, which keep failing the next run after the mode is fixed."""
    folder = store.parent
    if not os.access(store, os.W_OK):
        raise StoreError(f"store {store} is read-only", "make it writable, or ingest into a new store file")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(
            f"the folder of store {store} is not writable (SQLite keeps its write-ahead log beside the store)",
            "make the folder writable, or ingest into a new store file",
        )


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
        self.writing = False
        try:
            self.fresh = not store.exists() or (store.is_file() and store.stat().st_size == 0)
        except OSError as exc:  # a folder on the way that cannot be entered
            raise InputError(f"cannot open store {store}: {exc.strerror or exc}") from None
        if not self.fresh:
            self.path = store
            self.conn = open_store_for_ingest(store)
            return
        self.path = store.with_name(f"{store.name}.tmp-{os.getpid()}")
        self.conn = None
        try:
            store.parent.mkdir(parents=True, exist_ok=True)
            self.path.unlink(missing_ok=True)
            self.conn = create_store(self.path)
            self._flusher = Flusher(self.path, every=_FLUSH_EVERY)
        except BaseException as exc:
            # A failed start (a full disk, Ctrl-C while the schema is written) leaves nothing.
            if self.conn is not None:
                self.conn.close()
            self._remove_scratch()
            if isinstance(exc, OSError):
                raise InputError(f"cannot create store {store}: {exc.strerror or exc}") from None
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot create store {store}: {exc}") from None
            raise

    def before_write(self) -> None:
        """Called before each write; the first one puts an existing store into WAL mode, so
        readers keep reading while it changes (system-design §9). A new store's scratch file
        is nobody's yet and is switched at the end (``commit_and_close``)."""
        if self.writing or self.fresh:
            return
        _check_writable(self.store)
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self.conn.execute("PRAGMA journal_mode = WAL")
        self.writing = True

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
            self._remove_scratch()

    def _remove_scratch(self) -> None:
        remove_files(self.path)
