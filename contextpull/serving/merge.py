"""One ranked list from the searches of several mounts (issue 27, "Many stores in one server").

bm25 values of two stores are not on one scale: each store's idf comes from its own document
counts, so a store that barely mentions a word can out-score the store that is about it. Neither
interleaving by rank (the first hit of a store that only matched "how" sits beside the best hit
of the store that matched everything) nor raw scores would do. The rule here, measured in
``benchmarks/mounts_bench.py`` and described in docs/serving.md:

1. each store's hits keep that store's order (its bm25, or its hybrid fusion);
2. a hit is worth the share of the query's weight that its section holds: the sum, over the
   distinct query words found in its heading path or text, of the word's idf, divided by the
   sum over every query word. The idf is taken over all the stores searched together (their
   section counts and the words' section counts added up), so every hit is weighed with one
   weighting, and a word common in any mount weighs little. A store matching only the common
   words of a question scores low even where its own bm25 is high;
3. a hit's worth is capped by the worth of the hits its store ranked above it (a running
   minimum), so merging never reorders one store's list;
4. the lists are merged by worth, then by rank in their store, then by mount order.

Measured on the uv questions beside four corpora (docs/serving.md): document recall@5 0.747 by
round-robin, 0.878 with each store's own idf, 0.891 with the idf of all stores together.

Standard library only.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..text import query_tokens

DF_CACHE = 4096  # words per store whose section counts are kept
FIRST_TEXTS = 3  # hits whose texts a store's first ask reads


@dataclass(frozen=True)
class Ranked:
    """One store's hits for the merge: their section ids in the store's order and its connection."""

    mount: int  # position of the mount in the server's order
    hits: tuple  # section ids
    conn: object
    df_cache: dict


def _document_frequency(conn, cache: dict, word: str) -> int:
    if word not in cache:
        if len(cache) >= DF_CACHE:
            cache.clear()
        quoted = '"' + word.replace('"', '""') + '"'
        cache[word] = conn.execute("SELECT count(*) FROM sections_fts WHERE sections_fts MATCH ?", (quoted,)).fetchone()[0]
    return cache[word]


def _counts(ranked: Ranked, words: list[str]) -> tuple[int, dict[str, int]]:
    """The store's section count and each word's section count (cached per store)."""
    cache = ranked.df_cache
    if "" not in cache:
        cache[""] = ranked.conn.execute("SELECT count(*) FROM sections").fetchone()[0]
    return cache[""], {word: _document_frequency(ranked.conn, cache, word) for word in words}


def idf(lists: list[Ranked], words: list[str]) -> dict[str, float]:
    """Each word's idf over the stores of ``lists`` taken together (bm25's idf form, never 0)."""
    total, df = 0, dict.fromkeys(words, 0)
    for ranked in lists:
        sections, counts = _counts(ranked, words)
        total += sections
        for word in words:
            df[word] += counts[word]
    return {word: math.log(1.0 + (total - df[word] + 0.5) / (df[word] + 0.5)) for word in words}


def presence(words: list[str]):
    """A function from lower-cased text to the query words found in it as whole tokens.

    Searched for, not tokenised: ``query_tokens`` over every hit's text cost twice a merged
    search, and one pattern of every word with its edges tried at every position of every hit
    was still most of it. Each word is found with ``str.find`` and its edges checked where it
    stands, the first whole occurrence enough. The edges follow the tokeniser's rule (a token
    does not continue into a letter, digit or ``_``, nor through ``.``/``-`` into one), looking
    one edge character back, which is all ordinary text needs: ``edges_pattern`` is the same rule
    as one expression, which the tests hold it to.
    """
    ordered = sorted(words, key=len, reverse=True)

    def found(text: str) -> set[str]:
        return {word for word in ordered if _whole(text, word)}

    return found


def edges_pattern(words: list[str]) -> re.Pattern:
    """``presence``'s rule as one expression (its matches are the words found)."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?<![^\W_][.\-])(?:{alternatives})(?!\w|[.\-]+[^\W_])")


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"  # what ``\w`` matches in a str pattern


def _whole(text: str, word: str) -> bool:
    """Whether ``word`` stands in ``text`` at least once with a token's edges on both sides. A
    rejected occurrence moves the search one character on, so every position is looked at once."""
    n, size = len(text), len(word)
    at = text.find(word)
    while at >= 0:
        ok = not (at and _word_char(text[at - 1]))
        if ok and at >= 2 and text[at - 1] in ".-" and text[at - 2].isalnum():
            ok = False
        end = at + size
        if ok and end < n:
            if _word_char(text[end]):
                ok = False
            elif text[end] in ".-":
                run = end
                while run < n and text[run] in ".-":
                    run += 1
                if run < n and text[run].isalnum():
                    ok = False
        if ok:
            return True
        at = text.find(word, at + 1)
    return False


def worths(ranked: Ranked, weights: dict[str, float], found) -> Iterator[float]:
    """Rule 2 and 3 for one store's hits, in its order, each worked out when it is asked for:
    the merge asks only for the hits that can still enter the list it returns."""
    if not ranked.hits or not weights:
        yield from [0.0] * len(ranked.hits)
        return
    whole = sum(weights.values()) or 1.0
    ids = list(ranked.hits)
    texts: dict = {}
    cap = math.inf
    for at, sid in enumerate(ids):
        if at == 0 or at == FIRST_TEXTS:  # the first few hits, then the rest: most stores are asked for two or three
            batch = ids[at:FIRST_TEXTS] if at == 0 else ids[at:]
            marks = ",".join("?" * len(batch))
            texts.update(ranked.conn.execute(
                f"SELECT id, heading_path || ' ' || text FROM sections WHERE id IN ({marks})", batch))
        present = found(texts.get(sid, "").lower())
        cap = min(cap, sum(weight for word, weight in weights.items() if word in present) / whole)
        yield cap


def merge(lists: list[Ranked], query: str, limit: int) -> list[tuple[int, str]]:
    """``(mount, section id)`` pairs, best first, at most ``limit``; ``lists`` holds every store
    searched, those without hits too (their counts are part of the idf).

    Rule 4's order is (worth, descending; rank in the store; mount order). Within one store that
    order is the store's own (rule 3 never lets worth rise down the list), so the stores' lists
    are merged as sorted runs: a hit's worth is worked out only when it reaches the front of its
    run, about ``limit`` plus one a store instead of every hit of every store."""
    words = list(dict.fromkeys(query_tokens(query)))
    if not words:
        return []
    weights = idf(lists, words)
    found = presence(words)

    def run(ranked: Ranked) -> Iterator[tuple[float, int, int, str]]:
        for rank, (hit, worth) in enumerate(zip(ranked.hits, worths(ranked, weights, found))):
            yield -worth, rank, ranked.mount, hit

    merged = heapq.merge(*(run(ranked) for ranked in lists))
    return [(mount, hit) for _, _, mount, hit in itertools.islice(merged, limit)]
