"""The passes of a lexical search (store-format.txt, "Search" steps 4 and 5): the query's words as
one phrase, then every word, then any word, each pass ranked by bm25 then id (``ranking``), its
hits after the earlier passes' and none twice, until ``limit`` are found.

A phrase match holds every word, so the AND pass is asked first: where no section holds every
word, the phrase pass is empty too and is not asked. Natural-language questions rarely have all
their words in one section (220 of the 221 uv questions), and a server searching many stores
asks each one query fewer. Where every word is common (``Impacts.every_word_common``: tens of
thousands of sections hold them all, and FTS5 ranks every phrase match) the phrase pass goes
first, and the AND pass is asked only when the phrase falls short of ``limit``: of two common
words on 448,648 sections, "windows desktop" has 42,566 phrase matches, which fill the list. The
hits and their order are the spec's either way.

Where the store carries a ``search_impacts`` table (``impacts``; docs/search-impacts.md), the AND
and OR passes without a path filter are answered from it when it proves the top ``limit``, with
the same ids, order and scores; where it cannot, FTS5 answers.

Standard library only.
"""

from __future__ import annotations

import sqlite3

from . import ranking


def fts_string(token: str) -> str:
    """A token as an FTS5 string: matched as written, never read as query syntax."""
    return '"' + token.replace('"', '""') + '"'


def lexical(conn: sqlite3.Connection, tokens: list[str], scope: ranking.Scope | None,
            limit: int, impacts=None) -> dict[str, tuple[int, float, str]]:
    """The first ``limit`` hits in pass order: section id -> (FTS rowid, bm25, the pass's FTS
    query, which the snippet is cut with). ``scope`` confines them to a path filter's documents;
    ``impacts`` is the store's ``search.impacts.Impacts``, or None."""
    def run(fts_query: str, every: bool | None = None) -> list[tuple[str, int, float]]:
        if scope is not None:
            return ranking.filtered(conn, fts_query, scope, limit)
        if every is not None and impacts is not None:
            proven = impacts.top(conn, tokens, limit, every)  # None: not proven from the table
            if proven is not None:
                return proven
        return ranking.unfiltered(conn, fts_query, limit)

    # (query, its hits when already asked, whether every word is required: None for the phrase)
    passes: list[tuple[str, list | None, bool | None]] = []
    if len(tokens) >= 2:
        every = " AND ".join(fts_string(t) for t in tokens)
        phrase = fts_string(" ".join(tokens))
        if scope is None and impacts is not None and impacts.every_word_common(conn, tokens):
            passes += [(phrase, None, None), (every, None, True)]  # the AND only when the phrase falls short
        else:
            every_hits = run(every, True)
            if every_hits:  # else the phrase pass is empty too
                passes += [(phrase, None, None), (every, every_hits, True)]
    passes.append((" OR ".join(fts_string(t) for t in tokens), None, False))
    found: dict[str, tuple[int, float, str]] = {}
    for fts_query, hits, every_word in passes:
        for sid, rowid, rank in hits if hits is not None else run(fts_query, every_word):
            if sid not in found:
                found[sid] = (rowid, rank, fts_query)
        if len(found) >= limit:
            break
    return found
