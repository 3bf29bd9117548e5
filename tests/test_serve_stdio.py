"""``contextpull serve`` as a real subprocess over stdio, through the SDK's stdio client.

Two shapes from system-design.txt section 7: a prebuilt store file served as it is, and a docs
folder ingested into ``<folder>/.contextpull/store.sqlite`` first. stdout carries protocol
messages only (the client would fail on anything else); progress and ``--log`` go to stderr.
"""

from __future__ import annotations

import sys
import tempfile

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from contextpull.store import Store  # noqa: E402

try:
    from mcp_fixtures import corpus_store, write_corpus
except ImportError:  # tests/ imported as a package
    from tests.mcp_fixtures import corpus_store, write_corpus


def _session(args, mode="legacy"):
    """Start ``contextpull serve ARGS``, make a few calls, return what came back and stderr."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "contextpull", "serve", *args])
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as errlog:

        async def main():
            async with Client(stdio_client(params, errlog=errlog), mode=mode, read_timeout_seconds=60) as client:
                tools = [tool.name for tool in (await client.list_tools()).tools]
                search = await client.call_tool("search", {"query": "cache folder"})
                missing = await client.call_tool("read", {"id": "nowhere.md#1"})
                return client.instructions, tools, search, missing

        result = anyio.run(main)
        errlog.seek(0)
        return (*result, errlog.read())


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_serves_a_store_file(tmp_path, mode):
    store = corpus_store(tmp_path)
    instructions, tools, search, missing, stderr = _session([str(store), "--log"], mode)
    with Store.open(store) as opened:
        assert opened.meta["index_text"] in instructions
    assert tools == ["index", "search", "read", "grep", "neighbours"]
    assert not search.is_error and search.structured_content["hits"]
    assert missing.is_error and "nowhere.md#1" in missing.content[0].text
    logged = [line for line in stderr.splitlines() if line.startswith("contextpull tool=")]
    assert len(logged) == 2 and "tool=search" in logged[0]


def test_serves_a_docs_folder_after_ingesting_it(tmp_path):
    corpus = write_corpus(tmp_path / "docs")
    instructions, tools, search, _, stderr = _session([str(corpus)])
    store = corpus / ".contextpull" / "store.sqlite"
    assert store.is_file()
    assert "guides/install.md" in instructions and "reference/errors.md" in instructions
    assert search.structured_content["hits"][0]["doc"] in ("guides/install.md", "reference/errors.md")
    assert "documents seen" in stderr  # the ingest summary went to stderr, not into the protocol
