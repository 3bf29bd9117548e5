"""The build report and the build's clock (issue 4, items 3 and 5).

``BuildReport.to_dict`` is what ``contextpull build --json`` prints and what the CI builder
(``builder/``) reads; the times a build writes come from ``SOURCE_DATE_EPOCH`` or a fixed epoch,
never the clock, so the artifact's bytes do not depend on when it was built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..checks.golden import GoldenResult
from .outdir import MANIFEST_FILE, SHA_FILE, STORE_FILE


@dataclass
class BuildReport:
    """The build report; ``to_dict`` is what ``--json`` prints (and what builder/ reads)."""

    out: Path
    manifest: dict[str, Any]
    golden: GoldenResult
    exit_code: int = 0
    published: bool = True
    reuse: str = "none"  # none | documents | whole
    reused_documents: int = 0
    parsed_documents: int = 0
    copied_chunks: int = 0  # chunks whose rows and index segments came from the cache (assemble.py)
    indexed_chunks: int = 0
    patched: bool = False  # the build file started as a copy of the cache (patch.py)
    kept_documents: int = 0  # unchanged documents of indexed chunks whose rows stayed in that copy
    embeddings: dict | None = None  # writing.vectors.VectorCounts when embed_model is set
    warnings: list[str] = field(default_factory=list)
    summaries: dict[str, Any] | None = None  # a model summarizer's counts (ingest.summaries), else None
    timings: dict[str, float] = field(default_factory=dict)
    guard: dict[str, Any] | None = None  # artifact.guard.check: --max-removed/--max-shrink against a base
    # The dialect chosen, from which file, and its construct report (dialects.report).
    dialect: dict[str, Any] | None = None

    def dialect_lines(self) -> list[str]:
        """The construct report as text (``dialects.report.text_lines``); none for plain."""
        if self.dialect is None:
            return []
        from ..dialects.tracking.report import text_lines

        return text_lines(self.dialect)

    def to_dict(self) -> dict[str, Any]:
        return {
            "exit_code": self.exit_code,
            "published": self.published,
            "paths": {
                "store": str(self.out / STORE_FILE),
                "manifest": str(self.out / MANIFEST_FILE),
                "sha256": str(self.out / SHA_FILE),
            },
            "manifest": self.manifest,
            "golden": self.golden.to_dict(),
            "cache": {"reuse": self.reuse, "reused_documents": self.reused_documents,
                      "parsed_documents": self.parsed_documents,
                      "copied_chunks": self.copied_chunks, "indexed_chunks": self.indexed_chunks,
                      "patched": self.patched, "kept_documents": self.kept_documents},
            **({"embeddings": self.embeddings} if self.embeddings is not None else {}),
            "warnings": list(self.warnings),
            **({"summaries": self.summaries} if self.summaries is not None else {}),
            **({"guard": self.guard} if self.guard is not None else {}),
            **({"dialect": self.dialect} if self.dialect is not None else {}),
            "timings": dict(self.timings),
        }


def iso_time(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="seconds")
