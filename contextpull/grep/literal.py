"""Literal grep: a case-insensitive substring scan, optionally narrowed by a trigram table.

store-format.txt, "Grep": literal mode is ``instr(lower(text), lower(pattern)) > 0`` over
``sections.text`` (SQLite's ``lower()`` folds ASCII only), one match per section in id order,
never pre-filtered by the word index. The format allows a trigram index as an optimisation when
results stay identical. This reader uses one when the store carries it, under this contract
(the writer's side is ``contextpull/indexing/trigram.py``):

    CREATE VIRTUAL TABLE documents_trigram USING fts5(text, tokenize='trigram', content='', detail='none');
    -- the rows split the sections, taken in rowid order, into runs of consecutive sections: a
    -- row's rowid is the rowid of its run's first section, so its run is every section from
    -- that rowid up to the next row's; its text holds every word of those sections, a word
    -- being a run of characters other than ASCII whitespace (space, tab, LF, CR, VT, FF) and
    -- NUL, in any order and any ASCII case

NUL separates words because FTS5 reads a value, and a query, only up to its first NUL: a row
holding one would lose every word after it, and a query holding one would not parse.

A stored text that contains the pattern contains each of the pattern's pieces free of whitespace
and NUL inside one of its words (the two differ only in ASCII case, which has neither), and the
trigram tokenizer folds case at least as widely as ASCII ``lower()``. So the runs whose rows
hold every trigram of those pieces are a superset of the runs with a match; their sections are
then checked with the same ``instr(lower(..))`` and sorted by id, and the matches are identical
to the scan's. Earlier builds wrote ``sections_trigram`` (same options, one row per section with
``rowid = sections.rowid`` and its whole text), which is used the same way.

The scan itself is the equivalent ``LIKE`` (see ``like_pattern``). Patterns with no piece of three
characters, or frequent enough to return more than the candidate cap, take the scan, which in
that case stops early. Stores without either table, or with a differently configured one, are
scanned. Standard library only.

NUL is where ``LIKE`` and ``instr()`` part: ``LIKE`` reads a value as a C string, up to its
first NUL. A pattern holding one is checked with the spec's own predicate instead, on the same
candidates (its pieces are split at the NUL, so they still find every matching run). A section
text holding one is matched by ``LIKE`` only before it; this builder never stores such a text
(text files with NUL bytes are skipped as binary, NULs in PDF text are dropped), and checking
every text for a NUL would cost a scan twice its time (measured: 90 -> 240-380 ms on the
synthetic store), so a store from another writer with NULs in its texts can miss matches after
them.
"""

from __future__ import annotations

import re
import sqlite3
import string

DOCUMENTS_TABLE = "documents_trigram"  # rows per document, their words
SECTIONS_TABLE = "sections_trigram"  # rows per section, their text (earlier builds)
# Candidates above which the scan is cheaper (at least; see ``_cap``): a build's runs hold about
# 128 KiB of text each, an earlier build's rows one section.
CANDIDATE_CAP = {DOCUMENTS_TABLE: 32, SECTIONS_TABLE: 2000}
_RUNS_PER_QUERY = 200  # two parameters each, well inside SQLite's oldest default limit of 999
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_SEPARATORS = re.compile(r"[ \t\n\r\x0b\x0c\x00]+")  # between words: ASCII whitespace and NUL
_WANTED = re.compile(r"tokenize\s*=\s*['\"]trigram['\"]", re.IGNORECASE)


def ascii_lower(text: str) -> str:
    """SQLite's built-in lower(): ASCII letters only."""
    return text.translate(_ASCII_LOWER)


def line_at(text: str, pos: int) -> str:
    """The whole line of ``text`` that contains position ``pos``."""
    pos = max(pos, 0)
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:] if end < 0 else text[start:end]


def first_line(text: str, pattern: str) -> str:
    """The first line holding ``pattern``, without its indentation and trailing blanks: a grep
    result's ``line`` is trimmed, as in the published 0.2.1 results (docs/agreement.md)."""
    return line_at(text, ascii_lower(text).find(ascii_lower(pattern))).strip()


def trigram_table(conn: sqlite3.Connection) -> str | None:
    """The usable trigram table of the contract above that the store carries, if any."""
    for table in (DOCUMENTS_TABLE, SECTIONS_TABLE):
        row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
        if row is None or not row[0] or not _WANTED.search(row[0]) or "case_sensitive" in row[0].lower():
            continue
        try:
            conn.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ? LIMIT 1", ('"abc"',)).fetchall()
        except sqlite3.DatabaseError:  # e.g. a SQLite without the trigram tokenizer
            return None
        return table
    return None


