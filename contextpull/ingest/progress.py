"""A tiny progress reporter for ingest and build (system-design.txt section 12, "Observability").

On an interactive stderr it redraws one bar line; otherwise (CI logs) it prints a plain line at
most every few seconds so logs stay short; disabled, it does nothing. Progress always goes to
stderr so ``--json`` output on stdout stays clean.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from ..errors import ConfigError


class Progress:
    def __init__(
        self,
        label: str = "ingest",
        *,
        stream: TextIO | None = None,
        enabled: bool = True,
        interval: float = 5.0,
    ):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.interval = interval
        self.tty = enabled and getattr(self.stream, "isatty", lambda: False)()
        self.count = 0
        self.total: int | None = None
        self._last = 0.0
        self._drawn = False

    @classmethod
    def disabled(cls) -> Progress:
        return cls(enabled=False)

    def start(self, total: int | None = None) -> None:
        self.total = total
        self.count = 0
        self._last = time.monotonic()

    def advance(self, path: str = "") -> None:
        self.count += 1
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            if now - self._last >= 0.1 or self.count == self.total:
                self._draw(path)
                self._last = now
        elif now - self._last >= self.interval:
            self.stream.write(f"{self.label}: {self._counter()} files\n")
            self.stream.flush()
            self._last = now

    def _counter(self) -> str:
        return f"{self.count}/{self.total}" if self.total else str(self.count)

    def _draw(self, path: str) -> None:
        width = 24
        if self.total:
            filled = min(width, int(width * self.count / self.total))
            bar = "#" * filled + "-" * (width - filled)
        else:
            bar = "#" * (self.count % (width + 1))
        tail = path if len(path) <= 40 else "…" + path[-39:]
        self.stream.write(f"\r{self.label} [{bar:<{width}}] {self._counter()} {tail}\x1b[K")
        self.stream.flush()
        self._drawn = True

    def finish(self) -> None:
        if self.enabled and self.tty and self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False


class CallbackProgress:
    """A library caller's ``progress(path)`` function in the shape ingest and build drive."""

    def __init__(self, callback: Callable[[str], object]):
        self.callback = callback

    def start(self, total: int | None = None) -> None:
        pass

    def advance(self, path: str = "") -> None:
        self.callback(path)

    def finish(self) -> None:
        pass


def as_progress(progress) -> object | None:
    """``None``, a ``Progress``-like object (``start``/``advance``/``finish``), or a function
    called with each file's corpus-relative path as it is read (docs/library.md)."""
    if progress is None or hasattr(progress, "advance"):
        return progress
    if callable(progress):
        return CallbackProgress(progress)
    raise ConfigError(
        f"progress must be a function of one path or a Progress, got {type(progress).__name__}"
    )
