"""Markdown to blocks: a line-based parser, no HTML rendering (system-design.txt section 3).

Why line-based: the sections we store must be the author's text verbatim, so the parser only has to
find block boundaries (headings, fences, pipe tables, paragraphs and lists) and never re-renders
inline markup. One pass over the lines, each line looked at a bounded number of times, so a
50,000-character line or a 2,000-heading file costs what it weighs.

Rules, in the order they are tried at the start of a block:

* front matter: a ``---`` line as the very first line, closed by the next ``---`` line; its
  ``title:`` is kept for the title, everything else is dropped. Without a closing line it is text
  (its ``title:`` still counts, as in the published parser).
* fenced code: three or more backticks or tildes, any indentation, any info string
  (```` ```toml title="x" ````); closed by a line of the same character at least as long; an
  unclosed fence runs to the end of the file.
* ATX heading: one to six ``#`` at the start of the line, then whitespace; a closing run of ``#``
  after whitespace is dropped (``## C# ##`` is "C#").
* setext heading: a line followed by ``===`` (level 1) or ``---`` (level 2), three or more.
* pipe table: a line with ``|`` followed by an alignment row (``|:--|--:|``, every cell at least
  two dashes, as the published parser has it); body rows are the following lines that contain
  ``|``. Outer pipes are optional; a table may have no body. Every line of a table is kept
  without its trailing whitespace (``| A | B | `` is ``| A | B |``), as the published writer
  keeps it (docs/agreement.md, "Table rows: trailing whitespace").
* otherwise a paragraph, or a list when its first line starts with a list marker: the following
  non-blank lines up to a blank line, a fence, an ATX heading or a table.

The title is the front-matter title, else the first H1 (when its text is empty, the stem), else
the file stem. The data model in section 1 says "first H1, else file stem" and front matter is
"parsed for title"; the published 0.2.1 gives front matter precedence, and existing stores and
golden files embody that, so we do too (docs/agreement.md). Paragraph and list text is stripped
of outer whitespace, never reflowed.
"""

from __future__ import annotations

import re

from .fence_rule import SHARED, Fence, close_index, open_fence
from .blocks import Block, Code, Heading, ListBlock, Paragraph, ParsedDocument, Table

_ATX = re.compile(r"(#{1,6})\s")
_SETEXT = re.compile(r"(={3,}|-{3,})\s*$")
_SEP_CELL = re.compile(r":?-{2,}:?")
_LIST_MARKER = re.compile(r"\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)")


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR become LF, so every parser sees one line ending."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _atx(line: str) -> Heading | None:
    """``## Title ##`` -> Heading(2, 'Title'); None when the line is not an ATX heading."""
    if not line.startswith("#"):
        return None
    m = _ATX.match(line)
    if m is None:
        return None
    rest = line[m.end(1) :].strip()
    if rest.endswith("#"):
        # A closing run counts only after whitespace (or as the whole text): "C#" is a name.
        bare = rest.rstrip("#")
        if not bare or bare[-1] in " \t":
            rest = bare.rstrip()
    return Heading(len(m.group(1)), rest)


def is_table_start(lines: list[str], i: int) -> bool:
    """A line with a pipe, followed by an alignment row such as ``|:--|--:|`` or ``--- | ---``.
    Public for the readers that must know a table row before this parser sees it (an MDX
    cell's ``<br/>``), so the rule stays this one."""
    if "|" not in lines[i] or i + 1 >= len(lines):
        return False
    sep = lines[i + 1].strip()
    if "|" not in sep or "-" not in sep:
        return False
    if sep.startswith("|"):
        sep = sep[1:]
    if sep.endswith("|"):
        sep = sep[:-1]
    return all(_SEP_CELL.fullmatch(cell.strip()) for cell in sep.split("|"))


