"""One attribute-list grammar (issue 35): ``{#id .class key=value key="v w"}``, as Python-Markdown's
attr_list, kramdown (``{: ...}``), Pandoc/MyST, Hugo and remark-directive (Docusaurus) write it.

A list is ``{``, an optional ``:`` (kramdown's inline attribute list), blanks, one or more items
separated by blanks, blanks, ``}``. An item is ``#id``, ``.class``, ``key=value`` (the value bare,
or quoted with ``"`` or ``'``), or, where the syntax allows references (kramdown's ALD names,
remark-directive's boolean attributes), a bare word. No part of a list holds a brace or a
newline (attr_list's own rule, quoted values included), so the list a ``}`` closes can only open
at the last ``{`` before it: finding every list in a text reads it once however many braces it
holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

_STOP = frozenset(" \t\n\r\f\v{}=\"'")  # what ends a name: blanks, braces, ``=``, quotes
_BLANK = " \t"
_BARE_END = frozenset(" \t\n\r\f\v{}=")  # what ends attr_list's bare value: quotes do not


@dataclass
class AttributeList:
    """One list: where it stands (``start`` at ``{``, ``end`` past ``}``), what it says, and its
    text between the braces (``source``, without a kramdown ``:``)."""

    start: int
    end: int
    source: str
    kramdown: bool = False
    ids: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    pairs: dict[str, str] = field(default_factory=dict)
    words: list[str] = field(default_factory=list)


def read(text: str, at: int, kramdown: bool | None = None, words: bool = False,
         attr_list: bool = False) -> AttributeList | None:
    """The list that opens at ``text[at]`` (a ``{``), or None. ``kramdown``: True, the ``:`` is
    required; False, refused; None, either. ``words``: bare words are items. ``attr_list``: read
    as Python-Markdown's ``get_attrs`` scanner reads it (superfences' fence header): it takes
    tokens one after another, so an item may follow a quoted value with no blank (Textual's
    ``path="x.py", press="a"`` is ``path``, a word ``,`` and ``press``), and a bare value runs to
    a blank or ``=`` with quotes in it (``press=["a"]``)."""
    n = len(text)
    if not 0 <= at < n or text[at] != "{":
        return None
    i = at + 1
    colon = i < n and text[i] == ":"
    if colon:
        i += 1
    if (kramdown is True and not colon) or (kramdown is False and colon):
        return None
    body_start = i
    ids: list[str] = []
    classes: list[str] = []
    pairs: dict[str, str] = {}
    bare: list[str] = []
    items = 0
    while True:
        k = i
        while i < n and text[i] in _BLANK:
            i += 1
        if i >= n:
            return None
        char = text[i]
        if char == "}":
            if not items:
                return None
            return AttributeList(at, i + 1, text[body_start:i].strip(_BLANK), colon, ids, classes, pairs, bare)
        if char in _STOP or (items and k == i and not (attr_list and text[i - 1] in "\"'")):
            return None  # a brace, ``=`` or quote where an item starts; items are separated by blanks
        if char in "#.":
            name, i = _name(text, i + 1)
            if not name:
                return None
            (ids if char == "#" else classes).append(name)
        else:
            name, i = _name(text, i)
            if i < n and text[i] == "=":
                value, i = _value(text, i + 1, attr_list)
                if value is None:
                    return None
                pairs[name] = value
            elif words:
                bare.append(name)
            else:
                return None
        items += 1


def _name(text: str, i: int) -> tuple[str, int]:
    start = i
    while i < len(text) and text[i] not in _STOP:
        i += 1
    return text[start:i], i


def _value(text: str, i: int, attr_list: bool = False) -> tuple[str | None, int]:
    if attr_list and i < len(text) and text[i] not in _STOP:  # get_attrs' ``[^ =}]+=[^ =}]+``
        start = i
        while i < len(text) and text[i] not in _BARE_END:
            i += 1
        return text[start:i], i
    if i < len(text) and text[i] in "\"'":
        close = text.find(text[i], i + 1)
        if close < 0:
            return None, i
        value = text[i + 1 : close]
        if "{" in value or "}" in value or "\n" in value:
            return None, i
        return value, close + 1
    value, end = _name(text, i)
    return (value or None), end


def find_all(text: str, kramdown: bool | None = None, words: bool = False) -> Iterator[AttributeList]:
    """Every list in ``text``, left to right. A list holds no brace, so the only ``{`` that can
    open the list a ``}`` closes is the last one before it: one reading per ``}``, each over
    text no other reads."""
    last = 0
    close = text.find("}")
    while close != -1:
        at = text.rfind("{", last, close)
        if at != -1:
            found = read(text, at, kramdown, words)
            if found is not None:
                yield found
        last = close + 1
        close = text.find("}", last)


def trailing(line: str, kramdown: bool | None = None, words: bool = False) -> AttributeList | None:
    """The list that ends ``line`` (blanks after it allowed), or None: a heading's ``{#id}``, a
    fence's ``{ .python }``, a directive's ``[Title]{#id}``."""
    end = len(line.rstrip())
    if not end or line[end - 1] != "}":
        return None
    found = read(line, line.rfind("{", 0, end), kramdown, words)
    return found if found is not None and found.end == end else None


def whole_line(line: str, kramdown: bool | None = None, words: bool = False) -> AttributeList | None:
    """The list ``line`` holds alone (blanks around it), or None: a block attribute line."""
    start = len(line) - len(line.lstrip())
    found = read(line, start, kramdown, words)
    return found if found is not None and not line[found.end :].strip() else None
