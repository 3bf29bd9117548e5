"""The block stream every parser produces (system-design.txt section 3, "Parse").

Parsers turn a file into a title plus blocks; the sectioner turns blocks into sections. Keeping
the two apart means a new format (docx, PDF) only has to produce these five shapes.

``raw`` is the block's exact source text as it will appear in ``sections.text``; the other fields
are the structure the sectioner needs (heading levels, table rows for splitting).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Markdown's six levels: deeper headings from docx outlines or PDF font sizes are clamped to it.
MAX_HEADING_LEVEL = 6


# Plain slotted dataclasses, not frozen ones: a parse makes one per block (240k for the uv docs
# x62), and a frozen dataclass takes three times as long to construct (object.__setattr__ per
# field). Nothing hashes or mutates blocks.
@dataclass(slots=True)
class Heading:
    level: int
    text: str
    # The name the page's table of contents gives the heading, when a generator gives one that is
    # not its text (``dialects/syntax/heading_label``): heading paths take it. No parser of a
    # source format sets it; plain reading never does.
    label: str | None = None


@dataclass(slots=True)
class Paragraph:
    text: str


@dataclass(slots=True)
class Table:
    header_row: str  # the header line, verbatim
    separator: str  # the alignment row, verbatim
    rows: tuple[str, ...]  # body rows, verbatim, one line each
    raw: str  # the whole table as written


@dataclass(slots=True)
class Code:
    lang: str  # info string, possibly empty
    raw: str  # the whole fenced block including fences


@dataclass(slots=True)
class ListBlock:
    raw: str


Block = Heading | Paragraph | Table | Code | ListBlock


@dataclass
class ParsedDocument:
    """What a parser returns: the title (first H1, front-matter title, else file stem) and blocks."""

    title: str
    blocks: list[Block] = field(default_factory=list)


class ParseError(Exception):
    """A file that cannot become blocks. The message is the skip reason shown to the user."""
