"""The MCP server through the SDK's in-process client (system-design.txt sections 7, 9, 13).

Every test runs in both protocol eras the SDK speaks: ``legacy`` is the initialize handshake
(2025-11-25 and before), ``auto`` probes ``server/discover`` and lands on the stateless 2026-07-28
revision.
"""

from __future__ import annotations

import json
import os
import shutil

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp_types.version import LATEST_MODERN_VERSION  # noqa: E402

from contextpull.writing.fingerprint import content_fingerprint  # noqa: E402
from contextpull.serving.mcp_server import INDEX_URI, PULL_DISCIPLINE, LiveStore, build_server  # noqa: E402
from contextpull.ops import Ops  # noqa: E402
from contextpull.store import Store  # noqa: E402
from contextpull.tools import TOOLS  # noqa: E402

try:
    from mcp_fixtures import CORPUS, corpus_store, set_meta
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import CORPUS, corpus_store, set_meta

MODES = ["legacy", "auto"]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return corpus_store(tmp_path_factory.mktemp("mcp"))


@pytest.fixture
def serve(store):
    """Run ``body(client)`` against a fresh server over ``store``; returns what body returns."""
    lives = []

    def run(body, mode="legacy", path=None, log=None):
        live = LiveStore(path or store)
        lives.append(live)
        server = build_server(live, log=log)

        async def main():
            async with Client(server, mode=mode) as client:
                return await body(client)

        return anyio.run(main)

    yield run
    for live in lives:
        live.close()


def _meta(store):
    with Store.open(store) as opened:
        return dict(opened.meta)


def _text(result):
    return "".join(block.text for block in result.content)


@pytest.mark.parametrize("mode", MODES)
def test_handshake_delivers_discipline_and_whole_index(serve, store, mode):
    async def body(client):
        return client.instructions, client.protocol_version

    instructions, version = serve(body, mode)
    index_text = _meta(store)["index_text"]
    assert instructions.startswith(PULL_DISCIPLINE)
    assert index_text in instructions
    if mode == "auto":
        assert version == LATEST_MODERN_VERSION


@pytest.mark.parametrize("mode", MODES)
def test_tools_listed_verbatim_from_TOOLS(serve, mode):
    async def body(client):
        return (await client.list_tools()).tools

    tools = serve(body, mode)
    listed = [(t.name, t.description, t.input_schema) for t in tools]
    assert listed == [(t["name"], t["description"], t["input_schema"]) for t in TOOLS]


@pytest.mark.parametrize("mode", MODES)
def test_an_index_prefix_that_lists_nothing_is_the_listing_alone(serve, store, mode):
    """The published server's result, text for text (docs/agreement.md); the CLI gives the hint."""
    async def body(client):
        return await client.call_tool("index", {"prefix": "nope/"}), await client.call_tool("index", {"prefix": "guides/"})

    empty, full = serve(body, mode)
    with Store.open(store) as opened:
        ops = Ops(opened)
        assert [b.text for b in empty.content] == [ops.index("nope/")]
        assert ops.index_hint("nope/")  # what the CLI prints beside it
        assert [b.text for b in full.content] == [ops.index("guides/")]
    assert not empty.is_error


@pytest.mark.parametrize("mode", MODES)
def test_every_tool_is_announced_read_only_idempotent_and_closed_world(serve, mode):
    async def body(client):
        return (await client.list_tools()).tools

    for tool in serve(body, mode):
        hints = tool.annotations.model_dump(by_alias=True, exclude_none=True)
        assert hints == {
            "readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False
        }, tool.name
    assert not any("annotations" in t or "readOnlyHint" in json.dumps(t) for t in TOOLS)


