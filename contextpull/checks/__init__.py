"""The checks a pipeline runs on an artifact: integrity, golden files and drift.

``verify`` re-derives a store's fingerprints and compares them with its checksum file and
manifest; ``golden`` compares the index text and section id list with checked-in files (and
rewrites both, or neither); ``diff`` reports what changed between two stores. They read stores
with plain ``sqlite3`` and never write one.

Library entry points (docs/library.md), loaded on first use (PEP 562) so that importing one
submodule does not load the others: ``verify_store(path)`` returns a ``VerifyReport`` or raises
``CheckFailed``; ``check_golden(store, golden_dir, update=False)`` returns a ``GoldenResult``;
``diff_stores(old, new)`` returns a ``StoreDiff``, and ``render_diff(diff, "text"|"markdown"|"json")``
prints it as ``contextpull diff`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..system.lazy import exports

if TYPE_CHECKING:  # pragma: no cover
    from .diff import StoreDiff, diff_stores
    from .diff_report import render as render_diff
    from .golden import GoldenResult, check_golden
    from .verify import VerifyReport, verify_store

__all__ = [
    "GoldenResult",
    "StoreDiff",
    "VerifyReport",
    "check_golden",
    "diff_stores",
    "render_diff",
    "verify_store",
]

_EXPORTS = {
    "verify_store": ("verify", "verify_store"),
    "VerifyReport": ("verify", "VerifyReport"),
    "check_golden": ("golden", "check_golden"),
    "GoldenResult": ("golden", "GoldenResult"),
    "diff_stores": ("diff", "diff_stores"),
    "StoreDiff": ("diff", "StoreDiff"),
    "render_diff": ("diff_report", "render"),
}


__getattr__ = exports(__name__, _EXPORTS)
