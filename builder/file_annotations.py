"""Annotations that put a build's problems on the files concerned (issue 5, item 3).

A skipped file gets a warning on itself (an error under ``strict``); on golden drift every removed
or changed section id gets an error on the document it belonged to, every added id a warning.
GitHub shows only a handful of annotations per step and reviewers read the first few, so each kind
is capped at ``MAX_PER_KIND``; one notice says how many were left out, and the job summary lists
them all. Section ids are ``path#ordinal`` with a corpus-relative path (store-format.txt), so the
file of an id is the docs folder joined with the part before the last ``#``.
"""

from __future__ import annotations

from collections.abc import Mapping

from gha import annotation
from step_summary import join_docs

MAX_PER_KIND = 10


def id_path(section_id: str) -> str:
    return section_id.rsplit("#", 1)[0] if "#" in section_id else section_id


def _capped(kind: str, items: list[str], overflow: dict[str, int]) -> list[str]:
    if len(items) > MAX_PER_KIND:
        overflow[kind] = len(items) - MAX_PER_KIND
    return items[:MAX_PER_KIND]


def skipped_annotations(skipped: list, docs: str, *, level: str, overflow: dict[str, int] | None = None) -> list[str]:
    """One annotation on each skipped file, capped; without ``overflow`` the cap is said here."""
    own = overflow is None
    overflow = {} if own else overflow
    lines = []
    for item in _capped("skipped files", skipped, overflow):
        path = str(item.get("path", ""))
        lines.append(annotation(level, f"not in the store: {item.get('reason', 'skipped')}",
                                file=join_docs(docs, path), title="ContextPull skipped a file"))
    if own and overflow:
        lines.append(annotation("notice", f"{overflow['skipped files']} more skipped files not annotated here;"
                                " the job summary lists them all"))
    return lines


def build_annotations(report: Mapping[str, object], docs: str, *, strict: bool) -> list[str]:
    """Every annotation line for one build report, in a stable order."""
    manifest = report.get("manifest") or {}
    golden = report.get("golden") or {}
    overflow: dict[str, int] = {}
    lines: list[str] = []

    status = golden.get("status")
    if status == "drift":
        added = list(golden.get("ids_added") or [])
        removed = list(golden.get("ids_removed") or [])
        changed = list(golden.get("ids_changed") or [])
        lines.append(annotation(
            "error",
            f"golden drift against {golden.get('dir') or 'golden'}: {len(added)} section ids added, "
            f"{len(removed)} removed, {len(changed)} changed; if intended, rebuild with "
            "update-golden: true and commit the golden files",
            title="ContextPull golden drift",
        ))
        for sid in _capped("removed ids", removed, overflow):
            lines.append(annotation("error", f"section {sid} no longer exists: citations of it now point at nothing",
                                    file=join_docs(docs, id_path(sid)), title="Section id removed"))
        for sid in _capped("changed ids", changed, overflow):
            lines.append(annotation("error", f"the text of section {sid} changed: citations of it now point at other text",
                                    file=join_docs(docs, id_path(sid)), title="Section text changed"))
        for sid in _capped("added ids", added, overflow):
            lines.append(annotation("warning", f"new section {sid}",
                                    file=join_docs(docs, id_path(sid)), title="Section id added"))
    elif status == "updated":
        lines.append(annotation("notice", f"golden files in {golden.get('dir') or 'golden'} were rewritten; commit them",
                                title="ContextPull golden updated"))

    lines += skipped_annotations(list(manifest.get("skipped") or []), docs, level="error" if strict else "warning",
                                 overflow=overflow)

    for message in _capped("build warnings", [str(w) for w in report.get("warnings") or []], overflow):
        lines.append(annotation("warning", message, title="ContextPull build"))

    if overflow:
        parts = ", ".join(f"{count} more {kind}" for kind, count in overflow.items())
        lines.append(annotation("notice", f"{parts} not annotated here; the job summary lists them all"))
    return lines
