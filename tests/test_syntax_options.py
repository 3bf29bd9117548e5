"""Directive and shortcode options (dialects/syntax/options.py): field lines by docutils' rule,
arguments by Hugo's, held to the patterns that state them, and one pass on long runs of
openers (``:``, ``"``, ``=``, blanks)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax.options import Argument, arguments, field, fields

_FIELD_RULE = re.compile(r"\s*:([\w-]+):(?:\s+(.*?))?\s*$", re.S)
_ARG_RULE = re.compile(r"(?:([A-Za-z_][\w-]*)=)?(\"(?:[^\"\\]|\\.)*\"|`[^`]*`|'[^']*'|\S+)")


def test_fields_are_read_to_the_first_line_that_is_not_one():
    lines = [".. figure:: x.png", "   :alt: A picture", "   :width: 200px", "   :nofold:", "", "   Caption"]
    assert fields(lines, 1, indented=True) == ({"alt": "A picture", "width": "200px", "nofold": ""}, 4)
    assert field(":key:value") is None and field("key: value") is None and field("::") is None
    assert field(":caption: x", indented=True) is None


_FIELD_PIECES = st.sampled_from([":", "key", "a-b", " ", "\t", "x y", "-", "é", "::"])


@settings(max_examples=600, deadline=None)
@given(st.lists(_FIELD_PIECES, max_size=10).map("".join))
def test_a_field_line_is_a_match_of_the_rule(line):
    m = _FIELD_RULE.fullmatch(line)
    expected = None if m is None else (m.group(1), (m.group(2) or "").strip())
    if expected is not None and not expected[0].isascii():
        expected = None  # names are ASCII word characters
    assert field(line) == expected


def test_arguments_named_positional_and_quoted():
    assert list(arguments('src="a b.png" 3 title=\'x\' raw=`c d` esc="say \\"hi\\""')) == [
        Argument("src", "a b.png", '"a b.png"'), Argument(None, "3", "3"), Argument("title", "x", "'x'"),
        Argument("raw", "c d", "`c d`"), Argument("esc", 'say "hi"', '"say \\"hi\\""')]
    assert [(a.name, a.raw) for a in arguments('file.html key = "v" n=1', spaced=True)] == [
        (None, "file.html"), ("key", '"v"'), ("n", "1")]


_ARG_PIECES = st.sampled_from(["a", "b1", "=", '"', "'", "`", "\\", " ", "x y", "_k", "-"])


@settings(max_examples=800, deadline=None)
@given(st.lists(_ARG_PIECES, max_size=14).map("".join))
def test_arguments_are_the_matches_of_hugos_rule(text):
    assert [(a.name, a.raw) for a in arguments(text)] == [(m.group(1), m.group(2)) for m in _ARG_RULE.finditer(text)]


def test_long_runs_of_openers_are_one_pass():
    assert field(":" * 1_000_000) is None
    assert fields([":a: b"] * 200_000) == ({"a": "b"}, 200_000)
    assert len(list(arguments('"' * 1_000_000))) == 500_000  # each quote closes at the next
    assert [len(a.raw) for a in arguments('"' + "a" * 1_000_000)] == [1_000_001]  # never closed: bare
    assert len(list(arguments("a=" * 300_000))) == 1
    quotes = "'x " * 300_000  # each quote closes at the next one: "'x '", then a bare "x"
    assert len(list(arguments(quotes))) == 300_000
    assert [(a.name, a.raw) for a in arguments(quotes[:3_000])] == [(m.group(1), m.group(2)) for m in _ARG_RULE.finditer(quotes[:3_000])]
    assert list(arguments(" " * 1_000_000)) == []
    assert len(list(arguments('k="v" ' * 100_000))) == 100_000
