"""A SQLite file and the files SQLite keeps beside it, removed together.

Why: a journal or WAL left beside a path is applied to whatever file next takes that name, so
a scratch or temporary database is only gone when its companions are. Every room that makes
such files (the build's temporary store, the index and ``search_impacts`` scratch files, an
update's temporary copy) removes them through this one function.
"""

from __future__ import annotations

from pathlib import Path

COMPANIONS = ("-journal", "-wal", "-shm")


def remove_files(*paths: Path | str) -> None:
    """Remove each path and any journal, WAL or shared-memory file beside it; one that is
    missing, or that cannot be removed, is left (a later build names what it cannot use)."""
    for path in paths:
        for candidate in (str(path), *(f"{path}{suffix}" for suffix in COMPANIONS)):
            try:
                Path(candidate).unlink()
            except OSError:  # FileNotFoundError among them
                pass
