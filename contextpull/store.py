"""Open a ContextPull store for reading, and refuse anything that is not one.

Implements store-format.txt, "Opening": the file is opened read-only through a ``mode=ro`` URI with
``PRAGMA query_only`` and in-memory temp storage, so no call can write to it or create temp tables
in it; ``meta.schema_version`` must be present with the major version this reader supports; FTS5
must be usable through this Python's ``sqlite3`` binding. The meta table is read once, since its
values are immutable for the life of the file.

A store written with WAL journaling can still be read from a read-only directory: SQLite needs a
``-shm`` file for WAL, so when that cannot be created and no ``-wal`` file holds unmerged pages we
reopen with ``immutable=1``, which is exact in that case.

Standard library only (ADR 001): this module is imported by every reader surface.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from pathlib import Path

from .system.bounded_read import NotRegularFile, require_regular
from .errors import StoreError
from .schema import SCHEMA_VERSION, SUPPORTED_MAJOR

_HOW_TO_BUILD = "build one with `contextpull build DOCS --out DIR` or `contextpull ingest DOCS`"


def _uri(path: Path, *extra: str) -> str:
    # Quoted as the file system's bytes: a name that is not UTF-8 (surrogate-escaped in Python)
    # still opens.
    quoted = urllib.parse.quote(os.fsencode(path.resolve().as_posix()), safe="/")
    return "file:" + quoted + "?" + "&".join(("mode=ro",) + extra)


def _binding() -> str:
    return f"Python's sqlite3 module (SQLite {sqlite3.sqlite_version})"


class Store:
    """A read-only connection to one store file plus its meta table.

    Use ``Store.open(path)`` as a context manager; ``.conn`` is the sqlite3 connection, ``.meta``
    a dict of every meta key and ``meta_get(key)`` one of them. A reader never writes
    (store-format.txt, "Opening", step 1): stores are written by ``contextpull.ingest.ingest`` and
    ``contextpull.artifact.build`` (docs/library.md).
    """

    def __init__(self, path: Path, conn: sqlite3.Connection, meta: dict[str, str]):
        self.path = path
        self.conn = conn
        self.tuples = TupleRows(conn)
        self.meta = meta

    # -- opening -------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike, readonly: bool = True) -> "Store":
        """Open ``path`` for reading, or raise ``StoreError`` with one line saying why not.

        ``readonly`` exists for code written against 0.2.1, where ``readonly=False`` opened a
        writable connection. Here it must stay ``True``: ``readonly=False`` raises ``StoreError``
        naming the write-side entry points, before the file is touched, because a write through
        a reader's connection would bypass the fingerprints, the index text and the FTS rules
        that make a store a store.
        """
        if readonly is not True:
            raise StoreError(
                f"Store.open({str(path)!r}, readonly={readonly!r}): a ContextPull reader never writes",
                "write stores with contextpull.ingest.ingest(corpus, store) or"
                " contextpull.artifact.build(docs, out); see docs/library.md",
            )
        path = Path(path)
        if not path.exists():
            raise StoreError(f"no store at {path}", _HOW_TO_BUILD)
        if path.is_dir():
            raise StoreError(f"{path} is a directory, not a store file", "pass the store.sqlite file")
        try:
            require_regular(path)  # SQLite would open a named pipe and wait on it for ever
        except NotRegularFile as exc:
            raise StoreError(f"{path} is {exc.kind}, not a store file", "pass the store.sqlite file") from None
        conn = _connect(path)
        try:
            meta = _read_meta(conn, path)
            _check_version(meta, path)
            _check_fts5(conn, path)
        except BaseException:
            conn.close()
            raise
        return cls(path, conn, meta)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- meta accessors (store-format "Opening", step 4) ----------------------------------------
    def meta_get(self, key: str) -> str | None:
        """The meta value under ``key`` as text, or ``None`` when the store has no such key.

        Read from the copy taken at open: meta is immutable for the life of the file.
        """
        return self.meta.get(key)

    def counts(self) -> tuple[int, int]:
        """(documents, sections) in the store."""
        documents = self.conn.execute("SELECT count(*) FROM documents").fetchone()[0]
        sections = self.conn.execute("SELECT count(*) FROM sections").fetchone()[0]
        return documents, sections

    @property
    def schema_version(self) -> str:
        return self.meta["schema_version"]

    @property
    def index_text(self) -> str:
        return self.meta.get("index_text", "")

    @property
    def index_mode(self) -> str | None:
        return self.meta.get("index_mode")

    @property
    def index_tokens(self) -> int | None:
        value = self.meta.get("index_tokens")
        return int(value) if value not in (None, "") else None

    @property
    def corpus_fingerprint(self) -> str | None:
        return self.meta.get("corpus_fingerprint")


_MMAP_BYTES = 1 << 30  # read through the OS page cache: a whole-corpus grep scan is ~35% faster


class TupleRows:
    """The store's connection for the operations' own reads: rows as plain tuples, whatever
    ``conn.row_factory`` says. A cursor made directly (not by ``conn.cursor()``) starts without
    the connection's row factory, and building a tuple per row is cheaper than a ``sqlite3.Row``:
    the scans behind a filtered search and a literal grep read many rows."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection):
        self._conn = conn

    def execute(self, sql: str, params=()) -> sqlite3.Cursor:
        return sqlite3.Cursor(self._conn).execute(sql, params)