@pytest.mark.parametrize("mode", MODES)
def test_all_five_tools_round_trip(serve, store, mode):
    async def body(client):
        out = {}
        out["index"] = await client.call_tool("index", {})
        out["prefix"] = await client.call_tool("index", {"prefix": "guides/"})
        out["search"] = await client.call_tool("search", {"query": "cache folder", "limit": 5})
        hit = out["search"].structured_content["hits"][0]["id"]
        out["read"] = await client.call_tool("read", {"id": hit, "context": 1})
        out["grep"] = await client.call_tool("grep", {"pattern": "TX-45"})
        out["neighbours"] = await client.call_tool("neighbours", {"id": hit, "before": 1, "after": 1})
        return out

    out = serve(body, mode)
    assert not any(result.is_error for result in out.values())
    with Store.open(store) as opened:
        ops = Ops(opened)
        assert _text(out["index"]) == ops.index()
        assert _text(out["prefix"]) == ops.index("guides/")
        expected_search = ops.search("cache folder", limit=5).to_dict()
        hit = expected_search["hits"][0]["id"]
        assert out["search"].structured_content == expected_search
        assert out["read"].structured_content == ops.read(hit, context=1).to_dict()
        assert out["grep"].structured_content == ops.grep("TX-45").to_dict()
        assert out["neighbours"].structured_content == ops.neighbours(hit, 1, 1).to_dict()
    # The text block is the same result as JSON, for hosts that ignore structured content.
    assert json.loads(_text(out["search"])) == expected_search
    # grep is a substring scan: TX-45 is found inside TX-4501.
    assert any("TX-4501" in m["line"] for m in out["grep"].structured_content["matches"])


BAD_CALLS = [
    ("read", {"id": "nope.md#9"}, "no section"),
    ("grep", {"pattern": "([a-z", "regex": True}, "does not compile"),
    ("search", {"query": "cache", "limit": "ten"}, ""),
    ("read", {}, ""),
    ("delete_everything", {}, "unknown tool"),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("name", "arguments", "phrase"), BAD_CALLS, ids=[c[0] + str(i) for i, c in enumerate(BAD_CALLS)])
def test_errors_are_tool_errors_and_the_server_keeps_serving(serve, mode, name, arguments, phrase):
    async def body(client):
        bad = await client.call_tool(name, arguments)
        good = await client.call_tool("search", {"query": "installer"})
        return bad, good

    bad, good = serve(body, mode)
    assert bad.is_error
    text = _text(bad)
    assert json.loads(text) == bad.structured_content  # the published server's error text: its JSON
    assert phrase in bad.structured_content["error"] + " " + (bad.structured_content["suggestion"] or "")
    assert bad.structured_content["error"]
    assert not good.is_error
    assert good.structured_content["hits"]


def test_unknown_id_error_suggests_search(serve):
    async def body(client):
        return await client.call_tool("read", {"id": "missing.md#0"})

    result = serve(body)
    assert result.is_error
    assert "missing.md#0" in result.structured_content["error"]
    assert result.structured_content["suggestion"]


@pytest.mark.parametrize("mode", MODES)
def test_index_resource_is_the_index_part_of_the_instructions_versioned_by_content_fingerprint(serve, store, mode):
    async def body(client):
        listed = (await client.list_resources()).resources
        read = await client.read_resource(INDEX_URI)
        return listed, read, client.instructions

    listed, read, instructions = serve(body, mode)
    with Store.open(store) as opened:
        fingerprint = content_fingerprint(opened.conn)
    assert [str(r.uri) for r in listed] == [INDEX_URI]
    assert listed[0].meta["contentFingerprint"] == fingerprint
    assert fingerprint[:16] in listed[0].description
    assert read.contents[0].text == instructions.split("\n\n", 1)[1]  # as the published server serves it
    assert read.contents[0].text.startswith("ContextPull index")
    assert read.contents[0].meta["contentFingerprint"] == fingerprint


def test_unknown_resource_is_a_protocol_error(serve):
    from mcp.shared.exceptions import MCPError

    async def body(client):
        with pytest.raises(MCPError):
            await client.read_resource("contextpull://secrets")
        return (await client.call_tool("index", {})).is_error

    assert serve(body) is False


def test_over_budget_index_gives_directory_listing_with_expand_hint(serve, tmp_path):
    small = corpus_store(tmp_path)
    set_meta(small, index_tokens="5000")  # as if the index had outgrown the 3000-token budget

    async def body(client):
        return client.instructions, await client.call_tool("index", {"prefix": "reference/"})

    instructions, expanded = serve(body, path=small)
    assert instructions.startswith(PULL_DISCIPLINE)
    assert "hierarchical; call index(prefix) to expand" in instructions
    assert "guides/" in instructions and "reference/" in instructions
    assert _meta(small)["index_text"] not in instructions
    assert "reference/errors.md" in _text(expanded)


