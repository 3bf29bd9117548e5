"""The title a Sphinx ``:doc:`` reference shows: the title of the document it names (issue 26).

A ``:doc:`/lifecycle``` without a title of its own shows "Application Structure and Lifecycle"
on the page, not the path. That title lives in another file, so it is read through
``ctx.read_data`` (the guard, and a dependency of the document: when the other page's title
changes, this page's text changes with it). Only the title is looked for, cheaply: an rst
title (a line under, or between, a line of one punctuation character) or a Markdown title (a
front-matter ``title:`` or the first ``#`` heading). When there is none, the caller keeps the
path, which is the nearest text there is.
"""

from __future__ import annotations

import posixpath
import re

from ...api import Context
from ...syntax.fences import COMMONMARK, closes, open_fence

_SUFFIXES = (".rst", ".md", ".txt", "")
ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1{2,}\s*$")
_ATX_LEAD = re.compile(r"#\s+")
# A run of backticks longer than any a title writes: the pattern's time is cubic in one (a second
# for 4,000), so a title holding one is left as written. Every text the patterns below see is
# without one, so their runs are bounded at 16, which is the same there and linear anywhere.
LONG_TICKS = "`" * 17
CODE_SPAN = re.compile(r"(`{1,16})(.+?)\1")
_SCAN_LINES = 200  # a title is near the top; a page without one in 200 lines has none to give


def doc_title(ctx: Context, target: str, doc_folder: str, source_dir: str,
              cache: dict[str, str | None]) -> str | None:
    """The title of the document ``target`` names (``/x`` from the source directory, else from
    the citing document's folder), or None."""
    path = doc_path(target, doc_folder, source_dir)
    if outside(path):
        return None
    if path in cache:
        return cache[path]
    title = None
    for suffix in _SUFFIXES if not path.endswith(_SUFFIXES[:3]) else ("",):
        data = ctx.read_data(path + suffix)
        if data is not None:
            text = data.decode("utf-8", "replace").replace("\r\n", "\n")
            title = markdown_title(text) if (path + suffix).endswith(".md") else rst_title(text)
            break
    if title is not None:  # the link shows the title as plain text (Sphinx's clean_astext)
        title = code_as_text(title).strip()
    cache[path] = title
    return title


def doc_path(target: str, doc_folder: str, source_dir: str) -> str:
    """The repository path (without suffix) a ``:doc:`` target names."""
    if target.startswith("/"):
        return posixpath.normpath(posixpath.join(source_dir, target.lstrip("/")))
    return posixpath.normpath(posixpath.join(doc_folder, target))


def outside(path: str) -> bool:
    """Whether a ``doc_path`` leaves the repository: its title is never read, and the role
    that names it is reported as a refused read."""
    return path == ".." or path.startswith("../")


def atx_title(line: str) -> str | None:
    """The title of an ATX heading line (no newline in it), as ``#\\s+(.+?)\\s*#*\\s*$`` reads
    it, without that pattern, whose lazy title before two optional runs of blanks took time cubic
    in a run of blanks (60 s for a heading of 4,000): the title runs from after ``#`` and its
    blanks to where the line's tail of blanks, closing hashes and blanks begins, one character at
    least (of a line of blanks only, the last one, as the pattern gives one back)."""
    lead = _ATX_LEAD.match(line)
    if lead is None:
        return None
    start = lead.end()
    if start == len(line):
        return line[-1] if start >= 3 else None
    tail = len(line)
    while tail and line[tail - 1].isspace():
        tail -= 1
    while tail and line[tail - 1] == "#":
        tail -= 1
    while tail and line[tail - 1].isspace():
        tail -= 1
    return line[start : max(tail, start + 1)]


def code_as_text(title: str) -> str:
    """A title's inline code spans as their text, as a link shows them (``LONG_TICKS``)."""
    return title if LONG_TICKS in title else CODE_SPAN.sub(r"\2", title)


def rst_title(text: str) -> str | None:
    lines = text.split("\n", _SCAN_LINES)[:_SCAN_LINES]
    for i in range(len(lines) - 1):
        line, under = lines[i].strip(), lines[i + 1].rstrip()
        if line and not ADORNMENT.match(line) and ADORNMENT.match(under):
            return plain_title(line)
    return None


def plain_title(title: str) -> str:
    """An rst title's inline markup as the page shows it: literals as code, roles as text."""
    # The role's name bounded and its text taken whole, blanks cut after, as ``rst.lines`` reads
    # a role: the same titles, where a lazy text before ``\\s*`` retried a run of blanks at
    # every step and an unbounded name ran each ``:`` of a run to its end.
    title = re.sub(r":[\w:.+-]{1,64}:`([^`<]*)(?:<[^`]*>)?`", lambda m: _target(m.group(1).rstrip()), title)
    title = re.sub(r"``([^`]+)``", r"`\1`", title)
    return re.sub(r"\*{1,2}([^*]+)\*{1,2}", r"\1", title)


def _target(text: str) -> str:
    text = text.lstrip("!")
    return text[1:].rsplit(".", 1)[-1] if text.startswith("~") else text


def markdown_title(text: str) -> str | None:
    lines = text.split("\n", _SCAN_LINES)[:_SCAN_LINES]
    start = 0
    if lines and lines[0].strip() == "---":
        for j in range(1, len(lines)):
            if lines[j].strip() == "---":
                for line in lines[1:j]:
                    key, colon, value = line.partition(":")
                    if colon and key.strip() == "title" and value.strip():
                        return value.strip().strip("'\"")
                start = j + 1
                break
    fence = None
    for line in lines[start:]:
        if fence is not None:
            if closes(line, fence, COMMONMARK):
                fence = None
            continue
        fence = open_fence(line)
        if fence is None:
            title = atx_title(line)
            if title is not None:
                return title
    return None
