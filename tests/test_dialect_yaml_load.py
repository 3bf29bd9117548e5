"""Data and front matter through ``files.load_yaml``: a document without aliases is built by the
walk of its tree (``yaml_load._tree``), which must give exactly what PyYAML's constructor gives, types,
key order and errors included, or leave the document to it."""

from __future__ import annotations

import math

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.data import yaml_load


def _shape(value):
    """A value with its types spelled out: True is not 1, 1.0 is not 1, a date not a datetime."""
    if isinstance(value, dict):
        return ("dict", [(_shape(k), _shape(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_shape(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, repr(value))


def _outcome(load, text):
    try:
        return ("value", _shape(load(text)))
    except Exception as exc:  # noqa: BLE001 - the two must fail alike
        return ("error", type(exc).__name__, str(exc))


def _pyyaml(text):
    return yaml.load(text, Loader=yaml_load._Loader)  # noqa: S506 - the safe loader of yaml_load.py


def _same(text):
    assert _outcome(yaml_load._load, text) == _outcome(_pyyaml, text), text


DOCUMENTS = [
    "a: 1\nb: [x, 2, 3.5, ~, yes, 2023-01-02, 2001-12-14 21:59:43.10]\nc:\n  d: {e: f}\n",
    "a: 1\na: 2\nb: 3\n",  # a repeated key: the last value, at the first place
    "? [a, b]\n: 1\n",  # an unhashable key: PyYAML's error
    "? {a: b}\n: 1\n",
    "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n",  # a merge key, through an alias
    "<<: {x: 1}\ny: 2\n",  # a merge key without an alias
    "= : v\n",  # a value key
    "s: !!set {a, b}\no: !!omap [a: 1, b: 2]\np: !!pairs [a: 1]\n",
    "b: !!binary aGVsbG8=\nt: !!str 12\ni: !!int '7'\nf: !!float '1'\n",
    "x: !custom {a: 1}\ny: !other [1]\nz: !!python/name:os.system\n",
    "k: !ENV SOME_VAR\n",
    "- a\n- [b, {c: d}]\n- !!null ''\n",
    "plain text alone",
    "",
    "# only a comment\n",
    "a: *undefined\n",
    "a: [1, 2\n",
    "a: b: c\n",
    "1: one\n2.5: two\nyes: three\n~: four\n2023-01-02: date\n",
    "'quoted key': \"esc\\n\\t\\u00e9\"\nlit: |\n  line\n  two\nfold: >\n  a\n  b\n",
]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_each_document_reads_as_pyyaml_reads_it(text):
    _same(text)


_SCALARS = st.sampled_from(["a", "1", "1.5", "yes", "~", "''", "2023-01-02", "0x1F", "1_000", ".inf", "x y",
                            "!!str 5", "!!int '3'", "!tag v", "[]", "{}"])
_KEYS = st.sampled_from(["a", "b", "1", "yes", "~", "<<", "=", "[x]", "{y: 1}", "!!str k"])


def _node(depth):
    if depth == 0:
        return _SCALARS
    inner = _node(depth - 1)
    return st.one_of(
        _SCALARS,
        st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
        st.lists(st.tuples(_KEYS, inner), max_size=3).map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"),
    )


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_KEYS, _node(3)), min_size=1, max_size=5))
def test_any_flow_document_reads_as_pyyaml_reads_it(entries):
    _same("\n".join(f"{key}: {value}" for key, value in entries) + "\n")


def test_a_document_that_may_alias_is_pyyamls_own(monkeypatch):
    """The walk is for trees: a graph with an alias is built by PyYAML, whose objects an
    alias shares."""
    monkeypatch.setattr(yaml_load, "_tree", lambda *a: pytest.fail("walked a document with an alias"))
    value = yaml_load.load("a: &x [1]\nb: *x\n")
    assert value == {"a": [1], "b": [1]} and value["a"] is value["b"]
