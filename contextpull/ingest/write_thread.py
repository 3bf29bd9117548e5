"""Write jobs run in order on one thread, while the caller goes on parsing (issue 8, "use both
cores where it pays").

Why: parsing is Python and holds the GIL; most of writing is SQLite (inserting rows and FTS5
tokenising them), which releases it. Done in one thread the two add up; handed to a writer
thread they overlap. The jobs run one at a time in the order submitted, so the store gets the
same statements in the same order as when they ran inline: the result does not change.

A bounded queue keeps at most ``depth`` jobs waiting (``ingest`` keeps one batch of about
2,000 rows waiting while another is written), so memory does not grow with the corpus. A job that raises stops the writer: the error is raised
again in the caller at its next ``submit`` or at ``close``, never lost. ``abort`` (for a caller
that is failing or interrupted) waits for the job in hand and drops the rest, so the caller can
then close the connection safely.

The connection the jobs use must allow use from another thread (``check_same_thread=False``);
the caller must not use it between the first ``submit`` and ``close`` or ``abort``.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

class WriteThread:
    def __init__(self, name: str = "store-writer", depth: int = 1):
        self._jobs: queue.Queue = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if self._error is not None or self._stopping:
                continue  # failed or aborted: drain without running, until the end marker
            func, args = job
            try:
                func(*args)
            except BaseException as exc:  # handed to the caller in submit() or close()
                self._error = exc

    def submit(self, func: Callable[..., Any], *args: Any) -> None:
        """Queue ``func(*args)``; raises the error of a job that failed before it."""
        self._raise()
        self._jobs.put((func, args))

    def close(self) -> None:
        """Wait for every queued job; raises the first job's error, if one failed."""
        self._end()
        self._raise()

    def abort(self) -> None:
        """Drop the jobs not begun, wait for the one running; errors are not raised."""
        self._stopping = True
        self._end()

    def _end(self) -> None:
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            self._stopping = True  # once reported, nothing more runs
            raise error
