"""Write documents, sections and the index into a store (system-design.txt sections 1-4;
store-format.txt "Identifiers" and "Tokenisation").

What this module guarantees for every document it writes:

- section ids are ``path#ordinal`` with ordinals contiguous from 0, ``prev_id``/``next_id`` link
  the sections of the document, ``hash`` is the sha256 hex of the verbatim text and ``char_len``
  its length in characters; ``documents.n_sections`` is the real count;
- the FTS row of a section carries the same id and the heading path and text normalised by
  ``contextpull.text.normalize_for_fts`` (the reader applies the same rule to queries), while
  ``sections.text`` stays verbatim;
- an FTS row shares its rowid with its section, so a document's FTS rows are deleted by rowid
  instead of scanning the whole FTS table for the UNINDEXED id column; a store where that does
  not hold (another writer's) falls back to the scan, so deletes stay correct either way.

Transactions belong to the caller: ``DocumentBatch.write``, ``insert_document_row`` and
``delete_document`` only execute statements (Python's sqlite3 opens a transaction before the
first write), so ``ingest`` commits once per batch of documents and a fresh build can commit
once at the end. ``finalize_index`` commits.

Rows go in as multi-row ``INSERT .. VALUES`` statements (``insert_rows``), not one statement per
row: fewer round trips through Python, and each statement is a long stretch of SQLite work with
the GIL released, which is what lets ``ingest``'s writer thread overlap the parsing.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections.abc import Sequence
from itertools import chain
from pathlib import Path

from ..schema import DDL, SCHEMA_VERSION
from .fingerprint import corpus_fingerprint
from .index_text import build_index
from .records import DocumentRecord

# Extra meta keys (readers ignore them) that let an incremental ingest notice a settings change
# that alters sectioning of otherwise unchanged documents.
SECTION_SETTINGS_KEYS = ("section_min_chars", "section_heading_depth")
PAGE_SIZE = 16384


# normalize_for_fts (contextpull/text.py) with its run rule written as lookarounds, so the
# substitutions run in the regex engine instead of a Python callback per run; tests check it
# against normalize_for_fts. Every pattern starts with its literal edge character: the regex
# engine finds a literal with a fast search, where a pattern starting with a character class or
# a lookbehind tests every position (about 10x slower on prose and tables). Each pattern matches
# only maximal runs whose first character is its own (the two-character lookbehinds look at the
# character before the run), and a substitution never changes the neighbours of another run
# (those are letters, digits or other non-edge characters), so the passes equal one.
def _edge_patterns(char: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    c = re.escape(char)
    # A word on exactly one side: letter or digit after and no token character before, or the
    # other way round. Runs are maximal because the lookarounds at both ends exclude . - _.
    removed = re.compile(
        c + r"(?:(?<![\w.\-]" + c + r")[._\-]*(?=[^\W_])|(?<=[^\W_]" + c + r")[._\-]*(?![\w.\-]))"
    )
    # A run with no word on either side that holds an underscore: it becomes "_".
    middle = r"[._\-]*" if char == "_" else r"[.\-]*_[._\-]*"
    lone = re.compile(c + r"(?<![\w.\-]" + c + r")" + middle + r"(?![\w.\-])")
    return removed, lone


_EDGE_PATTERNS = tuple((char, *_edge_patterns(char)) for char in "._-")


def fts_normalize(text: str) -> str:
    """Exactly ``normalize_for_fts(text)``, faster."""
    for char, removed, _ in _EDGE_PATTERNS:
        if char in text:
            text = removed.sub("", text)
    if "_" in text:
        for char, _, lone in _EDGE_PATTERNS:
            if char in text:
                text = lone.sub("_", text)
    return text


def connect(path: Path) -> sqlite3.Connection:
    # Not bound to the opening thread: an ingest writes on its writer thread (write_thread.py),
    # one thread at a time.
    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    # 16 MiB: as fast as 64 MiB for FTS5 inserts and merges (measured), and a 64 MiB cache of
    # 16 KiB pages took ~270 MB of resident memory (benchmarks/README.md, "Ingest and build").
    conn.execute("PRAGMA cache_size = -16384")
    return conn


def create_store(path: Path) -> sqlite3.Connection:
    """A new store file at ``path`` with the schema applied; an existing file is an error.

    The connection is tuned for a one-shot build into a file nobody reads yet (the build renames
    it into place when done): no fsync and an in-memory rollback journal. Callers that write a
    live store (``ingest``) switch to WAL themselves.
    """
    path = Path(path)
    if path.exists():
        raise FileExistsError(f"{path} already exists")
    conn = connect(path)
    # 16 KiB pages: FTS5 segments and section rows of a few KB fit with less overhead; inserts
    # measured 15-20% faster than with 4 KiB pages, and the file slightly smaller.
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    conn.execute("PRAGMA journal_mode = MEMORY")
    conn.execute("PRAGMA synchronous = OFF")
    conn.executescript(DDL)
    first_meta(conn)
    conn.commit()
    return conn


def first_meta(conn: sqlite3.Connection) -> None:
    """The meta row a new store starts with (also what a patched copy of a cache starts again from)."""
    conn.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_INSERT_DOCUMENTS = (
    "INSERT INTO documents (doc_id, path, title, summary, summary_src, sha256, bytes, kind,"
    " n_sections, ingested_at) VALUES "
)
_INSERT_SECTIONS = (
    "INSERT INTO sections (rowid, id, doc_id, ordinal, heading_path, level, kind, text,"
    " char_len, hash, prev_id, next_id) VALUES "
)
_INSERT_FTS = "INSERT INTO sections_fts (rowid, id, heading_path, text) VALUES "
# Rows per statement: enough that one statement is milliseconds of SQLite work (FTS5 tokenising
# 256 sections), within SQLite's bound on parameters (999 before SQLite 3.32).
ROWS_PER_STATEMENT = 256
_OLD_VARIABLE_LIMIT = 999


def insert_rows(conn: sqlite3.Connection, head: str, rows: Sequence[tuple]) -> None:
    """``head`` (an ``INSERT .. VALUES``) with ``rows``, many rows per statement, in order."""
    if not rows:
        return
    width = len(rows[0])
    getlimit = getattr(conn, "getlimit", None)  # Python 3.11+
    limit = getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) if getlimit else _OLD_VARIABLE_LIMIT
    per = max(1, min(ROWS_PER_STATEMENT, limit // width))
    marks = "(" + ",".join("?" * width) + ")"
    full = head + ",".join([marks] * per)
    for start in range(0, len(rows), per):
        chunk = rows[start : start + per]
        sql = full if len(chunk) == per else head + ",".join([marks] * len(chunk))
        conn.execute(sql, list(chain.from_iterable(chunk)))


def next_section_rowid(conn: sqlite3.Connection) -> int:
    """A rowid free in both ``sections`` and ``sections_fts`` (stores from other writers, or
    rebuilt by VACUUM, need not keep the two aligned)."""
    top = conn.execute("SELECT coalesce(max(rowid), 0) FROM sections").fetchone()[0]
    row = conn.execute("SELECT rowid FROM sections_fts ORDER BY rowid DESC LIMIT 1").fetchone()
    return max(top, row[0] if row else 0) + 1


def document_row(doc: DocumentRecord, *, doc_id: int | None, n_sections: int, ingested_at: str) -> tuple:
    return (
        doc_id,
        doc.path,
        doc.title,
        doc.summary,
        doc.summary_src,
        doc.sha256,
        doc.bytes,
        doc.kind,
        n_sections,
        ingested_at,
    )


def insert_document_row(
    conn: sqlite3.Connection, doc: DocumentRecord, *, doc_id: int | None, n_sections: int, ingested_at: str
) -> int:
    """The ``documents`` row alone; returns its doc_id."""
    row = document_row(doc, doc_id=doc_id, n_sections=n_sections, ingested_at=ingested_at)
    cur = conn.execute(_INSERT_DOCUMENTS + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
    return cur.lastrowid if doc_id is None else doc_id


def section_rows(doc: DocumentRecord, *, doc_id: int, base: int) -> tuple[list[tuple], list[tuple]]:
    """(``sections`` rows, FTS rows) of a document whose sections take rowids from ``base``.

    A section row is (rowid, id, doc_id, ordinal, heading_path, level, kind, text, char_len,
    hash, prev_id, next_id); an FTS row is (rowid, id, heading_path, text) with the FTS text
    normalised (store-format.txt, "Tokenisation").
    """
    ids = [f"{doc.path}#{i}" for i in range(len(doc.sections))]
    fts = getattr(doc, "fts", None)
    if not fts or len(fts) != len(ids):
        fts = [(fts_normalize(s.heading_path), fts_normalize(s.text)) for s in doc.sections]
    last = len(ids) - 1
    rows = []
    fts_rows = []
    for i, sec in enumerate(doc.sections):
        rows.append(
            (
                base + i,
                ids[i],
                doc_id,
                i,
                sec.heading_path,
                sec.level,
                sec.kind,
                sec.text,
                len(sec.text),
                _sha256(sec.text),
                ids[i - 1] if i > 0 else None,
                ids[i + 1] if i < last else None,
            )
        )
        fts_rows.append((base + i, ids[i], *fts[i]))
    return rows, fts_rows


class DocumentBatch:
    """Several documents' rows, built by the caller and written in a few statements (``ingest``).

    Each document comes with its doc_id and the rowid of its first section, decided by the
    caller; a document that replaces a stored one is deleted first, in the same transaction.
    """

    def __init__(self) -> None:
        self.replaced: list[str] = []  # paths whose stored copies go first
        self.documents: list[tuple] = []
        self.sections: list[tuple] = []
        self.fts: list[tuple] = []
        self.summaries: list[tuple[str, str, str]] = []  # summary_cache rows (model summaries)

    def add(self, doc: DocumentRecord, *, doc_id: int, base: int, ingested_at: str, replaces: bool) -> None:
        if replaces:
            self.replaced.append(doc.path)
        self.documents.append(document_row(doc, doc_id=doc_id, n_sections=len(doc.sections), ingested_at=ingested_at))
        rows, fts_rows = section_rows(doc, doc_id=doc_id, base=base)
        self.sections += rows
        self.fts += fts_rows

    def write(self, conn: sqlite3.Connection) -> None:
        for path in self.replaced:
            delete_document(conn, path)
        insert_rows(conn, _INSERT_DOCUMENTS, self.documents)
        insert_rows(conn, _INSERT_SECTIONS, self.sections)
        insert_rows(conn, _INSERT_FTS, self.fts)
        write_summary_cache(conn, self.summaries)


def write_summary_cache(conn: sqlite3.Connection, rows: Sequence[tuple[str, str, str]]) -> None:
    """``summary_cache`` rows (sha256, model, summary), in the order given. The table is keyed by
    the document's sha256 and outlives the document, so re-adding it costs no request
    (system-design.txt section 1); a summary by another model for the same bytes is replaced."""
    conn.executemany("INSERT OR REPLACE INTO summary_cache (sha256, model, summary) VALUES (?, ?, ?)", rows)


def delete_document(conn: sqlite3.Connection, path: str) -> None:
    """Remove a document, its sections, their FTS rows and embeddings (summary_cache stays)."""
    row = conn.execute("SELECT doc_id FROM documents WHERE path = ?", (path,)).fetchone()
    if row is None:
        return
    doc_id = row[0]
    n_rows, n_aligned = conn.execute(
        "SELECT count(*), count(f.id) FROM sections s"
        " LEFT JOIN sections_fts f ON f.rowid = s.rowid AND f.id = s.id WHERE s.doc_id = ?",
        (doc_id,),
    ).fetchone()
    if n_rows == n_aligned:  # every FTS row shares its section's rowid, as this writer makes them
        conn.execute(
            "DELETE FROM sections_fts WHERE rowid IN (SELECT rowid FROM sections WHERE doc_id = ?)",
            (doc_id,),
        )
    else:  # a store from another writer: find the rows by id (a scan of the FTS table)
        conn.execute(
            "DELETE FROM sections_fts WHERE id IN (SELECT id FROM sections WHERE doc_id = ?)",
            (doc_id,),
        )
    conn.execute(
        "DELETE FROM embeddings WHERE section_id IN (SELECT id FROM sections WHERE doc_id = ?)",
        (doc_id,),
    )
    conn.execute("DELETE FROM sections WHERE doc_id = ?", (doc_id,))
    conn.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))


def write_meta(conn: sqlite3.Connection, meta: dict[str, str]) -> None:
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [(key, str(value)) for key, value in meta.items()],
    )


def index_meta(conn: sqlite3.Connection, settings, *, corpus_root: str) -> dict[str, str]:
    """Every meta key except ``ingested_at``, computed from what the store now holds."""
    docs = conn.execute(
        "SELECT path, title, summary, n_sections, sha256, summary_src FROM documents ORDER BY path"
    ).fetchall()
    # Each document's n_sections, which this writer keeps exact (verify checks it): summing
    # 5,000 rows instead of counting 96k section rows saves reading every section page.
    total = sum(n for _, _, _, n, _, _ in docs)
    fp = corpus_fingerprint((path, sha) for path, _, _, _, sha, _ in docs)
    summaries = "llm" if any(src == "llm" for *_, src in docs) else "offline"
    text, mode, tokens = build_index(
        [(p, t, s, n) for p, t, s, n, _, _ in docs],
        total,
        settings.index_budget_tokens,
        fp,
        summaries=summaries,
    )
    return {
        "schema_version": SCHEMA_VERSION,
        "corpus_root": corpus_root,
        "corpus_fingerprint": fp,
        "index_text": text,
        "index_tokens": str(tokens),
        "index_mode": mode,
        "summarizer": settings.summarizer,
        "section_max_chars": str(settings.section_max_chars),
        "index_budget_tokens": str(settings.index_budget_tokens),
        "section_min_chars": str(settings.section_min_chars),
        "section_heading_depth": str(settings.section_heading_depth),
    }


def finalize_index(
    conn: sqlite3.Connection, settings, *, ingested_at: str, corpus_root: str
) -> tuple[str, str, int]:
    """Build the index text from the documents table, write all meta keys, commit."""
    meta = index_meta(conn, settings, corpus_root=corpus_root)
    meta["ingested_at"] = ingested_at
    write_meta(conn, meta)
    conn.commit()
    return meta["index_text"], meta["index_mode"], int(meta["index_tokens"])


def display_root(corpus: Path) -> str:
    """The corpus path as a user would write it: relative to the working directory if inside it."""
    absolute = os.path.abspath(corpus)
    try:
        rel = os.path.relpath(absolute)
    except ValueError:  # another drive on Windows
        return Path(absolute).as_posix()
    if rel == "." or not rel.startswith(".."):
        return Path(rel).as_posix()
    return Path(absolute).as_posix()
