"""Offline summaries (supplement.md "Fingerprints and summaries"), over hand-made block streams."""

from __future__ import annotations

from contextpull.parsing.blocks import Code, Heading, ListBlock, Paragraph, ParsedDocument, Table
from contextpull.writing.summary import clip, first_sentence, offline_summary


def doc(title, *blocks):
    return ParsedDocument(title, list(blocks))


def test_title_then_first_sentence():
    d = doc("Caching", Heading(1, "Caching"), Paragraph("uv caches wheels aggressively. It also prunes."))
    assert offline_summary(d) == "Caching · uv caches wheels aggressively."


def test_sentence_ends_only_before_whitespace():
    d = doc("T", Paragraph("Use e.g., `uv.lock` files here! More text follows."))
    assert offline_summary(d) == "T · Use e.g., `uv.lock` files here!"
    # an abbreviation followed by a space does end the sentence (as the published system does)
    assert first_sentence("A Python interpreter (i.e. CPython) runs it.") == "A Python interpreter (i.e."
    assert first_sentence("no terminator at all") == "no terminator at all"


def test_whitespace_collapsed_and_headings_skipped_across_blocks():
    d = doc(
        "Guide",
        Heading(1, "Guide"),
        Paragraph("Short intro\nwithout end"),
        Heading(2, "Next"),
        ListBlock("- item one\n- item two. rest"),
    )
    assert offline_summary(d) == "Guide · Short intro without end - item one - item two."


def test_title_alone_when_prose_is_short_or_starts_with_code_or_table():
    assert offline_summary(doc("T", Paragraph("Tiny text."))) == "T"
    assert offline_summary(doc("T", Heading(1, "Only heading"))) == "T"
    assert offline_summary(doc("T", Code("sh", "```sh\necho a long enough command line.\n```"),
                               Paragraph("A paragraph that is long enough to count."))) == "T"
    table = Table("| a | b |", "|---|---|", ("| 1 | 2 |",), "| a | b |\n|---|---|\n| 1 | 2 |")
    assert offline_summary(doc("T", table, Paragraph("A paragraph that is long enough."))) == "T"


def test_sentence_equal_to_title_is_not_repeated():
    assert offline_summary(doc("Same title here ok", Paragraph("Same title here ok"))) == "Same title here ok"


def test_at_most_160_characters_cut_to_157_plus_ellipsis():
    d = doc("Long", Paragraph("word " * 60 + "end."))
    summary = offline_summary(d)
    assert len(summary) == 158
    assert summary.endswith("…") and summary.startswith("Long · word")
    assert clip("x" * 160) == "x" * 160
    assert clip("x" * 161) == "x" * 157 + "…"
