"""The readings every page shares (``dialects/syntax/markup.py``)."""

from __future__ import annotations


def test_a_hard_line_breaks_backslash_is_not_on_the_page():
    """GitBook ends broken lines with a backslash, and writes one alone for an empty line:
    CommonMark's hard line break, which no page shows. An escaped backslash (two) stays."""
    from contextpull.dialects.syntax.markup import hard_breaks
    from contextpull.parsing.blocks import Code, ListBlock, Paragraph

    blocks = [Paragraph("A line.\\\nnext \\\\\nlast \\\\\\\n\\"), ListBlock("- item\\\n  more"),
              Code("sh", "```sh\nls \\\n  -l\n```")]
    assert hard_breaks(blocks) == [Paragraph("A line.\nnext \\\\\nlast \\\\\n"), ListBlock("- item\n  more"),
                                   Code("sh", "```sh\nls \\\n  -l\n```")]
