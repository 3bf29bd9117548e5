"""The five operations over an open store: index, search, read, grep, neighbours.

Implements store-format.txt ("Search", "Read", "Grep", "Neighbours", "Index", "Ordering and ties")
with the argument limits and errors of supplement.md. Every ordering ends in ``id`` so two
conforming readers return identical id lists. Nothing here writes: the store is opened
``query_only`` and any temporary b-trees SQLite builds live in memory.

Standard library only (ADR 001); ``contextpull.tools`` validates tool arguments before they get here,
and these methods check their own limits too because library callers skip the schemas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence

from .search import dense, passes, ranking
from .search.impacts import Impacts
from .grep import literal as literal_grep
from .grep import regex as regex_grep
from .errors import ContextPullError, OpsError, ToolError  # noqa: F401 - OpsError: the tool error's library name
from .results import GrepResult, Hit, Match, NeighboursResult, ReadResult, SearchResult, Section
from .tool_schema import check_int, check_str, glob_ok, unknown_section  # noqa: F401 - unknown_section: the hosts' error
from .store import Store
from .text import normalize_for_fts, query_tokens  # noqa: F401 - normalize_for_fts: public here too

SEARCH_LIMIT = (1, 50)
# Words of a query. The OR pass ranks every section holding any of them, at a cost that grows
# with both counts: 64 random words take about 0.5 s on the uv docs x62 (37k sections), 256
# about 4.5 s and 1,024 about 51 s, during which a server's other calls wait for the connection.
QUERY_MAX_WORDS = 64
GREP_LIMIT = (1, 100)
STEPS = (0, 5)  # read context, neighbours before/after
PATTERN_MAX = 200

SNIPPET = "snippet(sections_fts, 2, '**', '**', '…', 20)"

# The published reader's words, which its TypeScript reader and users' tests share
# (docs/agreement.md, "Search hints").
HINT_NO_WORDS = "no searchable words in query"  # store-format "Search" step 1
HINT_NO_HITS = "no hits; try grep for exact codes, drop the in= filter, or use fewer words"
HINT_NO_EMBEDDINGS = dense.HINT_NO_EMBEDDINGS  # store-format "Search" step 8
SNIPPET_CHARS = 160  # a dense-only hit's snippet: the start of its text

_WS = re.compile(r"\s+")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")

_DOCS_WHERE = "SELECT doc_id FROM documents WHERE "
_SECTION_COLUMNS = "s.id, s.doc_id, s.heading_path, s.kind, s.text, s.prev_id, s.next_id, s.ordinal"


def tokenize(text: str) -> list[str]:
    """The words of ``text`` as search sees them (store-format.txt, "Tokenisation").

    Lower-cased, normalised like the FTS columns (``normalize_for_fts``), split on the rule
    ``[^\\W_][\\w.\\-]*`` with ``._-`` stripped from both ends, in order, duplicates kept: so
    ``TX-4419``, ``3.12`` and ``GATEWAY_TIMEOUT_MS`` stay whole and ``--no-cache`` is ``no-cache``.
    Public so that an embedding client (a custom ranking, an embedding function) splits text
    exactly as the store's FTS index does.
    """
    return query_tokens(text)


@dataclass(frozen=True)
class Ranking:
    """A search ranked and not yet presented (``Ops.rank``): the section ids in order, the pass
    each lexical hit came from (id -> (fts rowid, bm25, pass query)), the rounded scores, the
    mode and the hint the result will carry."""

    ids: tuple[str, ...]
    found: dict
    scores: dict
    mode: str
    hint: str | None


class Ops:
    """The operations of one open store; results are the dataclasses of ``contextpull.results``."""

    def __init__(self, store: Store, embed_fn=None):
        """``embed_fn(model, texts) -> vectors`` embeds queries for hybrid search (the published
        reader's signature); by default the store's model is loaded from
        ``contextpull.models.embed`` on the first hybrid search."""
        self.store = store
        self.conn = store.conn
        self._db = store.tuples  # the operations' own reads: plain tuples, the fastest rows
        self.embed_fn = embed_fn
        self._doc_paths: dict[int, str] | None = None
        self._trigram: str | bool | None = None  # the store's usable trigram table, False if none
        self._vectors: dense.Vectors | None = None
        self._impacts: Impacts | bool | None = None  # the store's search_impacts, False if none

    # -- shared helpers -------------------------------------------------------------------------
    @property
    def doc_paths(self) -> dict[int, str]:
        if self._doc_paths is None:
            self._doc_paths = dict(self._db.execute("SELECT doc_id, path FROM documents"))
        return self._doc_paths

    def _path_filter(self, in_) -> tuple[str, list[str]]:
        """store-format "Search" step 4, as SQL over sections ``s``; ('', []) when unfiltered."""
        if in_ is None:
            return "", []
        if isinstance(in_, str):
            in_ = [in_]
        if not isinstance(in_, (list, tuple)) or not all(isinstance(e, str) for e in in_):
            raise ToolError(f"in must be a list of path globs, got {in_!r}")
        if not in_:
            return "", []
        clauses, params = [], []
        for entry in in_:
            check_str("in", entry)
            if not glob_ok(entry):
                raise ToolError(f"invalid path filter '{entry}'", "valid top-level paths: " + self._top_level())
            clauses.append("path GLOB ?")
            params.append(entry)
            if not any(c in entry for c in "*?["):
                # The directory rule. A trailing slash is how the index and our hints spell a
                # folder ("guides/"), so "guides/" means the same as "guides", as in 0.2.1.
                clauses.append("path GLOB ?")
                params.append(entry.rstrip("/") + "/*")
        return f" AND s.doc_id IN ({_DOCS_WHERE}{' OR '.join(clauses)})", params

    @staticmethod
    def _docs_sql(where: str) -> str:
        """The allowed-documents subquery inside a path filter clause."""
        return where[where.index(_DOCS_WHERE) : where.rindex(")")]

    def _top_level(self) -> str:
        tops = sorted({p.split("/", 1)[0] + ("/" if "/" in p else "") for p in self.doc_paths.values()})
        shown = ", ".join(tops[:20])
        return shown + (f", … ({len(tops) - 20} more)" if len(tops) > 20 else "")

    def _section(self, row) -> Section:
        sid, doc_id, heading, kind, text, prev_id, next_id = row[:7]
        return Section(sid, self.doc_paths[doc_id], heading, kind, text, prev_id, next_id)

    def _row(self, sid: str):
        return self._db.execute(f"SELECT {_SECTION_COLUMNS} FROM sections s WHERE s.id = ?", (sid,)).fetchone()

    def _require(self, sid) -> tuple:
        check_str("id", sid)
        row = self._row(sid)
        if row is None:
            raise unknown_section(sid)
        return row

    def _row_at(self, doc_id: int, ordinal: int):
        return self._db.execute(
            f"SELECT {_SECTION_COLUMNS} FROM sections s WHERE s.doc_id = ? AND s.ordinal = ?", (doc_id, ordinal)
        ).fetchone()

    def _run_start(self, row):
        """The first section of a split table's run if ``row`` is a continuation, else None."""
        if row[3] != "table":
            return None
        first = None
        current = row
        while True:
            prev = self._row_at(current[1], current[7] - 1)
            if prev is None or prev[3] != "table" or prev[2] != row[2]:
                return first
            first = current = prev

    # -- index ------------------------------------------------------------------------------------
    def index(self, prefix: str | None = None) -> str:
        """store-format "Index": the stored text, or the listing under ``prefix``."""
        if prefix is None:
            return self.store.index_text
        check_str("prefix", prefix)
        rows = self._db.execute(
            "SELECT path, title, summary, n_sections FROM documents WHERE substr(path, 1, ?) = ? ORDER BY path",
            (len(prefix), prefix),
        ).fetchall()
        total = sum(r[3] for r in rows)
        lines = [f"ContextPull index · {prefix} · {len(rows)} documents · {total} sections"]
        for path, title, summary, n_sections in rows:
            label = summary if summary else title
            if len(label) > 60:
                label = label[:59].rstrip() + "…"
            lines.append(f"{path:<30}  {label}  ({n_sections})")
        return "\n".join(lines)

    def index_hint(self, prefix: str | None) -> str | None:
        """What to try when ``index(prefix)`` lists no document, else None.

        The listing itself is the contract (store-format "Index"; the conformance suite pins its
        text even when empty), so the hint travels beside it: the paths one level under the
        longest folder of ``prefix`` that exists, or the top-level paths.
        """
        if prefix is None:
            return None
        check_str("prefix", prefix)
        paths = self.doc_paths.values()
        if any(p.startswith(prefix) for p in paths):
            return None
        parent = prefix[: prefix.rfind("/") + 1]
        while parent and not any(p.startswith(parent) for p in paths):
            parent = parent[: parent[:-1].rfind("/") + 1]
        children = sorted({parent + rest.split("/", 1)[0] + ("/" if "/" in rest else "")
                           for rest in (p[len(parent):] for p in paths if p.startswith(parent))})
        shown = ", ".join(children[:20]) + (f", … ({len(children) - 20} more)" if len(children) > 20 else "")
        where = f"paths under {parent}" if parent else "top-level paths"
        return f"no document path starts with '{prefix}'; {where}: {shown or '(none: the store is empty)'}"

    # -- search -----------------------------------------------------------------------------------
    def search(self, query: str, in_: Sequence[str] | None = None, limit: int = 10, mode: str = "lexical") -> SearchResult:
        """store-format "Search": phrase, AND, then OR passes, each by bm25 then id."""
        return self.present(self.rank(query, in_, limit, mode))

    def rank(self, query: str, in_: Sequence[str] | None = None, limit: int = 10, mode: str = "lexical") -> Ranking:
        """The first half of ``search``: which sections, in which order, with which scores. A
        server searching several stores ranks each and presents only the hits its merge keeps
        (``serving.routing``), so no store writes snippets for hits that are dropped."""
        check_str("query", query)
        limit = check_int("limit", limit, SEARCH_LIMIT)
        if mode not in ("lexical", "hybrid"):
            raise ToolError(f"mode must be 'lexical' or 'hybrid', got {mode!r}")
        where, params = self._path_filter(in_)
        hints: list[str] = []
        tokens = query_tokens(query)
        if len(tokens) > QUERY_MAX_WORDS:
            raise ToolError(
                f"query has {len(tokens)} words; at most {QUERY_MAX_WORDS} are searched",
                "keep the words that distinguish what you look for, or grep for an exact phrase",
            )
        if not tokens:
            return Ranking((), {}, {}, "lexical", HINT_NO_WORDS)
        query_vector = self._query_vector(query, hints) if mode == "hybrid" else None

        scope = ranking.Scope(self._db, self._docs_sql(where), params) if where else None
        found = passes.lexical(self._db, tokens, scope, limit, self.impacts)
        ids = list(found)[:limit]
        scores = {sid: round(-found[sid][1], 2) + 0.0 for sid in ids}  # + 0.0 turns -0.0 into 0.0
        result_mode = "lexical"
        if query_vector is not None:
            allowed = set(scope.allowed.values()) if scope is not None else None
            nearest = self._vectors.nearest(query_vector, dense.depth(limit))  # type: ignore[union-attr]
            fused = dense.fuse(ids, nearest, allowed, limit)
            ids = [sid for sid, _ in fused]
            scores = {sid: round(score * 100, 2) for sid, score in fused}
            result_mode = "hybrid"
        if not ids:
            # An empty result says only how to widen it, whatever else was noted (published).
            return Ranking((), {}, {}, result_mode, HINT_NO_HITS)
        return Ranking(tuple(ids), found, scores, result_mode, "; ".join(hints) or None)

    def present(self, ranked: Ranking, ids: Sequence[str] | None = None) -> SearchResult:
        """The second half of ``search``: the hits of ``ranked`` (of ``ids`` only, in that order,
        when given), each with its path, heading, snippet and score."""
        ids = ranked.ids if ids is None else tuple(ids)
        if not ids:
            return SearchResult((), ranked.mode, ranked.hint)
        found = ranked.found
        snippets = self._snippets({sid: found[sid] for sid in ids if sid in found})
        details = self._details(list(ids))
        hits = []
        for sid in ids:
            doc_id, heading, kind, text = details[sid]
            snippet = snippets.get(sid, "") if sid in found else _WS.sub(" ", text).strip()[:SNIPPET_CHARS] + "…"
            hits.append(Hit(sid, self.doc_paths[doc_id], heading, snippet, ranked.scores[sid], kind))
        return SearchResult(tuple(hits), ranked.mode, ranked.hint)

    @property
    def impacts(self) -> Impacts | None:
        """The store's ``search_impacts`` (docs/search-impacts.md), loaded on first use."""
        if self._impacts is None:
            self._impacts = Impacts.load(self._db) or False
        return self._impacts or None

    def _query_vector(self, query: str, hints: list[str]):
        if self._vectors is None:
            self._vectors = dense.Vectors(self._db)
        return dense.query_vector(self._vectors, query, self.embed_fn or _store_model, hints)

    def _snippets(self, found: dict[str, tuple[int, float, str]]) -> dict[str, str]:
        by_query: dict[str, list[int]] = {}
        for rowid, _, fts_query in found.values():
            by_query.setdefault(fts_query, []).append(rowid)
        out = {}
        for fts_query, rowids in by_query.items():
            marks = ",".join("?" * len(rowids))
            rows = self._db.execute(
                f"SELECT id, {SNIPPET} FROM sections_fts WHERE sections_fts MATCH ? AND rowid IN ({marks})",
                (fts_query, *rowids),
            )
            for sid, snippet in rows:
                out[sid] = _WS.sub(" ", snippet or "").strip()
        return out

    def _details(self, ids: list[str]) -> dict[str, tuple[int, str, str, str]]:
        marks = ",".join("?" * len(ids))
        rows = self._db.execute(f"SELECT id, doc_id, heading_path, kind, text FROM sections WHERE id IN ({marks})", ids)
        return {sid: (doc_id, heading, kind, text) for sid, doc_id, heading, kind, text in rows}

    # -- read -------------------------------------------------------------------------------------
    def read(self, id: str, context: int = 0) -> ReadResult:
        """store-format "Read": verbatim text, ``context`` sections either side in the same document."""
        row = self._require(id)
        context = check_int("context", context, STEPS)
        section = self._section(row)
        start = self._run_start(row)
        if start is not None:
            section = _with_header(section, start[4])
        around = ()
        if context:
            rows = self._db.execute(
                f"SELECT {_SECTION_COLUMNS} FROM sections s WHERE s.doc_id = ? AND s.ordinal BETWEEN ? AND ? "
                "AND s.ordinal != ? ORDER BY s.ordinal",
                (row[1], row[7] - context, row[7] + context, row[7]),
            ).fetchall()
            around = tuple(replace(self._section(r), context=True) for r in rows)
        return ReadResult(section, around)

    # -- neighbours ------------------------------------------------------------------------------
    def neighbours(self, id: str, before: int = 1, after: int = 1) -> NeighboursResult:
        """store-format "Neighbours": follow prev_id/next_id within the document; header of a split table."""
        row = self._require(id)
        before = check_int("before", before, STEPS)
        after = check_int("after", after, STEPS)
        earlier, later = [], []
        current = row
        for _ in range(before):
            current = self._row(current[5]) if current[5] else None
            if current is None or current[1] != row[1]:
                break
            earlier.append(current)
        current = row
        for _ in range(after):
            current = self._row(current[6]) if current[6] else None
            if current is None or current[1] != row[1]:
                break
            later.append(current)
        sections = tuple(self._section(r) for r in [*reversed(earlier), row, *later])
        start = self._run_start(row)
        return NeighboursResult(sections, self._section(start) if start is not None else None)

    # -- grep -------------------------------------------------------------------------------------
    def grep(self, pattern: str, in_: Sequence[str] | None = None, regex: bool = False, limit: int = 20) -> GrepResult:
        """store-format "Grep": case-insensitive substring scan (or bounded regex), one line per section."""
        check_str("pattern", pattern)
        if not pattern:
            raise ToolError("pattern is empty", "give at least one character")
        if len(pattern) > PATTERN_MAX:
            raise ToolError(f"pattern is {len(pattern)} characters; the limit is {PATTERN_MAX}", "use a shorter pattern")
        if not isinstance(regex, bool):
            raise ToolError(f"regex must be true or false, got {regex!r}")
        limit = check_int("limit", limit, GREP_LIMIT)
        where, params = self._path_filter(in_)
        if regex:
            return self._grep_regex(pattern, in_, where, params, limit)
        if self._trigram is None:
            self._trigram = literal_grep.trigram_table(self._db) or False
        rows = literal_grep.scan(self._db, pattern, where, params, limit, self._trigram or None)
        matches = tuple(
            Match(sid, self.doc_paths[doc_id], heading, literal_grep.first_line(text, pattern))
            for sid, doc_id, heading, text in rows[:limit]
        )
        return GrepResult(matches, len(rows) > limit)

    def _grep_regex(self, pattern, in_, where, params, limit) -> GrepResult:
        rx = regex_grep.compile_pattern(pattern)
        if not regex_grep.can_interrupt():
            found, truncated = regex_grep.scan_in_child(str(self.store.path), pattern, in_, limit)
            return GrepResult(tuple(Match(**m) for m in found), truncated)
        cursor = self._db.execute(
            f"SELECT s.id, s.doc_id, s.heading_path, s.text FROM sections s WHERE 1{where} ORDER BY s.id", params
        )
        found, truncated = regex_grep.scan_in_process(rx, cursor, limit)
        return GrepResult(tuple(Match(sid, self.doc_paths[d], h, line) for sid, d, h, line in found), truncated)


def _store_model(model: str, texts: list[str]) -> list:
    """The store's own model, loaded from the models room on the first hybrid search, so a
    lexical reader never imports it."""
    from .models.embedders import query_vectors

    return query_vectors(model, texts)


def _with_header(section: Section, first_text: str) -> Section:
    """Prepend the header and separator of a split table's first part unless already there."""
    lines = first_text.split("\n")
    header = next((i for i, line in enumerate(lines) if line.lstrip().startswith("|")), None)
    if header is None:
        return section
    head = [lines[header]]
    if header + 1 < len(lines) and _TABLE_SEPARATOR.match(lines[header + 1]):
        head.append(lines[header + 1])
    body = section.text.split("\n")
    first_row = next((i for i, line in enumerate(body) if line.lstrip().startswith("|")), 0)
    if body[first_row:first_row + 1] == head[:1]:
        return section
    text = "\n".join(body[:first_row] + head + body[first_row:])
    return replace(section, text=text)
