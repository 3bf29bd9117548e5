"""What changed between two stores, for review (issue 4, item 7), and how much was lost (issue 29).

Reviewers of a docs change want to know which citations now point at other text: a section id
that still exists but whose text hash changed is the dangerous case, because an agent's earlier
answer citing it silently means something else. So besides documents added/removed/changed the
diff lists section ids added, removed and text-changed, plus the index text diff.

The other danger is silent loss: a parser change or a reorganisation that drops most of the text
still builds a valid store. So the diff also measures each store's text (UTF-8 bytes, and tokens
estimated as characters / 4 as the index budget counts them) and what every document of OLD
lost, and ``measures`` sets those figures against the limits of ``thresholds.py``. Ids and paths
are in natural order (``a.md#2`` before ``a.md#10``). ``diff_report.render`` prints a diff.
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..provenance import Provenance
from .golden import compare, index_text, open_store, unified
from .thresholds import Limit, Measure, Thresholds

TOP_LOSSES = 10  # the documents that lost the most text, named in the reports
_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple:
    """Digits compared as numbers: ``#2`` before ``#10``, ``v9`` before ``v10``."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in _DIGITS.split(text) if part)


def natural(items) -> list[str]:
    return sorted(items, key=natural_key)


@dataclass(frozen=True)
class TextSize:
    """A store's text: sections, UTF-8 bytes and characters of every section's text."""

    documents: int = 0
    sections: int = 0
    bytes: int = 0
    chars: int = 0

    @property
    def tokens(self) -> int:
        return math.ceil(self.chars / 4)

    def to_dict(self) -> dict:
        return {"documents": self.documents, "sections": self.sections, "bytes": self.bytes, "tokens": self.tokens}


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
    old_size: TextSize = field(default_factory=TextSize)
    new_size: TextSize = field(default_factory=TextSize)
    # (path, bytes in OLD, bytes in NEW) of every document of OLD that lost text, most lost first
    losses: list[tuple[str, int, int]] = field(default_factory=list)
    old_provenance: Provenance = field(default_factory=Provenance)
    new_provenance: Provenance = field(default_factory=Provenance)

    @property
    def empty(self) -> bool:
        return not (
            self.docs_added or self.docs_removed or self.docs_changed
            or self.ids_added or self.ids_removed or self.ids_changed or self.index_diff
        )

    @property
    def text_removed(self) -> int:
        return sum(old - new for _, old, new in self.losses)

    def measures(self, thresholds: Thresholds | None = None) -> list[Measure]:
        """Documents, sections and text removed, and the text's net shrink, each with its limit."""
        t = thresholds or Thresholds()
        old = self.old_size
        return [
            Measure("documents", len(self.docs_removed), old.documents, t.limit("documents")),
            Measure("sections", len(self.ids_removed), old.sections, t.limit("sections")),
            Measure("text", self.text_removed, old.bytes, t.limit("text")),
            Measure("shrink", old.bytes - self.new_size.bytes, old.bytes, _shrink_limit(t)),
        ]

    def to_dict(self, thresholds: Thresholds | None = None) -> dict:
        measures = self.measures(thresholds)
        return {
            "old": self.old,
            "new": self.new,
            "changed": not self.empty,
            "documents": {"added": self.docs_added, "removed": self.docs_removed, "changed": self.docs_changed},
            "ids": {"added": self.ids_added, "removed": self.ids_removed, "changed": self.ids_changed},
            "index_diff": self.index_diff,
            "text": {"old": self.old_size.to_dict(), "new": self.new_size.to_dict()},
            "measures": [m.to_dict() for m in measures],
            "failed": [m.label for m in measures if m.failed],
            "most_lost": [{"path": p, "old_bytes": a, "new_bytes": b} for p, a, b in self.losses[:TOP_LOSSES]],
            "provenance": {"old": self.old_provenance.to_dict(), "new": self.new_provenance.to_dict()},
        }


def _shrink_limit(t: Thresholds) -> Limit | None:
    return None if t.shrink is None else Limit(t.shrink, True)


def _documents(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT path, sha256 FROM documents"))


def _ids(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT id, hash FROM sections"))


def _text_by_document(conn: sqlite3.Connection) -> dict[str, tuple[int, int, int]]:
    """path -> (sections, UTF-8 bytes, characters) of its sections' text."""
    rows = conn.execute(
        "SELECT d.path, count(s.id), coalesce(sum(length(CAST(s.text AS BLOB))), 0), coalesce(sum(length(s.text)), 0)"
        " FROM documents d LEFT JOIN sections s ON s.doc_id = d.doc_id GROUP BY d.doc_id"
    )
    return {path: (n, size, chars) for path, n, size, chars in rows}


def _size(by_doc: dict[str, tuple[int, int, int]]) -> TextSize:
    return TextSize(
        documents=len(by_doc),
        sections=sum(v[0] for v in by_doc.values()),
        bytes=sum(v[1] for v in by_doc.values()),
        chars=sum(v[2] for v in by_doc.values()),
    )


def _provenance(conn: sqlite3.Connection) -> Provenance:
    return Provenance.from_meta(dict(conn.execute("SELECT key, value FROM meta")))


def diff_stores(old: Path | str, new: Path | str) -> StoreDiff:
    old, new = Path(old), Path(new)
    a, b = open_store(old), open_store(new)
    try:
        result = StoreDiff(str(old), str(new))
        added, removed, changed = compare(_documents(a), _documents(b))
        result.docs_added, result.docs_removed, result.docs_changed = natural(added), natural(removed), natural(changed)
        added, removed, changed = compare(_ids(a), _ids(b))
        result.ids_added, result.ids_removed, result.ids_changed = natural(added), natural(removed), natural(changed)
        result.index_diff = unified(index_text(a), index_text(b), f"{old} index", f"{new} index")
        text_a, text_b = _text_by_document(a), _text_by_document(b)
        result.old_size, result.new_size = _size(text_a), _size(text_b)
        losses = [(p, v[1], text_b.get(p, (0, 0, 0))[1]) for p, v in text_a.items()]
        result.losses = sorted(
            ((p, x, y) for p, x, y in losses if y < x), key=lambda row: (row[2] - row[1], natural_key(row[0]))
        )
        result.old_provenance, result.new_provenance = _provenance(a), _provenance(b)
    finally:
        a.close()
        b.close()
    # A document whose bytes changed but whose sections all kept their text still counts as
    # changed; one whose sections changed without new bytes cannot happen within one builder.
    return result

