"""One offset-to-line map (dialects/syntax/line_map.py): the line an offset stands on is one
more than the newlines before it, for any text, and a text of a million lines is one pass."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax.fences import split_code
from contextpull.dialects.syntax.line_map import LineMap, numbered

_TEXT = st.lists(st.sampled_from(["\n", "\n\n", "a", "bc", "```", "\r", " "]), max_size=30).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEXT, st.integers(min_value=1, max_value=50), st.data())
def test_the_line_of_an_offset_counts_the_newlines_before_it(text, first, data):
    offset = data.draw(st.integers(min_value=0, max_value=len(text)))
    assert LineMap(text, first).line(offset) == first + text.count("\n", 0, offset)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_each_chunk_is_numbered_by_the_line_it_starts_on(text):
    offset = 0
    for line, _is_code, chunk in numbered(split_code(text), 7):
        assert line == 7 + text.count("\n", 0, offset)
        offset += len(chunk) + 1


def test_a_million_blank_lines_map_in_one_pass():
    text = "\n" * 1_000_000 + "x"
    lines = LineMap(text)
    assert len(lines.starts) == 1_000_001
    assert [lines.line(0), lines.line(500_000), lines.line(len(text) - 1)] == [1, 500_001, 1_000_001]
    offsets = range(0, len(text), 7)  # a construct every few lines: a bisection each, no count from the top
    assert sum(lines.line(o) for o in offsets) == sum(1 + o for o in offsets)