@pytest.mark.parametrize("index_tokens", ["10", "5000"])
def test_the_index_resource_does_not_depend_on_the_discipline_paragraph(tmp_path, monkeypatch, index_tokens):
    """The resource is the index (or the listing) itself, not whatever follows the first blank
    line of the instructions, so a discipline paragraph with a blank line cannot cut it."""
    from contextpull.serving import mcp_instructions

    small = corpus_store(tmp_path)
    set_meta(small, index_tokens=index_tokens)
    monkeypatch.setattr(mcp_instructions, "PULL_DISCIPLINE", "Pull.\n\nDo not guess.")
    live = LiveStore(small)
    try:
        live.current()
        with Store.open(small) as opened:
            body = mcp_instructions.index_body(opened.conn, dict(opened.meta))
            assert mcp_instructions.build_instructions(opened.conn, dict(opened.meta)) == f"Pull.\n\nDo not guess.\n\n{body}"
        assert live.index_text == body and live.instructions == f"Pull.\n\nDo not guess.\n\n{body}"
        assert ("hierarchical; call index(prefix)" in body) == (index_tokens == "5000")
    finally:
        live.close()


def test_directory_listing_honours_a_tiny_budget(tmp_path):
    from contextpull.serving.mcp_server import directory_listing, estimate_tokens

    small = corpus_store(tmp_path)
    with Store.open(small) as opened:
        roomy = directory_listing(opened.conn, opened.meta, 3000)
        tight = directory_listing(opened.conn, opened.meta, 90)
    assert "README.md" in roomy and "guides/" in roomy and "reference/" in roomy
    assert estimate_tokens(tight) <= 90
    assert "more directories not shown" in tight


def test_rebuilt_store_is_served_on_next_initialize_and_index_call(tmp_path):
    first = corpus_store(tmp_path, "first.sqlite")
    changed = dict(CORPUS)
    changed["guides/upgrade.md"] = "# Upgrading widgets\n\nStop the daemon, install the new package, start it.\n"
    second = corpus_store(tmp_path, "second.sqlite", changed)
    served = tmp_path / "served.sqlite"
    shutil.copyfile(first, served)
    live = LiveStore(served)
    server = build_server(live)

    async def handshake():
        async with Client(server, mode="legacy") as client:
            version = (await client.list_resources()).resources[0].meta["contentFingerprint"]
            return client.instructions, _text(await client.call_tool("index", {})), version

    try:
        before, before_index, before_version = anyio.run(handshake)
        assert "guides/upgrade.md" not in before
        tmp = tmp_path / "incoming.sqlite"
        shutil.copyfile(second, tmp)
        os.replace(tmp, served)  # what a rebuild or a fetch does
        after, after_index, after_version = anyio.run(handshake)
    finally:
        live.close()
    assert "guides/upgrade.md" in after
    assert "guides/upgrade.md" in after_index
    assert before != after
    # The resource version tells the two builds apart.
    with Store.open(second) as opened:
        assert after_version == content_fingerprint(opened.conn) != before_version


def test_in_place_write_is_seen_on_the_next_index_call(tmp_path):
    """An incremental ingest writes into the file the server has open (WAL); no new inode."""
    import hashlib

    from contextpull.writing.records import DocumentRecord, SectionRecord
    from contextpull.writing.writer import DocumentBatch, connect, finalize_index, next_section_rowid
    from contextpull.config import Settings

    store = corpus_store(tmp_path)
    writer = connect(store)
    writer.execute("PRAGMA journal_mode = WAL")
    live = LiveStore(store)
    server = build_server(live)

    async def index_now():
        async with Client(server, mode="legacy") as client:
            return _text(await client.call_tool("index", {})), client.instructions

    text = "# Upgrading\n\nStop the daemon first, then upgrade."
    doc = DocumentRecord(
        "guides/upgrade.md", "Upgrading", None, "offline", hashlib.sha256(text.encode()).hexdigest(),
        len(text), "markdown", (SectionRecord("Upgrading", 1, "prose", text),),
    )
    try:
        before, _ = anyio.run(index_now)
        batch = DocumentBatch()
        doc_id = writer.execute("SELECT coalesce(max(doc_id), 0) + 1 FROM documents").fetchone()[0]
        batch.add(doc, doc_id=doc_id, base=next_section_rowid(writer), ingested_at="2026-01-02T00:00:00Z", replaces=False)
        batch.write(writer)
        finalize_index(writer, Settings(), ingested_at="2026-01-02T00:00:00Z", corpus_root="docs")
        after, instructions = anyio.run(index_now)
    finally:
        live.close()
        writer.close()
    assert "guides/upgrade.md" not in before
    assert "guides/upgrade.md" in after and "guides/upgrade.md" in instructions


