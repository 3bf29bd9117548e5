"""Data printed as YAML without PyYAML's printer, in the shape a configuration section has
(issue 35, "build time against plain": the 1.5x target).

Hugo's ``code-toggle`` shows a section of the site's data file as YAML (``hugo.hugo_data``), and
PyYAML's printer is pure Python: the 42 sections Hugo's documentation shows took 0.024 s, paid by
every process that reads those pages. ``dump`` prints exactly what
``yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=False)`` prints,
for the shape nearly every such section has, and declines (``DECLINED``) everything else, which
the caller then gives to PyYAML:

- nested mappings with string keys and lists, in block style (a list under a key at the key's
  own indentation, as PyYAML writes it), an empty one as ``{}`` or ``[]``; not a top-level
  scalar, nor one mapping or list reached twice (PyYAML writes an anchor for it);
- scalars: ``null``, ``true``/``false``, ints, and strings of printable ASCII on one line:
  plain where PyYAML prints them plain (they read back as strings and nothing in them is an
  indicator where it stands), else in single quotes (empty, ``true``, ``2024-01-02``, a leading
  ``*`` or blank, ``: ``); no float, no key that is empty, no other string (a tab, a line
  break, a character past ASCII: PyYAML's own rules);
- no line longer than PyYAML's width of 80, past which it folds a scalar over lines.

``tests/test_dialect_yaml_print.py`` holds the two printers side by side.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

# What a value declined is told apart by.
DECLINED = object()

_WIDTH = 80
_STR = "tag:yaml.org,2002:str"
_PRINTABLE = re.compile(r"[\x20-\x7e]*")
# Characters that may not start a plain scalar (PyYAML's ``analyze_scalar``), a blank included.
_LEADING = frozenset("#,[]{}&*!|>'\"%@` ")
# The resolver PyYAML's safe printer asks whether a plain scalar reads back as a string: no
# state of its own beyond its class's tables, never changed.
_RESOLVER = yaml.resolver.Resolver()


class _Declined(Exception):
    pass


def dump(value: Any) -> str | object:
    """``value`` as PyYAML's safe printer prints it (module docstring), else ``DECLINED``."""
    if not isinstance(value, (dict, list)) or not value:
        return DECLINED
    lines: list[str] = []
    try:
        _node(value, 0, "", lines, {id(value)})
    except _Declined:
        return DECLINED
    return "\n".join(lines) + "\n"


def _node(value: dict | list, indent: int, first: str, lines: list[str], seen: set[int]) -> None:
    """A non-empty mapping or list whose lines start at column ``indent``; its first line
    starts with ``first`` instead (the ``- `` of the item it is the value of)."""
    if isinstance(value, dict):
        for n, (key, item) in enumerate(value.items()):
            if not isinstance(key, str) or not key:
                raise _Declined  # PyYAML writes an empty key, or one not a string, its own way
            head = (first if n == 0 else " " * indent) + _text(key) + ":"
            _item(head, item, indent + 2 if isinstance(item, dict) else indent, lines, seen)
    else:
        for n, item in enumerate(value):
            _item((first if n == 0 else " " * indent) + "-", item, indent + 2, lines, seen, inline=True)


def _item(head: str, item: Any, indent: int, lines: list[str], seen: set[int], inline: bool = False) -> None:
    """``head`` (``key:`` or ``-``) and its value: a block below it (or, after ``-``, from the
    same line on), or a scalar after it."""
    if isinstance(item, (dict, list)):
        if id(item) in seen:
            raise _Declined  # PyYAML writes an anchor and an alias
        seen.add(id(item))
    if isinstance(item, (dict, list)) and item:
        if inline:
            _node(item, indent, head + " ", lines, seen)
            return
        _line(lines, head)
        _node(item, indent, " " * indent, lines, seen)
        return
    _line(lines, head + " " + _scalar(item))


def _line(lines: list[str], line: str) -> None:
    if len(line) > _WIDTH:
        raise _Declined
    lines.append(line)


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{}"  # an empty one: a non-empty one is a block
    if isinstance(value, list):
        return "[]"
    if not isinstance(value, str):
        raise _Declined  # a float, a date: PyYAML's own rules
    return _text(value)


def _text(text: str) -> str:
    """A printable one-line string as PyYAML prints it: plain when it reads back as a string
    and is not ``_held_back``, else in single quotes (its quotes doubled)."""
    if _PRINTABLE.fullmatch(text) is None:
        raise _Declined
    if text and not _held_back(text) and _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == _STR:
        return text
    return "'" + text.replace("'", "''") + "'"


def _held_back(text: str) -> bool:
    """What keeps PyYAML from printing a non-empty printable one-line string plain in a block
    (its ``analyze_scalar``): a document marker, a leading indicator or blank, a leading ``-``,
    ``?`` or ``:`` alone or before a blank, a trailing blank, ``:`` before a blank or at the
    end, ``#`` after a blank."""
    return (text.startswith(("---", "...")) or text[0] in _LEADING
            or (text[0] in "-?:" and text[1:2] in ("", " ")) or text.endswith((" ", ":"))
            or ": " in text or " #" in text)
