"""Getting a file onto disk before it is renamed into place, without waiting for all of it at
the end (issue 4, "nothing is lost"; used by ``build_file`` and ``ingest_target``)."""

from __future__ import annotations

import os
import threading
from pathlib import Path


def flush(path: Path) -> None:
    """``fsync`` the file: its data and size are on disk when this returns."""
    fd = os.open(path, os.O_RDWR)  # Windows flushes only writable handles
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


_datasync = getattr(os, "fdatasync", os.fsync)  # macOS has no fdatasync


class Flusher:
    """``fdatasync`` on a file another connection is writing, every ``every`` seconds.

    Only a head start for the ``flush`` that follows, which still makes the file durable: the
    pages are written out while the work goes on, not all at the end. A failure here is left
    for that ``flush`` to report.
    """

    def __init__(self, path: Path, every: float = 0.1):
        self.path = path
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="flush", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        fd = None
        try:
            while not self._stop.wait(self.every):
                if fd is None:
                    try:
                        fd = os.open(self.path, os.O_RDWR)  # Windows flushes only writable handles
                    except FileNotFoundError:
                        continue
                _datasync(fd)
        except OSError:
            pass
        finally:
            if fd is not None:
                os.close(fd)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
