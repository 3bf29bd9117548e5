"""One search pass: the best ``limit`` matches of an FTS5 query, ordered by bm25, then id.

store-format.txt, "Search" step 5 and "Ordering and ties". The order is always exactly
``ORDER BY bm25(sections_fts, 0.0, 2.0, 1.0), id``; what differs is how much work it takes:

- Unfiltered: reading the unindexed ``id`` column costs a content lookup per match, so rows are
  ranked by bm25 alone with a margin, ids are read for those rows only and ties are sorted by id.
  Should equal scores run past the margin, the plain query answers instead.
- Filtered (``in``): the sections of the allowed documents are known from the ``sections`` table.
  When their FTS rows carry the same rowids (both writers we know do this; it is checked, not
  assumed), the query is confined to that rowid range and ranked there. Otherwise the FTS table
  drives a join to ``sections`` (``CROSS JOIN`` keeps SQLite from re-running the MATCH per section).

Standard library only.
"""

from __future__ import annotations

import sqlite3

BM25 = "bm25(sections_fts, 0.0, 2.0, 1.0)"
# Rows ranked past ``limit``, so that scores tied at the cut are all seen in one pass. Equal
# scores are common where sections repeat (the same page copied into several folders: the uv
# docs x62 tie in groups of 62); with 16, the plain query ran again on most searches there
# (two common words 12.8 -> 7.1 ms p50 with 256, the synthetic corpus unchanged, same results).
# The ids of at most limit + MARGIN rows are then read with one IN list, within SQLite's
# default 999 parameters.
MARGIN = 256
ALIGN_CAP = 20000  # above this many allowed sections the alignment check costs more than it saves
_CHUNK = 500


def _by_rank_then_id(rows: list[tuple[str, int, float]]) -> list[tuple[str, int, float]]:
    # Python orders str by code point, which is the byte order of UTF-8: SQLite's BINARY collation.
    return sorted(rows, key=lambda row: (row[2], row[0]))


def unfiltered(conn: sqlite3.Connection, query: str, limit: int) -> list[tuple[str, int, float]]:
    margin = limit + MARGIN
    top = conn.execute(
        f"SELECT rowid, {BM25} AS r FROM sections_fts WHERE sections_fts MATCH ? ORDER BY r LIMIT ?",
        (query, margin),
    ).fetchall()
    if len(top) == margin and top[-1][1] == top[limit - 1][1]:
        sql = f"SELECT id, rowid, {BM25} AS r FROM sections_fts WHERE sections_fts MATCH ? ORDER BY r, id LIMIT ?"
        return conn.execute(sql, (query, limit)).fetchall()
    if len(top) > limit:
        cut = top[limit - 1][1]
        top = [row for row in top if row[1] <= cut]
    if not top:
        return []
    ranks = dict(top)
    marks = ",".join("?" * len(ranks))
    ids = conn.execute(f"SELECT rowid, id FROM sections_fts WHERE rowid IN ({marks})", list(ranks)).fetchall()
    return _by_rank_then_id([(sid, rowid, ranks[rowid]) for rowid, sid in ids])[:limit]


def _aligned(conn: sqlite3.Connection, allowed: dict[int, str]) -> bool:
    """Whether the FTS rows with these rowids are exactly these sections (same ids)."""
    rowids = list(allowed)
    seen = 0
    for start in range(0, len(rowids), _CHUNK):
        chunk = rowids[start:start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        for rowid, sid in conn.execute(f"SELECT rowid, id FROM sections_fts WHERE rowid IN ({marks})", chunk):
            if allowed.get(rowid) != sid:
                return False
            seen += 1
    return seen == len(allowed)


class Scope:
    """The sections an ``in`` filter allows, read once per search call."""

    def __init__(self, conn: sqlite3.Connection, docs_sql: str, params: list):
        self.docs_sql, self.params = docs_sql, params
        self.allowed = dict(conn.execute(f"SELECT rowid, id FROM sections WHERE doc_id IN ({docs_sql})", params))
        self.aligned = bool(self.allowed) and len(self.allowed) <= ALIGN_CAP and _aligned(conn, self.allowed)


def filtered(conn: sqlite3.Connection, query: str, scope: Scope, limit: int) -> list[tuple[str, int, float]]:
    allowed = scope.allowed
    if not allowed:
        return []
    if scope.aligned:
        rows = conn.execute(
            f"SELECT rowid, {BM25} FROM sections_fts WHERE sections_fts MATCH ? AND rowid BETWEEN ? AND ?",
            (query, min(allowed), max(allowed)),
        ).fetchall()
        return _by_rank_then_id([(allowed[rowid], rowid, r) for rowid, r in rows if rowid in allowed])[:limit]
    sql = (
        f"SELECT sections_fts.id, sections_fts.rowid, {BM25} AS r FROM sections_fts "
        "CROSS JOIN sections s ON s.id = sections_fts.id "
        f"WHERE sections_fts MATCH ? AND s.doc_id IN ({scope.docs_sql}) ORDER BY r, sections_fts.id LIMIT ?"
    )
    return conn.execute(sql, (query, *scope.params, limit)).fetchall()