def _front_matter(lines: list[str]) -> tuple[str, int]:
    """(front-matter title or "", index of the first line after the front matter).

    "Parsed for title" (system-design.txt section 3) as the published 0.2.1 parser reads it, so
    titles agree with its stores: every line with a colon is a ``key: value`` pair, the key
    trimmed and lower-cased (an indented ``title:`` counts), the value trimmed of whitespace and
    then of quote characters at both ends; the last ``title`` wins. An unclosed block still
    gives its title, but then every line is document text.
    """
    if not lines or lines[0].strip() != "---":
        return "", 0
    title = ""
    for j in range(1, len(lines)):
        line = lines[j]
        if line.strip() == "---":
            return title, j + 1
        key, colon, value = line.partition(":")
        if colon and key.strip().lower() == "title":
            title = value.strip().strip("'\"")
    return title, 0


def _fence(lines: list[str], i: int, opened: Fence) -> tuple[Code, int]:
    n = len(lines)
    j = close_index(lines, i, opened, SHARED)
    if j < n:
        return Code(opened.language, "\n".join(lines[i : j + 1])), j + 1
    end = n  # unclosed: runs to end of file, trailing blank lines dropped
    while end > i + 1 and not lines[end - 1].strip():
        end -= 1
    return Code(opened.language, "\n".join(lines[i:end])), n


def table_end(lines: list[str], i: int) -> int:
    """Index past the last row of the table whose header is line ``i`` (``is_table_start``)."""
    n = len(lines)
    j = i + 2
    while j < n and "|" in lines[j] and lines[j].strip():
        j += 1
    return j


def _table(lines: list[str], i: int) -> tuple[Table, int]:
    j = table_end(lines, i)
    # Each line without its trailing whitespace (str.rstrip: any Unicode space), as the published
    # writer stores table rows; leading whitespace stays. Paragraph lines keep theirs.
    kept = [line.rstrip() for line in lines[i:j]]
    return Table(kept[0], kept[1], tuple(kept[2:]), "\n".join(kept)), j


def _interrupts(lines: list[str], j: int) -> bool:
    """Does line j end a running paragraph or list (blank, a fence, ATX heading or table start)?"""
    line = lines[j]
    if not line or line.isspace():
        return True
    if line[0] == "#" and _atx(line) is not None:
        return True
    if open_fence(line) is not None:
        return True
    return "|" in line and is_table_start(lines, j)


def parse_markdown(text: str, stem: str) -> ParsedDocument:
    """Parse Markdown ``text`` (already decoded) into a title and a block stream."""
    lines = normalize_newlines(text).split("\n")
    fm_title, i = _front_matter(lines)
    n = len(lines)
    blocks: list[Block] = []
    h1_title: str | None = None
    while i < n:
        line = lines[i]
        if not line or line.isspace():
            i += 1
            continue
        fence = open_fence(line) if ("`" in line or "~" in line) else None  # the test inline: most lines
        if fence is not None:
            block, i = _fence(lines, i, fence)
            blocks.append(block)
            continue
        heading = _atx(line)
        if heading is None and i + 1 < n and _SETEXT.match(lines[i + 1]):
            heading = Heading(1 if lines[i + 1][0] == "=" else 2, line.strip())
            i += 1
        if heading is not None:
            blocks.append(heading)
            if heading.level == 1 and h1_title is None:
                h1_title = heading.text  # the first H1, even when empty (then the stem)
            i += 1
            continue
        if is_table_start(lines, i):
            table, i = _table(lines, i)
            blocks.append(table)
            continue
        j = i + 1
        while j < n:
            # _interrupts, with its cheap tests first: most lines of a paragraph hold none of
            # the characters that could end it.
            nxt = lines[j]
            if not nxt or nxt.isspace():
                break
            if ("#" in nxt or "|" in nxt or "`" in nxt or "~" in nxt) and _interrupts(lines, j):
                break
            j += 1
        body = "\n".join(lines[i:j]).strip()
        blocks.append(ListBlock(body) if _LIST_MARKER.match(line) else Paragraph(body))
        i = j
    return ParsedDocument(fm_title or h1_title or stem, blocks)
