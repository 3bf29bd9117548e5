"""Annotations that put a build's problems on the files concerned (issue 5, item 3).

A skipped file gets a warning on itself (an error under ``strict``), and so does a document whose
model summary failed and fell back to the offline one (issue 17: the report's ``summaries.failed``,
or ``summary_failures`` when ``--strict`` refused to publish), and every markup construct the
dialect left unresolved gets a warning on its file and line (issue 26: the report's
``dialect.unresolved``); on golden drift every removed
or changed section id gets an error on the document it belonged to, every added id a warning.
GitHub shows only a handful of annotations per step and reviewers read the first few, so each kind
is capped at ``MAX_PER_KIND``; one notice says how many were left out, and the job summary lists
them all. Section ids are ``path#ordinal`` with a corpus-relative path (store-format.txt), so the
file of an id is the docs folder joined with the part before the last ``#``; ids are listed in
natural order (``#2`` before ``#10``). The store keeps no line numbers, so ``section_lines``
finds each section's heading in its file, for a ``line=`` that puts the annotation on the
heading in a pull request's diff (line 1 of the file when the heading is not found).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

from gha import annotation
from step_summary import join_docs, natural

MAX_PER_KIND = 10


def id_path(section_id: str) -> str:
    return section_id.rsplit("#", 1)[0] if "#" in section_id else section_id


def heading_lines(path: Path) -> dict[str, int] | None:
    """``heading -> 1-based line`` of every Markdown heading in ``path`` (the first of equal
    headings), read in one pass; ``None`` when the file cannot be read (it was removed)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#"):
            found.setdefault(stripped.lstrip("#").strip().rstrip("#").strip(), number)
    return found


def section_lines(store: str, ids: Iterable[str], docs_dir: Path) -> dict[str, int]:
    """``id -> line`` for the ids of ``store``; an id not in the store (a removed one), or whose
    heading is not found, gets line 1 of its file when the file is still there. Each file is read
    once however many of its ids drifted; callers pass only the ids they annotate
    (``drift_ids``), which also keeps the query far below SQLite's limit on bound variables."""
    ids = list(dict.fromkeys(ids))
    found: dict[str, int] = {}
    headings: dict[str, str] = {}
    if ids and store and Path(store).is_file():
        try:
            with sqlite3.connect(f"file:{Path(store).resolve()}?mode=ro", uri=True) as db:
                marks = ",".join("?" * len(ids))
                for sid, heading in db.execute(f"SELECT id, heading_path FROM sections WHERE id IN ({marks})", ids):
                    headings[sid] = str(heading).split(" > ")[-1].strip()
        except sqlite3.Error:
            headings = {}
    files: dict[str, dict[str, int] | None] = {}
    for sid in ids:
        rel = id_path(sid)
        if rel not in files:
            files[rel] = heading_lines(docs_dir / rel)
        lines = files[rel]
        if lines is not None:
            found[sid] = lines.get(headings.get(sid, "\0"), 1)
    return found


def _capped(kind: str, items: list[str], overflow: dict[str, int]) -> list[str]:
    if len(items) > MAX_PER_KIND:
        overflow[kind] = len(items) - MAX_PER_KIND
    return items[:MAX_PER_KIND]


def _on_files(kind: str, items: list, docs: str, *, level: str, say: str, title: str,
              overflow: dict[str, int] | None) -> list[str]:
    """One annotation on the file of each report item (``path``, ``reason``), capped; without
    ``overflow`` the cap is said here, in a notice of its own."""
    own = overflow is None
    overflow = {} if own else overflow
    lines = [annotation(level, f"{say}: {item.get('reason', '')}", file=join_docs(docs, str(item.get("path", ""))),
                        title=title)
             for item in _capped(kind, items, overflow)]
    if own and overflow:
        lines.append(annotation("notice", f"{overflow[kind]} more {kind} not annotated here; the job summary lists them all"))
    return lines


def skipped_annotations(skipped: list, docs: str, *, level: str, overflow: dict[str, int] | None = None) -> list[str]:
    """One annotation on each skipped file."""
    return _on_files("skipped files", skipped, docs, level=level, say="not in the store",
                     title="ContextPull skipped a file", overflow=overflow)


