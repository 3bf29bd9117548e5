"""The exact top ``limit`` of an AND or OR pass from ``search_impacts``, without scoring every match.

store-format.txt, "Search" step 5 orders a pass by ``bm25(sections_fts, 0.0, 2.0, 1.0)``, then id.
For a query of words ``w1 .. wn`` FTS5 computes, per matching section,
``score = ((0.0 + c1) + c2) + ... + cn`` where ``ci`` is word i's contribution (0.0 when the
section lacks it) and returns ``-1.0 * score``. Each ``ci`` depends only on the word and the
section, so the builder can store the postings in descending ``ci`` order
(``impact_format``), and a reader can stop reading when no unread section can reach the top.

A pass is answered by a threshold algorithm with random access (``impact_pass``); this module
holds what it reads: the header, each word's postings (from the table, or from FTS5's vocabulary
for a rarer word; a word as loaded is ``impact_word.Word``), the decoded lists kept between
searches, and the check of the arithmetic.

Why ties and scores stay exact: the exact scores are computed with FTS5's expression in FTS5's
order (``impact_format.contribution``, folded left from 0.0 in query order, absent words adding
0.0, which changes nothing), so they equal ``bm25()`` bit for bit and equal scores tie exactly
as they do in SQLite; ties are then ordered by id. The bounds are exact too: IEEE rounding is
monotonic, so folding values that are each at most a bound gives at most the fold of the
bounds, with no epsilon. ``Impacts.check`` compares this arithmetic with SQLite's on the
store once (a C compiler that fused ``a * b + c`` would round differently); if it differs, the
fast path is off for that store. Words that are not plain ASCII (``[a-z0-9][a-z0-9._-]*``)
take the plain query, since only for those is the FTS5 token certainly the query word itself.

Standard library only.
"""

from __future__ import annotations

import json
from array import array
from collections import OrderedDict
import re
import sqlite3
from bisect import bisect_left

from . import impact_format as fmt
from .frequency_groups import MAX_WORDS
from .frequency_groups import top as groups_top
from .impact_pass import Pass, fold
from .impact_word import Word

_PLAIN = re.compile(r"[a-z0-9][a-z0-9._-]*")
# An AND pass whose every word is in more than 2 % of the sections (and 1,024) is answered from
# the words' frequency groups (``frequency_groups``), not by the threshold algorithm: on 448,648
# sections such words' flat lists make it read 32,768 postings a word: "windows" AND "value" took
# it 52 ms, FTS5 47 ms and the groups 11 ms. With a rarer word the threshold algorithm wins.
AND_MAX_SHARE = 0.02
AND_MAX_DF = 1024
# Bytes of decoded postings kept between searches of one store (the common words of the last
# queries). A cache of 4 million postings held about 160 MB on a store of 448,660 sections (the
# msdocs corpus); this one gave the OR pass of its natural-language questions 15/86 ms p50/p95.
CACHE_BYTES = 64 * 1024 * 1024
FLOORED_IDF = 1e-6  # impact_format.idf's floor
# FTS5's vocabulary, for the words the table leaves out (``Impacts._rare``): a temporary table of
# the reader's own connection, which a read-only store allows.
_VOCAB = "cp_rare_vocab"
_RARE = fmt.postings_sql(f"temp.{_VOCAB}")


def _vocabulary(conn, name: str, kind: str) -> None:
    """FTS5's vocabulary as a table of the connection's own temporary schema. A store is opened
    with ``query_only`` (``contextpull.store``), which refuses even that: it is lifted for this
    one statement, which writes nothing of the store (opened read-only besides), then restored."""
    (was,) = conn.execute("PRAGMA query_only").fetchone()
    conn.execute("PRAGMA query_only = 0")
    try:
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{name} USING fts5vocab(main, sections_fts, {kind})")
    finally:
        conn.execute(f"PRAGMA query_only = {int(was)}")


class _Unproven(Exception):
    """The table cannot answer this pass (it disagrees with the index): FTS5 answers it."""


