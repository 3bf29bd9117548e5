"""What changed between two stores, for review (issue 4, item 7).

Reviewers of a docs change want to know which citations now point at other text: a section id
that still exists but whose text hash changed is the dangerous case, because an agent's earlier
answer citing it silently means something else. So besides documents added/removed/changed the
diff lists section ids added, removed and text-changed, plus the index text diff. ``markdown`` is
written to be pasted as a pull-request comment.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from .golden import compare, index_text, open_store, unified

MAX_MARKDOWN_IDS = 50


@dataclass
class StoreDiff:
    old: str
    new: str
    docs_added: list[str] = field(default_factory=list)
    docs_removed: list[str] = field(default_factory=list)
    docs_changed: list[str] = field(default_factory=list)
    ids_added: list[str] = field(default_factory=list)
    ids_removed: list[str] = field(default_factory=list)
    ids_changed: list[str] = field(default_factory=list)
    index_diff: str = ""

    @property
    def empty(self) -> bool:
        return not (
            self.docs_added or self.docs_removed or self.docs_changed
            or self.ids_added or self.ids_removed or self.ids_changed or self.index_diff
        )

    def to_dict(self) -> dict:
        return {
            "old": self.old,
            "new": self.new,
            "changed": not self.empty,
            "documents": {"added": self.docs_added, "removed": self.docs_removed, "changed": self.docs_changed},
            "ids": {"added": self.ids_added, "removed": self.ids_removed, "changed": self.ids_changed},
            "index_diff": self.index_diff,
        }


def _documents(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT path, sha256 FROM documents"))


def _ids(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT id, hash FROM sections"))


def diff_stores(old: Path | str, new: Path | str) -> StoreDiff:
    old, new = Path(old), Path(new)
    a, b = open_store(old), open_store(new)
    try:
        result = StoreDiff(str(old), str(new))
        docs_a, docs_b = _documents(a), _documents(b)
        result.docs_added, result.docs_removed, result.docs_changed = compare(docs_a, docs_b)
        result.ids_added, result.ids_removed, result.ids_changed = compare(_ids(a), _ids(b))
        result.index_diff = unified(index_text(a), index_text(b), f"{old} index", f"{new} index")
    finally:
        a.close()
        b.close()
    # A document whose bytes changed but whose sections all kept their text still counts as
    # changed; one whose sections changed without new bytes cannot happen within one builder.
    return result


def _listing(title: str, items: list[str], limit: int | None = None) -> list[str]:
    if not items:
        return []
    shown = items if limit is None else items[:limit]
    lines = [f"{title} ({len(items)}):"] + [f"  {i}" for i in shown]
    if len(shown) < len(items):
        lines.append(f"  ... {len(items) - len(shown)} more")
    return lines


def render_text(d: StoreDiff) -> str:
    if d.empty:
        return f"no differences between {d.old} and {d.new}\n"
    lines = [
        f"documents: +{len(d.docs_added)} -{len(d.docs_removed)} ~{len(d.docs_changed)}; "
        f"section ids: +{len(d.ids_added)} -{len(d.ids_removed)} ~{len(d.ids_changed)} (text changed)"
    ]
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


def render_markdown(d: StoreDiff) -> str:
    lines = ["### ContextPull store diff", ""]
    if d.empty:
        return "\n".join(lines + ["No changes to documents, section ids or the index.", ""])
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


def render(d: StoreDiff, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(d.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return render_markdown(d)
    return render_text(d)