def summary_annotations(failed: list, docs: str, *, level: str, overflow: dict[str, int] | None = None) -> list[str]:
    """One annotation on each document that kept its offline summary. The reason is the
    build's, which never carries the key (contextpull/models/summarize.py)."""
    return _on_files("summary fallbacks", failed, docs, level=level, say="kept the offline summary",
                     title="ContextPull model summary failed", overflow=overflow)


def construct_annotations(dialect: Mapping[str, object], docs: str, *, overflow: dict[str, int]) -> list[str]:
    """A warning on the file and line of each construct the dialect left unresolved (a missing
    include, an unknown directive that lost text): the page shows something the store does not."""
    items = list(dialect.get("unresolved") or []) if isinstance(dialect, Mapping) else []
    return [annotation("warning", f"{item.get('construct', 'construct')} not resolved: {item.get('detail', '')}",
                       file=join_docs(docs, str(item.get("path", ""))), line=item.get("line") or None,
                       title="ContextPull left markup unresolved")
            for item in _capped("unresolved constructs", items, overflow)]


def drift_ids(report: Mapping[str, object]) -> list[str]:
    """The drifted ids ``build_annotations`` puts on files: the first ``MAX_PER_KIND`` of the
    removed, changed and added, in natural order, as it caps them. Only these need a line, and a
    drift of tens of thousands of ids would otherwise read files and bind variables for nothing."""
    golden = report.get("golden") or {}
    return [str(i) for key in ("ids_removed", "ids_changed", "ids_added")
            for i in natural([str(i) for i in golden.get(key) or []])[:MAX_PER_KIND]]


def build_annotations(report: Mapping[str, object], docs: str, *, strict: bool,
                      lines_of: Mapping[str, int] | None = None) -> list[str]:
    """Every annotation line for one build report, in a stable order; ``lines_of`` gives the
    ``line=`` of each drifted id (``section_lines``)."""
    at = lines_of or {}
    manifest = report.get("manifest") or {}
    golden = report.get("golden") or {}
    overflow: dict[str, int] = {}
    lines: list[str] = []

    status = golden.get("status")
    if status == "drift":
        added = natural(golden.get("ids_added") or [])
        removed = natural(golden.get("ids_removed") or [])
        changed = natural(golden.get("ids_changed") or [])
        lines.append(annotation(
            "error",
            f"golden drift against {golden.get('dir') or 'golden'}: {len(added)} section ids added, "
            f"{len(removed)} removed, {len(changed)} changed; if intended, rebuild with "
            "update-golden: true and commit the golden files",
            title="ContextPull golden drift",
        ))
        for sid in _capped("removed ids", removed, overflow):
            lines.append(annotation("error", f"section {sid} no longer exists: citations of it now point at nothing",
                                    file=join_docs(docs, id_path(sid)), line=at.get(sid), title="Section id removed"))
        for sid in _capped("changed ids", changed, overflow):
            lines.append(annotation("error", f"the text of section {sid} changed: citations of it now point at other text",
                                    file=join_docs(docs, id_path(sid)), line=at.get(sid), title="Section text changed"))
        for sid in _capped("added ids", added, overflow):
            lines.append(annotation("warning", f"new section {sid}",
                                    file=join_docs(docs, id_path(sid)), line=at.get(sid), title="Section id added"))
    elif status == "updated":
        lines.append(annotation("notice", f"golden files in {golden.get('dir') or 'golden'} were rewritten; commit them",
                                title="ContextPull golden updated"))

    lines += skipped_annotations(list(manifest.get("skipped") or []), docs, level="error" if strict else "warning",
                                 overflow=overflow)

    summaries = report.get("summaries") or {}
    lines += summary_annotations(list(summaries.get("failed") or []), docs, level="error" if strict else "warning",
                                 overflow=overflow)

    lines += construct_annotations(report.get("dialect") or {}, docs, overflow=overflow)

    for message in _capped("build warnings", [str(w) for w in report.get("warnings") or []], overflow):
        lines.append(annotation("warning", message, title="ContextPull build"))

    if overflow:
        parts = ", ".join(f"{count} more {kind}" for kind, count in overflow.items())
        lines.append(annotation("notice", f"{parts} not annotated here; the job summary lists them all"))
    return lines
