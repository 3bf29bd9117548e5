"""Containers and directives, found once (issue 35): a block that opens on one line and holds a
body of Markdown, ended by a closing line or by its indentation. Each generator's syntax is a line
rule here (and ``container_tree.scan`` reads any of them into a tree):

- ``MYST``: MyST directives, ```` ```{name} argument ```` and ``:::{name} argument`` (a list
  item's markers may stand before them), closed by CommonMark's fence rule (the same character,
  at least as many, at most three columns past the opener's start); code fences nest alike.
- ``COLONS``: remark-directive's ``:::name title`` (Docusaurus), closed by a line of colons
  alone, at least as many as the innermost open container's.
- ``SLASHES``: pymdown blocks ``/// name | title``, closed by a line of exactly as many
  slashes; an inner block of the same count opens a level. Fenced code inside is skipped.
- ``ADMONITIONS``: Python-Markdown ``!!! note "Title"``, pymdown details ``???``/``???+`` and
  content tabs ``=== "Label"``: the body is the lines indented four columns past the opener.
- ``CALLOUTS``/``EXTENDED_CALLOUTS``: GitHub's ``> [!NOTE]`` (Hugo's ``> [!NOTE]+ Title``):
  the body is the rest of the blockquote, one ``>`` level off.
- ``RST``: rst directives ``.. name:: argument`` (``.rst`` pages, MyST's ``eval-rst``) as the
  line scans read them (docutils reads the page itself): the body is the lines indented more
  than the ``..``.

Why one place: each dialect read its own syntax with its own copy of the same three jobs (an
opener's name and title, the closing rule that matches the opener's length, the nesting bound),
and every copy had to be made linear on its own. Nesting stops at ``MAX_NESTING`` (20,
markdown-it's ``maxNesting``): a deeper opener is body text. Every line rule is a ``str`` test
or a pattern that reads each character one way, and every body rule a loop that consumes what
it reads, so a page costs a pass times a constant.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ...parsing.fence_rule import COMMONMARK, SHARED, Fence, close_index, closes, open_fence

MAX_NESTING = 20


class Opener(NamedTuple):
    """An opening line: ``indent`` is what stands before the marker, ``marker`` the run whose
    length the closer must match (``:::``, ```` ``` ````, ``///``, ``!!!``, ``???+``, ``===``,
    ``>``), ``name`` the directive or type (None for a MyST code fence), ``title`` the rest of
    the line as the syntax reads it (None when none is given)."""

    indent: str
    marker: str
    name: str | None
    title: str | None


# ---- line rules ------------------------------------------------------------------------------

# MyST: a fence, after any list markers, with ``{name}`` for a directive (a list item's markers
# count as the indent). Each group reads its characters one way: the pattern is linear.
MYST_LINE = re.compile(r"^([ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*)(`{3,}|~{3,}|:{3,})\s*(?:\{([^}\s]+)\})?(.*)$")


def myst(line: str) -> Opener | None:
    """A MyST directive (``name`` set) or code fence (``name`` None) ``line`` opens; a colon
    fence without ``{name}`` is text."""
    if "`" not in line and "~" not in line and ":" not in line:
        return None
    m = MYST_LINE.match(line)
    if m is None or (m.group(3) is None and m.group(2)[0] == ":"):
        return None
    return Opener(m.group(1), m.group(2), m.group(3), m.group(4))


def myst_closes(line: str, opener: Opener) -> bool:
    return closes(line, Fence(opener.indent, opener.marker, ""), COMMONMARK)


def myst_close(lines: Sequence[str], i: int, opener: Opener) -> int:
    """The index of the line closing the MyST fence or directive opened at ``i`` (nothing
    inside counts), or ``len(lines)`` when none does."""
    return close_index(lines, i, Fence(opener.indent, opener.marker, ""), COMMONMARK)


# remark-directive: ``:::name rest`` or a closing line of colons (name None, rest blank).
COLON_LINE = re.compile(r"^([ \t]*)(:{3,})[ \t]*([A-Za-z][\w-]*)?(.*)$", re.M)


