"""One read-only store connection per thread, for retrievers that ragbisect calls from workers.

A sqlite3 connection belongs to the thread that opened it, and a store is read-only, so each
worker opens its own (opening is a few milliseconds) instead of sharing one behind a lock. The
path is resolved once: ``CONTEXTPULL_STORE``, else the CLI's default, so an adapter class that
ragbisect builds with no arguments finds the same store the ``contextpull`` commands do.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ..ops import Ops
from ..store import Store

DEFAULT_STORE = ".contextpull/store.sqlite"


def store_path(path: str | os.PathLike | None) -> Path:
    return Path(path or os.environ.get("CONTEXTPULL_STORE") or DEFAULT_STORE)


class ThreadStores:
    """``ops()`` is this thread's ``Ops``; the first store is opened at once, so a missing or
    unusable store fails in the constructor, before any question is asked."""

    def __init__(self, path: str | os.PathLike | None):
        self.path = store_path(path)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open: list[Store] = []
        self.first = self._store()

    def _store(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is None:
            store = Store.open(self.path)
            self._local.store = store
            self._local.ops = Ops(store)
            with self._lock:
                self._open.append(store)
        return store

    def ops(self) -> Ops:
        self._store()
        return self._local.ops

    def close(self) -> None:
        with self._lock:
            stores, self._open = self._open, []
        for store in stores:
            store.close()
