"""Recall@k and MRR, overall and per question shape (ADR 008).

The definitions are those of ``../shared/bench/recall.py`` and of ragbisect, so a figure printed
by ``contextpull eval`` is the figure either harness prints for the same ranking:

- recall@k: the share of a question's gold ids found in its first k returned ids, averaged
  over questions (for one gold id, whether it was found);
- mrr: the reciprocal rank of the first gold id among the first ``MRR_DEPTH`` returned ids,
  0 past that, averaged over questions.

Figures are rounded to three places only when printed; aggregation works on exact values.
"""

from __future__ import annotations

from collections.abc import Sequence

from .questions import Question

KS = (1, 5, 10)
MRR_DEPTH = 10


def score(question: Question, returned: Sequence[str]) -> dict[str, float]:
    """One question's recall@k for each k in ``KS`` and its reciprocal rank."""
    ranks = []
    for gold in question.gold:
        rank = next((i + 1 for i, sid in enumerate(returned) if sid == gold), None)
        ranks.append(rank)
    found = [r for r in ranks if r is not None]
    out = {f"recall@{k}": sum(1 for r in found if r <= k) / len(question.gold) for k in KS}
    first = min(found) if found else None
    out["mrr"] = 1.0 / first if first is not None and first <= MRR_DEPTH else 0.0
    return out


def aggregate(rows: Sequence[dict[str, float]]) -> dict[str, float | int]:
    """Means of each metric over ``rows``, with ``n`` the number of questions."""
    n = len(rows)
    out: dict[str, float | int] = {"n": n}
    for key in [f"recall@{k}" for k in KS] + ["mrr"]:
        out[key] = sum(r[key] for r in rows) / n if n else 0.0
    return out


def by_shape(questions: Sequence[Question], rows: Sequence[dict[str, float]]) -> dict[str, dict]:
    """``aggregate`` per question shape, shapes in sorted order."""
    shapes = sorted({q.shape for q in questions})
    return {s: aggregate([r for q, r in zip(questions, rows) if q.shape == s]) for s in shapes}
