"""Driving a question file through a retriever: what ``contextpull eval`` prints (ADR 008).

Every retriever is asked for ``metrics.MRR_DEPTH`` (10) ids per question, as
``../shared/bench/recall.py`` asks ``search`` for 10 hits, so recall@1, @5 and @10 and MRR come
from one ranking and equal that harness's figures for the lexical row. Beside recall each row
carries its cost: wall time per question for every retriever, and for the agent loops the
tokens, tool calls, requests and errors of each question (``LoopRecord``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass

from ..errors import ConfigError
from . import metrics
from .questions import Question
from .record import LoopRecord, summarize

RETRIEVERS = "lexical, hybrid, api-loop:<provider:model> or claude-code[:<model>]"


@dataclass
class Answered:
    question: Question
    ids: list[str]
    scores: dict[str, float]
    ms: float
    record: LoopRecord | None


def make_retriever(name: str, store: str, *, max_turns: int | None = None, cache_path: str | None = None):
    """The retriever ``--retriever NAME`` names, checked (model, key, store) before any run."""
    kind, _, rest = name.partition(":")
    if kind in ("lexical", "hybrid") and not rest:
        from .one_shot import HybridRetriever, LexicalRetriever

        return (LexicalRetriever if kind == "lexical" else HybridRetriever)(store)
    if kind == "api-loop" and rest:
        from .api_loop import ApiLoopRetriever

        return ApiLoopRetriever(store, model=rest, max_turns=max_turns or 8, cache_path=cache_path)
    if kind == "claude-code":
        from .claude_code import ClaudeCodeRetriever

        return ClaudeCodeRetriever(store, model=rest or None, max_turns=max_turns or 12, cache_path=cache_path)
    raise ConfigError(f"--retriever: unknown retriever {name!r}", f"use {RETRIEVERS}")


def run(questions: Sequence[Question], retriever, *, workers: int = 1,
        on_done: Callable[[Answered], None] | None = None) -> list[Answered]:
    """Ask every question, ``workers`` at a time; results in question order."""

    def ask(question: Question) -> Answered:
        started = time.perf_counter()
        ids = list(retriever.retrieve(question.q, metrics.MRR_DEPTH))
        ms = (time.perf_counter() - started) * 1000
        record = retriever.record(question.q) if hasattr(retriever, "record") else None
        return Answered(question, ids, metrics.score(question, ids), ms, record)

    out = []
    with ThreadPoolExecutor(max_workers=workers) if workers > 1 else nullcontext() as pool:
        # pool.map yields in question order as each finishes; the builtin map asks one at a time
        for answered in (pool.map if pool else map)(ask, questions):
            out.append(answered)
            if on_done:
                on_done(answered)
    return out


def report(questions: Sequence[Question], answered: Sequence[Answered], *, retriever_name: str,
           questions_path: str, store: str, wall_s: float, stats: dict | None) -> dict:
    """The figures ``--json`` prints; the text table is rendered from the same dict."""
    rows = [a.scores for a in answered]
    overall = metrics.aggregate(rows)
    out: dict = {
        "questions": questions_path,
        "store": store,
        "retriever": retriever_name,
        "n": overall["n"],
        **{k: _r(v) for k, v in overall.items() if k != "n"},
        "per_shape": {s: {k: _r(v) for k, v in a.items()} for s, a in metrics.by_shape(questions, rows).items()},
        "ms_per_question": _r(sum(a.ms for a in answered) / len(answered), 1) if answered else 0.0,
        "wall_s": round(wall_s, 2),
    }
    records = [a.record for a in answered if a.record is not None]
    if records:
        totals = summarize(records)
        n = totals["queries"]
        out["per_question"] = {
            "tokens_in": _r(totals["tokens_in"] / n, 1),
            "tokens_out": _r(totals["tokens_out"] / n, 1),
            "tool_calls": _r(totals["tool_calls"] / n, 2),
            "by_tool": {t: _r(c / n, 2) for t, c in totals["by_tool"].items()},
            "turns": _r(totals["turns"] / n, 2),
            # What answering a question takes, cached runs included, like the tokens above; the
            # totals' "requests" (the stats) are only the requests this run made.
            "requests": _r(sum(r.requests for r in records) / n, 2),
            "run_ms": _r(sum(r.ms for r in records) / n, 1),
            "usd": _r(totals["usd"] / n, 6),
        }
        out["cached"] = totals["cached"]  # answered from the run cache: no requests now
        out["errors"] = totals["errors"]
        out["error_examples"] = sorted({r.error for r in records if r.error})[:3]
    if stats is not None:
        out["stats"] = stats
    out["results"] = [
        {"id": a.question.id, "shape": a.question.shape, "gold": list(a.question.gold), "ids": a.ids,
         **{k: _r(v) for k, v in a.scores.items()}, "ms": _r(a.ms, 1),
         **({"tokens_in": a.record.tokens_in, "tokens_out": a.record.tokens_out,
             "tool_calls": dict(a.record.tool_calls), "requests": a.record.requests,
             "cached": a.record.cached, "error": a.record.error} if a.record else {})}
        for a in answered
    ]
    return out


def render(rep: dict) -> str:
    """The report as a small table for people."""
    cols = ["recall@1", "recall@5", "recall@10", "mrr"]
    lines = [f"{rep['questions']}: {rep['n']} questions · retriever {rep['retriever']} · store {rep['store']}", ""]
    lines.append(f"{'slice':<16}{'n':>5}" + "".join(f"{c:>11}" for c in cols))
    slices = [("all", {**rep, "n": rep["n"]})] + list(rep["per_shape"].items())
    for name, figures in slices:
        lines.append(f"{name:<16}{figures['n']:>5}" + "".join(f"{figures[c]:>11.3f}" for c in cols))
    lines.append("")
    lines.append(f"time per question: {rep['ms_per_question']:.1f} ms (wall {rep['wall_s']:.2f} s)")
    pq = rep.get("per_question")
    if pq:
        tools = ", ".join(f"{t} {c:g}" for t, c in pq["by_tool"].items()) or "none"
        lines.append(
            f"per question: {pq['tokens_in']:,.0f} tokens in, {pq['tokens_out']:,.0f} out, "
            f"{pq['tool_calls']:g} tool calls ({tools}), {pq['turns']:g} turns, {pq['requests']:g} requests"
            + (f", ${pq['usd']:.4f}" if pq["usd"] else "")
        )
        errors = f"errors: {rep['errors']} of {rep['n']} runs; from the cache: {rep['cached']}"
        if rep["error_examples"]:
            errors += " (" + "; ".join(rep["error_examples"]) + ")"
        lines.append(errors)
    hints = (rep.get("stats") or {}).get("hints")
    if hints:
        lines.append("search hints: " + "; ".join(f"{h} ({n})" for h, n in hints.items()))
    return "\n".join(lines)


def _r(value, places: int = 3):
    return round(value, places) if isinstance(value, float) else value
