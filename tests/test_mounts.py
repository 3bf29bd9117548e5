"""Several stores behind the five tools, in process (issue 27, "Many stores in one server").

Two small stores of made-up docs, mounted as ``widget`` and by their provenance name
``gadget@2.1``; every call goes through ``contextpull.tools.call``, the dispatch the MCP server
uses, so what is checked here is what a host sees. The subprocess tests over stdio and HTTP are
in test_serve_mounts.py; the catalog and the names in test_catalog.py.
"""

from __future__ import annotations

import json

import pytest

from contextpull.errors import ToolError
from contextpull.ops import HINT_NO_HITS, HINT_NO_WORDS
from contextpull.serving.mcp_instructions import MOUNTS_DISCIPLINE
from contextpull.serving.mcp_server import LiveStore
from contextpull.serving.mounts import Mount, MountSet, default_name
from contextpull.tools import TOOLS, call, tools_json

try:
    from mcp_fixtures import GADGET, mount_stores
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import GADGET, mount_stores

@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mounts")
    return mount_stores(tmp)


def _live(path):
    live = LiveStore(path)
    live.current()
    return live


@pytest.fixture()
def mounts(stores):
    widget, gadget = stores
    live = _live(gadget)
    mounted = MountSet([
        Mount("widget", _live(widget), str(widget)),
        Mount(default_name(live.meta, str(gadget), gadget), live, str(gadget)),
    ])
    yield mounted
    mounted.close()


def tool(mounts, name, **arguments):
    with mounts.lock:
        return call(mounts.current(), name, arguments)


def single(path, name, **arguments):
    live = _live(path)
    try:
        return call(live.current(), name, arguments)
    finally:
        live.close()


def test_a_mount_without_a_name_is_named_from_its_provenance_else_its_file(mounts, stores):
    assert mounts.names == ["widget", "gadget@2.1"]
    widget, _ = stores
    assert default_name({}, str(widget), widget) == "widget"
    assert default_name({}, "gh:acme/gadget@docs-latest", widget) == "gadget@docs-latest"


def test_index_lists_the_mounts_and_how_to_expand_one(mounts, file_regression):
    listing = tool(mounts, "index")
    file_regression.check(listing + "\n", extension=".txt")
    assert mounts.instructions == f"{MOUNTS_DISCIPLINE}\n\n{listing}"
    assert mounts.index_text == listing


def test_index_of_a_mount_is_that_stores_own_index(mounts, stores):
    widget, gadget = stores
    assert tool(mounts, "index", prefix="gadget@2.1/") == single(gadget, "index")
    assert tool(mounts, "index", prefix="widget/guides/") == single(widget, "index", prefix="guides/")


def test_read_and_neighbours_route_by_the_prefix_and_prefix_every_id(mounts, stores):
    widget, _ = stores
    alone = single(widget, "read", id="guides/install.md#0", context=1)
    mounted = tool(mounts, "read", id="widget/guides/install.md#0", context=1)
    assert mounted["text"] == alone["text"]
    assert mounted["id"] == "widget/guides/install.md#0" and mounted["doc"] == "widget/guides/install.md"
    assert mounted["next_id"] == "widget/" + alone["next_id"]
    assert [c["id"] for c in mounted["context"]] == ["widget/" + c["id"] for c in alone["context"]]
    around = tool(mounts, "neighbours", id=mounted["next_id"], before=1, after=0)
    assert [s["id"] for s in around["sections"]] == ["widget/guides/install.md#0", "widget/guides/install.md#1"]


def test_in_entries_begin_with_a_mount_and_filter_inside_it(mounts, stores):
    _, gadget = stores
    alone = single(gadget, "search", query="cache", **{"in": ["ops/"]})
    mounted = tool(mounts, "search", query="cache", **{"in": ["gadget@2.1/ops/"]})
    assert [h["id"] for h in mounted["hits"]] == ["gadget@2.1/" + h["id"] for h in alone["hits"]]
    assert [h["score"] for h in mounted["hits"]] == [h["score"] for h in alone["hits"]]
    whole = tool(mounts, "grep", pattern="cache", **{"in": ["gadget@2.1"]})
    assert {m["id"].split("/", 1)[0] for m in whole["matches"]} == {"gadget@2.1"}


def test_search_without_in_merges_every_mount(mounts, data_regression):
    found = tool(mounts, "search", query="cache folder", limit=6)
    data_regression.check({"ids": [h["id"] for h in found["hits"]], "hint": found["hint"]})
    mounts_seen = {h["id"].split("/", 1)[0] for h in found["hits"]}
    assert mounts_seen == {"widget", "gadget@2.1"}


def test_the_merge_keeps_each_stores_own_order(mounts, stores):
    widget, gadget = stores
    found = tool(mounts, "search", query="cache daemon widget error", limit=20)
    for name, path in (("widget", widget), ("gadget@2.1", gadget)):
        alone = [name + "/" + h["id"] for h in single(path, "search", query="cache daemon widget error", limit=20)["hits"]]
        assert [h["id"] for h in found["hits"] if h["id"].startswith(name + "/")] == alone


