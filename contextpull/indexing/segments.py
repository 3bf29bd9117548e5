"""One FTS5 segment per chunk of documents: the canonical index layout of a built store.

Why (issue 4, item 4; issue 8): a build with ``--cache`` must write the same bytes as a fresh
build while re-indexing only the documents that changed. Left to itself FTS5 lays out an index
as a function of its whole write history: where pending terms were flushed, which segments
were merged, which segment ids were free, a write counter. So a build never lets FTS5 lay out
the whole corpus. Each chunk of documents (``chunks.py``) is indexed into a fresh scratch table
with merging off, where the result is a function of that chunk's rows alone, and that one
segment is spliced into the store's table as segment number ``position``. A cache-assisted build
copies the previous artifact's segment for an unchanged chunk instead. Both paths end with the
same rows in every shadow table; ``VACUUM INTO`` then turns equal rows into equal bytes.

The two records FTS5 keeps beside the segments are written last:

- the structure record (``%_data`` rowid 10, version 1 as SQLite's ``fts5_index.c`` writes
  it): the table's 4-byte cookie, one level holding every segment in position order, and the
  count of leaf pages written, as FTS5 keeps it;
- the averages record (rowid 1, ``fts5_storage.c``): the row count and per-column token totals,
  the sums of the ``%_docsize`` rows, added up chunk by chunk as they are written (``Totals``).

Only segment ids and the two records are touched; the segment pages are FTS5's own. A segment
id is part of a page's rowid (``segid << 37``) and of ``%_idx``, never of a page's bytes, so a
splice moves a segment by rewriting those alone. Version-1 structure records are what every
SQLite with FTS5 reads, and the published readers' checks (and FTS5's own ``integrity-check``,
which ``verify`` runs) pass on the result. Scratch tables only ever live in scratch files, so
their config (merging off, a larger pending-terms limit) never reaches a store.
"""

from __future__ import annotations

import sqlite3

SEGID_SHIFT = 37  # FTS5_DATA_ID_B..: rowid = segid << 37 | dlidx << 36 | height << 31 | pgno
AVERAGES_ROWID = 1
STRUCTURE_ROWID = 10
_LEAF_SPAN = 1 << 31  # leaves are height 0, not doclist-index pages: pgno in [1, 2**31)

# Scratch tables only: no automatic merges, no flush before the commit for a chunk of ordinary
# size. A chunk that still ends up in several segments is optimised into one.
_SCRATCH_CONFIG = (("automerge", 0), ("crisismerge", 1999), ("hashsize", 8 * 1024 * 1024))


def put_varint(value: int) -> bytes:
    """SQLite's varint (``sqlite3PutVarint``): big-endian 7-bit groups, 9 bytes at most."""
    if value < 0:
        raise ValueError("varints here are never negative")
    if value > 0x00FFFFFFFFFFFFFF:
        tail = bytes([value & 0xFF])
        value >>= 8
        groups = []
        for _ in range(8):
            groups.append((value & 0x7F) | 0x80)
            value >>= 7
        return bytes(reversed(groups)) + tail
    groups = [value & 0x7F]
    value >>= 7
    while value:
        groups.append((value & 0x7F) | 0x80)
        value >>= 7
    return bytes(reversed(groups))


def get_varints(blob: bytes) -> list[int]:
    values, i = [], 0
    while i < len(blob):
        value = 0
        for k in range(9):
            byte = blob[i]
            i += 1
            if k == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        values.append(value)
    return values


_ENDS = bytes(0x31 if byte < 0x80 else 0x30 for byte in range(256))  # b"1" where a varint ends


