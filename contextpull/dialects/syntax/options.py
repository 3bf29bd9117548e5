"""Directive and shortcode options, read once (issue 35): the ``:key: value`` lines under an rst
or MyST directive, and the ``key="value"`` arguments of a Hugo shortcode, a Liquid include or an
HTML-like tag.

Field lines are docutils' rule: a colon, a name of word characters and ``-``, a colon, then
white space or the end of the line. Arguments are Hugo's: a token is ``name=value`` or a bare
value, the value quoted (``"..."`` with backslash escapes, ``'...'``, a backtick raw string) or
a run of non-blank characters. Both are read by loops that consume what they look at, so a line
or a call costs one pass whatever it holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
# Each applied with ``match`` at one position; none can read a character two ways.
_BLANKS = re.compile(r"\s*")
_ARG_NAME = re.compile(r"[A-Za-z_][\w-]*")
_DOUBLE_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_BARE = re.compile(r"\S+")


def field(line: str, indented: bool = False) -> tuple[str, str] | None:
    """``:key: value`` as (key, value), the value stripped; None when ``line`` is not a field.
    With ``indented``, the line must start with white space (an rst directive's options)."""
    body = line.lstrip()
    if not body.startswith(":") or (indented and len(body) == len(line)):
        return None
    end = 1
    while end < len(body) and body[end] in _NAME_CHARS:
        end += 1
    if end == 1 or not body.startswith(":", end):
        return None
    rest = body[end + 1 :]
    if rest and not rest[0].isspace():
        return None
    return body[1:end], rest.strip()


def fields(lines: list[str], start: int = 0, indented: bool = False) -> tuple[dict[str, str], int]:
    """The run of field lines from ``lines[start]``: the options, and the index after the run."""
    options: dict[str, str] = {}
    j = start
    while j < len(lines):
        found = field(lines[j], indented)
        if found is None:
            break
        options[found[0]] = found[1]
        j += 1
    return options, j


class Argument(NamedTuple):
    """One argument: its name (None for a positional one), its value without quotes (``\\"``
    read as ``"`` in a double-quoted one), and the value as written (``raw``)."""

    name: str | None
    value: str
    raw: str


def arguments(text: str, spaced: bool = False) -> Iterator[Argument]:
    """The arguments of a call, left to right. With ``spaced``, blanks may stand around ``=``
    (Liquid's ``key = "v"``)."""
    i, n = 0, len(text)
    while True:
        i = _BLANKS.match(text, i).end()
        if i >= n:
            return
        named = _ARG_NAME.match(text, i)
        if named is not None:
            name, j = named.group(0), named.end()
            if spaced:
                while j < n and text[j] in " \t":
                    j += 1
            if j < n and text[j] == "=":
                j += 1
                if spaced:
                    while j < n and text[j] in " \t":
                        j += 1
                if j < n and not text[j].isspace():
                    raw, i = _value(text, j)
                    yield Argument(name, _unquoted(raw), raw)
                    continue
        raw, i = _value(text, i)
        yield Argument(None, _unquoted(raw), raw)


def _value(text: str, i: int) -> tuple[str, int]:
    """The value token at ``i`` as written, and where it ends: a closed quote, else the run of
    non-blank characters."""
    quote = text[i]
    if quote == '"':
        found = _DOUBLE_QUOTED.match(text, i)
        if found is not None:
            return found.group(0), found.end()
    elif quote in "'`":
        close = text.find(quote, i + 1)
        if close != -1:
            return text[i : close + 1], close + 1
    found = _BARE.match(text, i)
    return found.group(0), found.end()


def _unquoted(raw: str) -> str:
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"`'":
        value = raw[1:-1]
        return value.replace('\\"', '"') if raw[0] == '"' else value
    return raw
