"""The five operations as store-format.txt specifies them, over a hand-made store (tests/read_store.py)."""

from __future__ import annotations

import threading

import pytest

from contextpull import Ops, Store, ToolError
from read_store import CORPUS, make_store


@pytest.fixture(scope="module")
def ops(tmp_path_factory):
    path = make_store(tmp_path_factory.mktemp("ops") / "store.sqlite")
    with Store.open(path) as store:
        yield Ops(store)


def ids(result):
    items = getattr(result, "hits", None) or getattr(result, "matches", None) or getattr(result, "sections", ())
    return [item.id for item in items]


def all_sections():
    for path, _title, _summary, sections in CORPUS:
        for ordinal, (heading, kind, text) in enumerate(sections):
            yield f"{path}#{ordinal}", path, heading, kind, text


# -- search ----------------------------------------------------------------------------------------
def test_search_identifier_with_snippet_and_citation_fields(ops):
    hit = ops.search("TX-4419").hits[0]
    assert (hit.id, hit.doc, hit.heading_path, hit.kind) == ("errors.md#1", "errors.md", "Error codes > TX-44xx", "table")
    assert "**TX-4419**" in hit.snippet
    assert hit.score > 0 and round(hit.score, 2) == hit.score
    assert set(hit.to_dict()) == {"id", "doc", "heading_path", "snippet", "score", "kind"}


def test_search_passes_phrase_then_and_then_or(ops):
    result = ops.search("refund window")
    got = ids(result)
    assert got[0] == "policies/a.md#0"  # the phrase "refund window"
    assert got[1] == "policies/b.md#0"  # both words, not as a phrase
    assert "guidesextra.md#0" in got[2:]  # one word only
    assert len(got) == len(set(got))
    assert result.mode == "lexical" and result.hint is None


def test_the_phrase_pass_is_not_asked_when_no_section_holds_every_word(ops, monkeypatch):
    """A phrase match holds every word, so an empty AND pass means an empty phrase pass: it is
    not run (a server over many stores asks each one query fewer), and the answer is unchanged."""
    from contextpull.search import ranking

    asked = []
    real = ranking.unfiltered
    monkeypatch.setattr(ranking, "unfiltered", lambda conn, query, limit: asked.append(query) or real(conn, query, limit))
    lonely = ops.search("refund gateway")
    assert asked == ['"refund" AND "gateway"', '"refund" OR "gateway"']
    assert lonely.hits and all(h.score > 0 for h in lonely.hits)
    asked.clear()
    assert ids(ops.search("refund window"))[:2] == ["policies/a.md#0", "policies/b.md#0"]
    assert asked == ['"refund" AND "window"', '"refund window"', '"refund" OR "window"']


def test_equal_ranks_are_ordered_by_id(ops):
    result = ops.search("support email")
    assert ids(result) == ["policies/a.md#1", "policies/b.md#1"]
    assert result.hits[0].score == result.hits[1].score


def test_limit_applies_after_concatenation(ops):
    assert ids(ops.search("refund window", limit=2)) == ["policies/a.md#0", "policies/b.md#0"]


def test_snippet_whitespace_is_collapsed(ops):
    for hit in ops.search("gateway timeout retry").hits:
        assert "\n" not in hit.snippet and "  " not in hit.snippet


def test_edge_punctuation_is_normalised_in_queries(ops):
    assert ids(ops.search("--no-cache")) == ["guides/deep/more.md#0"]
    assert ids(ops.search("UV_CACHE_DIR"))[0] == "guides/setup.md#1"


def test_path_filter_directory_rule(ops):
    docs = {h.doc for h in ops.search("cache", in_=["guides"]).hits}
    assert docs == {"guides/setup.md", "guides/deep/more.md"}
    # 'guides' is a directory entry, not a string prefix: guidesextra.md stays out.
    assert ids(ops.search("refund", in_=["guides"])) == []
    assert {h.doc for h in ops.search("refund", in_=["policies/a.md", "guidesextra.md"]).hits} == {
        "policies/a.md",
        "guidesextra.md",
    }


def test_path_filter_globs(ops):
    # SQLite GLOB: '*' also crosses '/'; entries with wildcards get no directory rule.
    assert {h.doc for h in ops.search("cache", in_=["guides/*.md"]).hits} == {"guides/setup.md", "guides/deep/more.md"}
    assert {h.doc for h in ops.search("refund", in_=["policies/?.md"]).hits} == {"policies/a.md", "policies/b.md"}


