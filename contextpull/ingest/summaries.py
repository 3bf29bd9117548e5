"""Model summaries for the documents a run writes (issue 17; system-design.txt section 3
"Summarize"): the one interface between the rooms that write and the model room.

``SummaryStage.apply`` sits in a run's stream of records, between parsing and writing. Every
freshly parsed document arrives with its offline summary; the stage gives it the model's
summary instead, from ``summary_cache`` when the store (or the build's ``--cache``) already
holds one for the same bytes and model, else from one request (``models.summarize``). A document
whose request fails keeps its offline summary and is listed with the reason; records the run did
not parse (unchanged, reused from a cache, skipped) pass through untouched.

This module loads the model room only when a stage is made, so the default offline run never
imports it, and a run without a summarizer writes exactly what it wrote before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from ..settings import Settings
from ..writing.records import DocumentRecord, PreparedRecord, Skipped

def wants_model(settings: Settings) -> bool:
    return settings.summarizer != "offline"


def document_input(record: DocumentRecord):
    """What the model sees: the title, the distinct heading paths in order, the opening text
    (sections up to the prompt's length; ``models.summarize.prompt`` cuts it exactly)."""
    from ..models.summarize import HEAD_CHARS, Document

    headings = tuple(dict.fromkeys(s.heading_path for s in record.sections if s.heading_path))
    parts: list[str] = []
    size = 0
    for section in record.sections:
        if size >= HEAD_CHARS:
            break
        parts.append(section.text)
        size += len(section.text) + 2
    return Document(record.title, headings, "\n\n".join(parts))


class SummaryStage:
    """The model summaries of one run, its cache of earlier ones and its counts for the report."""

    def __init__(self, settings: Settings, *, environ: Mapping[str, str]):
        from ..models.summarize import open_summarizer

        # Raises ModelSettingError (exit 3) for an unknown provider or a missing key: before any work.
        self.summarizer = open_summarizer(
            settings.summarizer, concurrency=settings.summary_concurrency, environ=environ
        )
        self.model = self.summarizer.name
        self._stored: dict[str, tuple[str, str]] = {}  # sha256 -> (model, summary), from the store or cache
        self._generated: dict[str, str] = {}  # sha256 -> summary, made by this run
        self._unwritten: list[tuple[str, str, str]] = []
        self.generated = 0
        self.cached = 0
        self.offline = 0
        self.failed: list[Skipped] = []

    # -- what is known already ----------------------------------------------------------------
    def remember(self, rows: Iterable[tuple[str, str, str]]) -> None:
        """``summary_cache`` rows (sha256, model, summary) of the store or the build's cache."""
        for sha256, model, summary in rows:
            self._stored[sha256] = (model, summary)

    def forget_stored(self) -> None:
        """The cache they came from turned out untrustworthy: keep only this run's summaries."""
        self._stored.clear()

    def _known(self, sha256: str) -> str | None:
        if sha256 in self._generated:
            return self._generated[sha256]
        hit = self._stored.get(sha256)
        return hit[1] if hit is not None and hit[0] == self.model else None

    # -- the stream ---------------------------------------------------------------------------
    def apply(self, records: Iterable[Any]) -> Iterator[Any]:
        """``records`` with model summaries, in the same order (see the module docstring).

        The counts are this pass's: a build that starts again (without its cache's layout, or
        without the cache) runs a second pass, whose documents summarised by the first count as
        generated, not cached, and cost no second request."""
        self.generated = self.cached = self.offline = 0
        self.failed = []

        def mine(record: Any) -> bool:
            return isinstance(record, PreparedRecord) and record.summary_src != "llm"

        def ask(record: Any):
            if not mine(record) or self._known(record.sha256) is not None:
                return None
            return document_input(record)

        for record, outcome in self.summarizer.stream(records, ask):
            if not mine(record):
                yield record
                continue
            if outcome is None:
                if record.sha256 in self._generated:
                    self.generated += 1
                else:
                    self.cached += 1
                yield replace(record, summary=self._known(record.sha256), summary_src="llm")
            elif outcome.summary is None:
                self.offline += 1
                self.failed.append(Skipped(record.path, outcome.error or "no summary"))
                yield record
            else:
                self.generated += 1
                self._generated[record.sha256] = outcome.summary
                self._unwritten.append((record.sha256, self.model, outcome.summary))
                yield replace(record, summary=outcome.summary, summary_src="llm")

    def take_new_rows(self) -> list[tuple[str, str, str]]:
        """``summary_cache`` rows made since the last call, for the batch being written."""
        rows, self._unwritten = self._unwritten, []
        return rows

    def cache_rows(self) -> list[tuple[str, str, str]]:
        """Every ``summary_cache`` row a build carries: its cache's and this run's, by sha256."""
        rows = {sha: (sha, model, summary) for sha, (model, summary) in self._stored.items()}
        rows.update((sha, (sha, self.model, summary)) for sha, summary in self._generated.items())
        return [rows[sha] for sha in sorted(rows)]

    # -- the report ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "summarizer": self.model,
            "generated": self.generated,
            "cached": self.cached,
            "offline": self.offline,
            "failed": [{"path": s.path, "reason": s.reason} for s in self.failed],
            **self.summarizer.counters.to_dict(),
        }


def summary_line(counts: Mapping[str, Any]) -> str:
    """One line for a report: what the model did and what it cost."""
    retries = counts["retries"]
    return (
        f"summaries ({counts['summarizer']}): {counts['generated']} generated, {counts['cached']} cached,"
        f" {counts['offline']} offline; {counts['requests']} request{'' if counts['requests'] == 1 else 's'}, {retries} retr{'y' if retries == 1 else 'ies'},"
        f" tokens {counts['tokens_in']} in, {counts['tokens_out']} out"
    )
