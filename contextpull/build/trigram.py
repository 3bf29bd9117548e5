"""The optional ``documents_trigram`` table of a built store (issue 8; store-format.txt "Grep").

store-format.txt allows a trigram index for literal grep when results stay identical. The reader
side of the contract is ``contextpull/literal_grep.py``: a contentless FTS5 table with the
trigram tokenizer and ``detail='none'``, one row per document of a chunk part (in practice, per
document), whose rowid is the rowid of the document's first section in that part and whose text
is every distinct word of those sections, a word being a run of bytes other than ASCII
whitespace, ASCII letters lowered, in first-seen order, joined by spaces. The reader finds
candidate documents with the trigrams of the pattern's words and re-checks their sections with
the spec's ``instr(lower(..))``, so a store with the table greps exactly like one without it.

Why words of documents rather than each section's text (the first two sessions' layout, table
``sections_trigram``): the tokenizer emits a token for every character it is given, and that was
most of a build's CPU (8 s of trigram work against 1.1 s for the word index on the uv docs x62).
A document repeats its words, so the distinct words are 31% of the text on the synthetic corpus
and 49% on the uv docs x62; the table's FTS5 work fell to 0.3 s and 4.5 s there, and its pages
to a ninth and to 44% (benchmarks/README.md, "Speed at scale"). Splitting at ASCII whitespace on
UTF-8 bytes never cuts a character, and a pattern's whitespace-free pieces always lie inside one
word of a matching text, so their trigrams are in that document's row.

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


def words(texts: Iterable[str]) -> str:
    """The row text of one document's sections (the contract above)."""
    data = "\n".join(texts).encode("utf-8").lower()  # bytes.lower() folds ASCII letters only
    return b" ".join(dict.fromkeys(data.split())).decode("utf-8")  # bytes.split(): ASCII whitespace


def rows(sections: Iterable[tuple[int, int, str]]) -> list[tuple[int, str]]:
    """``(rowid, doc_id, text)`` in rowid order -> one ``(first rowid, words)`` per document."""
    out = []
    for _, run in groupby(sections, key=itemgetter(1)):
        run = list(run)
        out.append((run[0][0], words(text for _, _, text in run)))
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