def column_totals(blobs: list[bytes], columns: int) -> list[int]:
    """Per-column sums of ``%_docsize`` blobs (``columns`` varints each).

    Decoding 100k blobs one varint at a time costs ~0.5 s of a build; instead blobs are grouped
    by where their varints end (almost all share a few shapes), and each byte position of a
    shape is summed over the whole group with one slice.
    """
    groups: dict[bytes, list[bytes]] = {}
    for blob in blobs:
        groups.setdefault(blob.translate(_ENDS), []).append(blob)
    totals = [0] * columns
    for shape, members in groups.items():
        width, joined, column, start = len(shape), b"".join(members), 0, 0
        for end in range(width):
            if shape[end] != 0x31:
                continue
            if column >= columns or end - start >= 8:  # 9-byte varints or extra values: one by one
                return _totals_slowly(blobs, columns)
            for k in range(start, end + 1):
                total = sum(joined[k::width])
                if k < end:
                    total -= 0x80 * len(members)  # continuation bytes carry 7 bits each
                totals[column] += total << (7 * (end - k))
            column, start = column + 1, end + 1
        if start != width:  # a value cut short: decode one by one
            return _totals_slowly(blobs, columns)
    return totals


def _totals_slowly(blobs: list[bytes], columns: int) -> list[int]:
    totals = [0] * columns
    for blob in blobs:
        for i, value in enumerate(get_varints(blob)[:columns]):
            totals[i] += value
    return totals


def create_scratch(conn: sqlite3.Connection, qualified: str, ddl_body: str) -> None:
    """A fresh FTS5 table ``schema.name`` for one chunk, with merging off."""
    conn.execute(f"DROP TABLE IF EXISTS {qualified}")
    conn.execute(f"CREATE VIRTUAL TABLE {qualified} USING fts5({ddl_body})")
    name = qualified.rsplit(".", 1)[-1]
    for key, value in _SCRATCH_CONFIG:
        conn.execute(f"INSERT INTO {qualified} ({name}, rank) VALUES (?, ?)", (key, value))


def _segments(conn: sqlite3.Connection, qualified: str) -> list[int]:
    """Segment ids of a table, read from its ``%_data`` rowids."""
    return [
        segid
        for (segid,) in conn.execute(
            f"SELECT DISTINCT id >> {SEGID_SHIFT} FROM {qualified}_data WHERE id >> {SEGID_SHIFT} > 0"
        )
    ]


class Totals:
    """Row count and per-column token totals: what the averages record holds, summed by chunk.

    Summing chunks' figures as they are written saves reading every ``%_docsize`` row of the
    build file back at the end (0.3 s per table through the WAL at 96k sections).
    """

    def __init__(self):
        self.rows = 0
        self.columns: list[int] = []

    def add(self, rows: int, columns: list[int]) -> None:
        self.rows += rows
        if len(columns) > len(self.columns):
            self.columns.extend([0] * (len(columns) - len(self.columns)))
        for i, value in enumerate(columns):
            self.columns[i] += value


def averages(conn: sqlite3.Connection, qualified: str) -> tuple[int, list[int]]:
    """(rows, per-column totals) from a table's own averages record."""
    row = conn.execute(f"SELECT block FROM {qualified}_data WHERE id = ?", (AVERAGES_ROWID,)).fetchone()
    values = get_varints(bytes(row[0])) if row and row[0] else [0]
    return values[0], values[1:]


def column_count(conn: sqlite3.Connection, qualified: str) -> int:
    schema, _, name = qualified.rpartition(".")
    columns = conn.execute("SELECT count(*) FROM pragma_table_info(?, ?)", (name, schema or "main")).fetchone()[0]
    if not columns:
        raise sqlite3.OperationalError(f"no columns found for {qualified}")
    return columns


def docsize_totals(conn: sqlite3.Connection, qualified: str, lo: int, hi: int) -> tuple[int, list[int]]:
    """(rows, per-column totals) of the ``%_docsize`` rows with ids ``lo..hi``."""
    sizes = [size for (size,) in conn.execute(f"SELECT sz FROM {qualified}_docsize WHERE id BETWEEN ? AND ?", (lo, hi))]
    return len(sizes), column_totals(sizes, column_count(conn, qualified))


