"""The cache's byte copy, made and hashed on threads while a build hashes its corpus (issue 8).

A build that reuses its cache (``--cache``) needs the cache's bytes in its own OUT: whole, when
nothing changed, or as the build file that ``patch.py`` then rewrites. ``ingest`` may later
change a published store in place, so the copy is a real copy, never a hard link.
"""

from __future__ import annotations

import errno
import hashlib
import mmap
import os
import queue
import threading
from pathlib import Path

from ..system.sqlite_files import remove_files


class CacheCopy:
    """A byte copy of the cache into the build file's place, made on a thread from the first
    changed document on while the rest of the corpus is hashed (0.2-0.7 s of a one-edit build
    otherwise spent waiting; begun earlier, it cost builds where nothing changed 0.35 s).
    ``cancel`` stops it between blocks and removes the copy, for a build that does not need it
    (nothing changed, or the cache turned out unusable).

    The copy is hashed as it is written (``digest``): those bytes are what a build publishes
    (whole reuse) or patches, so they are checked against the cache's checksum themselves, not
    a second read of a file that could have changed in between, and with no second pass.
    The kernel copies where it can (``_kernel_copy``), else two buffers do (``_buffered_copy``);
    hashlib, the copy, read and write all release the GIL.

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
        try:
            # the copy is opened for reading too: the kernel copy hashes it through a mapping
            with open(self.cache, "rb", buffering=0) as src, open(self.path, "w+b", buffering=0) as dst:
                _preallocate(dst.fileno(), os.fstat(src.fileno()).st_size)
                try:
                    end = _kernel_copy(src.fileno(), dst.fileno(), self._digest, self._stop, self._BLOCK)
                except _NoKernelCopy:
                    end = _buffered_copy(src, dst, self._digest, self._stop, self._BLOCK)
                if end is not None:
                    dst.truncate(end)  # a source that shrank while copied leaves no tail
                    self.complete = True
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


class _NoKernelCopy(Exception):
    """The kernel cannot copy between these two files: not Linux, or an older kernel or a file
    system that refuses ``copy_file_range`` (across file systems, some network mounts)."""


# What copy_file_range answers, before its first byte, where it cannot copy these files.
_NOT_HERE = frozenset({errno.EXDEV, errno.ENOSYS, errno.EOPNOTSUPP, errno.EINVAL})


def _kernel_copy(src: int, dst: int, digest, stop: threading.Event, block: int) -> int | None:
    """The copy made by the kernel (``copy_file_range``: page cache to page cache) on a thread,
    while this one hashes each copied block of the copy through a read-only mapping: neither
    block passes through a Python buffer. For the 300 MB synthetic store, 0.24-0.25 s against
    0.27-0.64 s through two buffers (7 of each, alternating; the hash alone takes 0.22 s). The
    end offset, or None when stopped."""
    copy = getattr(os, "copy_file_range", None)
    if copy is None:
        raise _NoKernelCopy
    copied: queue.SimpleQueue = queue.SimpleQueue()
    halt = threading.Event()  # this side failed: the copier stops too

    def copier() -> None:
        offset = 0
        try:
            while not (stop.is_set() or halt.is_set()):
                n = copy(src, dst, block, offset, offset)
                if not n:
                    copied.put(offset)
                    return
                copied.put((offset, n))
                offset += n
            copied.put(None)
        except OSError as exc:
            copied.put(exc)

    thread = threading.Thread(target=copier, name="cache-copy-kernel", daemon=True)
    thread.start()
    try:
        hashed = 0
        while True:
            item = copied.get()
            if isinstance(item, tuple):
                if stop.is_set():
                    return None
                _hash_range(dst, *item, digest)
                hashed += item[1]
                continue
            if isinstance(item, OSError):
                if hashed == 0 and item.errno in _NOT_HERE:
                    raise _NoKernelCopy from None
                raise item
            return item
    finally:
        halt.set()
        thread.join()


def _hash_range(fd: int, offset: int, n: int, digest) -> None:
    start = offset - offset % mmap.ALLOCATIONGRANULARITY  # a mapping begins on that boundary
    with mmap.mmap(fd, offset + n - start, access=mmap.ACCESS_READ, offset=start) as mapped:
        with memoryview(mapped) as view, view[offset - start :] as part:
            digest.update(part)


def _buffered_copy(src, dst, digest, stop: threading.Event, block: int) -> int | None:
    """Read a block, then hash it here while a second thread writes it: the hash is the slower
    of the two, so the copy takes about as long as hashing the file. The end offset, or None
    when stopped."""
    writes: queue.Queue = queue.Queue(maxsize=1)
    errors: list[OSError] = []

    def writer() -> None:
        while (item := writes.get()) is not None:
            view, n, free = item
            try:
                written = 0
                while written < n and not errors:
                    written += dst.write(view[written:n])
            except OSError as exc:
                errors.append(exc)
            free.set()

    thread = threading.Thread(target=writer, name="cache-copy-write", daemon=True)
    thread.start()
    buffers = [(bytearray(block), threading.Event()) for _ in range(2)]
    for _, free in buffers:
        free.set()
    end = None
    try:
        k = 0
        while not stop.is_set() and not errors:
            buffer, free = buffers[k]
            free.wait()  # its last write is done
            n = src.readinto(buffer)
            if not n:
                end = src.tell()
                break
            free.clear()
            view = memoryview(buffer)
            writes.put((view, n, free))
            digest.update(view[:n])
            k = 1 - k
    finally:
        writes.put(None)
        thread.join()
    if errors:
        raise errors[0]
    return end