def trigram_query(pattern: str, every: int = 1) -> str | None:
    """An AND of trigrams of the pattern's pieces between whitespace and NUL; None when none
    has three characters.

    Any subset of a matching text's trigrams finds a superset of the matches (each is
    re-checked). ``every=1`` takes all of a piece's trigrams: a run's row is a bag of many words,
    and every trigram narrows it (harness identifiers on the uv docs x62: 4.1 -> 1.1 ms p50).
    ``every=3`` takes those at every third position plus the last, which still covers every
    character and asks each index segment for a third of the terms: what suits rows of single
    sections (about 2x faster than all trigrams there, benchmarks/README.md).
    """
    grams = set()
    for piece in _SEPARATORS.split(pattern):
        if len(piece) < 3:
            continue
        starts = list(range(0, len(piece) - 2, every))
        if starts[-1] != len(piece) - 3:
            starts.append(len(piece) - 3)
        grams.update(piece[i:i + 3] for i in starts)
    if not grams:
        return None
    return " AND ".join('"' + g.replace('"', '""') + '"' for g in sorted(grams))


def _ranges(conn: sqlite3.Connection, table: str, rowids: list[int]) -> list[tuple[str, list[int]]]:
    """SQL conditions on sections ``s`` (with their parameters) that together select the
    candidate rows' sections, a few hundred parameters each."""
    if table == SECTIONS_TABLE:
        return [(f"s.rowid IN ({','.join('?' * len(part))})", part) for part in _batches(rowids, 2 * _RUNS_PER_QUERY)]
    out = []
    for part in _batches(sorted(rowids), _RUNS_PER_QUERY):
        clauses, params = [], []
        # a run ends where the next row's begins: every next row in one statement
        starts = ",".join("(?)" for _ in part)
        ends = conn.execute(
            f"WITH c(first) AS (VALUES {starts}) SELECT first,"
            f" (SELECT rowid FROM {table} WHERE rowid > first ORDER BY rowid LIMIT 1) FROM c",
            part,
        ).fetchall()
        for first, after in ends:
            if after is None:
                clauses.append("s.rowid >= ?")
                params.append(first)
            else:
                clauses.append("s.rowid >= ? AND s.rowid < ?")
                params += [first, after]
        out.append(("(" + " OR ".join(f"({c})" for c in clauses) + ")", params))
    return out


def _batches(values: list[int], size: int) -> list[list[int]]:
    return [values[i:i + size] for i in range(0, len(values), size)]


def _cap(conn: sqlite3.Connection, table: str) -> int:
    """Candidates above which the scan is cheaper. For runs, a third of the rows: checking the
    candidates costs at most a third of a scan, and a scan that stops early pays only for a
    pattern that matches often, whose candidates are most of the rows anyway."""
    if table == SECTIONS_TABLE:
        return CANDIDATE_CAP[table]
    rows = conn.execute(f"SELECT count(*) FROM {table}_docsize").fetchone()[0]
    return max(CANDIDATE_CAP[table], rows // 3)


def scan(conn: sqlite3.Connection, pattern: str, where: str, params: list, limit: int, table: str | None) -> list[tuple]:
    """Up to ``limit + 1`` rows (id, doc_id, heading_path, text) of matching sections, by id;
    ``table`` is the store's trigram table (``trigram_table``) or None."""
    predicate, value = _predicate(pattern)
    query = trigram_query(pattern, 1 if table == DOCUMENTS_TABLE else 3) if table is not None else None
    if query is not None:
        cap = _cap(conn, table)
        rowids = [r for (r,) in conn.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ? LIMIT ?", (query, cap + 1))]
        if len(rowids) <= cap:
            rows = []
            for condition, bounds in _ranges(conn, table, rowids):
                rows += conn.execute(
                    "SELECT s.id, s.doc_id, s.heading_path, s.text FROM sections s "
                    f"WHERE {condition} AND {predicate}{where}",
                    (*bounds, value, *params),
                ).fetchall()
            rows.sort(key=lambda r: r[0].encode("utf-8"))  # SQLite BINARY order of the id
            return rows[: limit + 1]
    return conn.execute(
        "SELECT s.id, s.doc_id, s.heading_path, s.text FROM sections s "
        f"WHERE {predicate}{where} ORDER BY s.id LIMIT ?",
        (value, *params, limit + 1),
    ).fetchall()


def _predicate(pattern: str) -> tuple[str, str]:
    """The condition on ``s.text`` and its parameter: the equivalent ``LIKE``, or, for a pattern
    holding a NUL (which ``LIKE`` reads only up to), the spec's own, slower ``instr()``."""
    if "\x00" in pattern:
        return "instr(lower(s.text), lower(?)) > 0", pattern
    return "s.text LIKE ? ESCAPE '\\'", like_pattern(pattern)


def like_pattern(pattern: str) -> str:
    """``text LIKE '%p%' ESCAPE '\\'`` holds exactly when ``instr(lower(text), lower(p)) > 0``.

    SQLite's LIKE folds ASCII case only, as its ``lower()`` does, and needs no lowered copy of
    each text, which makes the scan about twice as fast.
    """
    escaped = pattern.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"
