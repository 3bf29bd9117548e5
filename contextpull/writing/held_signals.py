"""Publishing an artifact is three renames, and an interrupt between two of them would leave OUT
with a new store beside the old manifest (issue 4: an interrupted build loses nothing).

While they run, SIGINT and SIGTERM are held and then delivered as they would have been, so OUT
holds one build's three files or the previous build's, never a mix. Python runs signal handlers
in the main thread only, so a build on another thread (a library caller's) holds nothing.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(signum, frame) -> None:
        received.append(signum)

    previous = {sig: signal.signal(sig, hold) for sig in HELD}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            # None: a handler installed outside Python; the default is the closest we can restore
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        for signum in dict.fromkeys(received):
            signal.raise_signal(signum)
