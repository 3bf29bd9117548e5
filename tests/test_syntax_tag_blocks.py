"""The one reading of paired-tag blocks (dialects/syntax/tag_blocks.py) in both closer styles
(Markdoc's ``{% /x %}``, Liquid's ``{% endx %}``): well-nested blocks come back as written,
the text between tags keeps its order whatever the tags, every block opened is shown once, and
long runs of openers or closers stop at the nesting bound with one note each."""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax.tag_blocks import LIQUID, MARKDOC, TagWalk


class _Tag(NamedTuple):
    name: str
    start: int
    end: int
    line: int


def _read(pieces: list[str], closers, bound: int = 5):
    """``pieces``: text, or ``("tag", name)``; each tag opens a block unless it is a closer."""
    text, tags = "", []
    for piece in pieces:
        if isinstance(piece, tuple):
            tags.append(_Tag(piece[1], len(text), len(text) + len(piece[1]) + 6, len(tags) + 1))
            text += "{% " + piece[1] + " %}"
        else:
            text += piece
    notes: list[tuple[int, str]] = []
    rendered: list[int] = []

    def render(frame, body):
        rendered.append(frame.tag.line)
        return f"<{frame.tag.name}>{body}</{frame.tag.name}>"

    walk = TagWalk(text, tags, closers, bound, render, lambda line, detail: notes.append((line, detail)))
    opened = [tag.line for tag in walk if walk.open(tag) is not None]
    return walk.result(), notes, opened, rendered


_NAMES = st.sampled_from(["a", "b", "c"])


def _tree(depth: int):
    leaf = st.sampled_from(["x", " ", "\n"])
    if depth == 0:
        return st.lists(leaf, max_size=3)
    return st.lists(st.one_of(leaf.map(lambda t: [t]), st.tuples(_NAMES, _tree(depth - 1))), max_size=3).map(
        lambda items: [p for item in items for p in (item if isinstance(item, list) else [("tag", item[0]), *item[1], ("close", item[0])])])


@settings(max_examples=300, deadline=None)
@given(_tree(3), st.sampled_from([MARKDOC, LIQUID]))
def test_well_nested_blocks_come_back_as_written(tree, closers):
    pieces = [("tag", closers.prefix + p[1]) if isinstance(p, tuple) and p[0] == "close" else p for p in tree]
    out, notes, opened, rendered = _read(pieces, closers)
    expected = "".join(p if isinstance(p, str) else (f"</{p[1][len(closers.prefix):]}>" if p[1].startswith(closers.prefix)
                                                     else f"<{p[1]}>") for p in pieces)
    assert (out, notes) == (expected, [])
    assert sorted(opened) == sorted(rendered)


_ANY = st.one_of(st.sampled_from(["x", "\n"]), st.tuples(st.just("tag"), st.sampled_from(["a", "b", "/a", "/b", "enda", "endb"])))


@settings(max_examples=500, deadline=None)
@given(st.lists(_ANY, max_size=30), st.sampled_from([MARKDOC, LIQUID]), st.integers(1, 4))
def test_any_tags_keep_the_text_and_show_each_block_once(pieces, closers, bound):
    out, notes, opened, rendered = _read(pieces, closers, bound)
    text_only = "".join(p for p in pieces if isinstance(p, str))
    assert "".join(ch for ch in out if ch in "x\n") == text_only
    assert sorted(opened) == sorted(rendered)  # closed by name, or where the page ends: once each
    depth = deepest = 0
    for part in out.replace("</", "\0").split("<")[1:]:
        depth += 1  # the block this part opens, then those it closes
        deepest = max(deepest, depth)
        depth -= part.count("\0")
    assert deepest <= bound


def test_long_runs_of_openers_and_closers_stop_at_the_bound():
    n = 100_000
    for closers in (MARKDOC, LIQUID):
        out, notes, opened, _ = _read([("tag", "a")] * n, closers, bound=20)
        assert len(opened) == 20
        assert len(notes) == n  # each opener past the bound, then each block never closed
        assert sum("nested deeper" in d for _, d in notes) == n - 20
        out, notes, opened, rendered = _read([("tag", closers.prefix + "a")] * n, closers)
        assert (out, opened, rendered, len(notes)) == ("", [], [], n)
        assert notes[0][1] == f"{closers.closer('a')} closes no {{% a %}}: dropped"


def test_a_closer_ends_the_blocks_opened_inside_its_own():
    out, notes, _, _ = _read([("tag", "a"), ("tag", "b"), "x", ("tag", "enda")], LIQUID)
    assert out == "<a><b>x</b></a>"
    assert notes == [(2, "{% b %} never closed by {% endb %} before {% enda %}: read as if closed there")]
