"""What one agent run did, and the sums ``stats()`` reports (ADR 008: tokens, tool calls and
wall time are columns beside recall).

``read_ids`` are the sections whose full text reached the model, in the order it got them:
the section a successful ``read`` returned and its context sections, and the sections a
``neighbours`` call returned. Ids that only appeared in ``search`` or ``grep`` results are
``surfaced_ids``: pointers the model saw, not text it read. ``error`` is set when the run did not
finish (an API failure, no answer within the turns, every tool call failing); such a run is
counted, reported, and never cached.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields


@dataclass
class LoopRecord:
    read_ids: list[str] = field(default_factory=list)
    surfaced_ids: list[str] = field(default_factory=list)
    tool_calls: dict[str, int] = field(default_factory=dict)
    tool_errors: int = 0  # calls answered with an error the model saw (unknown id, bad arguments)
    infra_errors: int = 0  # calls that failed for a reason that is not the model's (store, SQLite)
    tokens_in: int = 0
    tokens_out: int = 0
    turns: int = 0
    requests: int = 0
    ms: float = 0.0
    usd: float = 0.0
    answer: str = ""
    error: str | None = None
    cached: bool = False

    def count_call(self, name: str) -> None:
        self.tool_calls[name] = self.tool_calls.get(name, 0) + 1

    def note_result(self, name: str, result: object) -> None:
        """Take the ids a tool result carries: read text, or pointers only."""
        if not isinstance(result, dict):
            return
        if name == "read":
            sections = [result] + list(result.get("context") or [])  # ReadResult.to_dict()
            self.read_ids.extend(s["id"] for s in sections if isinstance(s, dict) and s.get("id"))
        elif name == "neighbours":
            self.read_ids.extend(s["id"] for s in result.get("sections") or [] if isinstance(s, dict) and s.get("id"))
        elif name in ("search", "grep"):
            items = list(result.get("hits") or []) + list(result.get("matches") or [])
            self.surfaced_ids.extend(i["id"] for i in items if isinstance(i, dict) and i.get("id"))

    def ranked(self, k: int, *, count_surfaced: bool = False) -> list[str]:
        """The first ``k`` distinct ids read (then surfaced, if asked), in order."""
        out: list[str] = []
        for sid in self.read_ids + (self.surfaced_ids if count_surfaced else []):
            if sid not in out:
                out.append(sid)
        return out[:k]

    def to_dict(self) -> dict:
        data = asdict(self)
        data.pop("cached")
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "LoopRecord":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known}, cached=True)


def summarize(records: Iterable[LoopRecord]) -> dict:
    """The sums ``stats()`` returns; ragbisect reads ``tokens_in``, ``tokens_out``,
    ``tool_calls`` and ``queries`` from it."""
    records = list(records)
    by_tool: dict[str, int] = {}
    for rec in records:
        for name, n in rec.tool_calls.items():
            by_tool[name] = by_tool.get(name, 0) + n
    return {
        "queries": len(records),
        "tokens_in": sum(r.tokens_in for r in records),
        "tokens_out": sum(r.tokens_out for r in records),
        "tool_calls": sum(by_tool.values()),
        "by_tool": dict(sorted(by_tool.items())),
        "turns": sum(r.turns for r in records),
        "requests": sum(r.requests for r in records if not r.cached),
        "errors": sum(1 for r in records if r.error),
        "tool_errors": sum(r.tool_errors for r in records),
        "infra_errors": sum(r.infra_errors for r in records),
        "cached": sum(1 for r in records if r.cached),
        "usd": round(sum(r.usd for r in records), 6),
    }


class RecordedRuns:
    """What both loop retrievers do with a question: the run already made in this process, else
    the cached one, else a new run, cached only when it did not fail (a failed run is never
    served again as an answer). Subclasses set ``_lock``, ``records`` and ``cache`` and define
    ``_key(query)``, ``_run(query)`` and ``close()``; ``with`` closes them."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def record(self, query: str) -> LoopRecord:
        with self._lock:
            if query in self.records:
                return self.records[query]
        key = self._key(query)
        cached = self.cache.get(key) if self.cache else None
        if cached is not None:
            rec = LoopRecord.from_dict(cached)
        else:
            rec = self._run(query)
            if self.cache and rec.error is None:
                self.cache.put(key, rec.to_dict())
        with self._lock:
            self.records[query] = rec
        return rec
