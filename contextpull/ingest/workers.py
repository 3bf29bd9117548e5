"""Parse documents on every core while one process writes (issue 8, "use both cores where it
pays"; system-design.txt section 3).

Parsing, sectioning, summarising and FTS normalisation are independent per document; writing is
not. ``ordered_map`` runs the per-document work in worker processes and hands results back in
input order, so stores stay byte-for-byte deterministic. It keeps at most a small window of
documents in flight, so memory does not grow with the corpus, and it only starts processes once
a run has enough documents to parse for them to pay (a small corpus never pays their start-up).

It is off unless ``CONTEXTPULL_JOBS=N`` (N > 1) asks for N workers; see ``worker_count`` for why.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when workers start: the serial default should not pay for them
    from concurrent.futures import Future, ProcessPoolExecutor

# Documents to parse before worker processes start: below this the serial path is as fast.
PARALLEL_MIN_JOBS = 128
WINDOW_PER_WORKER = 16


def worker_count(environ=os.environ) -> int:
    """Parse workers for this run: ``CONTEXTPULL_JOBS``, else none (serial).

    Serial is the default because workers did not pay where measured: on 2 cores the main
    process still spent 9.6 s of CPU (reading, hashing, shipping bytes and records, writing)
    against 10.8 s serial, so the writer, not parsing, bounds the run.
    """
    raw = environ.get("CONTEXTPULL_JOBS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    return 1


Job = tuple[bool, Any]  # (True, args) to compute func(*args); (False, value) to pass through


def ordered_map(
    func: Callable[..., Any],
    jobs: Iterable[Job],
    *,
    workers: int | None = None,
    min_jobs: int | None = None,
) -> Iterator[Any]:
    """Yield ``func(*args)`` for each job and each passed-through value, in input order."""
    workers = worker_count() if workers is None else workers
    min_jobs = PARALLEL_MIN_JOBS if min_jobs is None else min_jobs
    window = max(1, workers) * WINDOW_PER_WORKER
    executor: ProcessPoolExecutor | None = None
    pending: deque[tuple[Future | None, Any]] = deque()
    n_jobs = 0

    def resolve(entry: tuple[Future | None, Any]) -> Any:
        future, value = entry
        if future is None:
            return value
        from concurrent.futures.process import BrokenProcessPool

        try:
            return future.result()
        except BrokenProcessPool:  # a worker died (killed, out of memory): do it here instead
            return func(*value)

    try:
        for is_job, payload in jobs:
            if not is_job:
                pending.append((None, payload))
            else:
                n_jobs += 1
                if executor is None and workers > 1 and n_jobs > min_jobs:
                    from concurrent.futures import ProcessPoolExecutor

                    executor = ProcessPoolExecutor(max_workers=workers)
                if executor is None:
                    pending.append((None, func(*payload)))
                else:
                    pending.append((executor.submit(func, *payload), payload))
            while pending and (
                pending[0][0] is None or pending[0][0].done() or len(pending) > window
            ):
                yield resolve(pending.popleft())
        while pending:
            yield resolve(pending.popleft())
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
