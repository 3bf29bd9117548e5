"""The optional ``documents_trigram`` table of a built store (issue 8; store-format.txt "Grep").

store-format.txt allows a trigram index for literal grep when results stay identical. The reader
side of the contract is ``contextpull/grep/literal.py``: a contentless FTS5 table with the
trigram tokenizer and ``detail='none'`` whose rows split the sections, taken in rowid order, into
runs of consecutive sections. A row's rowid is the rowid of its run's first section, and its
text holds every word of the run's sections: a word is a run of bytes other than ASCII
whitespace and NUL (FTS5 reads a value only up to its first NUL: a NUL kept in a row would hide
every word after it), ASCII letters lowered, kept once, joined by spaces. The reader finds
candidate runs with the trigrams of the pattern's pieces between whitespace and NUL and
re-checks their sections with the spec's ``instr(lower(..))``, so a store with the table greps
exactly like one without it.

A build makes each run whole documents of one chunk part, closed once it holds ``RUN_CHARS`` of
text (a larger document is a run of its own), in first-seen word order: a function of the part
alone, so a cache-assisted build writes the same rows.

Why a run's distinct words rather than each section's whole text (the layout of the table's
first release, ``sections_trigram``, replaced in commits ``04af09c`` and ``2023240``,
2026-11-30): the trigram tokenizer emits a token for every character it is given, and indexing
whole section texts was most of a build's CPU (8 s of trigram work against 1.1 s for the word
index on the uv docs x62). Documents repeat their words, and neighbouring documents each other's: the distinct
words of 128 KiB runs are 3% of the text on the synthetic corpus and 33% on the uv docs x62,
and the table's FTS5 work fell from 7.4 to 0.2 s and from 8-10 to 2.2 s there
(benchmarks/README.md, "Tried, and did not pay"). Splitting at ASCII whitespace and NUL on UTF-8 bytes
never cuts a character, and a pattern's pieces between them always lie inside one word of a
matching text, so their trigrams are all in that run's row.

Only ``contextpull build`` adds it. A built store is an immutable artifact, so the table can
never fall behind its sections; a store updated in place (``ingest``) does not carry it, and an
in-place update of a store that has one drops it first (``drop_if_present``), because another
writer that does not know the table could otherwise leave it stale.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from itertools import groupby
from operator import itemgetter

TABLE = "documents_trigram"
# What earlier builds wrote (one row per section, its whole text); dropped like TABLE.
OLD_TABLES = ("sections_trigram",)
DDL_BODY = "text, tokenize='trigram', content='', detail='none'"
DDL = f"CREATE VIRTUAL TABLE {TABLE} USING fts5({DDL_BODY})"


# Text per run: a candidate run costs the reader an instr() over this much (0.1 ms or so), and
# larger runs share more words. uv docs x62, FTS5 work for one document, 16, 64, 128 and 256 KiB
# per run: 4.2, 3.6, 2.5, 2.2 and 1.6 s (benchmarks/README.md).
RUN_CHARS = 128 << 10
# ASCII letters lowered and NUL made a space, in one pass.
_LOWER_NUL = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ\x00", b"abcdefghijklmnopqrstuvwxyz ")


def rows(sections: Iterable[tuple[int, int, str]]) -> list[tuple[int, str]]:
    """``(rowid, doc_id, text)`` of whole documents in rowid order -> ``(first rowid, words)``
    of each run (the contract above)."""
    out: list[tuple[int, str]] = []
    first, words, size = None, {}, 0
    for _, document in groupby(sections, key=itemgetter(1)):
        document = list(document)
        text = "\n".join(text for _, _, text in document)
        if first is None:
            first = document[0][0]
        # per document first: the split of a small string stays in the CPU's cache
        words.update(dict.fromkeys(text.encode("utf-8").translate(_LOWER_NUL).split()))
        size += len(text)
        if size >= RUN_CHARS:
            out.append((first, b" ".join(words).decode("utf-8")))
            first, words, size = None, {}, 0
    if first is not None:
        out.append((first, b" ".join(words).decode("utf-8")))
    return out


def fill(conn: sqlite3.Connection, table: str, sections_sql: str, params: tuple = ()) -> None:
    """Insert into ``table`` the rows of the sections ``sections_sql`` selects as
    ``(rowid, doc_id, text)`` in rowid order (the caller commits)."""
    conn.executemany(f"INSERT INTO {table} (rowid, text) VALUES (?, ?)", rows(conn.execute(sections_sql, params)))


def add(conn: sqlite3.Connection) -> None:
    """Create and fill the table for a store that is not a build (``benchmarks/add_trigram.py``);
    its layout need not be canonical (the caller commits)."""
    conn.execute(DDL)
    fill(conn, TABLE, "SELECT rowid, doc_id, text FROM sections ORDER BY rowid")


def _tables(conn: sqlite3.Connection, names: tuple[str, ...]) -> list[str]:
    marks = ",".join("?" * len(names))
    found = {name for (name,) in conn.execute(f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ({marks})", names)}
    return [name for name in names if name in found]


def present(conn: sqlite3.Connection) -> bool:
    """Whether the store carries this build's table."""
    return bool(_tables(conn, (TABLE,)))


def any_present(conn: sqlite3.Connection) -> bool:
    """Whether it carries this table or an earlier build's, either of which an update must drop."""
    return bool(_tables(conn, (TABLE, *OLD_TABLES)))


def drop_if_present(conn: sqlite3.Connection) -> bool:
    """Drop the table, and an earlier build's, before an in-place update; True when there was
    one (the caller commits)."""
    tables = _tables(conn, (TABLE, *OLD_TABLES))
    for table in tables:
        conn.execute(f"DROP TABLE {table}")
    return bool(tables)
