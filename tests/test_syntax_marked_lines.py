"""The shortcuts two dialects share for reading a page's lines (dialects/syntax/container_tree
``scan_marked``, dialects/syntax/fences ``code_blanked`` and ``prose_lines``): each gives what
the full reading gives, on random pages and on long runs of openers."""

from __future__ import annotations

from dataclasses import asdict

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax.container_tree import COLONS, MARKDOWN_IT_COLONS, scan, scan_marked
from contextpull.dialects.syntax.fences import code_blanked, code_lines, prose_lines

_LINES = st.lists(st.sampled_from([":::note", "::: tip T", ":::", "::::", "  :::", "::::tip", "text", "", "```", "~~~",
                                   "````js", "a ::: b"]), max_size=40)


@settings(max_examples=500, deadline=None)
@given(_LINES)
def test_scan_marked_is_the_full_scan(lines):
    for syntax in (COLONS, MARKDOWN_IT_COLONS):
        assert [asdict(c) for c in scan_marked(lines, syntax, ":::")] == [asdict(c) for c in scan(lines, syntax)]


@settings(max_examples=500, deadline=None)
@given(_LINES)
def test_code_blanked_and_prose_lines_split_the_page_by_code_lines(lines):
    in_code = {i for first, end, _ in code_lines(lines) for i in range(first, end)}
    assert list(prose_lines(lines)) == [i for i in range(len(lines)) if i not in in_code]
    assert code_blanked(lines) == ["" if i in in_code else line for i, line in enumerate(lines)]


def test_long_runs_of_openers():
    lines = [":::note"] * 100_000 + ["text", ":::"]
    assert [asdict(c) for c in scan_marked(lines, COLONS, ":::")] == [asdict(c) for c in scan(lines, COLONS)]
    fenced = ["```"] * 100_001
    assert list(prose_lines(fenced)) == [] and set(code_blanked(fenced)) == {""}