def test_path_filter_trailing_slash_names_the_directory(ops):
    # The index and the invalid-filter hint spell folders "policies/"; a model copies that form.
    assert ids(ops.search("refund", in_=["policies/"])) == ids(ops.search("refund", in_=["policies"]))
    assert {h.doc for h in ops.search("refund", in_=["policies/"]).hits} == {"policies/a.md", "policies/b.md"}
    assert ids(ops.grep("refund", in_=["policies/"])) == ["policies/a.md#0", "policies/b.md#0"]


def test_invalid_path_filter_suggests_top_level_paths(ops):
    with pytest.raises(ToolError) as err:
        ops.search("refund", in_=["policies/[ab"])
    assert err.value.message == "invalid path filter 'policies/[ab'"
    assert "guides/" in err.value.suggestion and "errors.md" in err.value.suggestion


def test_punctuation_only_query_is_empty_with_hint(ops):
    result = ops.search("!!! ... ---")
    assert (result.hits, result.hint) == ([], "no searchable words in query")


def test_no_hits_hint(ops):
    result = ops.search("zebra")
    assert result.hits == () and "grep" in result.hint


def test_hybrid_without_embeddings_falls_back(ops):
    result = ops.search("refund", mode="hybrid")
    assert result.mode == "lexical" and result.hint == "no embeddings in store; ran lexical"
    assert ids(result) == ids(ops.search("refund"))


@pytest.mark.parametrize("limit", [0, 51, "5", True])
def test_search_limit_out_of_range(ops, limit):
    with pytest.raises(ToolError) as err:
        ops.search("refund", limit=limit)
    assert "limit" in err.value.message


# -- read ------------------------------------------------------------------------------------------
def test_read_is_verbatim(ops):
    for sid, path, heading, kind, text in all_sections():
        if sid == "policies/b.md#3":
            continue  # the legacy table continuation, below
        section = ops.read(sid).section
        assert (section.id, section.doc, section.heading_path, section.kind, section.text) == (sid, path, heading, kind, text)


def test_read_context_same_document_in_order(ops):
    result = ops.read("guides/setup.md#1", context=1)
    assert [c.id for c in result.context] == ["guides/setup.md#0", "guides/setup.md#2"]
    assert all(c.context for c in result.context)
    data = result.to_dict()
    assert data["prev_id"] == "guides/setup.md#0" and data["next_id"] == "guides/setup.md#2"
    assert [c["context"] for c in data["context"]] == [True, True]
    assert [c.id for c in ops.read("guides/setup.md#0", context=5).context] == ["guides/setup.md#1", "guides/setup.md#2"]


def test_read_prepends_missing_table_header_once(ops):
    assert ops.read("policies/b.md#3").section.text == "| Item | Fee |\n|---|---|\n| Cash | 2 |\n| Wire | 3 |"
    assert ops.read("policies/b.md#4").section.text == "| Item | Fee |\n|---|---|\n| Gold | 4 |"


def test_unknown_id(ops):
    with pytest.raises(ToolError) as err:
        ops.read("missing.md#0")
    assert err.value.message == "no section 'missing.md#0'"
    assert "search" in err.value.suggestion
    with pytest.raises(ToolError):
        ops.neighbours("errors.md")


def test_read_context_out_of_range(ops):
    with pytest.raises(ToolError):
        ops.read("errors.md#0", context=6)


# -- neighbours ------------------------------------------------------------------------------------
def test_neighbours_stop_at_document_boundaries(ops):
    assert ids(ops.neighbours("policies/a.md#0")) == ["policies/a.md#0", "policies/a.md#1"]
    assert ids(ops.neighbours("guides/setup.md#1", before=0, after=0)) == ["guides/setup.md#1"]
    assert ids(ops.neighbours("policies/b.md#1", before=5, after=2)) == [
        "policies/b.md#0",
        "policies/b.md#1",
        "policies/b.md#2",
        "policies/b.md#3",
    ]


def test_neighbours_header_of_split_table(ops):
    result = ops.neighbours("policies/b.md#4", before=1, after=1)
    assert ids(result) == ["policies/b.md#3", "policies/b.md#4", "policies/b.md#5"]
    assert result.header.id == "policies/b.md#2"
    assert ops.neighbours("policies/b.md#2").header is None
    assert ops.neighbours("errors.md#1").header is None
    assert result.to_dict()["header"]["id"] == "policies/b.md#2"


