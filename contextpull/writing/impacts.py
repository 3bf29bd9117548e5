"""Write ``search_impacts`` (layout: ``contextpull.search.impact_format``) from a finished FTS5 index.

Every figure comes from FTS5 itself, never from a tokeniser of ours: the postings from the
``fts5vocab`` instance table (term, section, column, offset), the section lengths from
``%_docsize`` and the totals from the averages record. So the table holds exactly what ``bm25()``
counts, whatever the text's script. Its rows are a function of the FTS5 rows alone, so a
``build --cache`` writes the same table as a fresh build (it is dropped and written again on
every build).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from array import array

from ..search import impact_format as fmt
from . import segments

DDL = fmt.DDL  # the build file creates the table with its schema (artifact/build_file.py)
_WEIGHT = "CASE col WHEN 'heading_path' THEN 2 WHEN 'text' THEN 1 ELSE 0 END"  # bm25's 0.0, 2.0, 1.0


def _docs(conn: sqlite3.Connection, fts: str) -> tuple[list[int], list[int]]:
    rowids, lengths = [], []
    for rowid, size in conn.execute(f"SELECT id, sz FROM {fts}_docsize ORDER BY id"):
        rowids.append(rowid)
        lengths.append(sum(segments.get_varints(bytes(size))))
    return rowids, lengths


def write(conn: sqlite3.Connection, fts: str = "sections_fts") -> dict[str, int]:
    """(Re)write the table; returns its counts (terms, postings)."""
    exists = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (fmt.TABLE,)).fetchone()
    if exists and exists[0] == fmt.DDL:
        # A patched copy of a cache: emptied rather than dropped, so that its schema row keeps
        # the place a fresh build gives it and VACUUM INTO writes the same bytes.
        conn.execute(f"DELETE FROM {fmt.TABLE}")
    else:
        conn.execute(f"DROP TABLE IF EXISTS {fmt.TABLE}")
        conn.execute(fmt.DDL)
    rows, totals = segments.averages(conn, f"main.{fts}")
    tokens = sum(totals)
    rowids, lengths = _docs(conn, fts)
    if rows != len(rowids) or tokens != sum(lengths):
        raise sqlite3.DatabaseError(f"{fts}: averages record ({rows} rows, {tokens} tokens) disagrees with %_docsize")
    header = {"format": fmt.FORMAT, "rows": rows, "tokens": tokens, "head": fmt.HEAD, "mid": fmt.MID,
              "fts_state": fmt.fts_state(conn, fts)}
    store_rows = [
        ("", 0, json.dumps(header, sort_keys=True).encode()),
        ("", 1, _little_endian(rowids, "q")),
        ("", 2, _little_endian(lengths, "I")),
    ]
    conn.executemany(f"INSERT INTO {fmt.TABLE} VALUES (?, ?, ?)", store_rows)
    if not rows or not tokens:  # no word anywhere: every search is empty, the plain query says so
        return {"terms": 0, "postings": 0}
    avgdl = tokens / rows
    factor = [fmt.length_factor(length, avgdl) for length in lengths]
    docno = {rowid: i for i, rowid in enumerate(rowids)}
    conn.execute(f"CREATE VIRTUAL TABLE temp.cp_vocab USING fts5vocab(main, {fts}, instance)")
    try:
        n_terms = n_postings = 0
        batch: list[tuple[str, int, bytes]] = []
        term, freqs = None, {}
        get = freqs.get
        # One row per occurrence (35 million at 450,000 sections): the loop does the least it can,
        # keyed by FTS rowid, with the column's weight computed by SQLite.
        for word, doc, weight in conn.execute(f"SELECT term, doc, {_WEIGHT} FROM temp.cp_vocab"):
            if word != term:
                if term is not None:
                    _encode(term, freqs, docno, factor, batch)
                    n_terms += 1
                    n_postings += len(freqs)
                    if len(batch) > 2000:
                        conn.executemany(f"INSERT INTO {fmt.TABLE} VALUES (?, ?, ?)", batch)
                        batch = []
                term, freqs = word, {}
                get = freqs.get
            freqs[doc] = get(doc, 0) + weight
        if term is not None:
            _encode(term, freqs, docno, factor, batch)
            n_terms += 1
            n_postings += len(freqs)
        conn.executemany(f"INSERT INTO {fmt.TABLE} VALUES (?, ?, ?)", batch)
    finally:
        conn.execute("DROP TABLE temp.cp_vocab")
    return {"terms": n_terms, "postings": n_postings}


def _little_endian(values: list[int], code: str) -> bytes:
    a = array(code, values)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


def _encode(term: str, freqs: dict[int, int], docno: dict[int, int], factor: list[float], out: list) -> None:
    """The term's parts, from its frequencies by FTS rowid. Impact order needs no idf: it is one
    positive factor for the whole term, and multiplying by it keeps the order (rounding is
    monotonic)."""
    scale = fmt.K1 + 1.0
    ranked = sorted(((docno[r], f) for r, f in freqs.items()),
                    key=lambda item: (-((item[1] * scale) / (item[1] + factor[item[0]])), item[0]))
    df = len(ranked)
    head = ranked[:fmt.HEAD]
    out.append((term, 0, df.to_bytes(4, "little") + fmt.pack([d for d, _ in head], [f for _, f in head])))
    if df > fmt.HEAD:
        mid = ranked[fmt.HEAD:fmt.MID]
        out.append((term, 1, fmt.pack([d for d, _ in mid], [f for _, f in mid])))
    if df > fmt.MID:
        by_docno = sorted(ranked)
        out.append((term, 2, fmt.pack([d for d, _ in by_docno], [f for _, f in by_docno])))
