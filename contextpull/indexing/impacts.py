"""Write ``search_impacts`` (layout: ``contextpull.search.impact_format``) from a finished FTS5 index.

Every figure comes from FTS5 itself, never from a tokeniser of ours: the postings from the
``fts5vocab`` instance table, the section lengths from ``%_docsize`` and the totals from the
averages record. So the table holds exactly what ``bm25()`` counts, whatever the text's script.
Its rows are a function of the FTS5 rows alone, so a ``build --cache`` writes the same table as a
fresh build.

Only words in at least ``MIN_DF`` sections get rows. A rarer word's postings are few, and a
reader takes them from FTS5's vocabulary when a query names it (``search.impacts``); writing
them too was most of the table's rows and half its cost (557,406 words at 448,660 sections,
each its own statement). Each kept word's postings are read and turned into rows by
``impact_rows`` (summed per section, ordered by impact, packed): with numpy where installed,
the same bytes without it.

In a build (``start``, then ``Pending.finish``) the words are written by two child processes,
split where their occurrences are halved, while the build copies everything else into the
store (``VACUUM INTO``); the rows are then added to the store, the first child's (with the
header rows) before the second's, in key order. The table is work on words independent of
each other (about 1 µs a posting with numpy, 2 µs without), and at the end of a build nothing
else needs the cores. A child that fails is named in the counts and its words are written by
the build itself, to the same rows.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from array import array
from pathlib import Path

from ..search import impact_format as fmt
from ..system.sqlite_files import remove_files as _remove
from . import impact_rows, segments

# Sections a store needs before the table is written: below it FTS5 ranks a natural-language
# question in under 100 ms at p95, and the table would only cost build time (benchmarks/README.md,
# "Scale": 47 ms at 44,962 sections, 180 ms at 132,680).
MIN_SECTIONS = 50_000


def wanted(sections: int) -> bool:
    """Whether a store of ``sections`` sections gets the table."""
    return sections >= MIN_SECTIONS


# ---- the serial writer: one connection, the table in its own file -------------------------------

def write(conn: sqlite3.Connection, fts: str = "sections_fts") -> dict[str, int]:
    """(Re)write the table into ``conn``'s file, in this process; returns its counts."""
    conn.execute(f"DROP TABLE IF EXISTS main.{fmt.TABLE}")
    conn.execute(fmt.DDL)
    site = _Index(conn, fts)
    try:
        conn.executemany(f"INSERT INTO main.{fmt.TABLE} VALUES (?, ?, ?)", site.header_rows(fmt.MIN_DF))
        words = site.words(fmt.MIN_DF) if site.rows else []
        return {"terms": len(words), "postings": site.fill(words, f"main.{fmt.TABLE}")}
    finally:
        site.close()


class _Index:
    """The finished FTS5 index the rows are read from: its sections in docno order, their
    lengths and length factors, its vocabulary (``temp`` tables of the connection)."""

    def __init__(self, conn: sqlite3.Connection, fts: str):
        self.conn, self.fts = conn, fts
        self.rows, totals = segments.averages(conn, f"main.{fts}")
        self.tokens = sum(totals)
        self.rowids, self.lengths = [], []
        for rowid, size in conn.execute(f"SELECT id, sz FROM {fts}_docsize ORDER BY id"):
            self.rowids.append(rowid)
            # A column size under 128 is a one-byte varint: then the bytes are the sizes.
            self.lengths.append(sum(size) if max(size, default=0) < 0x80 else sum(segments.get_varints(bytes(size))))
        if self.rows != len(self.rowids) or self.tokens != sum(self.lengths):
            raise sqlite3.DatabaseError(
                f"{fts}: averages record ({self.rows} rows, {self.tokens} tokens) disagrees with %_docsize")
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.cp_vocab USING fts5vocab(main, {fts}, instance)")
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.cp_words USING fts5vocab(main, {fts}, row)")

    def header_rows(self, min_df: int) -> list[tuple[str, int, bytes]]:
        """The rows of term ``''``; ``min_df`` is the one the words were chosen by."""
        header = {"format": fmt.FORMAT, "rows": self.rows, "tokens": self.tokens, "head": fmt.HEAD, "mid": fmt.MID,
                  "min_df": min_df, "fts_state": fmt.fts_state(self.conn, self.fts)}
        return [("", 0, json.dumps(header, sort_keys=True).encode()),
                ("", 1, _little_endian(self.rowids, "q")),
                ("", 2, _little_endian(self.lengths, "I"))]

    def words(self, min_df: int) -> list[tuple[str, int]]:
        """The words in at least ``min_df`` sections, with their occurrences, in order."""
        return self.conn.execute("SELECT term, cnt FROM temp.cp_words WHERE doc >= ? ORDER BY term", (min_df,)).fetchall()

    def fill(self, words: list[tuple[str, int]], into: str) -> int:
        """Each word's rows into the table ``into`` (the words with their occurrences); the
        postings written."""
        if not self.rows or not self.tokens:
            return 0
        avgdl = self.tokens / self.rows
        encoder = impact_rows.Encoder(self.conn, "temp.cp_vocab", self.rowids, [fmt.length_factor(n, avgdl) for n in self.lengths])
        total = 0
        batch: list[tuple[str, int, bytes]] = []
        for word, occurrences in words:
            rowids, freqs = encoder.postings(word, occurrences)
            total += len(rowids)
            encoder.rows(word, rowids, freqs, batch)
            if len(batch) > 2000:
                self.conn.executemany(f"INSERT INTO {into} VALUES (?, ?, ?)", batch)
                batch = []
        self.conn.executemany(f"INSERT INTO {into} VALUES (?, ?, ?)", batch)
        return total

    def close(self) -> None:
        self.conn.execute("DROP TABLE IF EXISTS temp.cp_vocab")
        self.conn.execute("DROP TABLE IF EXISTS temp.cp_words")