@pytest.mark.parametrize("kwargs", [{"before": -1}, {"after": 6}])
def test_neighbours_steps_out_of_range(ops, kwargs):
    with pytest.raises(ToolError):
        ops.neighbours("errors.md#0", **kwargs)


# -- grep ------------------------------------------------------------------------------------------
def test_grep_finds_substrings_inside_identifiers(ops):
    result = ops.grep("TX-450")
    assert [(m.id, m.line) for m in result.matches] == [("errors.md#2", "- TX-4501: gateway timeout.")]
    assert result.truncated is False


def test_grep_is_case_insensitive_first_line_per_section(ops):
    result = ops.grep("tx-44")
    assert [(m.id, m.line) for m in result.matches] == [
        ("errors.md#1", "## TX-44xx"),
    ]
    match = result.matches[0]
    assert (match.doc, match.heading_path) == ("errors.md", "Error codes > TX-44xx")


def test_grep_orders_by_id_and_truncates(ops):
    expected = sorted(sid for sid, _p, _h, _k, text in all_sections() if "the" in text.lower())
    result = ops.grep("THE", limit=2)
    assert ids(result) == expected[:2] and result.truncated is True
    full = ops.grep("the", limit=100)
    assert ids(full) == expected and full.truncated is False


def test_grep_path_filter(ops):
    assert ids(ops.grep("refund", in_=["policies"])) == ["policies/a.md#0", "policies/b.md#0"]


def test_grep_pattern_length_and_limit(ops):
    with pytest.raises(ToolError) as err:
        ops.grep("x" * 201)
    assert "200" in err.value.message
    with pytest.raises(ToolError):
        ops.grep("")
    with pytest.raises(ToolError):
        ops.grep("x", limit=101)


def test_regex_grep(ops):
    result = ops.grep(r"tx-44\d\d", regex=True)
    assert [(m.id, m.line) for m in result.matches] == [("errors.md#1", "| TX-4401 | Insufficient funds |")]


def test_regex_that_does_not_compile(ops):
    with pytest.raises(ToolError) as err:
        ops.grep("(unclosed", regex=True)
    assert err.value.message.startswith("pattern does not compile: ")
    assert "regex=false" in err.value.suggestion


@pytest.fixture(scope="module")
def pathological(tmp_path_factory):
    corpus = [("long.md", "Long", None, [("Long", "prose", "a" * 60 + "!")])]
    path = make_store(tmp_path_factory.mktemp("regex") / "store.sqlite", corpus)
    with Store.open(path) as store:
        yield Ops(store)


def test_pathological_regex_stops_with_tool_error(pathological):
    import signal

    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(ToolError) as err:
        pathological.grep("(a+)+$", regex=True)
    assert err.value.message == "pattern too expensive"
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == before
    # the budget timer is gone afterwards: an ordinary call still works
    assert ids(pathological.grep("a!", regex=True)) == ["long.md#0"]


def test_pathological_regex_off_the_main_thread(pathological):
    outcome = {}

    def run():
        try:
            outcome["ok"] = ids(pathological.grep("A!$", regex=True))
            pathological.grep("(a+)+$", regex=True)
        except ToolError as exc:
            outcome["error"] = exc.message

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert outcome == {"ok": ["long.md#0"], "error": "pattern too expensive"}


# -- index -----------------------------------------------------------------------------------------
def test_index_without_prefix_is_meta_text(ops):
    assert ops.index() == "ContextPull index · test"


def test_index_prefix_listing(ops):
    summary = "Setup · Install and configure the client on any machine you like to use for builds today."
    assert ops.index("guides/").split("\n") == [
        "ContextPull index · guides/ · 2 documents · 4 sections",
        "guides/deep/more.md" + " " * 11 + "  More  (1)",
        "guides/setup.md" + " " * 15 + "  " + summary[:59].rstrip() + "…  (3)",
    ]
    assert ops.index("nothing/") == "ContextPull index · nothing/ · 0 documents · 0 sections"


