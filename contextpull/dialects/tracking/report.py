"""The construct report (issue 26, "A construct report"): per construct, how many were resolved,
converted and left unresolved, and each unresolved one by file and line, so an author sees what
an agent will get. The build report, the ingest report and the Action's job summary and
annotations (``builder/``) all print this one tally.
"""

from __future__ import annotations

from collections import Counter

from ..api import OUTCOMES, Note
from .reads import entry

# Unresolved constructs named one by one in the text report, per construct (JSON lists all).
TEXT_LIMIT = 5
# The note a page read as MDX by its content carries, one per kind of evidence (its detail):
# counted as pages and kinds (``mdx_guess``), not as constructs.
GUESS = "mdx guessed"


class ConstructTally:
    def __init__(self) -> None:
        self.reads: dict[str, dict] = {}  # path -> reads.entry, for meta.dialect_reads
        self.counts: Counter[tuple[str, str]] = Counter()
        self.unresolved: list[tuple[str, Note]] = []  # (document path, note), in path order
        self.not_pages: list[tuple[str, str]] = []  # (path, reason): files that are not pages
        self.guessed: set[str] = set()  # pages read as MDX by their content
        self.evidence: Counter[str] = Counter()  # kind of evidence -> pages that showed it

    def add(self, record) -> None:
        """One written document (a ``DocumentRecord``, from a parse or from the cache)."""
        deps, notes = getattr(record, "deps", ()), getattr(record, "notes", ())
        found = entry(deps, notes)
        if found is not None:
            self.reads[record.path] = found
        self.add_notes(record.path, notes)

    def add_notes(self, path: str, notes) -> None:
        """Count ``notes`` of the document at ``path`` (one not read again keeps its old ones)."""
        for note in notes:
            if note.construct == GUESS:
                self.guessed.add(path)
                self.evidence[note.detail] += 1
                continue
            self.counts[(note.construct, note.outcome)] += 1
            if note.outcome == "unresolved":
                self.unresolved.append((path, note))

    def not_page(self, entry) -> None:
        """A file the generator never renders as a page (``writing.records.NotAPage``)."""
        self.not_pages.append((entry.path, entry.reason))

    def to_dict(self, site) -> dict:
        constructs: dict[str, dict[str, int]] = {}
        for (construct, outcome), n in sorted(self.counts.items()):
            constructs.setdefault(construct, dict.fromkeys(OUTCOMES, 0))[outcome] = n
        report = {
            "name": site.dialect if site is not None else "plain",
            "config_file": site.config_file if site is not None else None,
            **({"guessed_from": site.guessed_from} if site is not None and site.guessed_from else {}),
            "constructs": constructs,
            "totals": {o: sum(n for (_, out), n in self.counts.items() if out == o) for o in OUTCOMES},
            "unresolved": [
                {"path": path, "line": n.line, "construct": n.construct, "detail": n.detail}
                for path, n in self.unresolved
            ],
        }
        if self.guessed:  # likewise: only a build that read some page as MDX by its content
            report["mdx_guess"] = {"pages": len(self.guessed), "evidence": dict(sorted(self.evidence.items()))}
        if self.not_pages:  # only when there are some: every other report is what it was
            report["not_pages"] = [{"path": path, "reason": reason} for path, reason in self.not_pages]
        return report


def chosen_line(report: dict) -> str:
    """``dialect mkdocs (from mkdocs.yml)``: what was chosen and why."""
    if report.get("config_file"):
        source = f"from {report['config_file']}"
    elif report.get("guessed_from"):
        source = f"no generator configuration file; guessed from {report['guessed_from']}"
    else:
        source = "no generator configuration file"
    return f"dialect {report['name']} ({source})"


def text_lines(report: dict, limit: int = TEXT_LIMIT) -> list[str]:
    """The construct report as text lines; none for a plain build that met no construct."""
    if report["name"] == "plain" and not report["constructs"] and "mdx_guess" not in report:
        return []
    t = report["totals"]
    lines = [f"{chosen_line(report)}: {t['resolved']} resolved, {t['converted']} converted, {t['unresolved']} unresolved"]
    if "mdx_guess" in report:
        from ..mdx.evidence import summary

        lines.append("  " + summary(report["mdx_guess"]["pages"], report["mdx_guess"]["evidence"]))
    by_construct: dict[str, list[dict]] = {}
    for item in report["unresolved"]:
        by_construct.setdefault(item["construct"], []).append(item)
    for construct, counts in report["constructs"].items():
        lines.append(
            f"  {construct}: {counts['resolved']} resolved, {counts['converted']} converted,"
            f" {counts['unresolved']} unresolved"
        )
        items = by_construct.get(construct, [])
        for item in items[:limit]:
            where = f"{item['path']}:{item['line']}" if item["line"] else item["path"]
            lines.append(f"    {where}: {item['detail']}" if item["detail"] else f"    {where}")
        if len(items) > limit:
            lines.append(f"    ... and {len(items) - limit} more (--json lists all)")
    lines.extend(_not_page_lines(report.get("not_pages", []), limit))
    return lines


def _not_page_lines(entries: list[dict], limit: int) -> list[str]:
    """Files left out because the generator renders no page for them, the first few by name."""
    if not entries:
        return []
    lines = [f"  not pages: {len(entries)} file{'s' if len(entries) != 1 else ''} the generator renders no page for"]
    lines.extend(f"    {e['path']}: {e['reason']}" for e in entries[:limit])
    if len(entries) > limit:
        lines.append(f"    ... and {len(entries) - limit} more (--json lists all)")
    return lines
