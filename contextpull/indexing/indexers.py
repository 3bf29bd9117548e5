"""Both FTS5 tables' workers driven as one, beside the writer (issue 8).

The word index runs on a thread (``index_thread``), since FTS5 fills it with the GIL released;
the trigram table runs in a child process (``index_process``), since its rows are Python work.
This module sits above both so neither imports the other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

from . import index_process, segments
from .index_thread import TRIGRAMS, WORDS, IndexThread


class Indexers:
    """One worker per index, driven as one: a thread for the word index, which FTS5 fills with
    the GIL released, and a process for the trigram table, whose rows are Python work
    (``index_process.py``)."""

    def __init__(self, scratch: Path, source: Path, trigram_worker: type[IndexThread] | None = None):
        if trigram_worker is None:
            trigram_worker = index_process.IndexProcess  # looked up here, so a test can swap it
        self.threads = [
            IndexThread(Path(f"{scratch}.0"), source, (WORDS,)),
            trigram_worker(Path(f"{scratch}.1"), source, (TRIGRAMS,)),
        ]

    @property
    def failures(self) -> list[str]:
        """What failed and was redone here: the build's rows are the same, but the user is told."""
        return [thread.failure for thread in self.threads if thread.failure]

    @property
    def waited(self) -> float:
        return sum(thread.waited for thread in self.threads)

    def part(self, position: int, first: int, last: int) -> None:
        for thread in self.threads:
            thread.part(position, first, last)

    def end(self, position: int) -> None:
        for thread in self.threads:
            thread.end(position)

    def finish_into(self, conn: sqlite3.Connection, copied: Mapping[str, segments.Totals]) -> str:
        return "+".join(thread.finish_into(conn, copied) for thread in self.threads)

    def discard(self) -> None:
        for thread in self.threads:
            thread.discard()
