"""One AND or OR pass answered from ``search_impacts`` postings: a threshold algorithm with random
access (``impacts`` reads the postings it is given).

1. Read each word's first postings in impact order (part 0; part 1 on the second round). A
   word whose postings are all read is *complete*; for the others, the last read contribution
   bounds every unread one.
2. Every section read somewhere is a candidate. Its lower bound folds the known contributions
   (unknown as 0.0), its upper bound folds them with each incomplete word's bound; both fold in
   query order like FTS5. A section read nowhere is bounded by the fold of the bounds.
3. Candidates whose upper bound is below the ``limit``-th lower bound drop out; the rest are
   scored exactly, looking their missing words up (part 2, or parts 0-1 when complete).
4. The answer is proven when the ``limit``-th exact score is strictly above every bound of what
   was not scored; otherwise read deeper, and after part 1 give up (``None``: the caller runs
   the plain FTS5 query).

Why the scores and bounds are exact: ``impacts``' docstring.

Standard library only.
"""

from __future__ import annotations

import heapq

from . import impact_format as fmt

# Depths (postings per word, in impact order) at which a proof is tried; parts 0 and 1 hold them.
DEPTHS = (32, 256, 1024, 4096, 16384, fmt.MID)
# Exact scores computed (section x word look-ups) in one pass; past this the plain query is cheaper.
MAX_LOOKUPS = 100000
# Pruning sums contributions in any order; this absolute slack (relative to the largest possible
# score) covers that rounding many times over. Only the final proof compares exact folds.
SLACK = 1e-9


def fold(values) -> float:
    """Values added left to right from 0.0, as FTS5's loop adds a section's contributions."""
    total = 0.0
    for value in values:
        total += value
    return total


class Pass:
    """One AND or OR pass, answered by reading postings deeper until the answer is proven."""

    def __init__(self, conn, words: dict, phrases: list[str], limit: int, conjunctive: bool):
        """``words``: query word -> its ``impacts._Word`` (postings in impact order, look-ups)."""
        self.conn, self.words, self.phrases = conn, words, phrases
        self.limit, self.conjunctive = limit, conjunctive
        self.names = list(words)
        self.times = {name: phrases.count(name) for name in self.names}
        self.full_mask = (1 << len(self.names)) - 1
        self.sums: dict[int, float] = {}  # docno -> sum of the contributions read (any order)
        self.masks: dict[int, int] = {}  # docno -> the words it was read in
        self.exact: dict[int, float | None] = {}  # docno -> its exact score, None: no match (AND)
        self.read = {name: 0 for name in self.names}
        self.lookups = 0
        top = sum(self.times[n] * words[n].bound(0) for n in self.names)
        self.slack = SLACK * (top + 1.0)

    def run(self):
        level = {name: 0 for name in self.names}
        for name in self.names:
            self._read_to(name, DEPTHS[0])
        final = False
        while True:
            answer, unseen = self._try(final)
            if answer is not None:
                return answer
            if unseen is None:
                return None
            # Read deeper where the bound of unread sections comes from: a word whose postings
            # are flat (the commonest words) gains little from reading on.
            shares = {n: self.times[n] * self.words[n].bound(self.read[n]) for n in self.names}
            deepen = [n for n in self.names if shares[n] >= 0.1 * unseen and level[n] + 1 < len(DEPTHS)
                      and self.read[n] < self.words[n].df]
            if not deepen:
                if final:
                    return None
                final = True  # nothing left to read: score every candidate that could still enter
                continue
            for name in deepen:
                level[name] += 1
                self._read_to(name, DEPTHS[level[name]])

    def _read_to(self, name: str, depth: int) -> None:
        sums, masks = self.sums, self.masks
        word = self.words[name]
        word.load_to(self.conn, depth)
        start, end = self.read[name], min(depth, len(word.docnos))
        if start >= end:
            return
        flag, times = 1 << self.names.index(name), self.times[name]
        word.contrib(end - 1)
        get_sum, get_mask = sums.get, masks.get
        for docno, c in zip(word.docnos[start:end], word.contribs[start:end]):
            sums[docno] = get_sum(docno, 0.0) + c * times
            masks[docno] = get_mask(docno, 0) | flag
        self.read[name] = end

    def _try(self, final: bool = False):
        """(the answer or None, the bound of unread sections or None when none can match)."""
        words, names, times = self.words, self.names, self.times
        bounds = {n: words[n].bound(self.read[n]) for n in names}
        exhausted = [n for n in names if self.read[n] >= words[n].df]
        if (self.conjunctive and exhausted) or len(exhausted) == len(names):
            unseen = None  # no unread section can match
        else:
            unseen = fold(bounds[p] for p in self.phrases)
        total = sum(times[n] * bounds[n] for n in names)
        masked: dict[int, float] = {}

        def others(mask: int) -> float:  # the bounds of the words a section was not read in
            value = masked.get(mask)
            if value is None:
                value = total - sum(times[n] * bounds[n] for bit, n in enumerate(names) if mask >> bit & 1)
                masked[mask] = value
            return value

        sums, masks, slack = self.sums, self.masks, self.slack
        need = sum(1 << bit for bit, n in enumerate(names) if n in exhausted) if self.conjunctive else 0
        top: list[float] = []  # the ``limit`` best exact scores so far (a min-heap)
        done: dict[int, float] = {}

        def score(docno: int) -> bool:
            value = self.exact.get(docno, False)
            if value is False:
                self.lookups += len(names)
                if self.lookups > MAX_LOOKUPS:
                    return False
                value = self.exact[docno] = self._score(docno)
            if value is not None and docno not in done:
                done[docno] = value
                if len(top) < self.limit:
                    heapq.heappush(top, value)
                elif value > top[0]:
                    heapq.heapreplace(top, value)
            return True

        # First the sections with the most known: their exact scores are a floor for the
        # limit-th; while the bound of unread sections is above it, read deeper instead.
        candidates = sums if not need else (d for d, m in masks.items() if m & need == need)
        for docno in heapq.nlargest(2 * self.limit + 10, candidates, key=sums.__getitem__):
            if not score(docno):
                return None, None
        if not final and unseen is not None and (len(top) < self.limit or not unseen < top[0]):
            return None, unseen
        floor = top[0] if len(top) == self.limit else float("-inf")
        lift = {m: others(m) + slack for m in set(masks.values()) if m & need == need}
        ranked = sorted(((upper, d) for d, m in masks.items()
                         if m in lift and (upper := sums[d] + lift[m]) >= floor), reverse=True)
        for upper, docno in ranked:
            if len(top) == self.limit and upper < top[0]:
                break  # this and every later section score below the limit-th
            if not score(docno):
                return None, None
        if len(top) < self.limit:
            return (done if unseen is None else None), unseen
        theta = top[0]
        if unseen is not None and not unseen < theta:
            return None, unseen
        return {d: s for d, s in done.items() if s >= theta}, unseen

    def _score(self, docno: int) -> float | None:
        values = {}
        for name, word in self.words.items():
            c = word.lookup(self.conn, docno)
            if c is None:
                if self.conjunctive:
                    return None
                c = 0.0
            values[name] = c
        total = 0.0  # folded in query order from 0.0, as FTS5's loop adds them
        for p in self.phrases:
            total += values[p]
        return total
