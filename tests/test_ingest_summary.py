"""Offline summaries (supplement.md "Fingerprints and summaries"), over hand-made sections."""

from __future__ import annotations

from contextpull.writing.records import SectionRecord
from contextpull.writing.summary import clip, first_sentence, offline_summary


def sections(*texts):
    return [SectionRecord("H", 1, "prose", text) for text in texts]


def test_title_then_first_sentence():
    got = offline_summary("Caching", sections("# Caching\n\nuv caches wheels aggressively. It also prunes."))
    assert got == "Caching · uv caches wheels aggressively."


def test_sentence_ends_only_before_whitespace():
    got = offline_summary("T", sections("Use e.g., `uv.lock` files here! More text follows."))
    assert got == "T · Use e.g., `uv.lock` files here!"
    # an abbreviation followed by a space does end the sentence (as the published system does)
    assert first_sentence("A Python interpreter (i.e. CPython) runs it.") == "A Python interpreter (i.e."
    assert first_sentence("no terminator at all") == "no terminator at all"


def test_whitespace_collapsed_and_heading_lines_skipped_within_a_section():
    text = "# Guide\n\nShort intro\nwithout end\n\n## Next\n\n- item one\n- item two. rest"
    assert offline_summary("Guide", sections(text)) == "Guide · Short intro without end - item one - item two."


def test_the_sentence_never_runs_into_the_next_section():
    got = offline_summary("Deck", sections("## Slide 1: Deck\n\nCovers all R-series models", "## Slide 2\n\nMore. Text."))
    assert got == "Deck · Covers all R-series models"


def test_sections_that_open_with_a_table_or_fence_or_are_short_are_passed_over():
    table = "| a | b |\n|---|---|\n| 1 | 2 |"
    prose = "A paragraph that is long enough. Second."
    assert offline_summary("T", sections(table, prose)) == "T · A paragraph that is long enough."
    assert offline_summary("T", sections("```sh\necho a long enough command line.\n```", prose)) == (
        "T · A paragraph that is long enough."
    )
    assert offline_summary("T", sections("# T\n\nTiny text.", prose)) == "T · A paragraph that is long enough."
    assert offline_summary("T", sections("Tiny text.", "# Only heading")) == "T"
    assert offline_summary("T", []) == "T"


def test_sentence_equal_to_title_ignoring_case_is_not_repeated():
    assert offline_summary("Same title here ok", sections("same TITLE here ok")) == "Same title here ok"


def test_at_most_160_characters_cut_to_157_plus_ellipsis():
    summary = offline_summary("Long", sections("word " * 60 + "end."))
    assert len(summary) == 158
    assert summary.endswith("…") and summary.startswith("Long · word")
    assert clip("x" * 160) == "x" * 160
    assert clip("x" * 161) == "x" * 157 + "…"
