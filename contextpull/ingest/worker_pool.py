"""Worker processes that take batches from one queue and can die without stalling the build.

Why not ``concurrent.futures.ProcessPoolExecutor``: when one of its workers is killed (the OOM
killer, a stray ``kill -9``) its call queue's feeder thread stays blocked writing into a pipe no
process reads, and the interpreter's exit joins that thread: the build had finished and
published, and the process never ended (measured on Python 3.11 with a fork and a fork-server
worker alike). Here nothing joins a thread that might be blocked, and a dead worker is seen as
the end of its connection.

Protocol, over one duplex connection per worker: the worker sends ``WANT``; its dispatcher
thread answers with the next ``(batch_id, jobs)`` from the shared queue, or ``None`` to stop;
the worker sends ``(batch_id, results)`` and asks again. A batch leaves the queue only when a
worker asks for it, so the caller can take back (``take_newest``) any batch no worker has begun,
and batches lost with a dead worker are known exactly (``lost``).
"""

from __future__ import annotations

import gc
import signal
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

WANT = "want"


def _serve(conn, func: Callable[..., Any]) -> None:
    """A worker's whole life: ask, compute, answer, until told to stop or the caller is gone.

    Ctrl-C reaches the whole process group; the caller decides what it means (it stops the
    worker), so a worker ignores it rather than print a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while True:
            conn.send(WANT)
            message = conn.recv()
            if message is None:
                return
            batch_id, jobs = message
            conn.send((batch_id, [func(*args) for args in jobs]))
    except (EOFError, OSError):  # the caller has gone: nothing is left to do
        return
    finally:
        conn.close()


class WorkerPool:
    """``count`` worker processes started from ``context``, each running ``func`` over batches."""

    def __init__(self, context, func: Callable[..., Any], count: int):
        self._lock = threading.Condition()
        self._queue: deque[tuple[int, list]] = deque()  # batches no worker has begun
        self._begun: dict[int, int] = {}  # batch id -> the worker computing it
        self._results: dict[int, list] = {}
        self._dead: set[int] = set()
        self._closing = False
        self._workers = []
        self._threads = []
        forked = context.get_start_method() == "fork"
        if forked:
            # Objects the child inherits are never collected there: a collection in the child
            # would close this process's SQLite connections it holds copies of.
            gc.freeze()
        # A worker starts with SIGINT blocked until it ignores it (a Ctrl-C in between would
        # print its traceback); one that reaches this process meanwhile is taken after the starts.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for index in range(count):  # every worker before any thread of ours: a fork copies one
                parent, child = context.Pipe(duplex=True)
                process = context.Process(target=_serve, args=(child, func), daemon=True, name=f"contextpull-parse-{index}")
                process.start()
                child.close()  # the worker's end lives in the worker only: its death ends the connection
                self._workers.append((process, parent))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            if forked:
                gc.unfreeze()
        for index, (_, parent) in enumerate(self._workers):
            thread = threading.Thread(target=self._dispatch, args=(index, parent), daemon=True, name=f"parse-dispatch-{index}")
            self._threads.append(thread)
            thread.start()

    # -- the dispatcher thread of one worker ----------------------------------------------------
    def _dispatch(self, index: int, conn) -> None:
        try:
            while True:
                message = conn.recv()
                if message != WANT:
                    batch_id, results = message
                    with self._lock:
                        self._results[batch_id] = results
                        self._begun.pop(batch_id, None)
                        self._lock.notify_all()
                    continue
                with self._lock:
                    while not self._queue and not self._closing:
                        self._lock.wait()
                    item = None if self._closing else self._queue.popleft()
                    if item is not None:
                        self._begun[item[0]] = index
                conn.send(item)
                if item is None:
                    return
        except (EOFError, OSError):  # the worker died (or was stopped): its begun batch is lost
            pass
        finally:
            conn.close()  # closed here, by the one thread that reads it
            with self._lock:
                self._dead.add(index)
                self._lock.notify_all()

    # -- the caller's side ----------------------------------------------------------------------
    def put(self, batch_id: int, jobs: list) -> bool:
        """Queue a batch; False when no worker is left to take it."""
        with self._lock:
            if len(self._dead) == len(self._workers):
                return False
            self._queue.append((batch_id, jobs))
            self._lock.notify_all()
            return True

    def take_newest(self, keep: int) -> tuple[int, list] | None:
        """The newest queued batch no worker has begun, other than ``keep``; None if there is none."""
        with self._lock:
            if self._queue and self._queue[-1][0] != keep:
                return self._queue.pop()
            return None

    def done(self, batch_id: int) -> bool:
        with self._lock:
            return batch_id in self._results

    def result(self, batch_id: int) -> list | None:
        """The batch's results, waiting for them; None when the batch is lost (its worker died, or
        every worker died before one began it)."""
        with self._lock:
            while True:
                if batch_id in self._results:
                    return self._results.pop(batch_id)
                worker = self._begun.get(batch_id)
                if worker is not None and worker in self._dead:
                    return None
                if worker is None and len(self._dead) == len(self._workers):
                    self._queue = deque(item for item in self._queue if item[0] != batch_id)
                    return None
                self._lock.wait()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the workers: each finishes what it computes (a batch at most), then ends; one that
        does not end within ``timeout`` is killed. Never waits without a bound."""
        self._stop(kill=False, timeout=timeout)

    def kill(self) -> None:
        """Stop the workers at once (the build is being abandoned: an error or Ctrl-C)."""
        self._stop(kill=True, timeout=5.0)

    def _stop(self, kill: bool, timeout: float) -> None:
        with self._lock:
            self._closing = True
            self._queue.clear()
            self._lock.notify_all()
        for process, _ in self._workers:
            if not kill:
                process.join(timeout)
            if process.is_alive():
                process.kill()
            process.join(timeout)
        for thread in self._threads:  # each ends at its worker's end of the connection
            thread.join(timeout)
