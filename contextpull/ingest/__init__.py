"""The in-place, incremental ingest (system-design.txt section 3; ADR 004).

``contextpull.ingest.ingest(corpus, store, **settings)`` is the library entry (``api``,
docs/library.md): it brings a store up to date with a folder: unchanged documents are kept,
changed ones rewritten, vanished ones deleted, all in batches written beside the parsing
(``write_thread``, ``workers``), with the store in place or a scratch file that is flushed and
renamed (``target``). ``engine`` holds the pipeline, ``report`` is what a run says, ``progress``
draws it.

``ingest`` and ``IngestReport`` are resolved on first use (PEP 562), so ``import
contextpull.ingest`` or a submodule (``progress`` for the CLI) does not load the parsers, and
``from contextpull.ingest import ingest`` loads them only when the function runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..system.lazy import exports

if TYPE_CHECKING:  # pragma: no cover
    from .api import ingest
    from .report import IngestReport

__all__ = ["IngestReport", "ingest"]


__getattr__ = exports(__name__, {"ingest": ("api", "ingest"), "IngestReport": ("report", "IngestReport")})
