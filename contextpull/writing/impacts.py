"""Write ``search_impacts`` (layout: ``contextpull.search.impact_format``) from a finished FTS5 index.

Every figure comes from FTS5 itself, never from a tokeniser of ours: the postings from the
``fts5vocab`` instance table, the section lengths from ``%_docsize`` and the totals from the
averages record. So the table holds exactly what ``bm25()`` counts, whatever the text's script.
Its rows are a function of the FTS5 rows alone, so a ``build --cache`` writes the same table as a
fresh build (it is dropped and written again on every build).

Only words in at least ``MIN_DF`` sections get rows. A rarer word's postings are few, and a
reader takes them from FTS5's vocabulary when a query names it (``search.impacts``); writing
them too was most of the table's rows and half its cost (557,406 words at 448,660 sections,
each its own statement). Each kept word's postings are summed per section by SQLite
(``GROUP BY doc``), so Python sees one row per section and word rather than one per occurrence.

Given the build file's path, the words are shared with a child process, split where their
occurrences are halved: the table is Python work on words that are independent of each other,
and at the end of a build the second core is otherwise idle. The child writes its rows to a
scratch file that this process copies in; a child that fails is named in the counts and its
words are done here, to the same rows.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from array import array
from operator import itemgetter
from pathlib import Path

from ..search import impact_format as fmt
from . import segments

DDL = fmt.DDL
# Sections a store needs before the table is written: below it FTS5 ranks any pass in a few
# milliseconds, and the table would only cost build time (docs/search-impacts.md, "Cost").
MIN_SECTIONS = 50_000
_POSTINGS = (
    "SELECT doc, sum(CASE col WHEN 'heading_path' THEN 2 WHEN 'text' THEN 1 ELSE 0 END) "
    "FROM temp.cp_vocab WHERE term = ? GROUP BY doc ORDER BY doc"
)  # bm25's weights 0.0, 2.0, 1.0 for id, heading_path, text


_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def wanted(sections: int) -> bool:
    """Whether a store of ``sections`` sections gets the table."""
    return sections >= MIN_SECTIONS


def _docs(conn: sqlite3.Connection, fts: str) -> tuple[list[int], list[int]]:
    rowids, lengths = [], []
    for rowid, size in conn.execute(f"SELECT id, sz FROM {fts}_docsize ORDER BY id"):
        rowids.append(rowid)
        lengths.append(sum(segments.get_varints(bytes(size))))
    return rowids, lengths


def write(conn: sqlite3.Connection, fts: str = "sections_fts", source: Path | None = None) -> dict[str, int]:
    """(Re)write the table; returns its counts (terms, postings). ``source`` is the path of the
    file ``conn`` writes: a child process reads it for half the words."""
    conn.execute(f"DROP TABLE IF EXISTS main.{fmt.TABLE}")
    conn.execute(fmt.DDL)
    rows, totals = segments.averages(conn, f"main.{fts}")
    tokens = sum(totals)
    rowids, lengths = _docs(conn, fts)
    if rows != len(rowids) or tokens != sum(lengths):
        raise sqlite3.DatabaseError(f"{fts}: averages record ({rows} rows, {tokens} tokens) disagrees with %_docsize")
    header = {"format": fmt.FORMAT, "rows": rows, "tokens": tokens, "head": fmt.HEAD, "mid": fmt.MID,
              "min_df": fmt.MIN_DF, "fts_state": fmt.fts_state(conn, fts)}
    store_rows = [
        ("", 0, json.dumps(header, sort_keys=True).encode()),
        ("", 1, _little_endian(rowids, "q")),
        ("", 2, _little_endian(lengths, "I")),
    ]
    conn.executemany(f"INSERT INTO main.{fmt.TABLE} VALUES (?, ?, ?)", store_rows)
    if not rows or not tokens:  # no word anywhere: every search is empty, the plain query says so
        return {"terms": 0, "postings": 0}
    docno, factor = _factors(rowids, lengths, tokens / rows)
    conn.execute(f"CREATE VIRTUAL TABLE temp.cp_vocab USING fts5vocab(main, {fts}, instance)")
    conn.execute(f"CREATE VIRTUAL TABLE temp.cp_words USING fts5vocab(main, {fts}, row)")
    try:
        words = conn.execute("SELECT term, cnt FROM temp.cp_words WHERE doc >= ? ORDER BY term", (fmt.MIN_DF,)).fetchall()
        split = _half(words) if source is not None else len(words)
        counts = {"terms": len(words), "postings": 0}
        conn.commit()  # the child reads the file as committed
        child = _Child(source, fts, words[split][0]) if split < len(words) else None
        try:
            counts["postings"] += _fill(conn, [w for w, _ in words[:split]], docno, factor)
            if child is not None:
                done = child.wait()
                if done is None:
                    counts["postings"] += _copy(conn, child.scratch)
                else:
                    counts["child"] = f"failed ({done}); its words were done here"
                    counts["postings"] += _fill(conn, [w for w, _ in words[split:]], docno, factor)
        finally:
            if child is not None:
                child.discard()  # stopped if still running (this process failed), its file removed
    finally:
        conn.execute("DROP TABLE temp.cp_vocab")
        conn.execute("DROP TABLE temp.cp_words")
    return counts


def _factors(rowids: list[int], lengths: list[int], avgdl: float) -> tuple[dict[int, int], list[float]]:
    return {rowid: i for i, rowid in enumerate(rowids)}, [fmt.length_factor(n, avgdl) for n in lengths]


def _half(words: list[tuple[str, int]]) -> int:
    """Where the words' occurrences are halved (the child takes the words from there on)."""
    half, running = sum(c for _, c in words) / 2, 0
    for i, (_, count) in enumerate(words):
        running += count
        if running >= half:
            return i + 1
    return len(words)


