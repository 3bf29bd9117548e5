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
  copies. Before the artifact is renamed into place it is flushed to disk, beside its sha256
  pass (``hash_and_flush``).
"""

from __future__ import annotations

import errno
import hashlib
import os
import queue
import shutil
import sqlite3
import threading
from pathlib import Path

from ..errors import BuildError
from . import trigram
from .fingerprint import file_sha256
from .flush import Flusher, flush
from .outdir import remove_files
from .writer import PAGE_SIZE as WRITER_PAGE_SIZE

# The writer's page size (16 KiB: faster inserts, smaller file), kept by VACUUM INTO without a
# conversion; fixed per builder version, so it is part of what makes the bytes reproducible.
PAGE_SIZE = WRITER_PAGE_SIZE


def create(path: Path) -> sqlite3.Connection:
    """A new, empty build file with the store's schema and the trigram table."""
    from .writer import create_store

    conn = create_store(path)
    conn.execute(trigram.DDL)
    conn.commit()
    return _for_building(conn)


class CacheCopy:
    """A byte copy of the cache into the build file's place, made on a thread from the first
    changed document on while the rest of the corpus is hashed (0.2-0.7 s of a one-edit build
    otherwise spent waiting; begun earlier, it cost builds where nothing changed 0.35 s).
    ``cancel`` stops it between blocks and removes the copy, for a build that does not need it
    (nothing changed, or the cache turned out unusable).

    The copy is hashed as it is written (``digest``): those bytes are what a build publishes
    (whole reuse) or patches, so they are checked against the cache's checksum themselves, not
    a second read of a file that could have changed in between, and with no second pass.
    hashlib, read and write release the GIL.

    A copy published whole is not flushed to disk: a crash before the rename loses only a
    temporary file, but one soon after it can leave, on a file system that does not order a new
    file's data before its rename, a store whose bytes no longer match its ``.sha256``, which
    ``verify`` and a later ``--cache`` report. A full or patched build flushes before it
    publishes (``hash_and_flush``); here that would cost a build with nothing changed 0.5-0.7 s
    for a 300 MB store (0.16-0.27 s per 111 MB measured), more than the rest of it."""

    _BLOCK = 8 << 20

    def __init__(self, cache: Path, path: Path):
        self.cache, self.path = Path(cache), Path(path)
        self._stop = threading.Event()
        self._error: OSError | None = None
        self._digest = hashlib.sha256()
        self.complete = False  # the whole file was copied (and hashed), not cut short
        self._thread = threading.Thread(target=self._run, name="cache-copy", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        """Read a block, then hash it here while a second thread writes it: the hash is the
        slower of the two, so the copy takes about as long as hashing the file."""
        writes: queue.Queue = queue.Queue(maxsize=1)
        errors: list[OSError] = []

        def writer(dst) -> None:
            while (item := writes.get()) is not None:
                view, n, free = item
                try:
                    written = 0
                    while written < n and not errors:
                        written += dst.write(view[written:n])
                except OSError as exc:
                    errors.append(exc)
                free.set()

        try:
            with open(self.cache, "rb", buffering=0) as src, open(self.path, "wb", buffering=0) as dst:
                _preallocate(dst.fileno(), os.fstat(src.fileno()).st_size)
                thread = threading.Thread(target=writer, args=(dst,), name="cache-copy-write", daemon=True)
                thread.start()
                buffers = [(bytearray(self._BLOCK), threading.Event()) for _ in range(2)]
                for _, free in buffers:
                    free.set()
                try:
                    k = 0
                    while not self._stop.is_set() and not errors:
                        buffer, free = buffers[k]
                        free.wait()  # its last write is done
                        n = src.readinto(buffer)
                        if not n:
                            self.complete = True
                            break
                        free.clear()
                        view = memoryview(buffer)
                        writes.put((view, n, free))
                        self._digest.update(view[:n])
                        k = 1 - k
                finally:
                    writes.put(None)
                    thread.join()
                if errors:
                    raise errors[0]
                if self.complete:
                    dst.truncate(src.tell())  # a source that shrank while copied leaves no tail
        except OSError as exc:  # handed over in wait()
            self._error = exc
            self.complete = False

    @property
    def digest(self) -> str:
        """sha256 of the bytes copied; after ``wait``."""
        return self._digest.hexdigest()

    def done(self) -> bool:
        return not self._thread.is_alive()

    def wait(self) -> Path:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self.path

    def cancel(self) -> None:
        self._stop.set()
        self._thread.join()
        remove_files(self.path)


def _preallocate(fd: int, size: int) -> None:
    """Reserve a copy's blocks before writing it: ext4 then took the 300 MB synthetic store's
    writes in 0.12-0.16 s instead of 0.15-0.33 s, and a build with nothing changed into a new
    OUT went from 0.75-0.88 s to 0.67-0.81 s (measured alternating, 5 pairs). Where the call is
    missing or the file system does not support it, the writes allocate as they go."""
    allocate = getattr(os, "posix_fallocate", None)  # not on macOS or Windows
    if allocate is None or size <= 0:
        return
    try:
        allocate(fd, 0, size)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise
        # EINVAL, EOPNOTSUPP and the like: not here; the copy goes on without it


def copy_of(cache: Path, path: Path, started: CacheCopy | None = None) -> sqlite3.Connection:
    """The build file as a byte copy of ``cache`` (the kernel copies it), to be patched;
    ``started`` is that copy begun earlier."""
    from .writer import connect

    if started is not None:
        started.wait()
    else:
        shutil.copyfile(cache, path)
    conn = connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute(f"PRAGMA schema_version = {_new_schema_cookie()}")
    return _for_building(conn)


def _new_schema_cookie() -> int:
    """The schema cookie of a new build file: one schema change per statement of its DDL."""
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


def vacuum_into(conn: sqlite3.Connection, build: Path, store: Path) -> None:
    """Write the artifact ``store`` from the build file, then remove the build file.

    Unlinked before its connection closes, the build file skips the checkpoint SQLite would
    otherwise make on close, which would copy the whole WAL into a file about to be removed
    (where files in use cannot be unlinked, the caller removes it after the close). While
    VACUUM INTO writes, a thread flushes what it has written so far (``flush.Flusher``), so that
    the flush before publishing has little left to do.
    """
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    flusher = Flusher(store)
    try:
        conn.execute("VACUUM INTO ?", (str(store),))
    finally:
        flusher.stop()
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
    """``func`` over a read-only connection to ``path``, in a thread; ``result()`` joins."""

    def __init__(self, func, path: Path):
        self._value = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(func, path), daemon=True)
        self._thread.start()

    def _run(self, func, path: Path) -> None:
        from .verify import open_readonly

        try:
            conn = open_readonly(path)
            try:
                self._value = func(conn)
            finally:
                conn.close()
        except BaseException as exc:  # handed to the caller in result()
            self._error = exc

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value
