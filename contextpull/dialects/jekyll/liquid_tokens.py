"""Liquid's tags and outputs as its tokenizer finds them in a text (``template_tags.LIQUID``): where
each starts and ends, its name (None for an output), its body and its whitespace-control marks.

``Tokens`` keeps the tokens of one text found so far: a ``for`` loop renders its body once per
item (``liquid._loop``), and lexing the body again for each item was a tenth of reading Jekyll's
docs. ``next_token`` from a position gives what the text and the position alone decide, so each
answer is kept by position. A lexer only moves right and has looked at nothing past the start of
the token it last returned, so it answers any position from there on as a fresh one would; a
position before that (which another item can ask for: a nested loop written for one item and not
for the next) gets a fresh lexer.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..syntax.line_map import LineMap
from ..syntax.template_tags import LIQUID, Lexer

_TAG_NAME = re.compile(r"\s*(#|[A-Za-z_]\w*)")


class Token(NamedTuple):
    """One tag or output: a tuple, which a page makes one of per tag, is cheaper to make than a
    frozen dataclass (a ``setattr`` per field)."""

    start: int
    end: int
    name: str | None  # a tag's name; None for an output
    body: str  # a tag's arguments, or an output's expression
    trim_left: bool  # {%- or {{-
    trim_right: bool  # -%} or -}}


def next_token(lexer: Lexer, pos: int) -> Token | None:
    """The first tag or output at or after ``pos``, ending at its first closer as Liquid's
    tokenizer reads it (``template_tags.LIQUID``)."""
    while (tag := lexer.next(pos)) is not None:
        body = tag.body
        trim_left, trim_right = body.startswith("-"), body.endswith("-") and len(body) > 1
        body = body[1 if trim_left else 0 : len(body) - 1 if trim_right else len(body)]
        if tag.kind == "{":
            return Token(tag.start, tag.end, None, body, trim_left, trim_right)
        m = _TAG_NAME.match(body)
        if m is None:  # "{% %}" with no name is text to Liquid's lax reader; keep it
            pos = tag.end
            continue
        return Token(tag.start, tag.end, m.group(1), body[m.end() :], trim_left, trim_right)
    return None


class Tokens:
    """The tokens of one text found so far, and its lines (module docstring)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: dict[int, Token | None] = {}
        self._lexer = Lexer(text, LIQUID)
        self._at = 0  # ``_lexer`` has looked at nothing past this: it answers from here on
        self._lines: LineMap | None = None

    def next(self, pos: int) -> Token | None:
        """``next_token`` of the text from ``pos``."""
        if pos in self._found:
            return self._found[pos]
        if pos < self._at:
            self._lexer = Lexer(self.text, LIQUID)
        tok = self._found[pos] = next_token(self._lexer, pos)
        self._at = len(self.text) + 1 if tok is None else tok.start
        return tok

    def line(self, offset: int, first: int) -> int:
        """The line of ``offset`` when the text's first line is ``first``."""
        if self._lines is None:
            self._lines = LineMap(self.text, 0)
        return first + self._lines.index(offset)
