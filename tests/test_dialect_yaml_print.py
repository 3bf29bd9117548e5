"""Data printed as YAML without PyYAML's printer (contextpull/dialects/data/yaml_print.py) is
exactly what PyYAML prints, or declined so that PyYAML prints it."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.data import yaml_print

DECLINED = yaml_print.DECLINED

# Strings plain, quoted and neither: YAML 1.1's typed scalars, indicators where they count and
# where they do not, blanks, marks, quotes, lines, non-ASCII, long ones.
STRINGS = [
    "", " ", "a", "b c", "a  b", " a", "a ", "true", "No", "on", "~", "null", "1", "-1", "+1", "0x1F", "1_000",
    "1:20", "3.5", "1e3", ".inf", ".5", "2023-01-02", "2001-12-14 21:59:43.10", "=", "<<", "-", "-a", "- a",
    "?", "?a", "? a", ":", ":a", ": a", "a:", "a:b", "a: b", "a#b", "a #b", "#a", "---", "---a", "...", "..a",
    "a/b", "./x", "text/html", "x+y", "it's", "'q'", '"q"', "a,b", "[a]", "{a}", "*a", "&a", "!a", "|", ">",
    "%a", "@a", "`a", "a\tb", "a\nb", "été", "a\\b", "x" * 79, "w " * 45, "_a", "A_B.c-d", "/**", "^go$",
    ":resourceDir/_gen", "(a|b)\\.c", "{{ .Title }}", "a[1]", "x,y", "a?", "a'b", "404", "1.0e+3",
]
KEYS = ["a", "key", "true", "1", "-x", "a b", "a:b", "", "k" * 90, "été", "x.y", "on"]

scalars = st.one_of(st.sampled_from(STRINGS), st.text(" -?:#,[]{}&*!|>'\"%@`.a1\\\t\n", max_size=6),
                    st.integers(-10**20, 10**20), st.booleans(), st.none(),
                    st.floats(allow_nan=False), st.just({}), st.just([]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, min_size=1, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(" -?:#'a1", max_size=4)), inner, min_size=1, max_size=4)),
    max_leaves=12)


def _pyyaml(value) -> str:
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=False)


@settings(max_examples=3000, deadline=None)
@given(values)
def test_printed_as_pyyaml_prints_it_or_declined(value):
    printed = yaml_print.dump(value)
    assert printed is DECLINED or printed == _pyyaml(value)


@pytest.mark.parametrize("text", STRINGS)
def test_each_string_as_a_value_key_and_item(text):
    for value in ({"key": text}, {text: 1}, [text], {"a": [{"b": text}]}):
        printed = yaml_print.dump(value)
        assert printed is DECLINED or printed == _pyyaml(value)


def test_the_shape_of_a_configuration_section_is_printed():
    section = {"markup": {"goldmark": {"renderer": {"unsafe": False, "hardWraps": False},
                                       "parser": {"attribute": {"block": False, "title": True}},
                                       "extensions": {"typographer": {"leftQuote": "", "disable": False}}},
                          "highlight": {"style": "monokai", "lineNos": "false", "tabWidth": 4},
                          "outputs": ["html", "rss"], "empty": {}, "none": None}}
    assert yaml_print.dump(section) == _pyyaml(section)


def test_what_pyyaml_prints_its_own_way_is_declined():
    shared = {"a": 1}
    empty: list = []
    for value in ("top-level scalar", {}, [], {"a": 1.5}, {"a": "a\nb"}, {"a": "été"}, {"a": "w " * 45},
                  {1: "int key"}, {"": "empty key"}, {"a": shared, "b": shared}, {"a": empty, "b": empty}):
        assert yaml_print.dump(value) is DECLINED, value


def test_what_is_declined_is_what_the_printer_leaves_to_pyyaml():
    """Declining everything would pass the side-by-side tests: the strings left to PyYAML are
    exactly the ones whose style it chooses by rules this printer does not copy (tabs, line
    breaks, non-ASCII, lines long enough to fold)."""
    declined = [s for s in STRINGS if yaml_print.dump({"key": s}) is DECLINED]
    assert declined == ["a\tb", "a\nb", "été", "x" * 79, "w " * 45]

