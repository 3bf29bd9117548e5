"""Two CPU-bound processes that load the machine while a benchmark runs (a busy CI runner), shared
by ``stress_build.py`` and ``suite_runs.py``."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Iterator


def _spin(seconds: float, parent: int) -> None:
    """Spin until ``seconds`` have passed or the benchmark that started it is gone (killed
    without the chance to stop it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and os.getppid() == parent:
        for _ in range(100_000):
            pass


@contextlib.contextmanager
def busy(processes: int = 2, limit_s: float = 4 * 3600) -> Iterator[None]:
    """``processes`` spinning processes for the block; each also stops by itself after
    ``limit_s`` or once the benchmark is gone, so a killed benchmark leaves nothing running."""
    context = multiprocessing.get_context("spawn")
    spinners = [context.Process(target=_spin, args=(limit_s, os.getpid()), daemon=True) for _ in range(processes)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()