class Impacts:
    """A store's ``search_impacts`` header; ``load`` returns None where the table is absent."""

    def __init__(self, header: dict, rowids, lengths):
        self.rows, self.tokens = int(header["rows"]), int(header["tokens"])
        self.min_df = int(header.get("min_df", 1))
        self.in_table: frozenset[str] | None = None  # the words with rows (``_any_in_table``)
        self.vocab = False  # whether this connection has the vocabulary table (``_rare``)
        self.avgdl = self.tokens / self.rows
        self.rowids, self.lengths = rowids, lengths
        self.checked: bool | None = None
        self._factors = None
        self.cache: OrderedDict[str, Word | None] = OrderedDict()  # recently searched words
        self.cached = 0  # bytes held by the cache, about

    @classmethod
    def load(cls, conn) -> "Impacts | None":
        try:
            parts = dict(conn.execute(f"SELECT part, data FROM {fmt.TABLE} WHERE term = '' AND part IN (0, 1, 2)"))
        except sqlite3.OperationalError:  # no such table: a store from another writer
            return None
        try:
            header = json.loads(bytes(parts[0]))
            if header.get("format") != fmt.FORMAT or header.get("head") != fmt.HEAD or header.get("mid") != fmt.MID:
                return None
            if header.get("fts_state") != fmt.fts_state(conn):
                return None  # written for another state of the index: a writer changed the store since
            rowids, lengths = fmt.ints(bytes(parts[1]), "q"), fmt.ints(bytes(parts[2]), "I")
        except (KeyError, ValueError, TypeError):
            return None
        if not header["rows"] or not header["tokens"] or len(rowids) != header["rows"] or len(lengths) != len(rowids):
            return None
        return cls(header, rowids, lengths)

    @property
    def factors(self):
        """Every section's ``k1 * (1 - b + b * D / avgdl)``, computed on the first search."""
        if self._factors is None:
            self._factors = array("d", (fmt.length_factor(n, self.avgdl) for n in self.lengths))
        return self._factors

    def factor(self, docno: int) -> float:
        return self.factors[docno]

    def contributions(self, idf: float, docnos, freqs) -> list[float]:
        """``impact_format.contribution`` for many postings: the same operations, inlined."""
        factors, scale = self.factors, fmt.SCALE
        return [idf * ((f * scale) / (f + factors[d])) for d, f in zip(docnos, freqs)]

    def part(self, conn, word: str, part: int) -> bytes:
        row = conn.execute(f"SELECT data FROM {fmt.TABLE} WHERE term = ? AND part = ?", (word, part)).fetchone()
        if row is None or not isinstance(row[0], bytes):
            raise fmt.Corrupt(f"{fmt.TABLE}: part {part} of {word!r} is missing")
        return row[0]

    def postings(self, conn, word: str, part: int, blob: bytes | None = None):
        """A part's (docnos, frequencies), checked against the layout and the header's sections
        (``fmt.Corrupt`` otherwise)."""
        docnos, freqs = fmt.unpack(self.part(conn, word, part) if blob is None else blob)
        # Part 2 is in docno order, so its last docno is its largest; parts 0 and 1 hold at most
        # 32,768 (a max over part 2 cost 6 ms a load, a tenth of a question's p95).
        if docnos and (docnos[-1] if part == 2 else max(docnos)) >= self.rows:
            raise fmt.Corrupt(f"{fmt.TABLE}: part {part} of {word!r} names a section past the last")
        return docnos, freqs

    def _word(self, conn, word: str) -> Word | None:
        if word in self.cache:
            self.cache.move_to_end(word)
            return self.cache[word]
        row = None
        if self.in_table is None or word in self.in_table:
            row = conn.execute(f"SELECT data FROM {fmt.TABLE} WHERE term = ? AND part = 0", (word,)).fetchone()
        if row is not None:
            blob = row[0]
            if not isinstance(blob, bytes) or len(blob) < 4:
                raise fmt.Corrupt(f"{fmt.TABLE}: part 0 of {word!r} holds no count")
            found = Word(self, word, int.from_bytes(blob[:4], "little"), self.postings(conn, word, 0, blob[4:]))
        else:
            found = self._rare(conn, word)
        self.cache[word] = found
        return found

    def _any_in_table(self, conn, words: list[str]) -> bool:
        """Whether the table holds any of ``words``. The table's words are read once, in one
        scan of their keys: a look-up of one key cost 1-3 ms where rows hold megabytes of
        postings (SQLite walks the pages of a WITHOUT ROWID table's large rows), more than
        FTS5's whole answer for an identifier."""
        if self.in_table is None:
            self.in_table = frozenset(t for (t,) in conn.execute(f"SELECT term FROM {fmt.TABLE} WHERE part = 0"))
        return any(w in self.in_table for w in words)

    def _rare(self, conn, word: str) -> Word | None:
        """A word the table leaves out (in fewer than ``min_df`` sections), read from FTS5's
        vocabulary: its few postings, put in impact order here as the writer would."""
        if self.min_df <= 1:
            return None
        if not self.vocab:
            _vocabulary(conn, _VOCAB, "instance")
            self.vocab = True
        postings = conn.execute(_RARE, (word,)).fetchmany(self.min_df)
        if not postings:
            return None
        if len(postings) >= self.min_df:
            raise _Unproven  # the table should have held it: written for another index
        rowids = self.rowids
        docnos = []
        for rowid, _ in postings:
            i = bisect_left(rowids, rowid)
            if i == len(rowids) or rowids[i] != rowid:
                raise _Unproven
            docnos.append(i)
        freqs = [f for _, f in postings]
        order = fmt.impact_order(docnos, freqs, self.factors)
        return Word(self, word, len(order), (array("I", [docnos[i] for i in order]), array("I", [freqs[i] for i in order])),
                     in_table=False)

    def _trim(self) -> None:
        """Keep the cache under CACHE_BYTES (the words of the last searches stay)."""
        self.cached = sum(w.size() for w in self.cache.values() if w is not None)
        while self.cached > CACHE_BYTES and len(self.cache) > 1:
            _, word = self.cache.popitem(last=False)
            if word is not None:
                self.cached -= word.size()

    # -- the pass --------------------------------------------------------------------------------
    def top(self, conn, tokens: list[str], limit: int, conjunctive: bool) -> list[tuple[str, int, float]] | None:
        """The pass's ``limit`` best (id, FTS rowid, bm25) in order, or None when not proven."""
        if not self._usable(conn, tokens):
            return None
        return self._top(conn, tokens, limit, conjunctive)

    def _usable(self, conn, tokens: list[str]) -> bool:
        """Whether the table may answer for ``tokens``: its arithmetic is SQLite's on this store
        (checked once) and every token is certainly the FTS5 term itself."""
        if self.checked is None:
            try:
                self.checked = self.check(conn)
            except fmt.Corrupt:
                self.checked = False
        return bool(self.checked and tokens and all(_PLAIN.fullmatch(t) for t in tokens))

    def _common(self, df: int) -> bool:
        """A word in too many sections for the threshold algorithm's AND (``AND_MAX_SHARE``)."""
        return df > max(AND_MAX_DF, AND_MAX_SHARE * self.rows)

    def _top(self, conn, tokens, limit, conjunctive):
        try:
            return self._proven(conn, tokens, limit, conjunctive)
        except _Unproven:
            return None
        except fmt.Corrupt:  # a row not in the layout: the table is not used again for this store
            self.checked = False
            return None

    def every_word_common(self, conn, tokens: list[str]) -> bool:
        """Whether every word of ``tokens`` is common (``AND_MAX_SHARE``) on this store: then the
        phrase pass, which FTS5 ranks, is asked before the AND pass (``passes``)."""
        if not self._usable(conn, tokens):
            return False
        unique = list(dict.fromkeys(tokens))
        if not self._any_in_table(conn, unique) or not all(t in self.in_table for t in unique):
            return False
        try:
            found = [self._word(conn, t) for t in unique]
        except _Unproven:
            return False
        except fmt.Corrupt:
            self.checked = False
            return False
        return all(w is not None and self._common(w.df) for w in found)

    def _proven(self, conn, tokens, limit, conjunctive):
        unique = list(dict.fromkeys(tokens))
        if not self._any_in_table(conn, unique):
            return None  # only rare words: FTS5 reads their few postings as fast, with no proof to make
        words: dict[str, Word] = {}
        for token in unique:
            word = self._word(conn, token)
            if word is None:
                if conjunctive:
                    return []  # no section holds this word: the AND matches nothing
                continue
            words[token] = word
        if not words:
            return []
        if all(w.idf <= FLOORED_IDF for w in words.values()):
            # every word in more than half the sections: FTS5 floors their idf, every score is
            # about equal and nothing can be proven early (the synthetic store of 20 words)
            return None
        phrases = [t for t in tokens if t in words]  # absent words add 0.0: no change to the sum
        if conjunctive and all(self._common(w.df) for w in words.values()):
            return self._common_and(conn, words, phrases, limit)
        try:
            scored = Pass(conn, words, phrases, limit, conjunctive).run()
        finally:
            self._trim()
        return None if scored is None else self._ordered(conn, scored, limit)

    def _common_and(self, conn, words: dict[str, Word], phrases: list[str], limit: int):
        """An AND pass of common words only: from their frequency groups (``frequency_groups``)."""
        names = list(words)
        if len(names) > MAX_WORDS:
            return None  # FTS5 ranks the few sections that three common words share
        try:
            groups = [words[n].frequency_groups(conn) for n in names]
            scored = groups_top(groups, [phrases.count(n) for n in names], [names.index(p) for p in phrases],
                                [words[n].idf for n in names], limit, self.factors)
        finally:
            self._trim()
        return None if scored is None else self._ordered(conn, scored, limit)

    def _ordered(self, conn, scored: dict[int, float], limit: int):
        if not scored:
            return []
        by_rowid = {self.rowids[d]: s for d, s in scored.items()}
        rowids = list(by_rowid)
        ids = {}
        for start in range(0, len(rowids), 500):
            chunk = rowids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            ids.update(conn.execute(f"SELECT rowid, id FROM sections_fts WHERE rowid IN ({marks})", chunk).fetchall())
        rows = [(ids[r], r, -1.0 * s) for r, s in by_rowid.items()]
        rows.sort(key=lambda row: (row[2], row[0]))
        return rows[:limit]

    # -- the arithmetic, once per store ------------------------------------------------------------
    def check(self, conn) -> bool:
        """Whether this arithmetic reproduces SQLite's ``bm25()`` on this store, bit for bit.

        One OR query of three words (a frequent one, whose bounds come into play, and two rarer),
        answered both ways with ``limit`` 50: ids, order and scores must be identical.
        """
        frequent = conn.execute(
            f"SELECT term FROM {fmt.TABLE} WHERE part = 1 AND length(data) BETWEEN 200 AND 20000 LIMIT 20"
        ).fetchall()
        rare = conn.execute(f"SELECT term FROM {fmt.TABLE} WHERE term > 'm' AND part = 0 AND length(data) < 64 LIMIT 20").fetchall()
        if self.min_df > 1:  # the words the table leaves out are read from FTS5's vocabulary
            _vocabulary(conn, f"{_VOCAB}_rows", "row")
            rare = conn.execute(f"SELECT term FROM temp.{_VOCAB}_rows WHERE term > 'm' AND doc BETWEEN 2 AND ? LIMIT 20",
                                (self.min_df - 1,)).fetchall()
        words = [w for (w,) in frequent if _PLAIN.fullmatch(w)][:2] + [w for (w,) in rare if _PLAIN.fullmatch(w)][:2]
        if not words:
            return True  # nothing to search
        query = " OR ".join('"' + w + '"' for w in words)
        plain = conn.execute(
            "SELECT id, rowid, bm25(sections_fts, 0.0, 2.0, 1.0) AS r FROM sections_fts WHERE sections_fts MATCH ? ORDER BY r, id LIMIT 50",
            (query,),
        ).fetchall()
        fast = self._top(conn, words, 50, False)
        if fast is None:  # not proven at depth: compare the arithmetic row by row instead
            found = {w: self._word(conn, w) for w in words}
            docno = {r: i for i, r in enumerate(self.rowids)} if len(plain) else {}
            for sid, rowid, rank in plain:
                c = [found[w].lookup(conn, docno[rowid]) if found[w] else None for w in words]
                if -1.0 * fold(x or 0.0 for x in c) != rank:
                    return False
            return True
        return fast is not None and [tuple(r) for r in plain] == [tuple(r) for r in fast]
