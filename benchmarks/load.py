"""Two CPU-bound processes that load the machine while a benchmark runs (a busy CI runner), shared
by ``stress_build.py`` and ``suite_runs.py``."""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections.abc import Iterator


def _spin(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass


@contextlib.contextmanager
def busy(processes: int = 2, limit_s: float = 4 * 3600) -> Iterator[None]:
    """``processes`` spinning processes for the block; each also stops by itself after
    ``limit_s``, so an interrupted benchmark leaves nothing running for long."""
    context = multiprocessing.get_context("spawn")
    spinners = [context.Process(target=_spin, args=(limit_s,), daemon=True) for _ in range(processes)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()
