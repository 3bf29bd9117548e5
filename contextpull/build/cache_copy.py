"""The cache's byte copy, made and hashed on threads while a build hashes its corpus (issue 8).

A build that reuses its cache (``--cache``) needs the cache's bytes in its own OUT: whole, when
nothing changed, or as the build file that ``patch.py`` then rewrites. ``ingest`` may later
change a published store in place, so the copy is a real copy, never a hard link.
"""

from __future__ import annotations

import errno
import hashlib
import os
import queue
import threading
from pathlib import Path

from .outdir import remove_files


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
