"""A word's ``search_impacts`` rows from its postings: with numpy where it is installed, the same
bytes without it.

Why two ways: the table's Python work was 0.76 µs a posting (each posting's docno looked up,
its impact computed, the sort, the packing), and a store of 448,648 sections holds 11 million
of them: with SQLite's sum per section (about 1 µs a posting, ``impacts``) it made the build
1.49x its time without the table. numpy does the same operations on whole arrays in 0.19 µs a
posting. It is not a dependency of the build (most stores are far below the table's 50,000
sections, and a CI job would install it for nothing): where it is missing the rows are computed
in Python. Both ways give the very same bytes, which ``tests/test_impact_rows.py`` checks:

- the docno of a posting is its rowid's position among the sections' rowids, sorted (a dict
  here, a binary search there);
- the impact is ``-((f * (k1 + 1.0)) / (f + factor))``, the same three IEEE operations on the
  same doubles, each rounded once either way (numpy's element-wise operations are separate
  passes, with no fused multiply-add);
- impact order is a stable sort of those keys (equal impacts stay in docno order), and the
  parts are packed little-endian as ``impact_format.pack`` packs them, each part's frequencies
  16 bits wide unless one of them needs 32.
"""

from __future__ import annotations

import importlib.util
from operator import itemgetter

from ..search import impact_format as fmt


def _numpy():
    """numpy, or None where it is not installed. Imported when a table is written, never at a
    build's start: the import alone is 0.11 s, a fifth of a small site's whole build."""
    try:
        import numpy
    except ImportError:  # pragma: no cover - exercised where numpy is absent
        return None
    return numpy


def way() -> str:
    """How this interpreter computes the rows, named in a build's ``timings.impacts.rows_by``:
    a team whose large store was written the slow way sees why. Found without importing numpy:
    the build process, which asks, leaves the rows to its children."""
    return "numpy" if importlib.util.find_spec("numpy") is not None else "python"


_FIRST, _SECOND = itemgetter(0), itemgetter(1)
# Occurrences of a word read as one string (about 30 bytes each while it is parsed). Past it
# SQLite sums them (``GROUP BY``, in its own bounded memory): the synthetic store's commonest
# words hold 3.4 million each, and as strings they took a build's peak from 280 to 388 MB. The
# msdocs store's commonest ("the") holds 1.8 million.
MAX_JOINED = 2_000_000


class Encoder:
    """Reads one word's postings from FTS5's vocabulary and turns them into its rows. Built once
    per table from the connection, the ``fts5vocab`` instance table's name, the sections' rowids
    (ascending) and their length factors by docno."""

    def __init__(self, conn, vocabulary: str, rowids: list[int], factors: list[float], use_numpy: bool | None = None):
        self.conn, self.vocabulary = conn, vocabulary
        self.np = _numpy() if use_numpy is not False else None
        self.numpy = self.np is not None
        if self.numpy:
            self.rowids = self.np.array(rowids, dtype=self.np.int64)
            self.factors = self.np.array(factors, dtype=self.np.float64)
        else:
            self.docno = {rowid: i for i, rowid in enumerate(rowids)}
            self.factors = factors

    def postings(self, term: str, occurrences: int):
        """The term's (FTS rowids, weighted frequencies), one per section in rowid order;
        ``occurrences``: how many times the index holds it (the vocabulary's ``cnt``)."""
        if not self.numpy or occurrences > MAX_JOINED:
            return self._summed_by_sqlite(term)
        # SQLite's GROUP BY sorts the occurrences again, though the vocabulary gives them in rowid
        # order: here they come as two strings, and runs of one rowid are summed by numpy (0.62
        # against 0.99 µs a posting on the msdocs store).
        rowids, weights = self.conn.execute(
            "SELECT group_concat(doc), group_concat(CASE col WHEN 'heading_path' THEN 2 WHEN 'text' THEN 1 ELSE 0 END, '') "
            f"FROM {self.vocabulary} WHERE term = ?", (term,)).fetchone()
        np = self.np
        if not rowids:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        rowids = np.fromstring(rowids, dtype=np.int64, sep=",")
        weights = np.frombuffer(weights.encode("ascii"), dtype=np.uint8).astype(np.int64) - ord("0")
        if len(rowids) != len(weights) or bool(np.any(rowids[1:] < rowids[:-1])):  # not as FTS5 gives them
            return self._summed_by_sqlite(term)
        starts = np.flatnonzero(np.concatenate(([True], rowids[1:] != rowids[:-1])))
        return rowids[starts], np.add.reduceat(weights, starts)

    def _summed_by_sqlite(self, term: str) -> tuple[list[int], list[int]]:
        rows = self.conn.execute(fmt.postings_sql(self.vocabulary), (term,)).fetchall()
        return list(map(_FIRST, rows)), list(map(_SECOND, rows))

    def rows(self, term: str, rowids, freqs, out: list) -> None:
        """Append the term's parts to ``out``, from its postings in rowid order (``postings``):
        part 0 (``df``, then the first ``HEAD`` postings in impact order), part 1 (to ``MID``)
        when ``df > HEAD``, part 2 (every posting in docno order) when ``df > MID``."""
        if self.numpy:
            np = self.np
            self._numpy_rows(term, np.asarray(rowids, dtype=np.int64), np.asarray(freqs, dtype=np.int64), out)
        else:
            self._python_rows(term, list(rowids), list(freqs), out)

    def _python_rows(self, term: str, rowids: list[int], freqs: list[int], out: list) -> None:
        docnos = list(map(self.docno.__getitem__, rowids))
        order = fmt.impact_order(docnos, freqs, self.factors)
        df = len(order)
        head = order[:fmt.HEAD]
        out.append((term, 0, df.to_bytes(4, "little") + fmt.pack([docnos[i] for i in head], [freqs[i] for i in head])))
        if df > fmt.HEAD:
            mid = order[fmt.HEAD:fmt.MID]
            out.append((term, 1, fmt.pack([docnos[i] for i in mid], [freqs[i] for i in mid])))
        if df > fmt.MID:
            out.append((term, 2, fmt.pack(docnos, freqs)))

    def _numpy_rows(self, term: str, rowids, freqs, out: list) -> None:
        np = self.np
        docnos = np.searchsorted(self.rowids, rowids)
        if len(docnos) and (docnos[-1] >= len(self.rowids) or not np.array_equal(self.rowids[docnos], rowids)):
            raise KeyError(f"{term!r}: a posting's section is not among the index's sections")
        f = freqs.astype(np.float64)
        keys = np.negative(np.divide(np.multiply(f, fmt.SCALE), np.add(f, self.factors[docnos])))
        order = np.argsort(keys, kind="stable")
        docnos = docnos.astype("<u4")

        def pack(positions=None) -> bytes:
            """As ``impact_format.pack``: each part's frequencies as wide as its largest needs."""
            d, f = (docnos, freqs) if positions is None else (docnos[positions], freqs[positions])
            code = "H" if not len(f) or int(f.max()) < 65536 else "I"
            return code.encode() + d.tobytes() + f.astype("<u2" if code == "H" else "<u4").tobytes()

        df = len(order)
        out.append((term, 0, df.to_bytes(4, "little") + pack(order[:fmt.HEAD])))
        if df > fmt.HEAD:
            out.append((term, 1, pack(order[fmt.HEAD:fmt.MID])))
        if df > fmt.MID:
            out.append((term, 2, pack()))
