"""The one fence rule (parsing/fence_rule.py) and the code mask built on it
(dialects/syntax/fences.py): the rule as stated, and the same answers on long runs of openers,
sizes at which a scanner that reads a line or the text again per opener would take minutes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax import fences
from contextpull.parsing.fence_rule import COMMONMARK, SHARED, Fence, close_index, closes, code_lines, open_fence


def test_an_opener_is_three_or_more_of_one_character_after_blanks():
    assert open_fence("  ```py title=x") == Fence("  ", "```", "py title=x")
    assert open_fence("\t~~~~") == Fence("\t", "~~~~", "")
    assert open_fence("``x") is None and open_fence("x ```") is None and open_fence("- ```") is None
    assert open_fence("1. - ```yaml", list_items=True) == Fence("1. - ", "```", "yaml")
    assert open_fence("-```", list_items=True) is None  # a marker needs a blank after it
    assert open_fence("```rust,ignore extra").language == "rust,ignore"


def test_a_closer_is_the_same_character_at_least_as_long():
    opened = Fence("", "````", "")
    assert closes("````", opened) and closes("  `````  ", opened)
    assert not closes("```", opened) and not closes("~~~~", opened) and not closes("```` x", opened)


def test_commonmark_bounds_the_closer_indent_by_the_opener_start():
    opened = Fence("- ", "```", "")
    assert closes("     ```", opened, COMMONMARK)  # 5 columns, 3 past the item's start
    assert not closes("      ```", opened, COMMONMARK)
    assert closes("      ```", opened, SHARED)


_LINE_PIECES = st.sampled_from(["```", "````", "~~~", "~~~~", "``", "`", " ", "  ", "    ", "\t", "- ", "1. ",
                                "x", "py", "\xa0", "{note}"])


@settings(max_examples=600, deadline=None)
@given(st.lists(st.lists(_LINE_PIECES, max_size=5).map("".join), max_size=12))
def test_code_lines_are_the_blocks_a_line_walk_finds(lines):
    """``code_lines`` against the rule walked by hand: open, then the first line that closes."""
    expected, i = [], 0
    while i < len(lines):
        stripped = lines[i].lstrip(" \t")
        run = len(stripped) - len(stripped.lstrip(stripped[:1])) if stripped[:1] in ("`", "~") else 0
        if run < 3:
            i += 1
            continue
        marker = stripped[:run]
        j = i + 1
        while j < len(lines):
            body = lines[j].strip()
            if body and set(body) == {marker[0]} and len(body) >= run:
                break
            j += 1
        expected.append((i, min(j + 1, len(lines))))
        i = min(j + 1, len(lines))
    assert [(a, b) for a, b, _ in code_lines(lines)] == expected


def test_a_line_of_200000_backticks_opens_and_a_shorter_one_does_not_close():
    line = "`" * 200_000
    opened = open_fence(line)
    assert opened is not None and len(opened.marker) == 200_000 and opened.info == ""
    text = f"{line}\n{'`' * 199_999}\nafter"
    assert fences.split_code(text) == [(True, text)]
    assert close_index(text.split("\n"), 0, opened) == 3


def test_a_hundred_thousand_fences_each_close_once():
    text = "prose\n" + "```\ncode\n```\nprose\n" * 100_000
    chunks = fences.split_code(text)
    assert len(chunks) == 200_001 and sum(is_code for is_code, _ in chunks) == 100_000
    assert "\n".join(chunk for _, chunk in chunks) == text
    assert len(list(code_lines(text.split("\n")))) == 100_000


def test_an_unclosed_fence_over_openers_of_the_other_kind_runs_to_the_end():
    """Every later line is an opener of the other character or shorter: none closes, and a
    scanner that searched for a closer again from each of them would be quadratic."""
    text = "~~~~\n" + "```\n~~~\n" * 100_000
    assert fences.split_code(text) == [(True, text)]
    assert list(code_lines(text.split("\n"))) == [(0, 200_002, Fence("", "~~~~", ""))]


def test_long_runs_of_blanks_and_list_markers_are_read_once():
    blanks = "\n" * 500_000 + "```\nx"
    assert fences.split_code(blanks) == [(False, "\n" * 499_999), (True, "```\nx")]
    markers = "- " * 100_000 + "```yaml"
    assert open_fence(markers, list_items=True) == Fence("- " * 100_000, "```", "yaml")
    assert open_fence(" " * 500_000 + "x```") is None


def test_the_written_fence_is_longer_than_any_run_inside():
    code = "a ````` b " + "`" * 100_000
    assert fences.fenced(code, "md").startswith("`" * 100_001 + "md\n")
    assert fences.fenced("x", "") == "```\nx\n```"


_CLOSER_LINE = re.compile(r"\n[^\S\n]*(`{3,}|~{3,})[^\S\n]*(?=\n|\Z)")


def _closing_line_end_by_pattern(text: str, at: int, marker: str) -> int:
    """The closing rule as one pattern over the lines, the reading ``split_code`` had."""
    while True:
        found = _CLOSER_LINE.search(text, at)
        if found is None:
            return len(text)
        if found.group(1)[0] == marker[0] and len(found.group(1)) >= len(marker):
            return found.end()
        at = found.end()


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="`~ \n\tax\u00a0\r\x0b\x1c\x85\u2028", max_size=40), st.sampled_from(["```", "````", "~~~", "~~~~~"]))
def test_the_closing_line_search_is_the_line_pattern(body, marker):
    from contextpull.dialects.syntax.fences import _closing_line_end

    text = "```\n" + body
    assert _closing_line_end(text, 3, marker) == _closing_line_end_by_pattern(text, 3, marker)


def test_a_megabyte_line_of_runs_that_do_not_close_is_passed_over():
    from contextpull.dialects.syntax.fences import split_code

    text = "```\n" + "a```" * 250_000 + "\n```\nafter"
    assert split_code(text) == [(True, text[: -len("\nafter")]), (False, "after")]