def _configure(conn: sqlite3.Connection) -> None:
    # Rows read by index and by column name (``row["path"]``), as the published Store's do and
    # its users' code reads them (issue 28); sqlite3.Row is C code, unpacking works as before.
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA query_only = 1")
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute(f"PRAGMA mmap_size = {_MMAP_BYTES}")


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(_uri(path), uri=True, check_same_thread=False)
    try:
        _configure(conn)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.DatabaseError as exc:
        conn.close()
        text = str(exc)
        if "not a database" in text or "malformed" in text:
            raise StoreError(f"{path} is not a SQLite file", _HOW_TO_BUILD) from None
        # A WAL store in a directory we cannot write: SQLite cannot create the -shm file.
        wal = Path(str(path) + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise StoreError(
                f"cannot open {path}: it has an unmerged -wal file and its directory is read-only",
                "checkpoint the store (or copy it to a writable place) before serving it",
            ) from None
        try:
            conn = sqlite3.connect(_uri(path, "immutable=1"), uri=True, check_same_thread=False)
            _configure(conn)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.DatabaseError:
            conn.close()
            raise StoreError(f"cannot open {path}: {text}", "check the file's permissions") from None


def _read_meta(conn: sqlite3.Connection, path: Path) -> dict[str, str]:
    not_store = StoreError(f"{path} is not a ContextPull store (no meta.schema_version)", _HOW_TO_BUILD)
    try:
        rows = conn.execute("SELECT key, value FROM meta").fetchall()
    except sqlite3.DatabaseError:
        raise not_store from None
    for key, value in rows:
        if key in _READ_KEYS and isinstance(value, bytes):
            raise StoreError(
                f"{path} is damaged: meta.{key} is stored as bytes, not text",
                "`contextpull verify` names every problem; rebuild the store",
            )
    meta = {str(k): str(v) for k, v in rows}
    if not meta.get("schema_version"):
        raise not_store
    return meta


# The meta keys a reader reads (store-format "Opening"): as text, or the store is damaged.
_READ_KEYS = ("schema_version", "index_text", "index_mode", "index_tokens", "corpus_fingerprint")


def _check_version(meta: dict[str, str], path: Path) -> None:
    version = meta["schema_version"]
    major = version.split(".", 1)[0]
    if major != str(SUPPORTED_MAJOR):
        raise StoreError(
            f"{path} has schema version {version}; this reader supports {SCHEMA_VERSION} "
            f"and other {SUPPORTED_MAJOR}.x versions",
            "use a contextpull release that reads this version, or rebuild the store",
        )


def _check_fts5(conn: sqlite3.Connection, path: Path) -> None:
    try:
        conn.execute("SELECT count(*) FROM sections_fts LIMIT 1").fetchone()
    except sqlite3.DatabaseError as exc:
        if "no such table" in str(exc):
            raise StoreError(f"{path} is not a ContextPull store (no sections_fts table)", _HOW_TO_BUILD) from None
        raise StoreError(
            f"FTS5 is not available in {_binding()}: {exc}",
            "use a Python whose SQLite has FTS5, as the python.org builds and most distributions do",
        ) from None
