"""``serve --refresh DURATION``: follow a moving release tag in the background (issue 27).

A team publishes ``docs-latest`` again with every merge; a server started on Monday should not
serve Monday's docs on Friday. Every DURATION a daemon thread asks each unpinned URL mount for
its published ``.sha256`` (a few bytes); when it changed, the new store is downloaded and
verified beside the old one in the cache (``fetch.fetch_store``: one folder per checksum, the old
file untouched), opened, and swapped in between requests (``Followed.replace``: ``MountSet.swap``
for a mount, ``repoint`` for a server of one store). Anything
that goes wrong (the network, a checksum that does not match the body, a file that is not a
store) keeps the old store and is one line on stderr; the next tick tries again.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError, ContextPullError
from .fetch import fetch_store, published_checksum
from .sources import record_checksum

_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|m|h)$")
_UNIT = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(text: str) -> float:
    """``10m``, ``30s``, ``1h``, ``500ms`` as seconds; a ``ConfigError`` names the value otherwise."""
    match = _DURATION.match(text.strip())
    if match is None or float(match[1]) <= 0:
        raise ConfigError(f"--refresh {text!r} is not a duration", "give a number and a unit: 30s, 10m, 1h")
    return float(match[1]) * _UNIT[match[2]]


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@dataclass
class Followed:
    """One URL source a refresh follows: what it polls, what it serves now, how to swap."""

    name: str
    url: str
    sha256: str
    replace: Callable[[Path], None]  # a verified store file: serve it from now on


def repoint(live, path: Path) -> None:
    """A server of one store follows a new file: between requests (its lock), reopened at once."""
    with live.lock:
        live.path = Path(path)
        live.current()


class Refresher:
    """The background re-check of the URL sources a server follows."""

    def __init__(self, followed: list[Followed], interval: float, *, cache: Path, log: Callable[[str], None] = _stderr):
        self.followed = followed
        self.cache = cache  # cli.remotes.cache_dir, as the serving command read it
        self.interval = interval
        self.log = log
        self.swaps = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="contextpull-refresh", daemon=True)

    def start(self) -> "Refresher":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.check_all()

    def check_all(self) -> None:
        for source in self.followed:
            try:
                self.check(source)
            except ContextPullError as exc:
                self.log(f"contextpull: refresh of {source.name} failed, still serving sha256 {source.sha256[:12]}: {exc.message}")
            except Exception as exc:  # noqa: BLE001 - the thread must outlive any one failure
                self.log(f"contextpull: refresh of {source.name} failed, still serving sha256 {source.sha256[:12]}: "
                         f"{type(exc).__name__}: {exc}")

    def check(self, source: Followed) -> bool:
        """Swap in the store published now if its checksum changed; True when it did."""
        expected = published_checksum(source.url, timeout=60.0)
        if expected == source.sha256:
            return False
        fetched = fetch_store(source.url, cache=self.cache, sha256=expected)  # verified beside the old copy
        started = time.perf_counter()
        source.replace(fetched.path)
        took = (time.perf_counter() - started) * 1000
        source.sha256 = fetched.sha256
        record_checksum(source.url, fetched.sha256, self.cache)
        self.swaps += 1
        self.log(f"contextpull: refreshed {source.name}: now sha256 {expected[:12]} ({fetched.bytes:,} bytes; swap {took:.1f} ms)")
        return True
