"""The build file: where a build's rows are written before ``VACUUM INTO`` makes the artifact.

Why it is shaped this way (issue 4, items 1-3):

- It is scratch, beside the artifact under a temporary name, so durability is not needed while
  it is written (``synchronous=OFF``). It is in WAL mode because the index threads and the
  content fingerprint read it while the writer writes, and it is never checkpointed: every page
  is written once, to the WAL, and read from there by ``VACUUM INTO`` (copying the WAL into the
  file as well cost ~1 s of a 5,000-document build).
- It starts empty, or as a byte copy of a trusted cache that ``patch.py`` then rewrites where
  the corpus changed. The copy carries the schema cookie of a new build file, because
  ``VACUUM INTO`` writes the source's cookie plus one into the artifact.
- ``VACUUM INTO`` makes the artifact from it: the bytes depend on the rows, not on how they got
  there, with a rollback-journal header and the fixed page size (``check_shape``). The content
  fingerprint runs beside it on a thread (``Background``): SQLite releases the GIL while it
  copies. The build file is removed only once that thread is done with it (``discard``): a
  thread that a busy machine scheduled late once found the file gone under it, and the build
  failed with "disk I/O error". Before the artifact is renamed into place it is flushed to disk,
  beside its sha256 pass (``hash_and_flush``).
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

from ..errors import BuildError
from ..indexing import trigram
from .cache_copy import CacheCopy
from ..writing.fingerprint import file_sha256
from ..writing.flush import Flusher, flush
from ..system.sqlite_files import remove_files
from ..writing.writer import PAGE_SIZE as WRITER_PAGE_SIZE

# The writer's page size (16 KiB: faster inserts, smaller file), kept by VACUUM INTO without a
# conversion; fixed per builder version, so it is part of what makes the bytes reproducible.
PAGE_SIZE = WRITER_PAGE_SIZE


def create(path: Path) -> sqlite3.Connection:
    """A new, empty build file with the store's schema and the trigram table."""
    from ..writing.writer import create_store

    conn = create_store(path)
    conn.execute(trigram.DDL)
    conn.commit()
    return _for_building(conn)


def copy_of(cache: Path, path: Path, started: CacheCopy | None = None) -> sqlite3.Connection:
    """The build file as a byte copy of ``cache`` (the kernel copies it), to be patched;
    ``started`` is that copy begun earlier."""
    from ..writing.writer import connect

    if started is not None:
        started.wait()
    else:
        shutil.copyfile(cache, path)
    conn = connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute(f"PRAGMA schema_version = {schema_cookie()}")
    return _for_building(conn)


def schema_cookie() -> int:
    """The schema cookie of a new build file: one schema change per statement of its DDL. A
    patched copy of a cache is given it, so that its bytes are a fresh build's."""
    from ..schema import DDL

    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(DDL)
        conn.execute(trigram.DDL)
        return conn.execute("PRAGMA schema_version").fetchone()[0]
    finally:
        conn.close()


def _for_building(conn: sqlite3.Connection) -> sqlite3.Connection:
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("PRAGMA synchronous = OFF")
    return conn


def vacuum_into(conn: sqlite3.Connection, store: Path) -> None:
    """Write the artifact ``store`` from the build file.

    While VACUUM INTO writes, a thread flushes what it has written so far (``flush.Flusher``), so
    that the flush before publishing has little left to do.
    """
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    flusher = Flusher(store)
    try:
        conn.execute("VACUUM INTO ?", (str(store),))
    finally:
        flusher.stop()


def discard(conn: sqlite3.Connection, build: Path) -> None:
    """Remove the build file, then close its connection; call it once nothing reads the file.

    Unlinked before its connection closes, the build file skips the checkpoint SQLite would
    otherwise make on close, which would copy the whole WAL into a file about to be removed
    (where files in use cannot be unlinked, the caller removes it after the close).
    """
    remove_files(build)
    conn.close()


def set_meta(store: Path, key: str, value: str) -> None:
    """Overwrite one meta value of the artifact in place (same length: one cell rewritten).

    No sync: with the default (FULL) this commit flushed the whole new file to disk on the
    critical path, 0.6 s of a one-edit build; ``hash_and_flush`` flushes it beside its hash.
    """
    final = sqlite3.connect(str(store))
    try:
        final.execute("PRAGMA synchronous = OFF")
        final.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
        final.commit()
    finally:
        final.close()


def check_shape(path: Path) -> None:
    with open(path, "rb") as handle:
        header = handle.read(100)
    page_size = int.from_bytes(header[16:18], "big")
    if header[18:20] != b"\x01\x01":
        # VACUUM INTO keeps a rollback-journal header; anything else is a bug worth stopping on.
        raise BuildError(f"the built store is not in rollback-journal mode (header {header[18:20].hex()})")
    if page_size != PAGE_SIZE:
        raise BuildError(f"the built store has page size {page_size}, expected {PAGE_SIZE}")


def hash_and_flush(path: Path) -> str:
    """The file's sha256, while a thread flushes it to disk (``fsync``), so that the artifact
    renamed into place later is on disk and not only in the page cache. The two overlap: the
    hash reads the pages from memory while the flush writes them out."""
    errors: list[OSError] = []

    def flush_file() -> None:
        try:
            flush(path)
        except OSError as exc:  # reported below, after the hash
            errors.append(exc)

    flusher = threading.Thread(target=flush_file, name="fsync", daemon=True)
    flusher.start()
    digest = file_sha256(path)
    flusher.join()
    if errors:
        raise BuildError(f"cannot write the store to disk: {errors[0]}")
    return digest


class Background:
    """``func`` over a read-only connection to ``path``, in a thread; ``result()`` joins.

    The connection is opened and its read transaction begun here, in the caller's thread, so
    what ``func`` sees is the file as it is at this call, however late the thread is scheduled
    and whatever the caller writes meanwhile. The caller keeps the file until ``result()``
    has returned.
    """

    def __init__(self, func, path: Path):
        from ..checks.verify import open_readonly

        self._value = None
        self._error: BaseException | None = None
        self._conn = open_readonly(path, check_same_thread=False)
        try:
            self._conn.execute("BEGIN")
            self._conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # the snapshot
        except BaseException:
            self._conn.close()
            raise
        self._thread = threading.Thread(target=self._run, args=(func,), daemon=True)
        self._thread.start()

    def _run(self, func) -> None:
        try:
            self._value = func(self._conn)
        except BaseException as exc:  # handed to the caller in result()
            self._error = exc
        finally:
            self._conn.close()

    def join(self) -> None:
        self._thread.join()

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value
