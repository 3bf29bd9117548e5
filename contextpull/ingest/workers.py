"""Parse documents on a second core while the main process reads and writes (issue 8, "use both
cores where it pays"; issue 26, build time against ``plain``; system-design.txt section 3).

Parsing, sectioning, summarising and FTS normalisation are independent per document; writing is
not. ``ordered_map`` runs the per-document work in worker processes and hands results back in
input order, so stores stay byte-for-byte deterministic.

Work crosses to a worker in batches (``BATCH_JOBS`` documents a task): one task per document
cost more in pickling and bookkeeping, in both processes, than a plain document's parse, and
that was why workers measured slower than serial. Only a few batches are in flight, so memory
does not grow with the corpus; while the oldest is still being parsed, this process takes back
the newest one no worker has begun and parses it itself rather than wait (fastapi's build
0.72 -> 0.68 s). Workers start only once a run has shown it has enough documents
to parse for them to pay (``PARALLEL_MIN_JOBS``); until then the jobs are held (read, not
parsed). Workers are forked from this process only while it runs no other thread, else by a
fork server (``_context`` says why); ``worker_pool`` runs them, so that a worker that dies
costs its batch's time here and nothing else. A run too short for batches whose few heavy jobs
would take most of its time (pages of API reference) sends just those to one worker
(``_offload``): flask's build with its API 1.44 -> 1.19 s, pydantic's 0.81 -> 0.75 s.

How many workers: ``CONTEXTPULL_JOBS=N`` asks for N (N > 1; 1 is serial); without it a build
that reads a site's dialect gets one on Linux where the process may use two cores or more
(``worker_count``), and any other build parses in the main process.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import chain
from typing import Any

# Documents a run must have before a worker starts: below this the serial path is as fast or
# faster. A worker costs a fork, the ``multiprocessing`` import, and its own first pass over the
# site (every ``once`` value, the interpreter's first visit to the reading code), and on two cores
# it shares the second with the trigram index process; a run of a few hundred pages rarely has the
# reading to pay for that. With 128, Jekyll's docs (208 pages) and Vitest's (225) were 8-9 % slower
# than serial, and fastapi's with its API reference (155 pages, whose API pages now go to one
# worker as a short run's heavy jobs, ``_offload``) 6 %; mem0's (251) and react.dev's (223) were
# within 3 % either way (2026-12-07, per-round medians of 12-20 alternated builds, benchmarks/README.md).
PARALLEL_MIN_JOBS = 256
# Jobs a run shows before its worker starts when discovery's count (``ordered_map``'s
# ``expected``) projects ``PARALLEL_MIN_JOBS``: the count includes files a cache keeps or a rule
# skips, so the projection scales it by the share of entries so far that are jobs, and this many
# jobs are its evidence (hugoDocs' take 35 ms to read and hash). Holding 32 started hugoDocs'
# worker 26 ms sooner, but over 15-20 alternated rounds its build took 0.95x and then 1.01x,
# biome's 1.05x, starlight's 1.02-1.03x: no gain that held.
HELD_JOBS = 128
# What is held, at most, while deciding whether workers pay: a few large files must not be held.
HELD_BYTES = 32 * 1024 * 1024
BATCH_JOBS = 32
BATCHES_PER_WORKER = 3


def worker_count(jobs: int | None = None, *, reads_dialect: bool = False) -> int:
    """Worker processes for this run; 0 parses in the main process.

    ``jobs`` (``CONTEXTPULL_JOBS=N``, read at the surface) decides when given (N > 1 workers; 1
    serial). Otherwise a build that
    reads a dialect gets one worker on a machine where this process may use two cores: a
    dialect's reading (includes, shortcodes, data files, markup to text) is Python work that
    costs more than the document's parse and writing, so it pays to move it off the process
    that writes. A plain build stays serial: there the main process spent 9.6 s of CPU with
    workers against 10.8 s serial (reading, hashing, shipping bytes and records, writing), so
    the writer, not parsing, bounds the run.
    """
    if jobs is not None and jobs > 0:
        return jobs if jobs > 1 else 0
    if reads_dialect and usable_cores() >= 2 and _forks():
        return 1
    return 0


def _forks() -> bool:
    """Whether a worker can start as a fork of a process that has already imported the reading
    modules: Linux. Where it would be spawned (macOS and Windows start a new interpreter that
    imports everything again), one worker costs about what it saves on a site of a few hundred
    pages."""
    return sys.platform.startswith("linux")


# What a worker needs loaded before its first document: a fork server imports it once, so that
# each worker it forks starts with it; a process that forks its workers itself imports it just
# before (``_pool``). The reading of a generator's documents (``dialects.read``, with the shared
# Markdown steps it brings) is otherwise imported on the first document, which comes after the
# fork, so both processes paid for it: 0.008 s of CPU each on Jekyll's and Hugo's docs.
_PRELOAD = ["contextpull.ingest.engine", "contextpull.dialects.read"]


def _context():
    """How workers start: forked from this process when it runs no other thread, else forked by
    a fork server.

    A fork copies one thread; a lock another thread held at that moment stays held in the child
    for good, so a process with other threads (a caller's server, the cache copy) must not fork.
    A process with one thread forks safely and at no start-up cost: the child has the readers
    (``_PRELOAD``) and the site already loaded. It may also hold SQLite connections, which a child must never
    use or close: the child's work touches none of them, and the fork is made with the garbage
    collector's objects frozen (``worker_pool``), so no collection in the child closes one.
    The fork server is a fresh interpreter started by exec that has imported the readers
    (``_PRELOAD``) and holds neither threads nor connections; it is started once per process
    (``prestart``) and shared by every later build in it.
    """
    import multiprocessing
    import threading

    if not _forks():
        return multiprocessing.get_context()
    if threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)
    return context


def prestart() -> None:
    """Start the fork server now where one will serve (this process runs other threads), so that
    its start-up overlaps the documents' hashing instead of delaying the first batch."""
    import threading

    if _forks() and threading.active_count() > 1:
        import signal
        from multiprocessing import forkserver, resource_tracker

        _context()
        # Ctrl-C reaches the whole process group: a fork server still importing would print a
        # traceback under the build's one line. Started with SIGINT blocked (a mask outlives
        # exec), it never sees one, nor do the workers it forks; this process takes its Ctrl-C
        # as soon as the mask is back, so none is lost. The resource tracker the server needs
        # is started first: starting it unblocks SIGINT on its way out (it blocks it for itself).
        resource_tracker.ensure_running()
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            forkserver.ensure_running()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def workers_for(site, jobs: int | None = None) -> int:
    """``worker_count`` for a run over ``site`` (a ``dialects.api.Site``, None for none) that
    asked for ``jobs`` workers (``Settings.workers``; None: none asked for)."""
    return worker_count(jobs, reads_dialect=site is not None and (site.dialect != "plain" or site.mdx_seen))


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the platform says, else all)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


