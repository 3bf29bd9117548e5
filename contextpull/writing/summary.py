"""Offline document summaries (system-design.txt section 3 "Summarize"; supplement.md
"Fingerprints and summaries").

The summary is the document title, then `` · `` and the first sentence of the opening prose when
that differs from the title, at most 160 characters (cut to 157 plus an ellipsis). It is what the
index shows for a document, so it must be deterministic and cheap.

Details the spec leaves open, settled to agree with the published implementation on the uv docs:
the opening prose is the document's non-heading blocks with whitespace collapsed; when it starts
with a code block or a table, or is shorter than 20 characters, there is no sentence worth
showing and the title stands alone; a sentence ends at ``.``, ``!`` or ``?`` followed by
whitespace.
"""

from __future__ import annotations

import re

from ..parsing.blocks import Code, Heading, ListBlock, Paragraph, ParsedDocument, Table

SUMMARY_MAX = 160
SEPARATOR = " · "
MIN_PROSE = 20
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
# Enough of the opening prose for any sentence that can still fit in a summary.
_PROSE_BUDGET = 4 * SUMMARY_MAX


def clip(text: str, limit: int = SUMMARY_MAX) -> str:
    """At most ``limit`` characters: longer text is cut to ``limit - 3`` plus an ellipsis."""
    return text if len(text) <= limit else text[: limit - 3] + "…"


def _block_text(block) -> str:
    if isinstance(block, Paragraph):
        return block.text
    if isinstance(block, (ListBlock, Table, Code)):
        return block.raw
    return ""


def opening_prose(doc: ParsedDocument) -> str:
    """The first non-heading text, whitespace collapsed; empty when it starts with code or a table."""
    pieces: list[str] = []
    size = 0
    for block in doc.blocks:
        if isinstance(block, Heading):
            continue
        if not pieces and isinstance(block, (Code, Table)):
            return ""
        words = _block_text(block).split()
        if not words:
            continue
        piece = " ".join(words)
        pieces.append(piece)
        size += len(piece) + 1
        if size > _PROSE_BUDGET:
            break
    return " ".join(pieces)


def first_sentence(prose: str) -> str:
    match = _SENTENCE_END.search(prose)
    return prose[: match.end()] if match else prose


def offline_summary(doc: ParsedDocument) -> str:
    title = doc.title
    prose = opening_prose(doc)
    if len(prose) < MIN_PROSE:
        return clip(title)
    sentence = first_sentence(prose)
    if sentence == title:
        return clip(title)
    return clip(title + SEPARATOR + sentence)
