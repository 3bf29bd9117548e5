"""Literal grep: a case-insensitive substring scan, optionally narrowed by a trigram table.

store-format.txt, "Grep": literal mode is ``instr(lower(text), lower(pattern)) > 0`` over
``sections.text`` (SQLite's ``lower()`` folds ASCII only), one match per section in id order,
never pre-filtered by the word index. The format allows a trigram index as an optimisation when
results stay identical. This reader uses one when the store carries it, under this contract:

    CREATE VIRTUAL TABLE sections_trigram USING fts5(text, tokenize='trigram', content='', detail='none');
    -- one row per section: rowid = sections.rowid, text = sections.text

Its candidates are a superset of the scan's matches (every trigram of a matching substring is in
the row, and the trigram tokenizer folds case at least as widely as ASCII ``lower()``); each
candidate is then checked with the same ``instr(lower(..))`` and sorted by id, so the matches are
identical to the scan's. The scan itself is the equivalent ``LIKE`` (see ``like_pattern``). Patterns under three characters, or frequent enough to return more than
``CANDIDATE_CAP`` rows, take the scan, which in that case stops early. Stores without the table,
or with a differently configured one, are scanned. Standard library only.
"""

from __future__ import annotations

import re
import sqlite3
import string

TRIGRAM_TABLE = "sections_trigram"
CANDIDATE_CAP = 2000
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
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
    return line_at(text, ascii_lower(text).find(ascii_lower(pattern)))


def has_trigram_table(conn: sqlite3.Connection) -> bool:
    """True when the store carries a usable trigram table of the contract above."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (TRIGRAM_TABLE,)).fetchone()
    if row is None or not row[0] or not _WANTED.search(row[0]) or "case_sensitive" in row[0].lower():
        return False
    try:
        conn.execute(f"SELECT rowid FROM {TRIGRAM_TABLE} WHERE {TRIGRAM_TABLE} MATCH ? LIMIT 1", ('"abc"',)).fetchall()
    except sqlite3.DatabaseError:  # e.g. a SQLite without the trigram tokenizer
        return False
    return True


def _trigram_query(pattern: str) -> str:
    """An AND of the pattern's trigrams at every third position, plus the last one.

    Any section holding the pattern holds all of its trigrams, so any subset still finds a
    superset of the matches (each is re-checked); this one covers every character and asks
    each index segment for a third of the terms, which is what a lookup costs in a store whose
    index has one segment per chunk (about 2x faster than all trigrams, benchmarks/README.md).
    """
    starts = list(range(0, len(pattern) - 2, 3))
    if starts[-1] != len(pattern) - 3:
        starts.append(len(pattern) - 3)
    grams = sorted({pattern[i:i + 3] for i in starts})
    return " AND ".join('"' + g.replace('"', '""') + '"' for g in grams)


def scan(conn: sqlite3.Connection, pattern: str, where: str, params: list, limit: int, trigram: bool) -> list[tuple]:
    """Up to ``limit + 1`` rows (id, doc_id, heading_path, text) of matching sections, by id."""
    if trigram and len(pattern) >= 3:
        rowids = [r for (r,) in conn.execute(
            f"SELECT rowid FROM {TRIGRAM_TABLE} WHERE {TRIGRAM_TABLE} MATCH ? LIMIT ?",
            (_trigram_query(pattern), CANDIDATE_CAP + 1),
        )]
        if len(rowids) <= CANDIDATE_CAP:
            if not rowids:
                return []
            marks = ",".join("?" * len(rowids))
            rows = conn.execute(
                "SELECT s.id, s.doc_id, s.heading_path, s.text FROM sections s "
                f"WHERE s.rowid IN ({marks}) AND instr(lower(s.text), lower(?)) > 0{where}",
                (*rowids, pattern, *params),
            ).fetchall()
            rows.sort(key=lambda r: r[0].encode("utf-8"))  # SQLite BINARY order of the id
            return rows[: limit + 1]
    return conn.execute(
        "SELECT s.id, s.doc_id, s.heading_path, s.text FROM sections s "
        f"WHERE s.text LIKE ? ESCAPE '\\'{where} ORDER BY s.id LIMIT ?",
        (like_pattern(pattern), *params, limit + 1),
    ).fetchall()


def like_pattern(pattern: str) -> str:
    """``text LIKE '%p%' ESCAPE '\\'`` holds exactly when ``instr(lower(text), lower(p)) > 0``.

    SQLite's LIKE folds ASCII case only, as its ``lower()`` does, and needs no lowered copy of
    each text, which makes the scan about twice as fast.
    """
    escaped = pattern.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"