Job = tuple[bool, Any]  # (True, args) to compute func(*args); (False, value) to pass through


def ordered_map(
    func: Callable[..., Any],
    jobs: Iterable[Job],
    *,
    workers: int | None = None,
    min_jobs: int | None = None,
    halves: tuple[Callable[..., Any], Callable[[Any], Any]] | None = None,
    heavy: Callable[..., bool] | None = None,
    expected: int | None = None,
) -> Iterator[Any]:
    """Yield ``func(*args)`` for each job and each passed-through value, in input order.

    ``halves``, when given, is ``func`` in two parts, ``(first, second)`` with
    ``second(first(*args)) == func(*args)``: a worker computes ``first`` and this process
    ``second``, so that the work is shared where the worker would otherwise be the one the run
    waits for (the engine's read and its sectioning). ``heavy(*args)``, when given, says which
    jobs of a run too short for batches are worth a worker of their own (``_offload``).
    ``expected``, when given, is how many entries ``jobs`` holds at most (discovery's count): a
    run whose entries so far project ``min_jobs`` jobs over it starts its workers once it has
    shown ``HELD_JOBS`` (``_hold``), where any other shows ``min_jobs`` first."""
    workers = worker_count() if workers is None else workers
    min_jobs = PARALLEL_MIN_JOBS if min_jobs is None else min_jobs
    jobs = iter(jobs)
    held: list[Job] = []
    if workers > 0:
        prestart()
        held = _hold(jobs, min_jobs, expected)
        if held[-1] is not _END:
            yield from _parallel(func, held, jobs, workers, halves)
            return
        held.pop()  # the input ended before workers could pay: parse it here
        marks = [is_job and heavy is not None and heavy(*payload) for is_job, payload in held]
        if any(marks):
            yield from _offload(func, held, marks, halves)
            return
    for is_job, payload in chain(held, jobs):
        yield func(*payload) if is_job else payload


_END: Job = (False, object())  # the last held entry when the input ended while held


def _hold(jobs: Iterator[Job], min_jobs: int, expected: int | None = None) -> list[Job]:
    """The first entries of ``jobs``, up to and with the one that makes ``min_jobs + 1`` jobs (or
    ``HELD_BYTES`` of them), then ``_END`` if the input ended first. With ``expected`` entries
    in all, the holding ends sooner, once more than ``HELD_JOBS`` jobs have come and the share of
    jobs among the entries so far, over ``expected``, comes to ``min_jobs``: a fresh build of a
    large site passes that at its 129th job, one whose cache keeps most files does not."""
    held: list[Job] = []
    count = size = 0
    for entry in jobs:
        held.append(entry)
        if entry[0]:
            count += 1
            size += sum(len(a) for a in entry[1] if isinstance(a, (bytes, str)))
            if count > min_jobs or size > HELD_BYTES:
                return held
            if expected is not None and count > HELD_JOBS and count * expected >= min_jobs * len(held):
                return held
    held.append(_END)
    return held


