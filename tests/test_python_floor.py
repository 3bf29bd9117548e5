"""The package supports Python 3.10 (``requires-python``), whose regular expressions have no
possessive quantifiers (``*+``) or atomic groups (``(?>...)``): a pattern written with one
compiles on the 3.11 that runs the tests and fails at import on 3.10. Every compiled pattern a
module keeps (at its top level, or in a dict or tuple there) is parsed here and refused if it
uses either."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import contextpull

try:  # the parser's module was renamed in 3.11
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - 3.10
    import sre_parse  # type: ignore[no-redef]

_NEWER = {"POSSESSIVE_REPEAT", "ATOMIC_GROUP"}


def _opcodes(parsed) -> set[str]:
    names: set[str] = set()
    for op, arg in parsed:
        names.add(str(op))
        for part in arg if isinstance(arg, (tuple, list)) else (arg,):
            if isinstance(part, sre_parse.SubPattern):
                names |= _opcodes(part)
            elif isinstance(part, (tuple, list)):
                for sub in part:
                    if isinstance(sub, sre_parse.SubPattern):
                        names |= _opcodes(sub)
    return names


def _patterns():
    for info in pkgutil.walk_packages(contextpull.__path__, "contextpull."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra's module (models, mcp) without its package
            continue
        for name, value in vars(module).items():
            values = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list, frozenset)) else (value,)
            for item in values:
                if isinstance(item, re.Pattern) and isinstance(item.pattern, str):
                    yield f"{info.name}.{name}", item


def test_no_pattern_needs_a_newer_python_than_the_package_supports():
    found = [(where, p.pattern) for where, p in _patterns()
             if _opcodes(sre_parse.parse(p.pattern, p.flags)) & _NEWER]
    assert found == []


def test_the_check_sees_a_possessive_quantifier():
    if not hasattr(sre_parse, "POSSESSIVE_REPEAT"):
        pytest.skip("this Python has no possessive quantifiers to find")
    assert _opcodes(sre_parse.parse(r'"[^"]*+"')) & _NEWER
    assert _opcodes(sre_parse.parse(r"(?:a|(?>b))")) & _NEWER
