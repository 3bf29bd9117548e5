"""Plain-text parser: the rule of system-design.txt section 3."""

from __future__ import annotations

import pytest

from contextpull.parsing.blocks import Heading, Paragraph
from contextpull.parsing.parse_text import is_heading_line, parse_text
from contextpull.writing.section import section_document
from contextpull.config import Settings


def test_paragraphs_split_on_blank_lines_and_title_lines_become_level_two_headings():
    text = (
        "Introduction\n\nThis is text.\nMore text.\n\n   \n"
        "Getting Started with Python\n\nbody here\n"
    )
    doc = parse_text(text, "notes")
    assert doc.title == "Introduction"  # the first heading, as the published parser titles it
    assert doc.blocks == [
        Heading(2, "Introduction"),
        Paragraph("This is text.\nMore text."),
        Heading(2, "Getting Started with Python"),
        Paragraph("body here"),
    ]


def test_a_title_line_must_stand_alone_followed_by_a_blank_line():
    doc = parse_text("Title Line\nnext line directly\n\nSome text.\nLast Line Here\n\nbody", "s")
    assert not any(isinstance(b, Heading) for b in doc.blocks)


def test_title_line_at_end_of_file_counts():
    assert parse_text("body text.\n\nThe End", "s").blocks[-1] == Heading(2, "The End")


def test_without_a_heading_the_title_is_the_stem():
    assert parse_text("just some prose here.\n\nand more of it.", "notes").title == "notes"


@pytest.mark.parametrize(
    "line",
    [
        "Introduction",
        "API Reference",
        "Chapter 1",
        "Q&A Session",
        "The End of It All",
        "Getting started with python",  # capitalised is enough
        "2024",
        "Welcome to the field team",
    ],
)
def test_heading_lines(line):
    assert is_heading_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "just lower case",
        "Über Alles",  # the first character must be an ASCII capital or digit
        "Version 2.1 adds",  # no full stop anywhere
        "A Sentence That Ends.",
        "Where Are We?",
        "Example:",
        "Done. Next Thing",
        "x" + " Word" * 20,
        "A" * 60,  # longer than 59 characters
        "- Bullet Title",
    ],
)
def test_not_heading_lines(line):
    assert not is_heading_line(line)


def test_crlf_and_sections():
    words = "word " * 30
    text = f"Overview\r\n\r\n{words}\r\n\r\nDetails Part\r\n\r\n{words}\r\n"
    got = section_document(parse_text(text, "doc"), Settings())
    assert [(s.heading_path, s.level) for s in got] == [("Overview", 2), ("Details Part", 2)]
    assert got[0].text.startswith("## Overview\n\nword word")
    assert all("\r" not in s.text for s in got)


def test_empty_text_has_no_blocks():
    assert parse_text("\n \n", "s").blocks == []