def _parallel(func: Callable[..., Any], held: list[Job], rest: Iterator[Job], workers: int,
              halves: tuple[Callable[..., Any], Callable[[Any], Any]] | None) -> Iterator[Any]:
    """Batches of jobs to ``workers`` processes, the passed-through values kept in their places.

    A batch whose worker died (killed, out of memory), or that no worker was left to take, is
    parsed here: the store is the same, only slower."""
    first, second = halves if halves is not None else (func, None)
    with _pool(first, workers) as pool:
        yield from _batches(func, second, held, rest, workers, pool)


def _batches(func, second, held: list[Job], rest: Iterator[Job], workers: int, pool) -> Iterator[Any]:
    """``_parallel``'s loop over its open pool: batches go out as they fill and come back in
    order, ``second`` finishing here what a worker began."""
    window = workers * BATCHES_PER_WORKER
    pending: deque[tuple[int | None, list[Job]]] = deque()  # (batch id, entries); None: parsed here
    batch: list[Job] = []
    in_batch = 0
    next_id = 0

    def here(entries: list[Job]) -> list[Job]:
        return [(False, func(*payload)) if is_job else (False, payload) for is_job, payload in entries]

    def submit() -> None:
        nonlocal batch, in_batch, next_id
        if batch:
            jobs = [payload for is_job, payload in batch if is_job]
            if jobs and pool.put(next_id, jobs):
                pending.append((next_id, batch))
                next_id += 1
            else:
                pending.append((None, here(batch)))
        batch, in_batch = [], 0

    def resolve(entry: tuple[int | None, list[Job]]) -> Iterator[Any]:
        batch_id, entries = entry
        if batch_id is None:
            yield from (payload for _, payload in entries)
            return
        done = pool.result(batch_id)
        if done is None:  # lost with its worker: parse it here
            results = iter([func(*payload) for is_job, payload in entries if is_job])
        else:
            results = iter(done if second is None else [second(part) for part in done])
        for is_job, payload in entries:
            yield next(results) if is_job else payload

    def steal() -> None:
        """While the oldest batch is still being parsed, take back the newest one no worker has
        begun and parse it here: this process would otherwise only wait."""
        oldest = pending[0][0]
        if oldest is None or pool.done(oldest):
            return
        taken = pool.take_newest(keep=oldest)
        if taken is None:
            return
        for k in range(len(pending) - 1, 0, -1):
            if pending[k][0] == taken[0]:
                pending[k] = (None, here(pending[k][1]))
                return

    for entry in chain(held, rest):
        batch.append(entry)
        if entry[0]:
            in_batch += 1
        if in_batch >= BATCH_JOBS or len(batch) >= 4 * BATCH_JOBS:
            submit()
        while pending and (pending[0][0] is None or pool.done(pending[0][0]) or len(pending) > window):
            steal()
            yield from resolve(pending.popleft())
    submit()
    while pending:
        steal()
        yield from resolve(pending.popleft())


def _offload(func: Callable[..., Any], held: list[Job], marks: list[bool],
             halves: tuple[Callable[..., Any], Callable[[Any], Any]] | None) -> Iterator[Any]:
    """A short run whose ``marks``ed jobs are heavy: they go to one worker as one batch, and this
    process computes the others meanwhile, ahead of their turn while the batch is out.

    A page of API reference is the case: it reads a package's modules (pydantic's 23 modules,
    0.3-0.4 s of ``compile`` and griffe's visit, in a build that takes 0.4 s without them). One
    batch, because every such page reads the same core modules and a second process would read
    them again; its own worker, because this process has the rest of the pages and the writing
    to do. Where a job runs never changes what it gives, so the store is the one a serial run
    writes; a lost worker's batch is computed here."""
    first, second = halves if halves is not None else (func, None)
    batch = [payload for (_, payload), mark in zip(held, marks) if mark]
    ahead: dict[int, Any] = {}  # index -> a light job's result, computed while the batch was out
    done: Iterator[Any] | None = None
    with _pool(first, 1) as pool:
        sent = pool.put(0, batch)
        for index, ((is_job, payload), mark) in enumerate(zip(held, marks)):
            if not mark:
                yield (ahead.pop(index) if index in ahead else func(*payload)) if is_job else payload
                continue
            if done is None:
                for later in range(index + 1, len(held)):
                    if sent and pool.done(0):
                        break
                    if held[later][0] and not marks[later] and later not in ahead:
                        ahead[later] = func(*held[later][1])
                results = pool.result(0) if sent else None
                done = iter([func(*args) for args in batch] if results is None
                            else results if second is None else map(second, results))
            yield next(done)


@contextmanager
def _pool(func: Callable[..., Any], count: int):
    """``count`` workers running ``func``, started as ``_context`` says: closed when the run
    ends, killed when it is abandoned (an error, Ctrl-C, a caller that stops reading)."""
    from .worker_pool import WorkerPool

    context = _context()
    if context.get_start_method() == "forkserver":
        prestart()  # not started before (no other thread then): start it as prestart does
    elif context.get_start_method() == "fork":
        for name in _PRELOAD:  # the workers inherit what this process has imported
            importlib.import_module(name)
    pool = WorkerPool(context, func, count)
    try:
        yield pool
    except BaseException:
        pool.kill()
        raise
    pool.close()
