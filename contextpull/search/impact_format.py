"""The ``search_impacts`` table: layout and FTS5's bm25 arithmetic, shared by writer and reader.

Why a table of our own (issue 39): ranking the OR pass with ``bm25()`` scores every section
that holds any query word, which at 450,000 sections is most of them. This table lets a reader
find the exact top ``limit`` while scoring a few thousand sections; readers that do not know it
never look at it, so the store format stays 1.x. The layout is documented for other readers in
docs/search-impacts.md.

Rows, one ``(term, part, data)`` each (``WITHOUT ROWID``, keyed by both):

- ``term = ''`` (FTS5 never yields an empty token): part 0 a JSON header (``format``, ``rows``
  and ``tokens`` as FTS5's averages record holds them, ``head``, ``mid``, ``min_df``, ``fts_state``: see
  ``fts_state``), part 1 the FTS rowid
  of every section in ascending order (little-endian int64; a section's position in this list
  is its *docno*), part 2 each section's length in tokens over all FTS columns (uint32, by docno).
- every FTS5 term in at least ``MIN_DF`` sections (the header's ``min_df``): part 0 ``df`` (uint32) then the first ``head`` postings in impact order,
  part 1 the postings after them up to ``mid`` (present when ``df > head``), part 2 every posting
  in docno order (present when ``df > mid``). A posting is a docno and its weighted frequency
  ``2 x (occurrences in heading_path) + 1 x (occurrences in text)``; a part's blob is one format
  byte (``H`` or ``I``: the width of the frequencies), the docnos (uint32), the frequencies.

Impact order is descending contribution, then ascending docno. Weights are the spec's
``bm25(sections_fts, 0.0, 2.0, 1.0)``; a section whose only occurrence is in ``id`` is a posting
with frequency 0 (it matches, and contributes 0).

``contribution`` is FTS5's own expression (``fts5_aux.c``, ``fts5Bm25Function``), operation for
operation in the same order, in IEEE double precision like the C code: Python floats are doubles
and each operation is rounded once, so the result is bit-identical wherever the C compiler did not
fuse a multiply and an add (see ``contextpull.search.impacts.Impacts.check``).

Standard library only.
"""

from __future__ import annotations

import hashlib
import math
import sys
from array import array

TABLE = "search_impacts"
FORMAT = 2
HEAD = 256  # postings in part 0: enough for most words to prove a top 10 from the head alone
MID = 32768  # postings in parts 0 and 1 together: past it a word is one of the commonest ~0.02%
# Sections a word must be in to have rows; a rarer word's postings are read from FTS5's own
# vocabulary when a query names it (``fts5vocab``, instance table).
MIN_DF = 4096
K1 = 1.2  # fts5_aux.c's constants
B = 0.75
SCALE = K1 + 1.0  # the numerator's k1 + 1.0, one double wherever a contribution is computed

DDL = (
    f"CREATE TABLE {TABLE} (term TEXT NOT NULL, part INTEGER NOT NULL, data BLOB NOT NULL, "
    "PRIMARY KEY (term, part)) WITHOUT ROWID"
)


def fts_state(conn, fts: str = "sections_fts") -> str:
    """A digest of FTS5's averages and structure records: any write to the index changes one of
    them, so a table written for another state of the index is recognised and ignored."""
    digest = hashlib.sha256()
    for rowid in (1, 10):
        row = conn.execute(f"SELECT block FROM {fts}_data WHERE id = ?", (rowid,)).fetchone()
        digest.update(bytes(row[0]) if row and row[0] is not None else b"-")
    return digest.hexdigest()


def idf(rows: int, df: int) -> float:
    """FTS5's IDF: ``log((N - n + 0.5) / (n + 0.5))``, at least 1e-6."""
    value = math.log((rows - df + 0.5) / (df + 0.5))
    return value if value > 0.0 else 1e-6


def length_factor(length: int, avgdl: float) -> float:
    """``k1 * (1 - b + b * D / avgdl)``, as the C expression groups it."""
    return K1 * (1 - B + B * float(length) / avgdl)


def contribution(term_idf: float, freq: float, factor: float) -> float:
    """One phrase's term in FTS5's sum: ``idf * ((f * (k1 + 1.0)) / (f + factor))``."""
    return term_idf * ((freq * SCALE) / (freq + factor))


def postings_sql(vocabulary: str) -> str:
    """A word's postings from an ``fts5vocab`` instance table named ``vocabulary``: (FTS rowid,
    weighted frequency) per section in rowid order, the occurrences summed by SQLite with bm25's
    weights 0.0, 2.0, 1.0 for id, heading_path and text. The writer and the reader's rare words
    read postings alike through it."""
    return ("SELECT doc, sum(CASE col WHEN 'heading_path' THEN 2 WHEN 'text' THEN 1 ELSE 0 END) "
            f"FROM {vocabulary} WHERE term = ? GROUP BY doc ORDER BY doc")


def impact_order(docnos, freqs, factors) -> list[int]:
    """The positions of a word's postings (given in docno order) in impact order: descending
    contribution, then ascending docno. The idf is left out: one positive factor for the whole
    word, which keeps the order (rounding is monotonic); the sort is stable, so equal impacts
    stay in docno order."""
    keys = [-((f * SCALE) / (f + factors[d])) for d, f in zip(docnos, freqs)]
    return sorted(range(len(keys)), key=keys.__getitem__)


def pack(docnos: list[int], freqs: list[int]) -> bytes:
    code = "H" if not freqs or max(freqs) < 65536 else "I"
    a, f = array("I", docnos), array(code, freqs)
    if sys.byteorder == "big":
        a.byteswap()
        f.byteswap()
    return code.encode() + a.tobytes() + f.tobytes()


class Corrupt(ValueError):
    """A row of the table that is not in its layout: the reader stops using the table for that
    store and the plain query answers (``search.impacts``)."""


def unpack(blob: bytes) -> tuple[array, array]:
    code = chr(blob[0]) if blob else ""
    if code not in ("H", "I"):
        raise Corrupt(f"a part whose format byte is {code!r}, not 'H' or 'I'")
    width = 4 + array(code).itemsize
    n, rest = divmod(len(blob) - 1, width)
    if rest:
        raise Corrupt(f"a part of {len(blob)} bytes, not 1 + {width} a posting")
    a = array("I")
    a.frombytes(blob[1:1 + 4 * n])
    f = array(code)
    f.frombytes(blob[1 + 4 * n:])
    if sys.byteorder == "big":
        a.byteswap()
        f.byteswap()
    return a, f


def ints(blob: bytes, code: str) -> array:
    out = array(code)
    out.frombytes(blob)
    if sys.byteorder == "big":
        out.byteswap()
    return out