@pytest.mark.parametrize(
    "prefix, hint",
    [
        ("guides/", None),
        ("guid", None),
        (None, None),
        ("nope/", "no document path starts with 'nope/'; top-level paths: errors.md, guides/, guidesextra.md, policies/"),
        ("guides/nope/", "no document path starts with 'guides/nope/'; paths under guides/: guides/deep/, guides/setup.md"),
        ("guides/deep/x", "no document path starts with 'guides/deep/x'; paths under guides/deep/: guides/deep/more.md"),
    ],
)
def test_an_index_prefix_that_lists_nothing_gets_a_hint_naming_what_exists(ops, prefix, hint):
    assert ops.index_hint(prefix) == hint


def test_library_api_as_the_readme_shows(ops):
    hits = ops.search("refund window", in_=["policies/a.md", "policies/b.md"]).hits
    assert [h.doc for h in hits] == ["policies/a.md", "policies/b.md"]
    assert all(h.heading_path and h.snippet for h in hits)
    assert ops.read(hits[0].id).section.text.startswith("# Policy A")


@pytest.mark.parametrize("margin", [2, None], ids=["ties-past-the-margin", "ties-within-it"])
def test_many_equal_scores_still_ordered_by_id(tmp_path, monkeypatch, margin):
    # Equal scores past the ranking margin (the plain query answers) and within it (ids read
    # for the tied rows only): either way the order must be bm25, then id.
    from contextpull.search import ranking

    if margin is not None:
        monkeypatch.setattr(ranking, "MARGIN", margin)
    corpus = [(f"same/{i:02}.md", "Same", None, [("Same", "prose", "alpha beta gamma")]) for i in range(40)]
    corpus.append(("a.md", "A", None, [("A", "prose", "alpha alpha alpha")]))
    with Store.open(make_store(tmp_path / "ties.sqlite", corpus)) as store:
        ops = Ops(store)
        same = [f"same/{i:02}.md#0" for i in range(40)]
        for limit in (1, 5, 30):
            assert ids(ops.search("beta", limit=limit)) == same[:limit]
        assert ids(ops.search("alpha", limit=3)) == ["a.md#0", *same[:2]]
        assert ids(ops.search("alpha gamma", limit=3)) == same[:3]


@pytest.fixture(scope="module", params=["documents_trigram", "sections_trigram"])
def trigram_ops(request, tmp_path_factory):
    """The store with the trigram table of a build (rows of documents' words), or of the
    earlier builds (rows of sections' text)."""
    import sqlite3

    from contextpull.indexing import trigram

    path = make_store(tmp_path_factory.mktemp("tri") / "store.sqlite")
    conn = sqlite3.connect(path)
    if request.param == trigram.TABLE:
        trigram.add(conn)
    else:
        conn.execute(f"CREATE VIRTUAL TABLE sections_trigram USING fts5({trigram.DDL_BODY})")
        conn.execute("INSERT INTO sections_trigram (rowid, text) SELECT rowid, text FROM sections")
    conn.commit()
    conn.close()
    with Store.open(path) as store:
        yield Ops(store)


@pytest.mark.parametrize(
    "pattern, in_, limit",
    [
        ("TX-450", None, 20),
        ("tx-44", None, 20),
        ("GATEWAY", None, 20),
        ("the", None, 2),
        ("the", ["policies"], 20),
        ("e", None, 100),
        ("| item | fee |", None, 20),
        ('"quoted"', None, 20),
        ("nothing-like-this", None, 20),
        ("fee |\n| ", None, 20),
        ("ee e", None, 20),
    ],
)
def test_trigram_table_gives_identical_matches(ops, trigram_ops, monkeypatch, pattern, in_, limit):
    from contextpull.grep import literal as literal_grep

    assert literal_grep.trigram_table(trigram_ops.conn) is not None
    assert literal_grep.trigram_table(ops.conn) is None
    expected = ops.grep(pattern, in_, limit=limit).to_dict()
    assert trigram_ops.grep(pattern, in_, limit=limit).to_dict() == expected
    cap = dict.fromkeys(literal_grep.CANDIDATE_CAP, 1)
    monkeypatch.setattr(literal_grep, "CANDIDATE_CAP", cap)  # frequent patterns fall back to the scan
    assert trigram_ops.grep(pattern, in_, limit=limit).to_dict() == expected


