"""Minimal Markdown documents, one per class of difference found between our plain sections and
the published 0.2.1 writer's on the MicrosoftDocs corpus (issue 40; docs/differences.md,
"Sectioning"). Sectioned with ``LIMIT`` so that each fits a few lines.

``AGREED`` are the classes where we now write what the published writer writes; ``KEPT`` are the
ones where the specification's words decide otherwise. Each input was run through both writers
(``ingest --max-chars 200`` against ``build --dialect plain --section-max-chars 200``) when it
was written: the first group gave identical sections, the second differed as documented.
"""

from __future__ import annotations

LIMIT = 200
MIN_CHARS = 40

INTRO = "# Guide\n\nAn introduction long enough to be a section of its own here.\n\n"
AFTER = "\n\nA closing paragraph, long enough to stand alone.\n"


def rows(n: int, width: int = 20, start: int = 0) -> str:
    """Body rows of ``width`` + 10 characters: ``| 000 | xxx… |``."""
    return "\n".join(f"| {i:03d} | {'x' * width} |" for i in range(start, start + n))


HEAD = "| No. | Value |\n|---|---|"  # 25 characters; a table of k rows is 25 + 31 k

AGREED = {
    # every line of a table without its trailing whitespace; a paragraph line keeps its own
    "table_row_trailing_space": INTRO + "| No. | Value | \n|---|---|  \n| 001 | one |\t\n\nA line with two trailing spaces  \nand its next line.\n",
    # a table of exactly LIMIT characters is not longer than the limit: it stays whole
    "table_of_exactly_the_limit": INTRO + HEAD + "\n" + rows(5) + "\n| 005 | " + "x" * 9 + " |" + AFTER,
    # after a heading, the first rows fill the section up to LIMIT characters itself
    "heading_and_rows_up_to_the_limit": INTRO + "## Values\n\n" + HEAD + "\n" + rows(4) + "\n| 004 | " + "x" * 29 + " |\n" + rows(3, start=5) + AFTER,
}

KEPT = {
    # published: the heading and a table that fits alone make one section over the limit
    "heading_and_table_over_the_limit": INTRO + "## Values of the table\n\n" + HEAD + "\n" + rows(5) + AFTER,
    # published: a heading of 40 characters or more alone before a table longer than the limit
    "heading_alone_before_a_long_table": INTRO + "## " + "A heading of more than forty characters, here" + "\n\n" + HEAD + "\n" + rows(8) + AFTER,
    # published: two headings alone, then a code block that does not fit with them
    "headings_before_a_code_block": INTRO + "## Platforms\n\n### Windows 10 and later versions\n\n```\n" + "\n".join(f"value = {i:03d}  # a line of code" for i in range(6)) + "\n```" + AFTER,
    # published: a document's last heading, with nothing under it, ends the section before it
    "bare_heading_at_the_end": INTRO + "## Requirements\n\nHeader: guide.h, with some more words.\n\n## See also\n",
    # published: headings before a table whose first row alone is longer than the limit end the
    # section before them
    "bare_heading_before_a_row_longer_than_the_limit": INTRO + "## Attribute\n\n" + HEAD + "\n| 000 | " + "y" * 190 + " |" + AFTER,
    # published: the last word's closing run of # is dropped even with no space before it
    "heading_closing_hash": "# Using the library from C#\n\nText under the title, long enough to be kept.\n\n## Escaped C\\#\n\nMore text under the second heading, long enough.\n",
    # published: prose with no space in the room left is cut inside a word
    "prose_without_space_cut_at_a_line_break": INTRO + "## Applies to\n\n" + "\n".join(f"[**Function{i:02d}**](/api/function{i:02d})" for i in range(8)) + "\n",
}

CASES = {**AGREED, **KEPT}