def test_unreadable_replacement_keeps_the_last_build(tmp_path, capsys):
    served = tmp_path / "served.sqlite"
    shutil.copyfile(corpus_store(tmp_path), served)
    live = LiveStore(served)
    server = build_server(live)

    async def search():
        async with Client(server, mode="legacy") as client:
            return await client.call_tool("search", {"query": "installer"})

    try:
        assert not anyio.run(search).is_error
        garbage = tmp_path / "garbage"
        garbage.write_bytes(b"this is not sqlite" * 100)
        os.replace(garbage, served)
        result = anyio.run(search)
    finally:
        live.close()
    assert not result.is_error and result.structured_content["hits"]
    assert "keeping the previous build" in capsys.readouterr().err


def test_log_line_per_call_without_bodies(serve):
    lines: list[str] = []

    async def body(client):
        await client.call_tool("search", {"query": "cache folder"})
        await client.call_tool("read", {"id": "reference/errors.md#1"})
        await client.call_tool("read", {"id": "nope#1"})

    serve(body, log=lines.append)
    assert len(lines) == 3
    assert lines[0].startswith("contextpull tool=search ")
    assert 'query="cache folder"' in lines[0]
    assert "results=" in lines[0] and " ms=" in lines[0]
    assert "tool=read" in lines[1] and "results=1" in lines[1]
    assert lines[2].endswith(" error")
    assert not any("not writable" in line or "permissions" in line for line in lines)


def test_a_slow_tool_call_does_not_hold_up_other_requests(serve, monkeypatch):
    """Tool calls run off the event loop: over HTTP, other clients' requests keep being answered."""
    import threading

    import contextpull.tools as tools_mod

    release = threading.Event()
    real_call = tools_mod.call

    def slow_call(ops, name, arguments):
        release.wait(timeout=10)  # a long search, until the other request has been answered
        return real_call(ops, name, arguments)

    monkeypatch.setattr(tools_mod, "call", slow_call)
    finished = []

    async def body(client):
        async def slow():
            await client.call_tool("search", {"query": "cache"})
            finished.append("search")

        async with anyio.create_task_group() as group:
            group.start_soon(slow)
            await anyio.sleep(0.05)
            await client.list_tools()
            finished.append("tools/list")
            release.set()

    serve(body)
    assert finished == ["tools/list", "search"]


def test_closing_the_store_waits_for_the_call_in_flight_and_refuses_later_ones(tmp_path):
    """A server stopped (SIGTERM, Ctrl-C) while a search runs on a worker thread closes its
    connection only once that call is done: closed under a running query, the process crashed."""
    import threading

    from contextpull.errors import StoreError

    live = LiveStore(corpus_store(tmp_path))
    live.current()
    running, finish, answers = threading.Event(), threading.Event(), []

    def call():  # what ``off_loop`` does on its worker thread
        with live.lock:
            running.set()
            finish.wait(10)
            answers.append(live.current().search("widget daemon").hits)

    worker = threading.Thread(target=call)
    worker.start()
    running.wait(10)
    closer = threading.Thread(target=live.close)
    closer.start()
    closer.join(0.3)
    assert closer.is_alive()  # it waits: the call holds the lock
    finish.set()
    worker.join(10)
    closer.join(10)
    assert not closer.is_alive() and answers and answers[0]
    with pytest.raises(StoreError, match="server is stopping"):
        live.current()