def colons(line: str, pos: int = 0) -> Opener | None:
    """A ``:::`` line (in ``line`` from ``pos``, to the next newline) as (indent, colons, name,
    rest); ``name`` None on a closing line."""
    m = COLON_LINE.match(line, pos)
    return None if m is None else Opener(m.group(1), m.group(2), m.group(3), m.group(4))


def colon_closer(found: Opener) -> bool:
    """Is a ``:::`` line a closer: colons alone, white space around."""
    return found.name is None and not found.title.strip()


def colon_closes(found: Opener, opened: Opener) -> bool:
    """Does the ``:::`` line ``found`` close ``opened``: a closer at least as long."""
    return colon_closer(found) and len(found.marker) >= len(opened.marker)


# pymdown blocks. The title starts and ends with a character that is not a blank (a lazy
# ``(.*?)`` before ``[ \t]*$`` was quadratic in a run of blanks: 13.5 s for 64,000).
SLASH_OPEN = re.compile(r"^([ \t]*)(/{3,})[ \t]*([\w-]+)[ \t]*(?:\|[ \t]*(?![ \t])((?:[^\n \t]|[ \t]+(?=[^\n \t]))*))?[ \t]*$")
_SLASH_CLOSE = re.compile(r"^[ \t]*(/{3,})[ \t]*$")
SLASH_OPTION = re.compile(r"^[ \t]+[\w-]+[ \t]*:")


def slashes(line: str) -> Opener | None:
    if "///" not in line:
        return None
    m = SLASH_OPEN.match(line)
    return None if m is None else Opener(m.group(1), m.group(2), m.group(3), m.group(4))


def slash_closer(line: str) -> int:
    """The slash count of a closing ``///`` line (0: not one)."""
    m = _SLASH_CLOSE.match(line) if "///" in line else None
    return 0 if m is None else len(m.group(1))


def slash_close(lines: Sequence[str], start: int, count: int) -> int:
    """The index of the line closing a block of ``count`` slashes whose body starts at
    ``start`` (``len(lines)`` if none): fenced code is skipped, and an inner block of the same
    count opens a level. One pass over the body."""
    depth, j, n = 0, start, len(lines)
    while j < n:
        text = lines[j]
        fence = open_fence(text)
        if fence is not None:
            j = fence_end(lines, j, fence)
            continue
        closer = slash_closer(text)
        if closer == count:
            if depth == 0:
                return j
            depth -= 1
        elif closer == 0:
            opener = slashes(text)
            if opener is not None and len(opener.marker) == count:
                depth += 1
        j += 1
    return n


def fence_end(lines: Sequence[str], i: int, fence: Fence) -> int:
    """The index after the fenced block opening at ``i`` (an unclosed fence runs to the end)."""
    for j in range(i + 1, len(lines)):
        if closes(lines[j], fence, SHARED):
            return j + 1
    return len(lines)


# Python-Markdown admonitions, pymdown details, content tabs: bodies by indentation.
_ADMONITION = re.compile(r'^([ \t]*)(!!!|\?\?\?\+?)[ \t]+([\w-]+)((?:[ \t]+[\w-]+)*)[ \t]*(?:"(.*)")?[ \t]*$')
_TAB = re.compile(r'^([ \t]*)===[!+]{0,2}[ \t]+"(.*)"[ \t]*$')


def admonition(line: str) -> Opener | None:
    """``!!! kind "Title"`` (title None without quotes, '' for ``""``), ``??? kind``, ``???+ kind``."""
    if "!!!" not in line and "???" not in line:
        return None
    m = _ADMONITION.match(line)
    return None if m is None else Opener(m.group(1), m.group(2), m.group(3), m.group(5))


def tab(line: str) -> Opener | None:
    """``=== "Label"``: a content tab, its label the title."""
    m = _TAB.match(line) if "===" in line else None
    return None if m is None else Opener(m.group(1), "===", None, m.group(2))


