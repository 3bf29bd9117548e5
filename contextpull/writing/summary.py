"""Offline document summaries (system-design.txt section 3 "Summarize"; supplement.md
"Fingerprints and summaries").

The summary is the document title, then `` · `` and the first sentence of the opening prose when
that differs from the title (ignoring case), at most 160 characters (cut to 157 plus an
ellipsis). It is what the index shows for a document, so it must be deterministic and cheap.

"The opening prose" is read section by section, as the published 0.2.1 writer reads it, so the
index lines agree with its stores (docs/agreement.md): a section's text without its lines that
start with ``#`` (headings) or are blank, whitespace collapsed. The first section whose text so
read is at least 20 characters long and does not start with a table (``|``) or a backtick fence
gives the sentence; a document that opens with a table takes its first prose section's sentence,
and the sentence never runs past its section (a slide, a sheet). A sentence ends at ``.``, ``!``
or ``?`` followed by whitespace.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .records import SectionRecord

SUMMARY_MAX = 160
SEPARATOR = " · "
MIN_PROSE = 20
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
_NOT_PROSE = ("|", "```")


def clip(text: str, limit: int = SUMMARY_MAX) -> str:
    """At most ``limit`` characters: longer text is cut to ``limit - 3`` plus an ellipsis."""
    return text if len(text) <= limit else text[: limit - 3] + "…"


def section_prose(text: str) -> str:
    """A section's text without heading and blank lines, whitespace collapsed."""
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return " ".join(" ".join(lines).split())


def opening_prose(sections: Iterable[SectionRecord]) -> str:
    """The prose of the first section that has some; empty when none has."""
    for section in sections:
        prose = section_prose(section.text)
        if len(prose) >= MIN_PROSE and not prose.startswith(_NOT_PROSE):
            return prose
    return ""


def first_sentence(prose: str) -> str:
    match = _SENTENCE_END.search(prose)
    return prose[: match.end()] if match else prose


def offline_summary(title: str, sections: Iterable[SectionRecord], description: str | None = None) -> str:
    """``description`` (a front-matter ``description``, issue 26) stands for the opening
    sentence when a dialect found one: it is what the author wrote to summarise the page."""
    sentence = description if description else first_sentence(opening_prose(sections))
    if not sentence or sentence.lower() == title.lower():
        return clip(title)
    return clip(title + SEPARATOR + sentence)
