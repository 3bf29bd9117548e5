"""The result shapes of the five operations, as supplement.md "The five operations and tools" lists them.

Small frozen dataclasses so library users get attributes (``hit.id``, ``result.section.text``) and
every surface (CLI ``--json``, MCP, conformance runner) gets the same JSON through ``to_dict()``.
Every item carries ``id``, ``doc`` and ``heading_path`` so a model can cite without a second call.
"""

from __future__ import annotations

from dataclasses import dataclass


class Items(tuple):
    """The items of a result: immutable and hashable like a tuple, and equal to a list of the
    same items, because the published API returns lists and its users write
    ``result.hits == []`` (issue 28). It prints as a list for the same reason."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return repr(list(self))


def _items(result: object, name: str) -> None:
    value = getattr(result, name)
    if type(value) is not Items:
        object.__setattr__(result, name, Items(value))


@dataclass(frozen=True)
class Hit:
    id: str
    doc: str
    heading_path: str
    snippet: str
    score: float
    kind: str

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "doc": self.doc,
            "heading_path": self.heading_path,
            "snippet": self.snippet,
            "score": self.score,
            "kind": self.kind,
        }


@dataclass(frozen=True)
class Section:
    id: str
    doc: str
    heading_path: str
    kind: str
    text: str
    prev_id: str | None
    next_id: str | None
    context: bool = False  # True for sections returned as read(context=n) neighbours

    def to_dict(self) -> dict:
        # "context" is always present, false outside read's context list (neighbours, header),
        # as in the published 0.2.1 results; read replaces it with the list of context sections.
        return {
            "id": self.id,
            "doc": self.doc,
            "heading_path": self.heading_path,
            "kind": self.kind,
            "text": self.text,
            "prev_id": self.prev_id,
            "next_id": self.next_id,
            "context": self.context,
        }


@dataclass(frozen=True)
class Match:
    id: str
    doc: str
    heading_path: str
    line: str

    def to_dict(self) -> dict:
        return {"id": self.id, "doc": self.doc, "heading_path": self.heading_path, "line": self.line}


@dataclass(frozen=True)
class SearchResult:
    hits: tuple[Hit, ...]
    mode: str = "lexical"
    hint: str | None = None

    def __post_init__(self) -> None:
        _items(self, "hits")

    def to_dict(self) -> dict:
        return {"hits": [h.to_dict() for h in self.hits], "mode": self.mode, "hint": self.hint}


@dataclass(frozen=True)
class ReadResult:
    section: Section
    context: tuple[Section, ...] = ()

    def __post_init__(self) -> None:
        _items(self, "context")

    def to_dict(self) -> dict:
        out = self.section.to_dict()
        out["context"] = [c.to_dict() for c in self.context]
        return out


@dataclass(frozen=True)
class GrepResult:
    matches: tuple[Match, ...]
    truncated: bool = False

    def __post_init__(self) -> None:
        _items(self, "matches")

    def to_dict(self) -> dict:
        return {"matches": [m.to_dict() for m in self.matches], "truncated": self.truncated}


@dataclass(frozen=True)
class NeighboursResult:
    sections: tuple[Section, ...]
    header: Section | None = None

    def __post_init__(self) -> None:
        _items(self, "sections")

    def to_dict(self) -> dict:
        return {
            "sections": [s.to_dict() for s in self.sections],
            "header": self.header.to_dict() if self.header else None,
        }
