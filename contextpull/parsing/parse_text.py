"""Plain text to blocks (system-design.txt section 3, "Parse", the text rule).

Paragraphs are split on blank lines (a line of only whitespace is blank). A paragraph that is one
line, short and title-cased, and therefore followed by a blank line or the end of the file, is a
level-2 heading, so a plain-text manual still gets a heading path per part.

"Short" is at most 60 characters. "Title-cased": the first word starts with a capital letter or
a digit, every other word that has letters starts with a capital unless it is a short joining word
(``of``, ``and``, ``with`` ...), and the line does not end like a sentence (``.``, ``!``, ``?``,
``:``). The title is the file stem: a text file has no H1 (data model, system-design.txt section 1).
"""

from __future__ import annotations

from .blocks import Block, Heading, Paragraph, ParsedDocument
from .parse_markdown import normalize_newlines

MAX_HEADING_CHARS = 60
_SMALL_WORDS = frozenset(
    "a an and as at but by for from in into nor of on or per the to vs via with".split()
)
_SENTENCE_END = (".", "!", "?", ":", ",", ";")


def is_heading_line(line: str) -> bool:
    """Is this one-line paragraph a heading: short, title-cased, not a sentence?"""
    line = line.strip()
    if not line or len(line) > MAX_HEADING_CHARS or line.endswith(_SENTENCE_END):
        return False
    if ". " in line or "? " in line or "! " in line:  # two sentences, not a title
        return False
    words = line.split()
    if not (words[0][0].isupper() or words[0][0].isdigit()):
        return False
    has_letters = False
    for word in words[1:]:
        first = next((c for c in word if c.isalpha()), None)
        if first is None:
            continue
        has_letters = True
        if not first.isupper() and word.lower().strip("()[]\"'") not in _SMALL_WORDS:
            return False
    return has_letters or words[0][0].isalpha()


def parse_text(text: str, stem: str) -> ParsedDocument:
    """Parse plain ``text`` (already decoded) into paragraphs and level-2 headings."""
    blocks: list[Block] = []
    paragraph: list[str] = []

    def close() -> None:
        if not paragraph:
            return
        if len(paragraph) == 1 and is_heading_line(paragraph[0]):
            blocks.append(Heading(2, paragraph[0].strip()))
        else:
            blocks.append(Paragraph("\n".join(paragraph).strip()))
        paragraph.clear()

    for line in normalize_newlines(text).split("\n"):
        if line.strip():
            paragraph.append(line)
        else:
            close()
    close()
    return ParsedDocument(stem, blocks)