def _fill(conn: sqlite3.Connection, words: list[str], docno: dict[int, int], factor: list[float],
          into: str = f"main.{fmt.TABLE}") -> int:
    """Each word's rows into the table ``into`` (the connection has ``temp.cp_vocab``); the
    postings written."""
    total = 0
    batch: list[tuple[str, int, bytes]] = []
    for word in words:
        postings = conn.execute(_POSTINGS, (word,)).fetchall()
        total += len(postings)
        _encode(word, postings, docno, factor, batch)
        if len(batch) > 2000:
            conn.executemany(f"INSERT INTO {into} VALUES (?, ?, ?)", batch)
            batch = []
    conn.executemany(f"INSERT INTO {into} VALUES (?, ?, ?)", batch)
    return total


def _copy(conn: sqlite3.Connection, scratch: Path) -> int:
    """The child's rows into the table; their postings (from its scratch file's count)."""
    conn.execute("ATTACH DATABASE ? AS cp_scratch", (str(scratch),))
    try:
        conn.execute(f"INSERT INTO main.{fmt.TABLE} SELECT * FROM cp_scratch.{fmt.TABLE}")
        (postings,) = conn.execute("SELECT postings FROM cp_scratch.cp_counts").fetchone()
        conn.commit()
    finally:
        conn.execute("DETACH DATABASE cp_scratch")
    return int(postings)


_CHILD = (
    "import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
    "from contextpull.writing.impacts import child_main; child_main(sys.argv[2:])"
)