def width(text: str) -> int:
    """The columns of a line's indentation, a tab as four."""
    expanded = text.replace("\t", "    ")
    return len(expanded) - len(expanded.lstrip(" "))


def indented_end(lines: Sequence[str], start: int, need: int) -> int:
    """The end (exclusive) of the body from ``start``: blank lines and lines indented at least
    ``need`` columns; trailing blank lines are left out."""
    j, end, n = start, start, len(lines)
    while j < n:
        text = lines[j]
        if text.strip():
            if width(text) < need:
                break
            end = j + 1
        j += 1
    return end


# GitHub callouts: exactly ``[!TYPE]`` on the quote's first line; Hugo's extended form adds a
# fold sign and a title (which starts and ends with a character that is not a blank, so a run
# of blanks is read one way only).
CALLOUT_KINDS = ("note", "tip", "important", "warning", "caution")
_CALLOUT = re.compile(r"^([ \t]*)>[ \t]?\[!([A-Za-z]+)\][ \t]*$")
_EXTENDED = re.compile(r"^([ \t]*)>[ \t]?\[!([A-Za-z]+)\][+-]?(?:[ \t]+(?![ \t])((?:[^\n \t]|[ \t]+(?=[^\n \t]))*))?[ \t]*$")
_QUOTED = re.compile(r"^([ \t]*)>[ \t]?(.*)$")


def callout(line: str, extended: bool = False) -> Opener | None:
    """A ``> [!TYPE]`` line of a kind GitHub renders; with ``extended``, Hugo's titled form."""
    if "[!" not in line:
        return None
    m = (_EXTENDED if extended else _CALLOUT).match(line)
    if m is None or m.group(2).lower() not in CALLOUT_KINDS:
        return None
    title = m.group(3) if extended else None
    return Opener(m.group(1), ">", m.group(2), title)


def quote_body(lines: Sequence[str], start: int, indent: str) -> tuple[list[str], int]:
    """The blockquote's remaining lines with one ``>`` level removed, and the index after it.
    A non-blank line without ``>`` continues a paragraph (CommonMark's lazy continuation)."""
    body: list[str] = []
    j = start
    while j < len(lines):
        line = lines[j]
        m = _QUOTED.match(line)
        if m is not None and m.group(1) == indent:
            body.append(m.group(2))
        elif line.strip() and body and body[-1].strip() and not line.lstrip().startswith("#") and not open_fence(line.lstrip()):
            body.append(line.strip())
        else:
            break
        j += 1
    return body, j


# rst directives (``.. name:: argument``, in ``.rst`` pages and MyST's ``eval-rst``): the body
# is the lines indented more than the ``..``. The name's characters include ``:``, so the pattern
# may give back the name one character at a time to find ``::``: once per line, anchored.
_RST_DIRECTIVE = re.compile(r"(\s*)\.\.\s+([\w:.+-]+)::(.*)\Z")


def rst(line: str) -> Opener | None:
    """``.. name:: argument`` as (indent, "..", name, argument as written)."""
    m = _RST_DIRECTIVE.match(line) if ".." in line else None
    return None if m is None else Opener(m.group(1), "..", m.group(2), m.group(3))


def rst_body(lines: Sequence[str], start: int, indent: int) -> tuple[list[str], int]:
    """The lines from ``start`` indented more than ``indent`` columns (blank ones included,
    trailing ones left out), dedented by their least indentation, and the index after them."""
    end, n = start, len(lines)
    while end < n and (not lines[end].strip() or lead(lines[end]) > indent):
        end += 1
    stop = end
    while stop > start and not lines[stop - 1].strip():
        stop -= 1
    body = lines[start:stop]
    least = min((lead(b) for b in body if b.strip()), default=0)
    return [b[least:] for b in body], stop


def lead(line: str) -> int:
    """The blanks before a line's text, counted as characters (the rst line rule's indent)."""
    return len(line) - len(line.lstrip())
