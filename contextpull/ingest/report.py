"""What one ingest did, as the CLI prints it and ``--json`` writes it (system-design.txt
section 12)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..errors import CheckFailed
from ..writing.records import Skipped
from .summaries import summary_line


@dataclass
class IngestReport:
    """What one ingest did (system-design.txt section 12)."""

    corpus_root: str
    store: str
    seen: int = 0
    changed: int = 0
    unchanged: int = 0
    deleted: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    sections_written: int = 0
    summaries_offline: int = 0
    summaries_llm: int = 0  # written with a model summary, generated or from summary_cache
    summaries: dict | None = None  # the model's counts (summaries.SummaryStage.to_dict), if one ran
    documents: int = 0
    sections: int = 0
    index_mode: str = ""
    index_tokens: int = 0
    index_budget_tokens: int = 0
    corpus_fingerprint: str = ""
    wrote: bool = False
    elapsed_s: float = 0.0
    embeddings: dict | None = None  # writing.vectors.VectorCounts when embed_model is set
    # The dialect chosen, from which file, and the constructs of every document (unchanged ones
    # with the notes of their last reading, from meta.dialect_reads).
    dialect: dict | None = None

    def to_dict(self) -> dict:
        data = asdict(self)
        if self.embeddings is None:
            del data["embeddings"]  # the report of a run without vectors is what it always was
        data["skipped"] = [{"path": s.path, "reason": s.reason} for s in self.skipped]
        if self.summaries is None:
            data.pop("summaries")  # an offline run reports what it always did
        if self.dialect is None:
            data.pop("dialect")
        return data

    @property
    def embedded(self) -> int:
        """Sections embedded by this run (0 without ``embed_model``); the published report's name."""
        return int(self.embeddings["embedded"]) if self.embeddings else 0

    def summary_failures(self) -> list[dict]:
        return list(self.summaries["failed"]) if self.summaries else []

    def summary_lines(self) -> list[str]:
        if self.summaries is None:
            summaries = (
                f"{self.sections_written} sections written; summaries: 0 generated,"
                f" 0 cached, {self.summaries_offline} offline; 0 tokens spent"
            )
        else:
            summaries = f"{self.sections_written} sections written; {summary_line(self.summaries)}"
        lines = [
            f"{self.seen} documents seen: {self.changed} changed, {self.unchanged} unchanged,"
            f" {self.deleted} deleted, {len(self.skipped)} skipped",
            summaries,
            f"index {self.index_mode}, {self.index_tokens} of {self.index_budget_tokens} tokens;"
            f" {self.documents} documents, {self.sections} sections in {self.store};"
            f" corpus {self.corpus_fingerprint}",
        ]
        if self.embeddings is not None:
            e = self.embeddings
            lines.append(f"embeddings {e['model']}: {e['embedded']} sections embedded, {e['kept']} kept")
        if self.dialect is not None:
            from ..dialects.tracking.report import text_lines

            lines.extend(text_lines(self.dialect))
        if not self.wrote:
            lines.append("nothing changed; store left as it was")
        return lines


def strict_problems(report: IngestReport) -> bool:
    """What ``--strict`` fails on: a skipped file, or a document left with its offline summary
    because its model request failed."""
    return bool(report.skipped or report.summary_failures())


def strict_failure(report: IngestReport) -> CheckFailed:
    count = len(report.skipped)
    failed = len(report.summary_failures())
    if count:
        message = f"{count} file{'s' if count != 1 else ''} skipped and --strict is set"
        if failed:
            message += f"; {failed} summar{'y' if failed == 1 else 'ies'} fell back to offline"
        hint = "fix or .contextpullignore the files listed above"
    else:
        message = f"{failed} summar{'y' if failed == 1 else 'ies'} fell back to offline and --strict is set"
        hint = "the documents listed above kept their offline summaries; run again to retry them"
    error = CheckFailed(message, hint)
    error.report = report  # type: ignore[attr-defined]
    return error
