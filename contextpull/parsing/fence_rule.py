"""One fence rule (issue 35): which line opens a fence, which closes it. It lives beside the
parser because the store's parser (``parse_markdown``) reads by it and the parser imports no
dialect; the dialects reach it through ``dialects.syntax.fences``, which masks code by it.

There are two readings and they are one mechanism with a parameter, not two copies:

- ``SHARED`` is the line-based reading of the published parser, which every dialect's output
  goes through: a run of three or more backticks or tildes after any spaces or tabs opens, any
  info string; a later line holding only that character, at least as many times, at any
  indentation, closes. Dialects mask code by it so that what they leave untouched is exactly
  what the store reads as code.
- ``COMMONMARK`` is markdown-it's, which MyST-Parser reads by: the closer sits at most three
  columns past the opener's own start (a list item's markers count as its start).

Openers after list markers (``- ```yaml``) are read only when the caller asks (``list_items``):
the shared parser does not see them, MyST and MDX do. Every test is a ``str`` method or a loop
that consumes what it reads: linear in the line.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """How far a closing line may be indented past the opener's start (None: any distance)."""

    closer_indent: int | None


SHARED = Rule(closer_indent=None)
COMMONMARK = Rule(closer_indent=3)


class Fence(NamedTuple):
    """An opening line: ``lead`` is what stands before the marker (indent, list markers),
    ``marker`` the run (```` ``` ````, ``~~~~``), ``info`` the rest of the line as written. (A
    tuple: the parser makes one per fenced block, and a tuple is the cheapest to make.)"""

    lead: str
    marker: str
    info: str

    @property
    def language(self) -> str:
        """The info string's first word ('' when none)."""
        words = self.info.split(None, 1)
        return words[0] if words else ""


def open_fence(line: str, list_items: bool = False) -> Fence | None:
    """The fence ``line`` opens, or None. With ``list_items``, list markers (``-``, ``1.``) and
    the blanks after them may stand before the marker, as many as a nested list has."""
    if "`" not in line and "~" not in line:
        return None  # most lines: one C-speed test
    body = line.lstrip(" \t")
    if list_items:
        body = _past_list_markers(body)
    char = body[:1]
    if char not in ("`", "~") or not body.startswith(char * 3):
        return None
    rest = body.lstrip(char)
    lead = line[: len(line) - len(body)]
    return Fence(lead, body[: len(body) - len(rest)], rest)


def _past_list_markers(body: str) -> str:
    """``body`` after any list markers, each followed by at least one space or tab."""
    while body:
        if body[0] in "-*+":
            after = body[1:]
        else:
            digits = len(body) - len(body.lstrip("0123456789"))
            if not 1 <= digits <= 9 or body[digits : digits + 1] not in (".", ")"):
                return body
            after = body[digits + 1 :]
        rest = after.lstrip(" \t")
        if rest is after or len(rest) == len(after):
            return body  # a marker needs a blank after it
        body = rest
    return body


def closes(line: str, fence: Fence, rule: Rule = SHARED) -> bool:
    """Does ``line`` close ``fence``: only the marker's character (white space around), at least
    as many times, indented within the rule's reach of the opener's start?"""
    marker = fence.marker
    if marker not in line:
        return False  # most code lines stop here
    stripped = line.strip()
    if stripped.strip(marker[0]):
        return False
    if rule.closer_indent is None:
        return True
    return len(line) - len(line.lstrip()) - len(fence.lead) <= rule.closer_indent


def close_index(lines: list[str], i: int, fence: Fence, rule: Rule = SHARED) -> int:
    """The index of the line that closes the fence opened at ``lines[i]``, or ``len(lines)``
    when none does (an unclosed fence runs to the end)."""
    marker = fence.marker
    for j in range(i + 1, len(lines)):
        if marker in lines[j] and closes(lines[j], fence, rule):  # most code lines fail the first test
            return j
    return len(lines)


def code_lines(lines: list[str], rule: Rule = SHARED, list_items: bool = False) -> Iterator[tuple[int, int, Fence]]:
    """(first, last + 1, fence) of each fenced block in ``lines``, closing line included (an
    unclosed one ends at ``len(lines)``): the line-level mask, for callers that walk lines."""
    i, n = 0, len(lines)
    while i < n:
        opened = open_fence(lines[i], list_items)
        if opened is None:
            i += 1
            continue
        end = min(close_index(lines, i, opened, rule) + 1, n)
        yield i, end, opened
        i = end


def fence_code(fence: Fence, lines: list[str]) -> list[str]:
    """The code ``lines`` of the block ``fence`` opens, as the block holds it: each line without
    the opener's lead (its indentation and any list markers before it, which the code under a
    list item's fence is indented by), or without what indentation the line has when less."""
    width = len(fence.lead)
    return [line[min(width, len(line) - len(line.lstrip(" \t"))):] for line in lines]

