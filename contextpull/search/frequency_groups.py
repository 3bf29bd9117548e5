"""An AND pass of common words from ``search_impacts``: the sections holding every word, in groups
by the words' frequencies, each group walked shortest section first.

Why not the threshold algorithm (``impact_pass``): where every word is in more than 2 % of the
sections, their contributions are flat and the sections holding them all are rarely at the head
of any list, so it reads tens of thousands of postings before it proves anything, and FTS5 ranks
every section holding them all instead ("windows" AND "value": 41,957 sections at 448,648,
47 ms). The structure of the score answers such a pass with a few hundred scored sections:

- A word's contribution ``idf * ((f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)))`` is, for
  one frequency ``f``, non-increasing in the section's length ``D`` (each operation is monotonic,
  and so is IEEE rounding). So among the sections where the words have the frequencies
  ``(f1, .., fn)`` a shorter section scores at least as much as a longer one.
- Each word's sections are grouped by frequency and sorted by length once (``Groups``, kept
  with the word's postings between searches). A combination of one group per word is walked
  along its smallest group, shortest first, each section checked in the others' sets (at C
  speed, a ``filter`` over ``frozenset.__contains__``); the walk stops at the first section in
  every group scoring strictly less than the ``limit``-th best found so far, since every later
  one scores less too. A combination is not walked when a section as short as the longest of
  its groups' shortest would score below that.
- Combinations are taken depth first, each word's groups in descending order of their bound
  (the word's contribution in the group's shortest section), and a word's remaining groups are
  skipped once their bound, with ``impact_pass.SLACK`` for the order of the sum, is below the
  ``limit``-th best.

A section never scored scores strictly less than ``limit`` sections found (of any combination),
so every section that ties the ``limit``-th is among those returned, and the caller orders ties
by id. The scores are folded in query order, exactly as ``impact_pass`` folds them.

Two bounds keep a pass from costing more than FTS5's: at most two distinct words (``MAX_WORDS``;
three common words share few sections, which FTS5 ranks quickly, and their combinations
multiply), and at most ``MAX_SCANNED`` sections walked: where the words share few sections a
walk finds no member to stop at and reads its whole group (two words in disjoint halves of
450,000 sections took 0.17-0.48 s), and FTS5 answers such a pass in under a millisecond.

Standard library only.
"""

from __future__ import annotations

import heapq

from . import impact_format as fmt
from .impact_format import SCALE
from .impact_pass import SLACK

# Combinations tried in one pass (each partial one counts); past this FTS5 ranks the pass. Two
# of the commonest words on 448,648 sections try about 1,500; three or more words each with
# dozens of frequencies could try millions.
MAX_STEPS = 20000
# Distinct words a pass may have (module docstring).
MAX_WORDS = 2
# Sections walked in one pass, member or not; past this FTS5 ranks the pass. The 100
# two-common-word queries on 448,648 sections walk 90,000-100,000 at most, in about 5 ms.
# Walks read CHUNK sections at a time.
MAX_SCANNED = 200_000
CHUNK = 256


class Groups:
    """One word's sections by its frequency in them: frequency -> (docnos shortest first, their
    set), the groups in descending order of their best contribution."""

    def __init__(self, idf: float, docnos, freqs, lengths, factors):
        by_freq: dict[int, list[int]] = {}
        for docno, freq in zip(docnos, freqs):
            group = by_freq.get(freq)
            if group is None:
                by_freq[freq] = [docno]
            else:
                group.append(docno)
        length = lengths.__getitem__
        self.groups = []  # (bound, frequency as a float, docnos shortest first, their set)
        for freq, group in by_freq.items():
            group.sort(key=length)
            f = float(freq)
            bound = fmt.contribution(idf, f, factors[group[0]])
            self.groups.append((bound, f, group, frozenset(group)))
        self.groups.sort(key=lambda g: -g[0])
        self.postings = len(docnos)

    def size(self) -> int:
        """About the bytes held: a list slot, a set slot and an int object a posting (97 bytes
        measured for "windows", 142,586 postings)."""
        return 100 * self.postings


def top(words: list, times: list[int], phrases: list[int], idfs: list[float], limit: int,
        factors) -> dict[int, float] | None:
    """The AND pass's best sections, docno -> exact score: every section scoring at least the
    ``limit``-th (ties included), or None past ``MAX_STEPS`` combinations or ``MAX_SCANNED``
    sections walked.

    ``words``: each distinct word's ``Groups``; ``times``: how often each is in the query;
    ``phrases``: the query's words in order, as indexes into ``words``; ``idfs`` by word."""
    best: list[float] = []  # the ``limit`` best exact scores so far (a min-heap)
    found: dict[int, float] = {}
    most = [times[i] * w.groups[0][0] for i, w in enumerate(words)]
    slack = SLACK * (sum(most) + 1.0)
    rest = [sum(most[i:]) for i in range(len(words))] + [0.0]
    steps = scanned = 0

    def floor() -> float:
        return best[0] if len(best) == limit else float("-inf")

    def walk(chosen: list[tuple]) -> bool:
        """Walk one combination; False when the budget of sections ran out."""
        nonlocal scanned
        terms = [(idfs[i], chosen[i][1]) for i in phrases]

        def score(factor: float) -> float:
            """``impact_format.contribution`` of each query word, written out (this runs once per
            walked section), folded in query order from 0.0 as FTS5's loop adds them."""
            total = 0.0
            for idf, f in terms:
                total += idf * ((f * SCALE) / (f + factor))
            return total

        # A section in every group is at least as long as each group's shortest.
        if len(best) == limit and score(max(factors[g[2][0]] for g in chosen)) < best[0]:
            return True
        smallest = min(range(len(chosen)), key=lambda i: len(chosen[i][2]))
        walked = chosen[smallest][2]
        others = [group[3].__contains__ for i, group in enumerate(chosen) if i != smallest]
        for start in range(0, len(walked), CHUNK):
            chunk = walked[start:start + CHUNK]
            scanned += len(chunk)
            if scanned > MAX_SCANNED:
                return False
            members = iter(chunk)
            for contains in others:
                members = filter(contains, members)  # skipped at C speed
            for docno in members:
                value = score(factors[docno])
                if len(best) == limit and value < best[0]:
                    return True  # every later section of this group scores at most this
                found[docno] = value
                if len(best) < limit:
                    heapq.heappush(best, value)
                elif value > best[0]:
                    heapq.heapreplace(best, value)
        return True

    def combine(i: int, chosen: list[tuple], bound: float) -> bool:
        nonlocal steps
        steps += 1
        if steps > MAX_STEPS:
            return False
        if i == len(words):
            return walk(chosen)
        for group in words[i].groups:
            if bound + times[i] * group[0] + rest[i + 1] + slack < floor():
                break  # this word's later groups are bounded lower still
            chosen.append(group)
            ok = combine(i + 1, chosen, bound + times[i] * group[0])
            chosen.pop()
            if not ok:
                return False
        return True

    if not combine(0, [], 0.0):
        return None
    cut = floor()
    return {d: s for d, s in found.items() if s >= cut}
