"""One pytest run per ``--basetemp`` (loaded by conftest.py; also a plugin: ``-p basetemp_lock``).

pytest empties a given ``--basetemp`` when a run first needs it. A second run started
with the same folder while the first still runs deletes the first one's corpora and stores under
its builds, which then fail as if the product did: "unable to open database file", a build that
finds no documents, a cache that is not there. Runs without ``--basetemp`` are safe as they are:
pytest's numbered ``pytest-N`` folders carry a lock while in use and pruning skips them.

So a run given ``--basetemp`` holds an advisory lock on a file beside that folder until it
ends (the kernel releases it if the process dies), and a second one stops with one line, before
pytest touches the folder. Where ``fcntl`` does not exist the guard is off.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

import pytest

try:
    import fcntl
except ImportError:  # not on POSIX: no guard
    fcntl = None  # type: ignore[assignment]


def lock_path(basetemp: Path) -> Path:
    # Beside the folder, not in it: pytest removes the folder, and the lock must outlive that.
    return basetemp.parent / f"{basetemp.name}.lock"


def hold(basetemp: Path) -> IO[str] | None:
    """The open, locked file that marks ``basetemp`` as this run's; ``UsageError`` when another
    run holds it."""
    if fcntl is None:
        return None
    basetemp = Path(os.path.abspath(basetemp))
    handle = open(lock_path(basetemp), "a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise pytest.UsageError(
            f"--basetemp {basetemp} is in use by another pytest run, and pytest empties it at start: "
            "give each concurrent run its own --basetemp, or none"
        ) from None
    return handle


def configure(config: pytest.Config) -> None:
    given = config.getoption("basetemp")
    if not given or os.environ.get("PYTEST_XDIST_WORKER"):  # xdist workers get sub-folders of it
        return
    handle = hold(Path(given))
    if handle is not None:
        config.add_cleanup(handle.close)


def pytest_configure(config: pytest.Config) -> None:
    configure(config)
