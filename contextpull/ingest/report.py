"""What one ingest did, as the CLI prints it and ``--json`` writes it (system-design.txt
section 12)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..errors import CheckFailed
from ..writing.records import Skipped


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
    summaries_llm: int = 0
    documents: int = 0
    sections: int = 0
    index_mode: str = ""
    index_tokens: int = 0
    index_budget_tokens: int = 0
    corpus_fingerprint: str = ""
    wrote: bool = False
    elapsed_s: float = 0.0
    embeddings: dict | None = None  # writing.vectors.VectorCounts when embed_model is set

    def to_dict(self) -> dict:
        data = asdict(self)
        if self.embeddings is None:
            del data["embeddings"]  # the report of a run without vectors is what it always was
        data["skipped"] = [{"path": s.path, "reason": s.reason} for s in self.skipped]
        return data

    def summary_lines(self) -> list[str]:
        lines = [
            f"{self.seen} documents seen: {self.changed} changed, {self.unchanged} unchanged,"
            f" {self.deleted} deleted, {len(self.skipped)} skipped",
            f"{self.sections_written} sections written; summaries: {self.summaries_llm} generated,"
            f" 0 cached, {self.summaries_offline} offline; 0 tokens spent",
            f"index {self.index_mode}, {self.index_tokens} of {self.index_budget_tokens} tokens;"
            f" {self.documents} documents, {self.sections} sections in {self.store};"
            f" corpus {self.corpus_fingerprint}",
        ]
        if self.embeddings is not None:
            e = self.embeddings
            lines.append(f"embeddings {e['model']}: {e['embedded']} sections embedded, {e['kept']} kept")
        if not self.wrote:
            lines.append("nothing changed; store left as it was")
        return lines


def strict_failure(report: IngestReport) -> CheckFailed:
    count = len(report.skipped)
    error = CheckFailed(
        f"{count} file{'s' if count != 1 else ''} skipped and --strict is set",
        "fix or .contextpullignore the files listed above",
    )
    error.report = report  # type: ignore[attr-defined]
    return error
