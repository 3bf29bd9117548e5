"""One word's ``search_impacts`` postings as a reader has loaded them, kept between searches of a
store (``impacts.Impacts.cache``): in impact order as far as read, their contributions computed
once, and, on demand, every posting by docno (for look-ups) or by frequency (for an AND of
common words, ``frequency_groups``). The word reads its parts through its ``Impacts``, which
checks them against the layout.

Standard library only.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

from . import impact_format as fmt
from .impact_format import SCALE
from .frequency_groups import Groups



class Word:
    """One word's postings as loaded so far; kept between searches (``Impacts.cache``)."""

    def __init__(self, impacts, word: str, df: int, postings: tuple[array, array], in_table: bool = True):
        self.impacts, self.word, self.df, self.in_table = impacts, word, df, in_table
        self.idf = fmt.idf(impacts.rows, df)
        self.docnos, self.freqs = postings
        self.contribs: list[float] = []
        self.where: dict[int, int] | None = None  # docno -> frequency, once every posting is loaded
        self.full = None  # part 2: (docnos, freqs) in docno order
        self.groups: Groups | None = None  # the sections by frequency (an AND of common words)

    @property
    def all_loaded(self) -> bool:
        return len(self.docnos) == self.df

    def size(self) -> int:
        """About the bytes this word holds: 6 per posting in arrays, 32 per computed
        contribution (a float in a list), 100 per entry of the position dict."""
        size = 6 * len(self.docnos) + 32 * len(self.contribs)
        if self.where is not None:
            size += 100 * len(self.where)
        size += self.groups.size() if self.groups is not None else 0
        return size + (6 * len(self.full[0]) if self.full else 0)

    def frequency_groups(self, conn) -> Groups:
        """Every posting grouped by frequency (``frequency_groups``), built on first use."""
        if self.groups is None:
            if self.df <= fmt.MID:
                self.load_to(conn, fmt.MID)
                docnos, freqs = self.docnos, self.freqs
            else:
                if self.full is None:
                    self.full = self.impacts.postings(conn, self.word, 2)
                docnos, freqs = self.full
            self.groups = Groups(self.idf, docnos, freqs, self.impacts.lengths, self.impacts.factors)
        return self.groups

    def load_to(self, conn, depth: int) -> None:
        if depth > len(self.docnos) and not self.all_loaded and len(self.docnos) == fmt.HEAD:
            docnos, freqs = self.impacts.postings(conn, self.word, 1)
            self.docnos.extend(docnos)
            self.freqs.extend(freqs)

    def contrib(self, pos: int) -> float:
        """The contribution of the posting at ``pos`` in impact order (computed once)."""
        contribs = self.contribs
        if pos >= len(contribs):
            contribs.extend(self.impacts.contributions(self.idf, self.docnos[len(contribs):pos + 1], self.freqs[len(contribs):pos + 1]))
        return contribs[pos]

    def bound(self, pos: int) -> float:
        """At least the contribution of every posting from ``pos`` on (0.0 past the last)."""
        if pos >= self.df:
            return 0.0
        return self.contrib(min(pos, len(self.docnos) - 1))

    def lookup(self, conn, docno: int) -> float | None:
        """The word's contribution in section ``docno``, None when the section lacks it:
        ``impact_format.contribution``, the same operations, written out (it runs once per
        candidate and word, the pass's commonest step)."""
        if self.df <= fmt.MID:
            if self.where is None:
                self.load_to(conn, fmt.MID)
                self.where = dict(zip(self.docnos, self.freqs))  # docno -> frequency
            freq = self.where.get(docno)
            if freq is None:
                return None
        else:
            if self.full is None:
                self.full = self.impacts.postings(conn, self.word, 2)
            docnos, freqs = self.full
            i = bisect_left(docnos, docno)
            if i == len(docnos) or docnos[i] != docno:
                return None
            freq = freqs[i]
        freq = float(freq)
        return self.idf * ((freq * SCALE) / (freq + self.impacts.factors[docno]))
