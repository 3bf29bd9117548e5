"""An rst page parsed a window of lines at a time reads exactly as the page parsed whole (issue 34:
reading time linear in the page's size). Each test parses the same text twice, once with windows
of one line (a cut at every place the scanner allows one) and once with one window for the whole
page, and compares everything the reader returns: title, blocks and notes with their lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contextpull.dialects.sphinx.rst import chunks as rst_chunks
from contextpull.dialects.sphinx.rst.read import parse_rst
from rst_context import FakeContext, fixture_cases

FIXTURES = Path(__file__).parent / "dialects" / "rst"


def read(tmp_path, text: str, window: int, monkeypatch) -> tuple:
    monkeypatch.setattr(rst_chunks, "WINDOW_LINES", window)
    ctx = FakeContext(tmp_path, config={"default_role": "code"}, config_file="conf.py")
    doc = parse_rst(text, ctx)
    return doc.title, list(doc.blocks), ctx.notes


def windows_of(text: str, size: int = 1) -> list[tuple[int, int]]:
    return list(rst_chunks.windows(text.split("\n"), size))


@pytest.mark.parametrize(("source", "expected"), list(fixture_cases(FIXTURES)))
def test_every_fixture_reads_the_same_cut_at_every_allowed_line(tmp_path, monkeypatch, source, expected):
    assert read(tmp_path, source, 1, monkeypatch) == read(tmp_path, source, 10**9, monkeypatch)


# One block of a page each; titles at three levels, so windows start inside sections of every
# depth and a later title closes several of them.
BLOCKS = [
    "Top {n}\n=======\n",
    "Middle {n}\n----------\n",
    "Low {n}\n~~~~~~~\n",
    "Plain words {n} with a `link <https://x.test/{n}>`_ and a ref_{n}_.\n",
    ".. _ref_{n}: https://y.test/{n}\n",
    "Uses |sub{n}| here.\n\n.. |sub{n}| replace:: replaced {n}\n",
    "- item {n}\n- second\n\n  continued\n",
    "#. auto {n}\n#. again\n",
    "A. lettered {n}\nB. next\n",
    "term {n}\n   its definition\n",
    ":field {n}: value\n:other: value\n",
    ".. note::\n\n   Body {n}.\n\n.. code-block:: python\n\n   x = {n}\n",
    "Literal follows::\n\n   code {n}\n",
    "Expects a literal::\n",
    "=====  =====\nA {n}  B\n=====  =====\nrow    one\n\nrow    two\n=====  =====\n",
    "Footnote [#]_ {n}.\n\n.. [#] The note {n}.\n",
    ".. highlight:: rust\n",
    "Text {n}\nstill the same paragraph\n",
    "   Quoted {n}.\n\n   -- Someone\n",
    "----------\n",
    "Roles :code:`x{n}`, :ref:`label {n}`, :doc:`page{n}` and :unknown:`u{n}`.\n",
    "Broken *emphasis {n} and ``literal\n",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(range(len(BLOCKS))), min_size=1, max_size=25))
def test_generated_pages_read_the_same_cut_at_every_allowed_line(tmp_path, monkeypatch, picks):
    text = "\n".join(BLOCKS[k].format(n=i) for i, k in enumerate(picks))
    assert read(tmp_path, text, 1, monkeypatch) == read(tmp_path, text, 10**9, monkeypatch)


def test_a_page_of_short_sections_is_cut_into_windows_of_the_asked_size():
    text = "".join(f"S{n}\n--\n\nWords {n}.\n\n.. note::\n\n   Body.\n\n" for n in range(1000))
    cuts = windows_of(text, 100)
    assert len(cuts) > 50
    assert all(end - start <= 100 + 10 for start, end in cuts[:-1])
    assert cuts[0][0] == 0 and cuts[-1][1] == len(text.split("\n"))
    assert all(a[1] == b[0] for a, b in zip(cuts, cuts[1:]))


@pytest.mark.parametrize(
    ("blocked", "line"),
    [
        ("Title\n-----\n", 2),  # a title's text line
        ("term\n   definition\n", 2),  # a definition list's next term
        ("1. item\n", 2),  # an enumerated list's next item
        ("Next::\n\nafter literal\n", 4),  # the line after a ``::`` paragraph
    ],
)
def test_no_window_starts_where_a_construct_would_continue(blocked, line):
    lines = ("Para.\n\n" + blocked).split("\n")
    starts = [s for s, _ in rst_chunks.windows(lines, 1)]
    assert line not in starts
    assert 0 in starts


def test_no_window_starts_inside_a_simple_table_with_blank_rows():
    text = "Para.\n\n=====  =====\nA      B\n=====  =====\nrow    one\n\nrow    two\n=====  =====\n\nAfter.\n"
    lines = text.split("\n")
    starts = [s for s, _ in rst_chunks.windows(lines, 1)]
    assert lines.index("row    two") not in starts
    assert lines.index("After.") in starts


LINES = st.sampled_from(["", "Words here.", "=====  =====", "=====", "-----", "   indented", "term", "1. item",
                         "Para::", ".. note::", "A. letter"])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(LINES, st.integers(1, 2000)), min_size=1, max_size=8), st.integers(1, 50))
def test_windows_cover_every_line_once_in_order_over_long_runs(runs, size):
    """Long runs of each kind of line (a table border, blank lines, terms): the windows still
    partition the page in order, and each one but the first starts where a cut is allowed."""
    lines = [line for line, count in runs for _ in range(count)]
    cuts = list(rst_chunks.windows(lines, size))
    assert cuts[0][0] == 0 and cuts[-1][1] == len(lines)
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(cuts, cuts[1:]))
    assert all(lines[start][:1].isalpha() and not lines[start - 1].strip() for start, _ in cuts[1:])
