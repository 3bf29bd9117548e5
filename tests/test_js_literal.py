"""The one reader of JavaScript literals and JSONC (contextpull/dialects/data/js_literal.py):
Nextra's ``_meta`` default export, a component's ``items`` array and ``tsconfig.json`` all go
through it."""

from __future__ import annotations

import json

import pytest

from contextpull.dialects.data.js_literal import LiteralError, jsonc, literal_array, object_at

TSCONFIG = """{
  // paths the site imports by alias
  "compilerOptions": {
    "baseUrl": ".", /* the project folder */
    "paths": {"@c/*": ["./components/*",], "https://x": ["a//b"],},
  },
}"""


def test_jsonc_reads_comments_and_trailing_commas_outside_strings():
    assert jsonc(TSCONFIG) == {"compilerOptions": {"baseUrl": ".", "paths": {"@c/*": ["./components/*"], "https://x": ["a//b"]}}}


@pytest.mark.parametrize("value", ["caf\u00e9 \"q\" \\ / \t\n\r\b\f", "\u2603"])
def test_jsonc_reads_json_string_escapes_as_json_does(value):
    text = json.dumps({"k": value})  # \u escapes, quotes, backslashes
    assert jsonc(text) == json.loads(text)


@pytest.mark.parametrize(("text", "why"), [
    ("", "is empty"),
    ('{"a": 1} x', "after the value"),
    ('{"a": undefinedValue}', "where a value stands"),
    ('{"a": [1, 2}', "in an array"),
    ('{"a": "b"', "ends inside the document"),
    ("[" * 1_000_000, "nested deeper than 32"),  # a megabyte of openers
    ('{"a": "' + "x" * 1_000_000, "where a value stands"),  # a string that never closes
    ("{ /* never closed" + " x" * 500_000, "where a key stands"),  # a comment that never closes
])
def test_a_malformed_jsonc_is_a_named_error(text, why):
    with pytest.raises(LiteralError, match=why):
        jsonc(text)


def test_a_lenient_object_loses_only_the_key_that_is_not_data():
    text = "{ a: <b>A</b>, b: f({x: '}'}), ...rest, 'c': `C`, d: [1, 'two', null], }"
    assert object_at(text, 0, "it") == {"c": "C", "d": [1.0, "two", None]}
    with pytest.raises(LiteralError, match="ends inside it"):
        object_at("{ a: 'A'", 0, "it")


def test_an_items_array_is_strict():
    assert literal_array(" ['a', {label: 'b'}] ") == ["a", {"label": "b"}]
    assert literal_array("['a', name]") is None
    assert literal_array("['a'] + more") is None