def splice(conn: sqlite3.Connection, scratch: str, target: str, position: int) -> tuple[int, list[int]]:
    """Move the committed scratch table's index into ``target`` as segment ``position``; returns
    the chunk's (rows, per-column totals) from the scratch table's averages record.

    The caller has committed the scratch table's rows (its pending terms are flushed at commit).
    """
    segids = _segments(conn, scratch)
    if len(segids) > 1:  # the chunk overflowed hashsize: merge into one, still a function of the chunk
        name = scratch.rsplit(".", 1)[-1]
        conn.execute(f"INSERT INTO {scratch} ({name}) VALUES ('optimize')")
        conn.commit()
        segids = _segments(conn, scratch)
    if segids:
        move_segment(conn, scratch, segids[0], target, position)
    conn.execute(f"INSERT INTO {target}_docsize (id, sz) SELECT id, sz FROM {scratch}_docsize")
    return averages(conn, scratch)


def move_segment(conn: sqlite3.Connection, source: str, segid: int, target: str, position: int) -> None:
    """Copy one segment's pages and ``%_idx`` rows from ``source`` to ``target`` as ``position``."""
    lo, hi = segid << SEGID_SHIFT, (segid + 1) << SEGID_SHIFT
    shift = (position - segid) << SEGID_SHIFT
    conn.execute(
        f"INSERT INTO {target}_data (id, block) SELECT id + ?, block FROM {source}_data"
        " WHERE id >= ? AND id < ? ORDER BY id",
        (shift, lo, hi),
    )
    conn.execute(
        f"INSERT INTO {target}_idx (segid, term, pgno) SELECT ?, term, pgno FROM {source}_idx"
        " WHERE segid = ? ORDER BY term",
        (position, segid),
    )


def merge(conn: sqlite3.Connection, table: str) -> None:
    """``table``'s segments merged into one by FTS5 (``optimize``), once the chunks' are in place.

    Why, for a large store only (issue 39): a query reads every segment a term is in, and a
    store of 448,648 sections holds 44 of them, one per chunk. Merged, two common words took
    20 ms p50 instead of 32, an identifier 0.2 ms instead of 0.5 (benchmarks/README.md,
    "Scale"), for about 2 s of a 40 s build. The result is FTS5's function of the segments and
    records written before it, so it is the same whichever chunks a cache supplied; the
    chunks' own segments are gone, so a later build using the store as its cache indexes every
    chunk again (``cache.MERGED_LAYOUT``)."""
    name = table.rsplit(".", 1)[-1]
    conn.execute(f"INSERT INTO {table}({name}) VALUES ('optimize')")


def write_records(conn: sqlite3.Connection, table: str, totals: Totals | None = None) -> None:
    """Write ``table``'s structure record from its segments and its averages record from
    ``totals`` (the chunks' sums), or, without them, from its ``%_docsize`` rows."""
    old = conn.execute(f"SELECT block FROM {table}_data WHERE id = ?", (STRUCTURE_ROWID,)).fetchone()
    cookie = bytes(old[0][:4]) if old and len(old[0]) >= 4 else b"\x00\x00\x00\x00"
    segments = []
    for segid in sorted(_segments(conn, table)):
        lo = segid << SEGID_SHIFT
        first, last = conn.execute(
            f"SELECT min(id), max(id) FROM {table}_data WHERE id > ? AND id < ?", (lo, lo + _LEAF_SPAN)
        ).fetchone()
        segments.append((segid, first - lo, last - lo))
    if segments:
        # FTS5 counts the leaf pages it has written to level 0 (it paces automatic merges by it).
        leaves = sum(last - first + 1 for _, first, last in segments)
        body = put_varint(1) + put_varint(len(segments)) + put_varint(leaves)
        body += put_varint(0) + put_varint(len(segments))
        for segid, first, last in segments:
            body += put_varint(segid) + put_varint(first) + put_varint(last)
    else:
        body = put_varint(0) + put_varint(0) + put_varint(0)
    columns = column_count(conn, table)
    if totals is None:
        totals = Totals()
        totals.add(*docsize_totals(conn, table, -(1 << 63), (1 << 63) - 1))
    sums = (totals.columns + [0] * columns)[:columns]
    record = put_varint(totals.rows) + b"".join(put_varint(total) for total in sums)
    conn.execute(
        f"INSERT OR REPLACE INTO {table}_data (id, block) VALUES (?, ?), (?, ?)",
        (AVERAGES_ROWID, record, STRUCTURE_ROWID, cookie + body),
    )