@pytest.mark.parametrize(
    "pattern, text, line",
    [
        (r"a\sb", "x a\nb y\nthen a b here", "then a b here"),  # the whole-text match spans a newline
        (r"^b", "a b\nb c", "b c"),
        (r"c$", "c d\nb c", "b c"),
        (r"\Ab", "a b\nb c", "b c"),  # \A is the start of each line, as grep sees it
        (r"(?<=x)y", "xx\nyy xy", "yy xy"),
        (r"zz", "a\nb", None),
    ],
)
def test_regex_is_evaluated_line_by_line(pattern, text, line):
    from contextpull.grep.regex import LinePattern

    assert LinePattern(pattern).first_line(text) == line


def test_an_empty_result_has_the_published_hint_with_or_without_in(ops):
    hint = "no hits; try grep for exact codes, drop the in= filter, or use fewer words"
    for result in (
        ops.search("refund", in_=["policy"]),  # a filter that matches no document
        ops.search("zebra", in_=["policies"]),  # documents, but no hit among them
        ops.search("zebra"),
        ops.search("zebra", mode="hybrid"),  # no embeddings either: the no-hits hint alone
    ):
        assert (result.hits, result.hint) == ([], hint)


@pytest.fixture(scope="module")
def misaligned_ops(tmp_path_factory):
    path = make_store(tmp_path_factory.mktemp("misaligned") / "store.sqlite", fts_reversed=True)
    with Store.open(path) as store:
        yield Ops(store)


FILTERED = [
    ("refund window", ["policies"]),
    ("refund", ["policies/b.md", "guidesextra.md"]),
    ("cache", ["guides/*.md"]),
    ("support email", ["policies/?.md"]),
    ("fee item", ["policies/b.md"]),
    ("TX-4419", ["guides"]),
]


@pytest.mark.parametrize("query, in_", FILTERED)
def test_filtered_search_is_the_same_whatever_the_fts_rowids(ops, misaligned_ops, monkeypatch, query, in_):
    from contextpull.search import ranking

    expected = [(h.id, h.score) for h in ops.search(query, in_=in_).hits]
    assert [(h.id, h.score) for h in misaligned_ops.search(query, in_=in_).hits] == expected
    monkeypatch.setattr(ranking, "ALIGN_CAP", 0)  # the join path on the aligned store too
    assert [(h.id, h.score) for h in ops.search(query, in_=in_).hits] == expected
    # and the filter is the unfiltered ranking restricted to the allowed documents
    allowed = {h.doc for h in ops.search(query, in_=in_, limit=50).hits}
    unfiltered = [h.id for h in ops.search(query, limit=50).hits if h.doc in allowed]
    assert [h for h, _ in expected] == unfiltered[: len(expected)]


def test_unfiltered_search_is_the_same_whatever_the_fts_rowids(ops, misaligned_ops):
    for query in ("refund window", "support email", "the", "TX-4419 gateway"):
        assert ops.search(query).to_dict() == misaligned_ops.search(query).to_dict()


def _reference_search(conn, query, in_, limit):
    """store-format "Search" steps 1-5 written as plainly as possible, to compare against."""
    from contextpull.text import query_tokens

    tokens = query_tokens(query)
    if not tokens:
        return []
    quote = lambda t: '"' + t.replace('"', '""') + '"'  # noqa: E731
    passes = ([quote(" ".join(tokens)), " AND ".join(map(quote, tokens))] if len(tokens) > 1 else [])
    passes.append(" OR ".join(map(quote, tokens)))
    where, params = "", []
    if in_:
        clauses = []
        for entry in in_:
            clauses.append("d.path GLOB ?")
            params.append(entry)
            if not any(c in entry for c in "*?["):
                clauses.append("d.path GLOB ?")
                params.append(entry + "/*")
        where = " AND (" + " OR ".join(clauses) + ")"
    out = []
    for q in passes:
        rows = conn.execute(
            "SELECT f.id FROM sections_fts f JOIN sections s ON s.id = f.id JOIN documents d ON d.doc_id = s.doc_id "
            f"WHERE sections_fts MATCH ?{where} ORDER BY bm25(sections_fts, 0.0, 2.0, 1.0), f.id LIMIT ?",
            (q, *params, limit),
        )
        out += [sid for (sid,) in rows if sid not in out]
    return out[:limit]


