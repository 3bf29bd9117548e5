"""Named regions of a file, as VitePress finds them for ``<<< file#name`` and
``<!--@include: file#name-->`` (issue 36).

A region is the lines between an editor's folding markers: ``// #region name`` ...
``// #endregion``, and the same in the other comment styles editors fold (``#region`` /
``# region`` / ``#pragma region``, ``<!-- #region -->``, ``/* #region */``, ``(* #region *)``, and
the JSON key form ``"// #region name": "",``). A file's language is not known, so every style is
tried on every line, as VitePress does. A named end marker closes the innermost open region of
that name; an unnamed one the innermost opened in its own style. Every region of the asked name
that is not nested in another of the same name is taken, in order, and their lines joined.

Linear: a line is tested only when it holds ``region`` (any case), each style is an anchored
pattern that reads its characters one way (the name is taken as the rest of the line and
stripped in Python, never by a lazy group before ``\\s*$``), and at most ``MAX_OPEN`` regions are
open at once (a deeper opener is ignored), so closing one searches a bounded stack.
"""

from __future__ import annotations

import re
from typing import NamedTuple

MAX_OPEN = 64

# (start, end) per comment style; group 1 is the rest of the line (the name, with what closes the
# comment), cut down by ``_name``. Each is matched at a line's start; ``\A`` says so in the pattern
# too, so one searched by mistake still costs a step per position, not a run of blanks each.
_STYLES = (
    (re.compile(r"\A[ \t]*(?://[ \t]*#?|(?:--|::|@?[rR][eE][mM])[ \t]*#)region\b(.*)"),
     re.compile(r"\A[ \t]*(?://[ \t]*#?|(?:--|::|@?[rR][eE][mM])[ \t]*#)endregion\b(.*)")),
    (re.compile(r"\A[ \t]*#[ \t]*(?:#[ \t]*|pragma[ \t]+)?[rR]egion\b(.*)"),
     re.compile(r"\A[ \t]*#[ \t]*(?:#[ \t]*|pragma[ \t]+)?[eE]nd ?[rR]egion\b(.*)")),
    (re.compile(r"\A[ \t]*<!--[ \t]*#?region\b(.*)"), re.compile(r"\A[ \t]*<!--[ \t]*#?endregion\b(.*)")),
    (re.compile(r"\A[ \t]*/\*[ \t]*#region\b(.*)"), re.compile(r"\A[ \t]*/\*[ \t]*#endregion\b(.*)")),
    (re.compile(r"\A[ \t]*\(\*[ \t]*#region\b(.*)"), re.compile(r"\A[ \t]*\(\*[ \t]*#endregion\b(.*)")),
    (re.compile(r'\A[ \t]*"//+[ \t]*#region\b(.*)'), re.compile(r'\A[ \t]*"//+[ \t]*#endregion\b(.*)')),
)
_CLOSERS = ("-->", "*/", "*)")


class Region(NamedTuple):
    start: int  # the first line inside, 0-based
    end: int  # the end marker's line (exclusive end of the region)
    style: int  # the index in _STYLES of the opener's style


def _name(rest: str, style: int) -> str:
    """The region's name from the rest of a marker line: what closes the comment goes, and the
    quotes Visual Basic puts around a name."""
    rest = rest.strip()
    if style == 5:  # "// #region name": "",
        rest = rest.split('"', 1)[0].strip()
    for closer in _CLOSERS:
        if rest.endswith(closer):
            rest = rest[: -len(closer)].rstrip()
    if len(rest) >= 2 and rest[0] == rest[-1] == '"':
        rest = rest[1:-1]
    return rest


def _marker(line: str) -> tuple[bool, str, int] | None:
    """(is_start, name, style) of a marker line, None for any other line."""
    if "region" not in line.lower():
        return None
    for style, (start, end) in enumerate(_STYLES):
        m = start.match(line)
        if m is not None:
            return True, _name(m.group(1), style), style
        m = end.match(line)
        if m is not None:
            return False, _name(m.group(1), style), style
    return None


def find(lines: list[str], name: str) -> list[Region]:
    """The regions called ``name`` (module docstring), in order."""
    found: list[Region] = []
    open_: list[tuple[str, int, int]] = []  # (name, first line inside, style)
    for i, line in enumerate(lines):
        marker = _marker(line)
        if marker is None:
            continue
        is_start, label, style = marker
        if is_start:
            if len(open_) < MAX_OPEN:
                open_.append((label, i + 1, style))
            continue
        k = len(open_) - 1
        while k >= 0 and (open_[k][0] != label if label else open_[k][2] != style):
            k -= 1
        if k < 0:
            continue
        closed = open_[k]
        del open_[k:]
        if closed[0] == name and not any(o[0] == name for o in open_):
            found.append(Region(closed[1], i, closed[2]))
    return found


def without_markers(lines: list[str], styles: set[int] | None = None) -> list[str]:
    """``lines`` without the marker lines of ``styles`` (every style when None), whatever their name."""
    out = []
    for line in lines:
        marker = _marker(line)
        if marker is None or (styles is not None and marker[2] not in styles):
            out.append(line)
    return out


def dedent(lines: list[str]) -> list[str]:
    """The lines less their common indentation (blanks and tabs counted per character; blank
    lines do not count)."""
    widths = [len(line) - len(line.lstrip(" \t")) for line in lines if line.strip()]
    least = min(widths, default=0)
    return [line[least:] if line.strip() else line.strip(" \t") for line in lines]


def slug(text: str) -> str:
    """A heading's anchor as VitePress makes it by default: accents off, runs of white space and
    punctuation one ``-``, none at either end, lower case, a leading digit behind ``_``."""
    import unicodedata

    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = "".join(c for c in text if ord(c) >= 0x20)
    out: list[str] = []
    for c in text:
        if c.isspace() or c in _PUNCTUATION:
            if out and out[-1] != "-":
                out.append("-")
            elif not out:
                out.append("-")
        else:
            out.append(c)
    s = "".join(out).strip("-")
    if s[:1].isdigit():
        s = "_" + s
    return s.lower()


_PUNCTUATION = frozenset("~`!@#$%^&*()-_+=[]{}|\\;:\"'\u201c\u201d\u2018\u2019<>,.?/")
