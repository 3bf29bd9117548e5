"""Scanners that used to backtrack read long runs of their own openers right (issue 35, "Linear
time"). Each case is a size at which the old pattern took seconds (quadratic: every opener scanned
to the end of the text); the assertion is the result, the speed is in
``benchmarks/pattern_census.py``."""

from __future__ import annotations

from contextpull.dialects.jekyll import dialect as jekyll, liquid

N = 100_000


def _scope() -> liquid.Scope:
    return liquid.Scope(lookup=lambda path: None, tag=lambda name, args, line: None,
                        note=lambda *a: None)


def test_jekyll_code_elements_without_a_closer_stay_as_written():
    text = "<code>" * N + "tail"
    assert jekyll._code_elements(text) == text


def test_jekyll_code_element_is_the_shortest_from_the_first_opener():
    text = "<code>" * N + "a</code> after"
    assert jekyll._code_elements(text) == "`a` after"


def test_jekyll_include_parameters_in_a_long_word_run():
    assert jekyll._include_args("note.html " + "a" * N, _scope()) == ("note.html", {})
    assert jekyll._include_args("note.html " + "a" * N + "=1 b='two'", _scope()) == (
        "note.html", {"a" * N: "1", "b": "two"})