class _Child:
    """A process writing the rows of the words from ``first`` on to a scratch file."""

    def __init__(self, source: Path, fts: str, first: str):
        self.scratch = Path(f"{source}.impacts")
        _remove(self.scratch)
        command = [sys.executable, "-S", "-c", _CHILD, json.dumps(sys.path), str(source), str(self.scratch), fts, first,
                   str(fmt.MIN_DF)]
        try:
            self.proc: subprocess.Popen | None = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            self.error = None
        except (OSError, ValueError) as exc:  # no interpreter to start: this process does it all
            self.proc, self.error = None, str(exc)

    def wait(self) -> str | None:
        """None when the child wrote its rows, else why not."""
        if self.proc is None:
            return self.error
        _, err = self.proc.communicate()
        if self.proc.returncode != 0:
            lines = (err or "").strip().splitlines()
            return f"exit code {self.proc.returncode}" + (f": {lines[-1]}" if lines else "")
        return None

    def discard(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        _remove(self.scratch)


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:
            os.unlink(f"{path}{suffix}")
        except FileNotFoundError:
            pass


def child_main(args: list[str]) -> None:
    """The child's side: the rows of the kept words from ``first`` on, read from the build file,
    into a new scratch file with the table and the count of their postings."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; it stops us on Ctrl-C
    source, scratch, fts, first, min_df = args
    conn = sqlite3.connect(source)
    conn.execute("ATTACH DATABASE ? AS cp_out", (scratch,))
    conn.execute("PRAGMA cp_out.synchronous = OFF")
    conn.execute("PRAGMA cp_out.journal_mode = OFF")
    conn.execute(fmt.DDL.replace(f"CREATE TABLE {fmt.TABLE}", f"CREATE TABLE cp_out.{fmt.TABLE}"))
    conn.execute("CREATE TABLE cp_out.cp_counts (postings INTEGER NOT NULL)")
    rows, totals = segments.averages(conn, f"main.{fts}")
    rowids, lengths = _docs(conn, fts)
    docno, factor = _factors(rowids, lengths, sum(totals) / rows)
    conn.execute(f"CREATE VIRTUAL TABLE temp.cp_vocab USING fts5vocab(main, {fts}, instance)")
    conn.execute(f"CREATE VIRTUAL TABLE temp.cp_words USING fts5vocab(main, {fts}, row)")
    words = [w for (w,) in conn.execute("SELECT term FROM temp.cp_words WHERE doc >= ? AND term >= ? ORDER BY term",
                                        (int(min_df), first))]
    total = _fill(conn, words, docno, factor, f"cp_out.{fmt.TABLE}")
    conn.execute("INSERT INTO cp_out.cp_counts VALUES (?)", (total,))
    conn.commit()
    conn.close()


def _little_endian(values: list[int], code: str) -> bytes:
    a = array(code, values)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


def _encode(term: str, postings: list[tuple[int, int]], docno: dict[int, int], factor: list[float], out: list) -> None:
    """The term's parts, from its (FTS rowid, frequency) pairs in rowid order, which is docno
    order. Impact order needs no idf: it is one positive factor for the whole term, and
    multiplying by it keeps the order (rounding is monotonic). The sort is stable and the
    postings come in docno order, so equal impacts stay in ascending docno."""
    scale = fmt.K1 + 1.0
    docnos = list(map(docno.__getitem__, map(_FIRST, postings)))
    freqs = list(map(_SECOND, postings))
    keys = [-((f * scale) / (f + factor[d])) for d, f in zip(docnos, freqs)]
    order = sorted(range(len(docnos)), key=keys.__getitem__)
    df = len(order)
    head = order[:fmt.HEAD]
    out.append((term, 0, df.to_bytes(4, "little") + fmt.pack([docnos[i] for i in head], [freqs[i] for i in head])))
    if df > fmt.HEAD:
        mid = order[fmt.HEAD:fmt.MID]
        out.append((term, 1, fmt.pack([docnos[i] for i in mid], [freqs[i] for i in mid])))
    if df > fmt.MID:
        out.append((term, 2, fmt.pack(docnos, freqs)))


def refresh(conn: sqlite3.Connection, new_file_cookie, source: Path | None = None,
            fts: str = "sections_fts") -> dict[str, int] | None:
    """The table as a fresh build of these sections has it: written (``MIN_SECTIONS`` and up)
    or absent, whatever the build file held (a patched copy of a cache may hold one from the
    previous build). The schema cookie is then set to a fresh file's (``new_file_cookie()``,
    one more for the table's creation): a copy that dropped and created the table again has
    made two schema changes where a fresh build made one, and the cookie is in the store's
    bytes. ``source`` is the path of the file ``conn`` writes (``write``). Returns the table's
    counts, None when it is not written."""
    sections = conn.execute(f"SELECT count(*) FROM {fts}_docsize").fetchone()[0]
    conn.execute(f"DROP TABLE IF EXISTS {fmt.TABLE}")
    counts = write(conn, fts, source) if wanted(sections) else None
    conn.execute(f"PRAGMA schema_version = {new_file_cookie() + (counts is not None)}")
    return counts
