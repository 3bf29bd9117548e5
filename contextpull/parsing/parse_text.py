"""Plain text to blocks (system-design.txt section 3, "Parse", the text rule).

Paragraphs are split on blank lines (a line of only whitespace is blank). A paragraph that is one
line, short and capitalised, and therefore stands between blank lines or the ends of the file, is
a level-2 heading, so a plain-text manual still gets a heading path per part.

The heading test is the one the published 0.2.1 parser applies, so text documents section and
title as in its stores (docs/agreement.md): at most 59 characters once trimmed, starting with an
ASCII capital letter or digit, holding no ``.``, ``!`` or ``?`` anywhere and not ending with
``:``. The spec's "title-cased" is read as "capitalised": ``Welcome to the team`` is a heading,
``Über Alles`` (not ASCII) and ``Version 2.1`` (a full stop) are not.

The title is the first such heading, else the file stem. The data model (system-design.txt
section 1) says "first H1, else file stem" and a text file has no H1, but the published writer
titles a text file by its first heading, and readers see the title in the index.
"""

from __future__ import annotations

import re

from .blocks import Block, Heading, Paragraph, ParsedDocument
from .parse_markdown import normalize_newlines

MAX_HEADING_CHARS = 59
_HEADING = re.compile(r"[A-Z0-9][^.!?]*")


def is_heading_line(line: str) -> bool:
    """Is this one-line paragraph a heading: short, capitalised, not a sentence?"""
    line = line.strip()
    return (
        len(line) <= MAX_HEADING_CHARS
        and not line.endswith(":")
        and _HEADING.fullmatch(line) is not None
    )


def parse_text(text: str, stem: str) -> ParsedDocument:
    """Parse plain ``text`` (already decoded) into paragraphs and level-2 headings."""
    blocks: list[Block] = []
    paragraph: list[str] = []
    title = ""

    def close() -> None:
        nonlocal title
        if not paragraph:
            return
        if len(paragraph) == 1 and is_heading_line(paragraph[0]):
            blocks.append(Heading(2, paragraph[0].strip()))
            title = title or paragraph[0].strip()
        else:
            blocks.append(Paragraph("\n".join(paragraph).strip()))
        paragraph.clear()

    for line in normalize_newlines(text).split("\n"):
        if line.strip():
            paragraph.append(line)
        else:
            close()
    close()
    return ParsedDocument(title or stem, blocks)
