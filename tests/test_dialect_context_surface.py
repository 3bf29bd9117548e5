"""The ``Context`` a dialect reads through (``dialects/api.py``): the real one and the tests'
stand-ins offer the same surface, and what it says of a document and its data agrees with the
files (issue 26)."""

from __future__ import annotations

import hashlib
import inspect

import pytest

import mdx_helpers
import memory_context
import rst_context
from contextpull.dialects.api import Context
from dialect_context import context

# The protocol's members: its annotated attributes and its methods.
MEMBERS = sorted(
    set(Context.__annotations__)
    | {name for name, _ in inspect.getmembers(Context, inspect.isfunction) if not name.startswith("_")}
)


def _fakes(tmp_path):
    return {
        "DocumentContext": context(tmp_path, "guide/a.md", dialect="mkdocs", config_file=None, docs="docs"),
        "rst_context": rst_context.FakeContext(tmp_path, "guide/a.md", docs="docs"),
        "mdx_helpers": mdx_helpers.FakeContext({}, path="docs/guide/a.md", docs="docs"),
        "memory_context": memory_context.FakeContext({}, path="guide/a.md", docs="docs"),
    }


@pytest.mark.parametrize("name", ["DocumentContext", "rst_context", "mdx_helpers", "memory_context"])
def test_every_context_offers_the_protocol(tmp_path, name):
    ctx = _fakes(tmp_path)[name]
    assert "repo_path" in MEMBERS and "read_data_with_sha" in MEMBERS
    assert [m for m in MEMBERS if not hasattr(ctx, m)] == []
    assert (ctx.repo_path, ctx.folder) == ("docs/guide/a.md", "docs/guide")


def test_at_the_root_the_folder_is_empty(tmp_path):
    ctx = context(tmp_path, "a.md", dialect="mkdocs", config_file=None)
    assert (ctx.repo_path, ctx.folder) == ("a.md", "")


def test_data_read_with_its_digest_is_the_recorded_dependency(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "kettle.yaml").write_bytes(b"volume: 1.7\n")
    ctx = context(tmp_path, "a.md", dialect="hugo", config_file=None)
    data, sha = ctx.read_data_with_sha("data/kettle.yaml")
    assert data == b"volume: 1.7\n"
    assert sha == hashlib.sha256(data).hexdigest() == ctx.deps["data/kettle.yaml"]
    assert ctx.read_data("data/kettle.yaml") == data
    assert ctx.read_data_with_sha("data/missing.yaml") is None
    assert ctx.deps["data/missing.yaml"] == "missing"
    assert ctx.read_data_with_sha("../outside.yaml") is None


def test_a_construct_lists_a_hundred_unresolved_notes_and_counts_the_rest_in_one():
    from contextpull.dialects.context import MAX_LISTED, NoteList

    notes = NoteList()
    for line in range(1, 151):
        notes.add("jsx", "unresolved", line, f"<X> at {line} is never closed")
        notes.add("jsx", "converted", line)  # never capped: counts, not problems
    for line in range(5):
        notes.add("mdx partial", "unresolved", line, "target missing")
    listed = notes.listed()
    jsx = [n for n in listed if n.construct == "jsx" and n.outcome == "unresolved"]
    assert len(jsx) == MAX_LISTED + 1 and jsx[-1].line == MAX_LISTED + 1
    assert jsx[-1].detail == "50 more on this page, from here on, not listed"
    assert sum(n.outcome == "converted" for n in listed) == 150
    assert [n.detail for n in listed if n.construct == "mdx partial"] == ["target missing"] * 5