def test_search_matches_a_plain_reading_of_the_spec(ops, misaligned_ops):
    import random

    words = ["refund", "window", "the", "support", "email", "cache", "fee", "item", "gateway", "tx-4419",
             "timeout", "policy", "retry", "install", "client", "codes", "a", "is"]
    filters = [None, ["policies"], ["guides"], ["policies/b.md", "errors.md"], ["*.md"], ["guides/*"]]
    rng = random.Random(3)
    for _ in range(150):
        query = " ".join(rng.sample(words, rng.randint(1, 3)))
        in_, limit = rng.choice(filters), rng.choice([1, 2, 3, 5, 10])
        expected = _reference_search(ops.conn, query, in_, limit)
        assert ids(ops.search(query, in_=in_, limit=limit)) == expected, (query, in_, limit)
        assert ids(misaligned_ops.search(query, in_=in_, limit=limit)) == expected, (query, in_, limit)


def test_grep_matches_a_plain_reading_of_the_spec(ops, trigram_ops):
    patterns = ["TX", "tx-4", "e", "THE ", "| ", "fee |", "#", "Café", "refund", "window is", "zz", ".",
                "UV_CACHE", "v_c", "_", "%", "\\", "a%b", "d_r", "É", "--no-cache"]
    filters = [None, ["policies"], ["guides/*"], ["errors.md", "policies/a.md"]]
    for pattern in patterns:
        for in_ in filters:
            for limit in (1, 3, 20):
                where, params = "", []
                if in_:
                    globs = [g for e in in_ for g in ([e] if any(c in e for c in "*?[") else [e, e + "/*"])]
                    where = " AND (" + " OR ".join("d.path GLOB ?" for _ in globs) + ")"
                    params = globs
                rows = ops.conn.execute(
                    "SELECT s.id FROM sections s JOIN documents d ON d.doc_id = s.doc_id "
                    f"WHERE instr(lower(s.text), lower(?)) > 0{where} ORDER BY s.id LIMIT ?",
                    (pattern, *params, limit + 1),
                ).fetchall()
                expected = [sid for (sid,) in rows]
                for reader in (ops, trigram_ops):
                    result = reader.grep(pattern, in_, limit=limit)
                    assert ids(result) == expected[:limit] and result.truncated == (len(expected) > limit)
                    for match in result.matches:
                        assert pattern.lower() in match.line.lower() and "\n" not in match.line


def test_grep_wildcard_and_case_characters_are_literal(tmp_path):
    texts = ["100% sure", "100 percent", "a\\b path", "ab path", "Éclair", "éclair", "ÉCLAIR", "d_r", "dxr", "ECLAIR"]
    corpus = [("t.md", "T", None, [("T", "prose", t) for t in texts])]
    with Store.open(make_store(tmp_path / "w.sqlite", corpus)) as store:
        ops = Ops(store)
        for pattern in ["%", "0% s", "_", "d_r", "\\", "a\\b", "éclair", "Éclair", "eclair", "clair"]:
            expected = [
                sid for (sid,) in store.conn.execute(
                    "SELECT id FROM sections WHERE instr(lower(text), lower(?)) > 0 ORDER BY id", (pattern,)
                )
            ]
            assert ids(ops.grep(pattern, limit=100)) == expected, pattern
        # SQLite's lower() folds ASCII only: 'éclair' does not find 'Éclair'.
        assert [m.line for m in ops.grep("éclair").matches] == ["éclair"]
        assert [m.line for m in ops.grep("%").matches] == ["100% sure"]


@pytest.mark.parametrize("call", [
    lambda ops: ops.search("caf\udce9"),
    lambda ops: ops.search("cache", in_=["guide\udcff"]),
    lambda ops: ops.grep("\udcffab"),
    lambda ops: ops.read("\udcff"),
    lambda ops: ops.neighbours("x\ud800"),
    lambda ops: ops.index("\udcff/"),
])
def test_text_with_a_lone_surrogate_is_a_tool_error(ops, call):
    """argv bytes that are not UTF-8 arrive as lone surrogates, and JSON can spell one."""
    with pytest.raises(ToolError) as info:
        call(ops)
    assert "must be valid Unicode text (it holds a lone surrogate)" in info.value.message


def test_a_query_of_too_many_words_is_a_tool_error(ops):
    from contextpull.ops import QUERY_MAX_WORDS

    assert ops.search(" ".join(["cache"] * QUERY_MAX_WORDS)).hits  # at the limit: searched
    with pytest.raises(ToolError) as info:
        ops.search(" ".join(["cache"] * (QUERY_MAX_WORDS + 1)))
    assert info.value.message == f"query has {QUERY_MAX_WORDS + 1} words; at most {QUERY_MAX_WORDS} are searched"
