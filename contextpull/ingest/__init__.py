"""The in-place, incremental ingest (system-design.txt section 3; ADR 004).

``ingest(corpus, store, settings)`` brings a store up to date with a folder: unchanged documents
are kept, changed ones rewritten, vanished ones deleted, all in batches written beside the
parsing (``write_thread``, ``workers``), with the store in place or a scratch file that is
flushed and renamed (``target``). ``report`` is what a run says; ``progress`` draws it.

``ingest`` is resolved on first use, so importing a submodule (``progress`` for the CLI) does
not load the parsers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .engine import ingest

__all__ = ["ingest"]


def __getattr__(name: str):
    if name == "ingest":
        from .engine import ingest

        return ingest
    raise AttributeError(f"module 'contextpull.ingest' has no attribute {name!r}")