# ---- in a build: children write while the store is copied ---------------------------------------

def start(conn: sqlite3.Connection, new_file_cookie: int, source: Path, table: bool,
          fts: str = "sections_fts") -> "Pending | None":
    """Begin the table of the build file ``source`` (open as ``conn``, its index finished) when
    ``table`` (``wanted`` said so of its sections), else None. Either way the build file is left
    without the table (a patched copy of a cache may hold the previous build's) and with a fresh
    file's schema cookie (``new_file_cookie``), so the store's bytes do not depend on what the
    cache held; the rows go into the store after ``VACUUM INTO`` (``Pending.finish``). The
    children start at once: each reads the index's words and takes its half itself."""
    conn.execute(f"DROP TABLE IF EXISTS main.{fmt.TABLE}")
    conn.execute(f"PRAGMA schema_version = {new_file_cookie}")
    conn.commit()  # the children read the file as committed
    if not table:
        return None
    return Pending(source, fts, halves=2)


def _half(words: list[tuple[str, int]], part: int, halves: int) -> list[tuple[str, int]]:
    """The words of part ``part`` of ``halves``: consecutive runs with about as many occurrences
    each, so the children finish together; their rows follow each other in key order."""
    total, running, bounds = sum(c for _, c in words), 0, [0]
    for i, (_, count) in enumerate(words):
        running += count
        if len(bounds) < halves and running * halves >= total * len(bounds):
            bounds.append(i + 1)
    bounds += [len(words)] * (halves + 1 - len(bounds))
    return words[bounds[part]:bounds[part + 1]]


class Pending:
    """The table's rows being written by child processes, one part of the words each (the
    first part with the header rows)."""

    def __init__(self, source: Path, fts: str, halves: int):
        self.source, self.fts = source, fts
        self.children = [_Child(source, Path(f"{source}.impacts{i}"), fts, i, halves) for i in range(halves)]

    def finish(self, store: Path) -> dict:
        """Wait for the children and add the table to ``store`` (the build's copy, just made);
        a child's words it could not write are written here. Returns the table's counts."""
        counts: dict = {"terms": 0, "postings": 0, "cpu_s": [], "rows_by": impact_rows.way()}
        try:
            for child in self.children:
                failed = child.wait()
                if failed is not None:
                    counts.setdefault("redone", []).append(f"part {child.part + 1} of {child.halves}: the child {failed}")
                    _remove(child.scratch)
                    write_part(self.source, child.scratch, self.fts, child.part, child.halves, fmt.MIN_DF)
            conn = sqlite3.connect(store)
            try:
                conn.execute(fmt.DDL)
                for child in self.children:
                    terms, postings, cpu = _copy(conn, child.scratch)
                    counts["terms"] += terms
                    counts["postings"] += postings
                    counts["cpu_s"].append(cpu)  # each part's: reading the index, writing its words
                conn.commit()
            finally:
                conn.close()
        finally:
            self.discard()
        return counts

    def discard(self) -> None:
        """Stop the children (a build that failed does not wait for them), remove their files."""
        for child in self.children:
            child.discard()