def test_a_store_that_holds_every_word_ranks_above_one_that_holds_a_common_one(mounts):
    # widget comes first in mount order and its docs say "cache" often; only gadget's say "full"
    found = tool(mounts, "search", query="cache full", limit=3)
    assert found["hits"][0]["id"] == "gadget@2.1/ops/errors.md#0"


def test_grep_lists_matches_in_id_order_across_mounts_and_says_when_it_cut(mounts):
    found = tool(mounts, "grep", pattern="cache", limit=100)
    ids = [m["id"] for m in found["matches"]]
    assert ids == sorted(ids) and not found["truncated"]
    assert {i.split("/", 1)[0] for i in ids} == {"widget", "gadget@2.1"}
    cut = tool(mounts, "grep", pattern="cache", limit=len(ids) - 1)
    assert [m["id"] for m in cut["matches"]] == ids[:-1] and cut["truncated"]


def test_hints_are_the_single_store_ones(mounts):
    assert tool(mounts, "search", query="zzqx")["hint"] == HINT_NO_HITS
    assert tool(mounts, "search", query="--")["hint"] == HINT_NO_WORDS


@pytest.mark.parametrize(
    ("name", "arguments", "named"),
    [
        ("read", {"id": "nowhere/x.md#1"}, "no mount 'nowhere' for id 'nowhere/x.md#1'"),
        ("neighbours", {"id": "x.md#1"}, "no mount 'x.md#1'"),
        ("search", {"query": "cache", "in": ["guides/"]}, "no mount 'guides' for in entry 'guides/'"),
        ("grep", {"pattern": "cache", "in": ["nope/ops"]}, "no mount 'nope'"),
        ("index", {"prefix": "nope/"}, "no mount 'nope' for prefix 'nope/'"),
    ],
)
def test_an_unknown_mount_is_a_tool_error_listing_the_mounts(mounts, name, arguments, named):
    with pytest.raises(ToolError) as caught:
        tool(mounts, name, **arguments)
    assert named in caught.value.message
    assert "mounts: widget, gadget@2.1" in caught.value.suggestion


def test_an_unknown_section_in_a_mount_names_the_id_as_given(mounts):
    with pytest.raises(ToolError, match="no section 'widget/nowhere.md#1'"):
        tool(mounts, "read", id="widget/nowhere.md#1")


def test_tool_schemas_stay_the_contract():
    from pathlib import Path

    assert (Path(__file__).resolve().parent.parent / "tools.json").read_text(encoding="utf-8") == tools_json()
    assert [t["name"] for t in TOOLS] == ["index", "search", "read", "grep", "neighbours"]


def test_a_swap_serves_the_new_store_from_the_next_request_and_closes_the_old(mounts, stores):
    widget, gadget = stores
    before = tool(mounts, "search", query="TX-4419", **{"in": ["widget"]})
    old = mounts.mount("widget").live
    mounts.swap("widget", _live(gadget))
    after = tool(mounts, "search", query="TX-4419", **{"in": ["widget"]})
    assert before["hits"][0]["id"] == "widget/reference/errors.md#1"
    assert after["hits"][0]["id"] == "widget/ops/errors.md#0"
    assert old._store is None  # closed
    assert "widget/                   version 2.1" in tool(mounts, "index")


def test_results_are_json(mounts):
    json.dumps(tool(mounts, "search", query="cache"))


def test_one_store_served_alone_gets_one_provenance_line_and_nothing_else_changes(stores):
    from contextpull.serving.mcp_instructions import PULL_DISCIPLINE

    widget, gadget = stores
    plain, dated = _live(widget), _live(gadget)
    try:
        assert plain.instructions == f"{PULL_DISCIPLINE}\n\n{plain.index_text}"  # no provenance: as before
        line = "Docs from github.com/acme/gadget at 0123456 (version 2.1), built 2026-11-30."
        assert dated.instructions == f"{PULL_DISCIPLINE}\n{line}\n\n{dated.index_text}"
        assert dated.instructions.split("\n\n", 1)[1] == dated.index_text  # the resource is still the rest
    finally:
        plain.close()
        dated.close()


def test_hybrid_search_runs_per_mount_with_each_stores_own_model(stores, tmp_path, monkeypatch):
    """A store with vectors fuses with its model; one without says so, as it does alone."""
    import contextpull.ingest.engine as engine
    from contextpull.config import Settings
    from contextpull.ops import HINT_NO_EMBEDDINGS, Ops
    from contextpull.store import Store

    from fake_embedder import SETTING, FakeEmbedder, embed_fn
    from mcp_fixtures import write_corpus

    embedder = FakeEmbedder()
    monkeypatch.setattr(engine, "load_embedder", lambda setting, environ: embedder if setting else None)
    corpus = write_corpus(tmp_path / "hyb-docs", GADGET)
    engine.ingest(corpus, tmp_path / "hyb.sqlite", Settings(embed_model=SETTING))
    widget, _ = stores
    mounted = MountSet([Mount("widget", _live(widget), str(widget)), Mount("hyb", _live(tmp_path / "hyb.sqlite"), "hyb")])
    try:
        with mounted.lock:
            current = mounted.current()
            current.by_name["hyb"].ops.embed_fn = embed_fn  # the fake model's query vectors
            both = call(current, "search", {"query": "cache full", "mode": "hybrid"})
            one = call(current, "search", {"query": "cache full", "mode": "hybrid", "in": ["hyb"]})
        with Store.open(tmp_path / "hyb.sqlite") as opened:
            alone = Ops(opened, embed_fn=embed_fn).search("cache full", mode="hybrid").to_dict()
    finally:
        mounted.close()
    assert one["mode"] == "hybrid" and [h["id"] for h in one["hits"]] == ["hyb/" + h["id"] for h in alone["hits"]]
    assert [h["score"] for h in one["hits"]] == [h["score"] for h in alone["hits"]]
    assert both["mode"] == "hybrid"
    assert both["hint"] == f"widget: {HINT_NO_EMBEDDINGS}"


