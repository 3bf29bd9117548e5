"""How far an ingest or a build is (system-design.txt section 12, "Observability").

Discovery lists the corpus before any file is read, so the total is known from the start and
every report says done / total, the percentage, the rate and the time left:

- on an interactive stderr, one line redrawn in place (at most ten times a second), cut to the
  terminal's width so it never wraps, and cleared at the end so the next message starts clean;
- on any other stderr (a CI log, a pipe), the same numbers as a plain line at most every
  ``interval`` seconds, so a long build shows it is alive and a short one adds nothing;
- disabled (``--json``, ``--quiet``), nothing at all.

Progress always goes to stderr, so ``--json`` output on stdout stays clean. click's progress bar
is not used: it shows no rate, and away from a terminal it prints its label once and then nothing,
which is the case a CI log needs most.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Callable, TextIO

from ..errors import ConfigError

BAR_WIDTH = 20
REDRAW_S = 0.1


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class Progress:
    """Counts files as they are read; ``start(total)`` comes from discovery (engine._scan)."""

    def __init__(
        self,
        label: str = "ingest",
        *,
        stream: TextIO | None = None,
        enabled: bool = True,
        interval: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.interval = interval
        self.clock = clock
        self.tty = enabled and getattr(self.stream, "isatty", lambda: False)()
        self.count = 0
        self.total: int | None = None
        self._started = clock()
        self._last = self._started
        self._drawn = False

    @classmethod
    def disabled(cls) -> Progress:
        return cls(enabled=False)

    def start(self, total: int | None = None) -> None:
        self.total = total
        self.count = 0
        self._started = self._last = self.clock()

    def advance(self, path: str = "") -> None:
        self.count += 1
        if not self.enabled:
            return
        now = self.clock()
        if self.tty:
            if now - self._last >= REDRAW_S or self.count == self.total:
                self._draw(path, now)
                self._last = now
        elif now - self._last >= self.interval:
            self.stream.write(f"{self.label}: {self.numbers(now)}\n")
            self.stream.flush()
            self._last = now

    def numbers(self, now: float | None = None) -> str:
        """``812/1612 files (50%), 305 files/s, 3s left``: what both renderings say."""
        now = self.clock() if now is None else now
        elapsed = max(now - self._started, 1e-9)
        rate = self.count / elapsed
        if not self.total:
            return f"{self.count} files, {rate:.0f} files/s"
        percent = 100 * self.count // self.total
        text = f"{self.count}/{self.total} files ({percent}%), {rate:.0f} files/s"
        if rate > 0 and self.count < self.total:
            text += f", {_duration((self.total - self.count) / rate)} left"
        return text

    def _draw(self, path: str, now: float) -> None:
        if self.total:
            filled = min(BAR_WIDTH, BAR_WIDTH * self.count // self.total)
            bar = "[" + "#" * filled + "-" * (BAR_WIDTH - filled) + "] "
        else:
            bar = ""
        line = f"{self.label} {bar}{self.numbers(now)}"
        room = self._columns() - 1 - len(line) - 2
        if path and room >= 8:
            line += "  " + (path if len(path) <= room else "…" + path[-(room - 1):])
        self.stream.write("\r" + line[: self._columns() - 1] + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def _columns(self) -> int:
        try:
            return os.get_terminal_size(self.stream.fileno()).columns or 80
        except (AttributeError, OSError, ValueError):
            return 80

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
