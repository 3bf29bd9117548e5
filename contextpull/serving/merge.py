"""One ranked list from the searches of several mounts (issue 27, "Many stores in one server").

bm25 values of two stores are not on one scale: each store's idf comes from its own document
counts, so a store that barely mentions a word can out-score the store that is about it. Neither
interleaving by rank (the first hit of a store that only matched "how" sits beside the best hit
of the store that matched everything) nor raw scores would do. The rule here, measured in
``benchmarks/mounts_bench.py`` and described in docs/serving.md:

1. each store's hits keep that store's order (its bm25, or its hybrid fusion);
2. a hit is worth the share of the query's weight that its section holds: the sum, over the
   distinct query words found in its heading path or text, of the word's idf *in its own
   store*, divided by the sum over every query word. A store matching only the common words of
   a question scores low even where its bm25 is high; idf is a ratio within one store, so
   the shares of two stores can be compared;
3. a hit's worth is capped by the worth of the hits its store ranked above it (a running
   minimum), so merging never reorders one store's list;
4. the lists are merged by worth, then by rank in their store, then by mount order.

Standard library only.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..text import query_tokens

DF_CACHE = 4096  # words per store whose section counts are kept


@dataclass(frozen=True)
class Ranked:
    """One store's hits for the merge: the hits in the store's order and the store's connection."""

    mount: int  # position of the mount in the server's order
    hits: tuple
    conn: object
    df_cache: dict


def _document_frequency(conn, cache: dict, word: str) -> int:
    if word not in cache:
        if len(cache) >= DF_CACHE:
            cache.clear()
        quoted = '"' + word.replace('"', '""') + '"'
        cache[word] = conn.execute("SELECT count(*) FROM sections_fts WHERE sections_fts MATCH ?", (quoted,)).fetchone()[0]
    return cache[word]


def _idf(conn, cache: dict, words: list[str]) -> dict[str, float]:
    if "" not in cache:
        cache[""] = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
    total = cache[""]
    out = {}
    for word in words:
        df = _document_frequency(conn, cache, word)
        out[word] = math.log(1.0 + (total - df + 0.5) / (df + 0.5))
    return out


def presence(words: list[str]) -> re.Pattern:
    """The query words where the tokeniser would find them as whole tokens in lower-cased text.

    A regular expression rather than ``query_tokens`` over every hit's text: the scan stays in C,
    which halves a merged search's cost. Its edges follow the tokeniser's rule (a token does not
    continue into a letter, digit or ``_``, nor through ``.``/``-`` into one), looking one edge
    character back, which is all ordinary text needs.
    """
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?<![^\W_][.\-])(?:{alternatives})(?!\w|[.\-]+[^\W_])")


def worths(ranked: Ranked, words: list[str], found: re.Pattern | None = None) -> list[float]:
    """Rule 2 and 3 for one store's hits."""
    if not ranked.hits or not words:
        return [0.0] * len(ranked.hits)
    found = found or presence(words)
    idf = _idf(ranked.conn, ranked.df_cache, words)
    whole = sum(idf.values()) or 1.0
    ids = [hit.id for hit in ranked.hits]
    marks = ",".join("?" * len(ids))
    texts = dict(
        ranked.conn.execute(f"SELECT id, heading_path || ' ' || text FROM sections WHERE id IN ({marks})", ids)
    )
    out, cap = [], math.inf
    for sid in ids:
        present = {match.group(0) for match in found.finditer(texts.get(sid, "").lower())}
        worth = sum(weight for word, weight in idf.items() if word in present) / whole
        cap = min(cap, worth)
        out.append(cap)
    return out


def merge(lists: list[Ranked], query: str, limit: int) -> list[tuple[int, object]]:
    """``(mount, hit)`` pairs, best first, at most ``limit``."""
    words = list(dict.fromkeys(query_tokens(query)))
    found = presence(words) if words else None
    keyed = []
    for ranked in lists:
        for rank, (hit, worth) in enumerate(zip(ranked.hits, worths(ranked, words, found))):
            keyed.append((-worth, rank, ranked.mount, hit))
    keyed.sort(key=lambda item: item[:3])
    return [(mount, hit) for _, _, mount, hit in keyed[:limit]]