def _many(stores, n: int) -> MountSet:
    widget, gadget = stores
    return MountSet([Mount(f"m{k}", _live(widget if k % 2 else gadget), str(widget if k % 2 else gadget))
                     for k in range(n)])


@pytest.mark.parametrize("query", ["cache folder", "cache daemon widget error", "full", "the", "nothing-here-zz"])
def test_stores_ranked_side_by_side_answer_as_one_after_another(stores, monkeypatch, query):
    """Ranking the mounts on threads changes nothing a client sees: the same hits, scores,
    snippets and hint as ranking them in turn."""
    from contextpull.serving import routing

    mounted = _many(stores, 6)
    try:
        answers = []
        for parallel in (2, 10**6):  # at or above the bound: side by side (where cores allow); never
            monkeypatch.setattr(routing, "PARALLEL_MOUNTS", parallel)
            monkeypatch.setattr(routing.os, "cpu_count", lambda: 4)
            answers.append(tool(mounted, "search", query=query, limit=7))
        assert answers[0] == answers[1]
    finally:
        mounted.close()


def test_the_merge_works_out_only_the_worths_it_needs_and_orders_as_a_full_sort(stores, monkeypatch):
    """The stores' lists are merged as sorted runs: the result is the full sort's (worth
    descending, then rank, then mount), and a hit past the ``limit`` of its run is never weighed."""
    from contextpull.serving import merge
    from contextpull.store import Store
    from contextpull.ops import Ops
    from contextpull.text import query_tokens

    widget, gadget = stores
    with Store.open(widget) as w, Store.open(gadget) as g:
        query = "cache daemon error full"
        lists = [merge.Ranked(k, Ops(s).rank(query, None, 10).ids, s.conn, {}) for k, s in enumerate((w, g, w))]
        words = list(dict.fromkeys(query_tokens(query)))
        weights, found = merge.idf(lists, words), merge.presence(words)
        keyed = sorted((-worth, rank, r.mount, hit) for r in lists
                       for rank, (hit, worth) in enumerate(zip(r.hits, merge.worths(r, weights, found))))
        for limit in (1, 3, 10, 50):
            assert merge.merge(lists, query, limit) == [(m, hit) for _, _, m, hit in keyed[:limit]]
        asked = []
        real = merge.presence
        monkeypatch.setattr(merge, "presence", lambda ws: (lambda text, f=real(ws): asked.append(text) or f(text)))
        merge.merge(lists, query, 2)
        assert 0 < len(asked) <= 2 + len(lists) < sum(len(r.hits) for r in lists)


def test_a_stores_worths_are_its_hits_shares_read_in_two_batches(stores):
    """Rules 2 and 3 worked out hit by hit from each section's own text; ``worths`` reads the
    texts of the first hits, then the rest, and must give the same values."""
    from contextpull.serving import merge
    from contextpull.store import Store
    from contextpull.ops import Ops
    from contextpull.text import query_tokens

    with Store.open(stores[0]) as w:
        query = "cache daemon error full timeout config"
        ranked = merge.Ranked(0, Ops(w).rank(query, None, 10).ids, w.conn, {})
        assert len(ranked.hits) > merge.FIRST_TEXTS  # both batches are read
        words = list(dict.fromkeys(query_tokens(query)))
        weights, found = merge.idf([ranked], words), merge.presence(words)
        expected, cap = [], float("inf")
        for sid in ranked.hits:
            (text,) = w.conn.execute("SELECT heading_path || ' ' || text FROM sections WHERE id = ?", (sid,)).fetchone()
            present = found(text.lower())
            cap = min(cap, sum(v for k, v in weights.items() if k in present) / sum(weights.values()))
            expected.append(cap)
        assert list(merge.worths(ranked, weights, found)) == expected


_TOKENS = ["a", "ab", "b", "a.b", "b-c", "uv", "pip", "pip-compile", "x_y", "é", "2", "lib"]


def test_presence_is_the_edges_pattern():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from contextpull.serving.merge import edges_pattern, presence

    @settings(max_examples=3000, deadline=None)
    @given(st.text(alphabet="ab.c-_ xyuvpé2ilp\u00b2", max_size=30),
           st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=5, unique=True))
    def check(text, words):
        assert presence(words)(text) == set(edges_pattern(words).findall(text))

    check()
