"""Front matter in the shape nearly every page has, read without the YAML parser (issue 26,
"Titles and summaries"; the measured build time against ``plain``, target at most 1.5x).

Parsing is per page: on Hugo's documentation (946 pages) PyYAML's constructor and resolver,
Python even over libyaml's scanner, took 0.065 s of a 1.1 s build, and this reader takes 40% of
that (``benchmarks/dialect_steps.py``). Most front matter is a handful of ``key: value`` lines, a
nested mapping or two (``params:``), short lists (``- item``, ``[a, b]``). ``load`` reads exactly
that shape and declines (``DECLINED``) everything else, so that ``files.load_yaml`` reads it, with
its guards and its messages:

- only lines of a mapping entry (``key:`` with a name a plain scalar resolves to a string) or a
  sequence entry (``- value``), nested by indentation of spaces, each block's lines at one
  indentation; blank lines and whole-line comments;
- a value is a plain scalar on one line, an empty ``[]`` or ``{}``, a flow sequence on one line
  of plain scalars and quoted ones, or a quoted scalar without escapes, each perhaps followed by
  a comment (Hugo's docs write ``signatures: ['PAGES.GroupBy FIELD [SORT]']`` and
  ``expiryDate: 2028-06-06 # deprecated ...`` on 80 pages, which PyYAML read in 4.2 ms a pass
  and this reader in 1.5 ms);
- no tab, carriage return, YAML line break (NEL, U+2028, U+2029), byte order mark or character
  YAML does not allow; no anchor, alias, tag, ``key: a: b``, or anything a generator writes
  rarely.

A plain scalar's type is the one PyYAML gives it: its resolver picks the tag (YAML 1.1: bools
``yes``/``no``/``on``/``off``, ints, floats, nulls, timestamps) and its constructor for that tag
builds the value, so the values are PyYAML's by construction; any other tag declines.
``tests/test_dialect_plain_yaml.py`` holds the two readers side by side.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from .yaml_load import _Loader

# What a value declined is told apart by (None is a value: an empty document, a ``key:``).
DECLINED = object()

# PyYAML's reader refuses these (``Reader.NON_PRINTABLE``); a line break YAML 1.1 knows besides
# the newline, a tab, a carriage return and a byte order mark would each change how lines read.
# Written as the characters refused rather than as the complement of those allowed: the same set,
# compiled in a seventh of the time (7 ms, paid by every build that reads front matter).
_REFUSED = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
_ENTRY = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*):(?: +(.*))?\Z")
# A plain scalar may not start with an indicator (or a space), and these are the only tags
# whose constructors build a scalar value from the text alone.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@` ")
# Quoted scalars as PyYAML scans them on one line: a single-quoted one's quote doubled inside, a
# double-quoted one without escapes (declined rather than decoded). What may follow a value: a
# comment, which needs a space before its "#".
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
_DOUBLE = re.compile(r'"([^"\\]*)"')
_COMMENT = re.compile(r"(?: +#.*)?\Z")
# A flow sequence's plain item: none of the indicators that could make it something else.
_FLOW_PLAIN = re.compile(r"[^,\[\]{}#:'\"?]*")
_SPACES = re.compile(" *")
_TAGS = {
    f"tag:yaml.org,2002:{name}" for name in ("str", "bool", "int", "float", "null", "timestamp")
}
_STR = "tag:yaml.org,2002:str"
# YAML's bound on an implicit key's length is 1024 characters: longer ones are left to PyYAML.
_KEY_LIMIT = 1000

# The loader the fallback uses, for its resolver and constructors (neither keeps state between
# scalars): made once, never changed.
_LOADER = _Loader("")
# PyYAML's resolver tries only the implicit resolvers listed under a scalar's first character
# (under "" for the empty one) and those under None: a scalar whose first character lists none is
# a string, and asking the resolver for each was a tenth of this reader's time. The set is read
# from the loader, so it is the resolver's own; a wildcard or a path resolver would make any
# scalar typable, and then every one is asked.
_TYPABLE = (
    None
    if None in _LOADER.yaml_implicit_resolvers or _LOADER.yaml_path_resolvers
    else frozenset(_LOADER.yaml_implicit_resolvers)
)


def load(source: str) -> Any:
    """The value of the YAML document ``source`` when it has the shape the module docstring
    names, else ``DECLINED``."""
    if _REFUSED.search(source):
        return DECLINED
    lines = []
    for line in source.split("\n"):
        content = line.lstrip(" ")
        if content and not content.startswith("#"):
            lines.append((len(line) - len(content), content.rstrip(" ")))
    if not lines:
        return None  # an empty document, or comments only
    if lines[0][0] != 0:
        return DECLINED
    try:
        value, end = _block(lines, 0, 0)
    except _Declined:
        return DECLINED
    return value if end == len(lines) else DECLINED


class _Declined(Exception):
    pass


def _block(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[Any, int]:
    """The mapping or sequence whose lines start at ``lines[i]``, all at ``indent``; the value
    and the index of the first line after it."""
    if lines[i][1] == "-" or lines[i][1].startswith("- "):
        return _sequence(lines, i, indent)
    return _mapping(lines, i, indent)


def _sequence(lines, i: int, indent: int) -> tuple[list, int]:
    out: list = []
    while i < len(lines) and lines[i][0] == indent:
        content = lines[i][1]
        if not content.startswith("- "):
            raise _Declined
        out.append(_value(content[2:].lstrip(" ")))
        i += 1
        _after(lines, i, indent)
    return out, i


def _mapping(lines, i: int, indent: int) -> tuple[dict, int]:
    out: dict = {}
    while i < len(lines) and lines[i][0] == indent:
        entry = _ENTRY.match(lines[i][1])
        if entry is None:
            raise _Declined
        key = _plain(entry.group(1))
        if not isinstance(key, str) or len(key) > _KEY_LIMIT:
            raise _Declined
        text = entry.group(2)
        i += 1
        if text:
            out[key] = _value(text)
        elif i < len(lines) and lines[i][0] > indent:
            out[key], i = _block(lines, i, lines[i][0])
        elif i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("-"):
            raise _Declined  # a sequence at its key's own indentation: left to PyYAML
        else:
            out[key] = _plain("")
        _after(lines, i, indent)
    return out, i


def _after(lines, i: int, indent: int) -> None:
    """A line after an entry's value may not be indented deeper than the entry (it would
    continue it, or be an error), nor between this block's indentation and its parent's."""
    if i < len(lines) and lines[i][0] > indent:
        raise _Declined


def _value(text: str) -> Any:
    if text in ("[]", "{}"):
        return [] if text == "[]" else {}
    first = text[0]
    if first == "[":
        return _flow(text)
    if first == "'" or first == '"':
        value, end = _quoted(text, 0)
        if _COMMENT.match(text, end) is None:
            raise _Declined
        return value
    if " #" in text:  # a plain scalar ends where a comment starts, its spaces before it dropped
        text = text[: text.index(" #")].rstrip(" ")
    if first in _INDICATORS or ": " in text or text.endswith(":"):
        raise _Declined
    return _plain(text)


def _flow(text: str) -> list:
    """A flow sequence on one line: plain items as in a block, quoted ones as ``_value`` reads
    them; an item followed by anything but a comma or the closing bracket declines (``['a': b]``
    is a mapping in a sequence to PyYAML). Each step matches from where the last one stopped and
    none can backtrack into another, so a line is read in one pass."""
    items: list = []
    at = 1
    while True:
        at = _SPACES.match(text, at).end()
        first = text[at : at + 1]
        if first == "'" or first == '"':
            value, end = _quoted(text, at)
            items.append(value)
            at = _SPACES.match(text, end).end()
        else:
            plain = _FLOW_PLAIN.match(text, at)
            item = plain.group().rstrip(" ")
            if not item or item[0] in _INDICATORS:
                raise _Declined
            items.append(_plain(item))
            at = plain.end()
        stop = text[at : at + 1]
        if stop == "]":
            break
        if stop != ",":
            raise _Declined
        at += 1
    if _COMMENT.match(text, at + 1) is None:
        raise _Declined
    return items


def _quoted(text: str, at: int) -> tuple[str, int]:
    """The quoted scalar that opens at ``at`` (its quote decides which kind) and where it ends."""
    single = text[at] == "'"
    quoted = (_SINGLE if single else _DOUBLE).match(text, at)
    if quoted is None:
        raise _Declined
    return (quoted.group(1).replace("''", "'") if single else quoted.group(1)), quoted.end()


def _plain(text: str) -> Any:
    """A plain scalar's value, as PyYAML's resolver types it and its constructor builds it."""
    if _TYPABLE is not None and text[:1] not in _TYPABLE:
        return text
    tag = _LOADER.resolve(yaml.ScalarNode, text, (True, False))
    if tag == _STR:
        return text
    if tag not in _TAGS:
        raise _Declined
    try:
        return _LOADER.yaml_constructors[tag](_LOADER, yaml.ScalarNode(tag, text))
    except (ValueError, TypeError, OverflowError, yaml.YAMLError):  # 2023-02-30: PyYAML's message
        raise _Declined from None
