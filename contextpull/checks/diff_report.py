"""``contextpull diff`` as text, markdown or JSON (issue 4, item 7; issue 29).

Every format leads with the measures, since "a third of the text is gone" matters before which
ids moved: text bytes and tokens before and after, then documents, sections and text removed
and the net shrink, each beside its limit when one was given. ``markdown`` is written to be
pasted as a pull-request comment: long lists are folded in ``<details>``, and the ten documents
that lost the most text are named in a table.
"""

from __future__ import annotations

import json

from .diff import TOP_LOSSES, StoreDiff
from .thresholds import Measure, Thresholds, failure_line

MAX_MARKDOWN_IDS = 50


def _provenance_lines(d: StoreDiff) -> list[tuple[str, str]]:
    if d.old_provenance.empty and d.new_provenance.empty:
        return []
    return [("old", d.old_provenance.line() or "no provenance recorded"), ("new", d.new_provenance.line() or "no provenance recorded")]


def _limit_text(m: Measure) -> str:
    if m.limit is None:
        return "no limit"
    return f"limit {m.limit}" + (" (over)" if m.failed else "")


# -- text --------------------------------------------------------------------------------------
def _listing(title: str, items: list[str]) -> list[str]:
    if not items:
        return []
    return [f"{title} ({len(items)}):"] + [f"  {i}" for i in items]


def render_text(d: StoreDiff, thresholds: Thresholds | None = None) -> str:
    lines = [f"{which}: {line}" for which, line in _provenance_lines(d)]
    if d.empty:
        return "\n".join(lines + [f"no differences between {d.old} and {d.new}"]) + "\n"
    a, b = d.old_size, d.new_size
    lines += [
        f"documents: +{len(d.docs_added)} -{len(d.docs_removed)} ~{len(d.docs_changed)}; "
        f"section ids: +{len(d.ids_added)} -{len(d.ids_removed)} ~{len(d.ids_changed)} (text changed)",
        f"text: {a.bytes:,} -> {b.bytes:,} bytes, {a.tokens:,} -> {b.tokens:,} tokens",
    ]
    lines += [f"  {m.label}: {m.figure()}; {_limit_text(m)}" for m in d.measures(thresholds)]
    lines += _listing("documents added", d.docs_added)
    lines += _listing("documents removed", d.docs_removed)
    lines += _listing("documents changed", d.docs_changed)
    lines += _listing("ids added", d.ids_added)
    lines += _listing("ids removed", d.ids_removed)
    lines += _listing("ids whose text changed", d.ids_changed)
    out = "\n".join(lines) + "\n"
    if d.index_diff:
        out += "index text:\n" + d.index_diff + ("" if d.index_diff.endswith("\n") else "\n")
    return out


# -- markdown ----------------------------------------------------------------------------------
def _md_list(title: str, items: list[str]) -> list[str]:
    if not items:
        return []
    shown = items[:MAX_MARKDOWN_IDS]
    lines = [f"<details><summary>{title} ({len(items)})</summary>", ""]
    lines += [f"- `{i}`" for i in shown]
    if len(items) > len(shown):
        lines.append(f"- ... {len(items) - len(shown)} more")
    lines += ["", "</details>", ""]
    return lines


def _md_measures(d: StoreDiff, thresholds: Thresholds | None) -> list[str]:
    a, b = d.old_size, d.new_size
    measures = d.measures(thresholds)
    failed = failure_line(measures)
    lines = [f"**Guard failed:** {failed}.", ""] if failed else []
    text = next(m for m in measures if m.name == "text")
    lines += [
        "| | before | after |",
        "|---|---:|---:|",
        f"| text bytes | {a.bytes:,} | {b.bytes:,} |",
        f"| text tokens | {a.tokens:,} | {b.tokens:,} |",
        f"| documents | {a.documents:,} | {b.documents:,} |",
        f"| sections | {a.sections:,} | {b.sections:,} |",
        "",
        f"Share of the text removed: **{text.percent:.1f}%** ({text.value:,} bytes of {text.total:,}).",
        "",
        "| measure | figure | limit | |",
        "|---|---:|---:|---|",
    ]
    for m in measures:
        verdict = "" if m.limit is None else ("**over**" if m.failed else "ok")
        lines.append(f"| {m.label} | {m.figure()} | {m.limit if m.limit is not None else '-'} | {verdict} |")
    return lines + [""]


def _md_losses(d: StoreDiff) -> list[str]:
    if not d.losses:
        return []
    top = d.losses[:TOP_LOSSES]
    lines = [
        f"Documents that lost the most text ({len(top)} of {len(d.losses)}):",
        "",
        "| document | bytes before | bytes after | lost |",
        "|---|---:|---:|---:|",
    ]
    for path, old, new in top:
        lines.append(f"| `{path}` | {old:,} | {new:,} | {old - new:,} |")
    return lines + [""]


def render_markdown(d: StoreDiff, thresholds: Thresholds | None = None) -> str:
    lines = ["### ContextPull store diff", ""]
    provenance = _provenance_lines(d)
    if provenance:
        lines += [f"- {which}: {line}" for which, line in provenance] + [""]
    if d.empty:
        return "\n".join(lines + ["No changes to documents, section ids or the index.", ""])
    lines += _md_measures(d, thresholds)
    lines += [
        "| | added | removed | changed |",
        "|---|---:|---:|---:|",
        f"| documents | {len(d.docs_added)} | {len(d.docs_removed)} | {len(d.docs_changed)} |",
        f"| section ids | {len(d.ids_added)} | {len(d.ids_removed)} | {len(d.ids_changed)} |",
        "",
    ]
    if d.ids_changed:
        lines += [
            f"**{len(d.ids_changed)} section id(s) now point at different text**; citations of them may be stale.",
            "",
        ]
    lines += _md_losses(d)
    lines += _md_list("Documents added", d.docs_added)
    lines += _md_list("Documents removed", d.docs_removed)
    lines += _md_list("Documents changed", d.docs_changed)
    lines += _md_list("Section ids added", d.ids_added)
    lines += _md_list("Section ids removed", d.ids_removed)
    lines += _md_list("Section ids whose text changed", d.ids_changed)
    if d.index_diff:
        fence = "````" if "```" in d.index_diff else "```"
        lines += ["<details><summary>Index text diff</summary>", "", fence + "diff", d.index_diff.rstrip("\n"), fence, "", "</details>", ""]
    return "\n".join(lines)


def render(d: StoreDiff, fmt: str, thresholds: Thresholds | None = None) -> str:
    if fmt == "json":
        return json.dumps(d.to_dict(thresholds), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return render_markdown(d, thresholds)
    return render_text(d, thresholds)
