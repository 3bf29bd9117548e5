"""One attribute-list grammar (dialects/syntax/attributes.py): what a list says, where lists
stand, and the same answers on long runs of openers (``{``, ``{:``, ``{a=``), sizes at which a
reading that went on past a brace would be quadratic."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax import attributes

# The grammar as a pattern, the reference the scan is held to (fine on the short texts drawn).
_NAME = r"[^\s{}=\"']+"
_ITEM = rf"(?:[#.]{_NAME}|(?![#.]){_NAME}=(?:\"[^\"{{}}\n]*\"|'[^'{{}}\n]*'|{_NAME}))"
# (a colon right after the brace is always kramdown's marker, never the start of a name)
_RULE = re.compile(rf"\{{(?::|(?!:))[ \t]*{_ITEM}(?:[ \t]+{_ITEM})*[ \t]*\}}")


def test_a_list_says_its_ids_classes_and_pairs():
    found = attributes.read('{#top .note .wide width=300 title="A b"}', 0)
    assert (found.ids, found.classes, found.pairs) == (["top"], ["note", "wide"], {"width": "300", "title": "A b"})
    assert found.source == '#top .note .wide width=300 title="A b"' and not found.kramdown
    assert attributes.read("{: .cls}", 0, kramdown=True).classes == ["cls"]
    assert attributes.read("{.cls}", 0, kramdown=True) is None
    assert attributes.read("{:toc}", 0, kramdown=True) is None
    assert attributes.read("{:toc}", 0, kramdown=True, words=True).words == ["toc"]


def test_what_is_not_a_list():
    for text in ["{}", "{ }", "{.a", "{.a}x"[:3], "{a}", "{.a.b=c}", "{#a#b {.c}", '{a="{"}', "{a=\"x\ny\"}"]:
        assert attributes.read(text, 0) is None, text


def test_trailing_and_whole_line():
    assert attributes.trailing("## Title {#id}  ").ids == ["id"]
    assert attributes.trailing("## Use {{< param >}}") is None
    assert attributes.whole_line("   {: .note}", kramdown=True).classes == ["note"]
    assert attributes.whole_line("{: .note} x") is None


_PIECES = st.sampled_from(["{", "}", "{:", ":", " ", "\t", "#a", ".b", "c", "=", "d=e", '"', "'", 'f="g h"', "\n", "x"])


@settings(max_examples=800, deadline=None)
@given(st.lists(_PIECES, max_size=16).map("".join))
def test_every_list_found_is_a_match_of_the_rule(text):
    assert [(f.start, f.end) for f in attributes.find_all(text)] == [m.span() for m in _RULE.finditer(text)]


def test_a_million_openers_are_read_once():
    assert list(attributes.find_all("{" * 1_000_000)) == []
    assert list(attributes.find_all("{:" * 500_000, kramdown=True)) == []
    assert list(attributes.find_all("{a=" * 300_000 + "}")) == []
    # a quoted value never holds a brace: an unclosed one reads no further than the next list
    text = '{a="' * 200_000 + "{.x}"
    assert [(f.start, f.classes) for f in attributes.find_all(text)] == [(800_000, ["x"])]
    many = "{#a .b} " * 100_000
    assert len(list(attributes.find_all(many))) == 100_000
    assert attributes.trailing("# " + "{" * 1_000_000 + "}") is None


def test_attr_list_takes_an_item_glued_after_a_quoted_value_and_quotes_in_a_bare_value():
    text = '{.textual path="x.py", press="a,b" keys=["q"] s="t"]}'
    assert attributes.read(text, 0, words=True) is None  # remark-directive, Pandoc: blanks part items
    found = attributes.read(text, 0, words=True, attr_list=True)
    assert (found.classes, found.pairs, found.words) == (
        ["textual"], {"path": "x.py", "press": "a,b", "keys": '["q"]', "s": "t"}, [",", "]"])
    assert attributes.read('{a="x"b=c}', 0, attr_list=True).pairs == {"a": "x", "b": "c"}
    assert attributes.read('{a=b"c" d}', 0, attr_list=True) is None  # a word needs ``words``
    assert attributes.read('{a="{"}', 0, attr_list=True) is None
    assert attributes.read("{a=" + 'x"' * 300_000 + "}", 0, attr_list=True).pairs["a"] == 'x"' * 300_000
