"""The one bounded glob matcher (issue 34): every surface decides as the regular expression or
``fnmatch`` it replaced, on every short input, and a hostile pattern against a long name ends."""

from __future__ import annotations

import fnmatch
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.jekyll.pages import _excluded
from contextpull.scan.globmatch import _REGEX, MAX_REGEX_STARS, compile_glob, fnmatch_tokens, slash_tokens
from contextpull.writing.discover import _compile_rule
from contextpull.dialects.api import Site
from contextpull.dialects.site_reader import open_site

NAMES = st.text(alphabet="ab/.\n", max_size=8)


def old_ignore_regex(line: str) -> re.Pattern[str]:
    """How ``.contextpullignore`` lines were compiled before the shared matcher (the reference)."""
    parts, i = [], 0
    while i < len(line):
        if line.startswith("**/", i):
            parts.append("(?:.*/)?")
            i += 3
        elif line.startswith("**", i):
            parts.append(".*")
            i += 2
        elif line[i] == "*":
            parts.append("[^/]*")
            i += 1
        elif line[i] == "?":
            parts.append("[^/]")
            i += 1
        else:
            parts.append(re.escape(line[i]))
            i += 1
    return re.compile("".join(parts) + r"\Z")


TOKEN = st.one_of(
    st.sampled_from([("one",), ("char",), ("star",), ("any",), ("anything",), ("dirs",)]),
    st.sampled_from(["a", "b", "/", "ab", "."]).map(lambda t: ("lit", t)),
    st.sampled_from(["[ab]", "[^/a]", "(?s:[^b])"]).map(lambda t: ("class", t)),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(TOKEN, max_size=7), st.lists(NAMES, min_size=1, max_size=12))
def test_a_glob_decides_as_its_regular_expression_by_either_path(tokens, names):
    regex = re.compile("".join(re.escape(t[1]) if t[0] == "lit" else t[1] if t[0] == "class" else _REGEX[t[0]]
                               for t in tokens) + r"\Z")
    glob = compile_glob(tokens)
    for name in names:
        assert glob.match(name) == bool(regex.match(name)), (tokens, name, glob.regex)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab*?/.", min_size=1, max_size=9), st.lists(NAMES, min_size=1, max_size=12))
def test_an_ignore_line_decides_as_the_regular_expression_it_replaced(line, names):
    glob = compile_glob(slash_tokens(line))
    old = old_ignore_regex(line)
    for name in names:
        assert glob.match(name) == bool(old.match(name)), (line, name)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab*?/[]!-", min_size=1, max_size=9), st.lists(st.text(alphabet="ab/-!]\n", max_size=8),
                                                               min_size=1, max_size=12))
def test_a_jekyll_exclude_glob_decides_as_fnmatch(pattern, names):
    glob = compile_glob(fnmatch_tokens(pattern))
    for name in names:
        assert glob.match(name) == fnmatch.fnmatchcase(name, pattern), (pattern, name)


HOSTILE = "*a*a*a*a*a*a*a*b"


@pytest.mark.parametrize("length", [200, 2000])
def test_a_pattern_of_many_stars_against_a_long_name_is_decided_by_the_automaton(length):
    """Past MAX_REGEX_STARS the automaton decides (the regular expression would backtrack for
    minutes here); it still finds the match that exists and the one that does not."""
    glob = compile_glob(slash_tokens(HOSTILE))
    assert glob.regex is None and MAX_REGEX_STARS < HOSTILE.count("*")
    assert not glob.match("a" * length)
    assert glob.match("a" * length + "b")


def test_an_ignore_rule_and_a_jekyll_exclude_use_the_bounded_matcher():
    rule = _compile_rule(HOSTILE)
    assert rule.glob.regex is None
    reader = open_site(Site("jekyll", None, "", ""))
    assert _excluded(reader, "a" * 2000, [HOSTILE]) is None
    assert _excluded(reader, "a" * 2000 + "b", [HOSTILE]) == HOSTILE