def _copy(conn: sqlite3.Connection, scratch: Path) -> tuple[int, int, list[float]]:
    """A scratch file's rows into the table, in key order; its words, postings and the CPU
    seconds its writer spent reading the index and writing the words."""
    conn.execute("ATTACH DATABASE ? AS cp_scratch", (str(scratch),))
    try:
        conn.execute(f"INSERT INTO main.{fmt.TABLE} SELECT * FROM cp_scratch.{fmt.TABLE} ORDER BY term, part")
        terms, postings, read_s, words_s = conn.execute("SELECT * FROM cp_scratch.cp_counts").fetchone()
        conn.commit()
    finally:
        conn.execute("DETACH DATABASE cp_scratch")
    return int(terms), int(postings), [read_s, words_s]


_CHILD = (
    "import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
    "from contextpull.indexing.impacts import child_main; child_main(sys.argv[2:])"
)


class _Child:
    """A process writing the rows of part ``part`` of ``halves`` of the words to ``scratch``."""

    def __init__(self, source: Path, scratch: Path, fts: str, part: int, halves: int):
        self.scratch, self.part, self.halves = scratch, part, halves
        _remove(scratch)
        command = [sys.executable, "-S", "-c", _CHILD, json.dumps(sys.path), str(source), str(scratch), fts,
                   str(part), str(halves), str(fmt.MIN_DF)]
        try:
            self.proc: subprocess.Popen | None = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            self.error = None
        except (OSError, ValueError) as exc:  # no interpreter to start: the build writes the words
            self.proc, self.error = None, f"did not start ({exc})"

    def wait(self) -> str | None:
        """None when the child wrote its rows, else what went wrong."""
        if self.proc is None:
            return self.error
        _, err = self.proc.communicate()
        if self.proc.returncode != 0:
            lines = (err or "").strip().splitlines()
            return f"ended with exit code {self.proc.returncode}" + (f" ({lines[-1]})" if lines else "")
        return None

    def discard(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        _remove(self.scratch)


def child_main(args: list[str]) -> None:
    """A child's side: ``write_part`` with the arguments ``_Child`` gives."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the build decides; it stops us on Ctrl-C
    source, scratch, fts, part, halves, min_df = args
    write_part(Path(source), Path(scratch), fts, int(part), int(halves), int(min_df))


def write_part(source: Path, scratch: Path, fts: str, part: int, halves: int, min_df: int) -> None:
    """The rows of part ``part`` of ``halves`` of the words in at least ``min_df`` sections (the
    first part with the header rows), read from the build file ``source``, into a new file
    ``scratch`` with the table and the count of its words and postings."""
    conn = sqlite3.connect(source)
    try:
        conn.execute("PRAGMA busy_timeout = 60000")  # a build file in rollback mode: wait out its writer
        conn.execute("ATTACH DATABASE ? AS cp_out", (str(scratch),))
        conn.execute("PRAGMA cp_out.journal_mode = OFF")
        conn.execute("PRAGMA cp_out.synchronous = OFF")
        conn.execute(fmt.DDL.replace(f"CREATE TABLE {fmt.TABLE}", f"CREATE TABLE cp_out.{fmt.TABLE}"))
        conn.execute("CREATE TABLE cp_out.cp_counts (terms INTEGER NOT NULL, postings INTEGER NOT NULL, "
                     "read_s REAL NOT NULL, words_s REAL NOT NULL)")
        started = time.process_time()
        site = _Index(conn, fts)
        if part == 0:
            conn.executemany(f"INSERT INTO cp_out.{fmt.TABLE} VALUES (?, ?, ?)", site.header_rows(min_df))
        words = _half(site.words(min_df), part, halves) if site.rows else []
        read = time.process_time()
        postings = site.fill(words, f"cp_out.{fmt.TABLE}")
        conn.execute("INSERT INTO cp_out.cp_counts VALUES (?, ?, ?, ?)",
                     (len(words), postings, round(read - started, 3), round(time.process_time() - read, 3)))
        conn.commit()
        site.close()
    finally:
        conn.close()


def _little_endian(values: list[int], code: str) -> bytes:
    a = array(code, values)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()
