"""The optional ``sections_trigram`` table of a built store (issue 8; store-format.txt "Grep").

store-format.txt allows a trigram index for literal grep when results stay identical. The reader
side of the contract is ``contextpull/literal_grep.py``: a contentless FTS5 table with the
trigram tokenizer, ``detail='none'``, one row per section with ``rowid = sections.rowid`` and the
section's verbatim text. The reader uses it only to find candidates, then re-checks each one with
the spec's ``instr(lower(..))``, so a store with the table greps exactly like one without it.

Only ``contextpull build`` adds it. A built store is an immutable artifact, so the table can
never fall behind its sections; a store updated in place (``ingest``) does not carry it, and an
in-place update of a store that has one drops it first (``drop_if_present``), because another
writer that does not know the table could otherwise leave it stale.

Filling it costs about as much CPU as the word index (the trigram tokenizer emits a token per
character); a build fills it chunk by chunk beside the word index, on a second core
(``index_thread.py``), one segment per chunk (``segments.py``).
Figures in benchmarks/README.md, "Speed at scale".
"""

from __future__ import annotations

import sqlite3

TABLE = "sections_trigram"
DDL_BODY = "text, tokenize='trigram', content='', detail='none'"
DDL = f"CREATE VIRTUAL TABLE {TABLE} USING fts5({DDL_BODY})"


def add(conn: sqlite3.Connection) -> None:
    """Create and fill the table from ``sections`` in one statement (the caller commits), for a
    store that is not a build (``benchmarks/add_trigram.py``): its layout need not be canonical."""
    conn.execute(DDL)
    conn.execute(f"INSERT INTO {TABLE} (rowid, text) SELECT rowid, text FROM sections")


def present(conn: sqlite3.Connection) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)
    ).fetchone()
    return row is not None


def drop_if_present(conn: sqlite3.Connection) -> bool:
    """Drop the table before an in-place update; True when there was one (the caller commits)."""
    if not present(conn):
        return False
    conn.execute(f"DROP TABLE {TABLE}")
    return True
