"""Markdown parser: one test per construct of system-design.txt section 3 and issue 2."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.parsing.blocks import Code, Heading, ListBlock, Paragraph, Table
from contextpull.parsing.parse_markdown import parse_markdown


def blocks(text: str):
    return parse_markdown(text, "stem").blocks


@pytest.mark.parametrize("level", range(1, 7))
def test_atx_heading_levels_one_to_six(level):
    assert blocks("#" * level + " Title here\n") == [Heading(level, "Title here")]


def test_six_heading_levels_in_one_document():
    text = "\n\n".join("#" * n + f" Level {n}" for n in range(1, 7)) + "\n"
    assert blocks(text) == [Heading(n, f"Level {n}") for n in range(1, 7)]


@pytest.mark.parametrize("line", ["####### seven", "#nospace", "#", "    # indented code-ish"])
def test_not_atx_headings(line):
    assert not any(isinstance(b, Heading) for b in blocks(line + "\n"))


def test_atx_closing_hashes_and_spaces_are_dropped():
    assert blocks("##   Spaced   out   ##  \n") == [Heading(2, "Spaced   out")]
    assert blocks("## C# and F#x\n") == [Heading(2, "C# and F#x")]
    # a closing run counts only after whitespace: these are names, not closing runs
    assert blocks("# C#\n") == [Heading(1, "C#")]
    assert blocks("## Learning F# ##\n") == [Heading(2, "Learning F#")]
    assert blocks("### ###\n") == [Heading(3, "")]


def test_setext_headings():
    assert blocks("Title\n=====\n\nSub\n---\n") == [Heading(1, "Title"), Heading(2, "Sub")]


def test_setext_needs_a_single_line_and_three_marks():
    got = blocks("one\ntwo\n---\n\nthree\n==\n")
    assert got == [Paragraph("one\ntwo\n---"), Paragraph("three\n==")]


@pytest.mark.parametrize("fence", ["```", "~~~", "````", "~~~~~"])
def test_fenced_code_with_backticks_or_tildes(fence):
    text = f"{fence}python\nx = 1\n\ny = 2\n{fence}\n"
    assert blocks(text) == [Code("python", text.rstrip("\n"))]


def test_info_string_with_attributes():
    text = '```toml title="pyproject.toml"\n[tool.uv]\ncache-keys = []\n```'
    (code,) = blocks(text)
    assert code == Code("toml", text)


def test_fence_closes_only_on_the_same_character_at_least_as_long():
    text = "````md\n```\ninner\n```\n~~~\n````\nafter"
    got = blocks(text)
    assert got == [Code("md", "````md\n```\ninner\n```\n~~~\n````"), Paragraph("after")]


def test_unclosed_fence_runs_to_end_of_file():
    text = "Intro\n\n```bash\necho hi\n\n# not a heading\n| a | b |\n|---|---|\n\n"
    assert blocks(text) == [
        Paragraph("Intro"),
        Code("bash", "```bash\necho hi\n\n# not a heading\n| a | b |\n|---|---|"),
    ]


def test_indented_fence_is_code_verbatim():
    text = '=== "Tab"\n\n    ```console\n    $ uv sync\n    ```\n'
    assert blocks(text)[1] == Code("console", "    ```console\n    $ uv sync\n    ```")


def test_pipe_table_with_outer_pipes_and_alignment():
    text = "| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 | 4 |\n"
    assert blocks(text) == [
        Table("| a | b |", "|:--|--:|", ("| 1 | 2 |", "| 3 | 4 |"), text.rstrip("\n"))
    ]


def test_pipe_table_without_outer_pipes():
    text = "a | b\n--- | :---:\n1 | 2\n"
    assert blocks(text) == [Table("a | b", "--- | :---:", ("1 | 2",), text.rstrip("\n"))]


def test_alignment_cells_need_two_dashes():
    assert not any(isinstance(b, Table) for b in blocks("| a |\n|-|\n| 1 |"))
    assert isinstance(blocks("| a | b |\n|:--:|--:|\n| 1 | 2 |")[0], Table)


def test_table_without_body():
    assert blocks("| only | header |\n|---|---|\n\nAfter.") == [
        Table("| only | header |", "|---|---|", (), "| only | header |\n|---|---|"),
        Paragraph("After."),
    ]


def test_table_at_end_of_file_without_newline():
    (table,) = blocks("Some text\n\n| x |\n|---|\n| y |")[1:]
    assert table.rows == ("| y |",) and table.raw == "| x |\n|---|\n| y |"


def test_table_ends_at_a_line_without_pipe_and_interrupts_a_paragraph():
    got = blocks("lead in\n| t | u |\n|---|---|\n| 1 | 2 |\nno pipe here\n")
    assert got == [
        Paragraph("lead in"),
        Table("| t | u |", "|---|---|", ("| 1 | 2 |",), "| t | u |\n|---|---|\n| 1 | 2 |"),
        Paragraph("no pipe here"),
    ]


def test_lists_and_paragraphs():
    text = (
        "Para one\nstill para\n- not a new block\n\n"
        "- item one\n  more\n- item two\n\n1. first\n2) second\n"
    )
    assert blocks(text) == [
        Paragraph("Para one\nstill para\n- not a new block"),
        ListBlock("- item one\n  more\n- item two"),
        ListBlock("1. first\n2) second"),
    ]


def test_headings_and_fences_interrupt_paragraphs():
    got = blocks("text\n# Heading\nmore\n```\ncode\n```\n")
    code = Code("", "```\ncode\n```")
    assert got == [Paragraph("text"), Heading(1, "Heading"), Paragraph("more"), code]


def test_paragraph_text_is_stripped_not_reflowed():
    assert blocks("    indented start\n    second line   \n") == [
        Paragraph("indented start\n    second line")
    ]


def test_front_matter_title_used_and_rest_dropped():
    text = "---\ntitle: 'From Front'\ndescription:\n  long\n---\n\nBody text.\n"
    doc = parse_markdown(text, "stem")
    assert doc.title == "From Front"
    assert doc.blocks == [Paragraph("Body text.")]


def test_front_matter_title_wins_over_first_h1_then_stem():
    assert parse_markdown("---\ntitle: Front\n---\n# Heading One\n", "s").title == "Front"
    assert parse_markdown("---\nfoo: 1\n---\n# Heading One\n", "s").title == "Heading One"
    assert parse_markdown("---\ntitle:\n---\n# Heading One\n", "s").title == "Heading One"
    # the published reading: any key case, indented keys count, quotes trimmed, the last wins
    fm = "---\nTitle: 'First'\nnested:\n  title: \"Last\"\n---\n# H\n"
    assert parse_markdown(fm, "s").title == "Last"
    assert parse_markdown("# \n\n# Second\n", "s").title == "s"  # an empty first H1: the stem
    assert parse_markdown("## Only h2\n\ntext", "the-stem").title == "the-stem"
    assert parse_markdown("Setext\n===\n", "s").title == "Setext"


def test_unclosed_front_matter_is_text_but_still_titles():
    doc = parse_markdown("---\ntitle: X\nno close\n", "stem")
    assert doc.title == "X"
    assert "title: X" in "".join(getattr(b, "text", "") for b in doc.blocks)


def test_front_matter_only_gives_no_blocks():
    assert parse_markdown("---\ntitle: T\n---\n", "s").blocks == []


def test_crlf_and_cr_parse_like_lf():
    lf = "# Title\n\npara one\nline two\n\n```\ncode\n```\n\n| a |\n|---|\n| 1 |\n"
    assert blocks(lf.replace("\n", "\r\n")) == blocks(lf)
    assert blocks(lf.replace("\n", "\r")) == blocks(lf)
    assert all("\r" not in repr(b) for b in blocks(lf.replace("\n", "\r\n")))


def test_fifty_thousand_character_line():
    line = ("word " * 10_000).strip()
    assert blocks("# T\n\n" + line + "\n") == [Heading(1, "T"), Paragraph(line)]
    long_heading = "# " + "h" * 50_000
    assert blocks(long_heading) == [Heading(1, "h" * 50_000)]


def test_empty_and_whitespace_only_text():
    assert parse_markdown("", "s").blocks == []
    assert parse_markdown(" \n\t\n", "s").blocks == []


_LINES = st.lists(
    st.one_of(
        st.text(max_size=40),
        st.sampled_from(["", "---", "===", "```", "~~~~ py", "# h", "###### h6 ##", "| a | b |",
                         "|---|:--:|", "a | b", "- item", "1. one", "    indented", "title: T"]),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(lines=_LINES)
def test_any_text_parses_and_crlf_changes_nothing(lines):
    text = "\n".join(line.replace("\r", "") for line in lines)
    doc = parse_markdown(text, "stem")
    assert doc.title
    assert parse_markdown(text.replace("\n", "\r\n"), "stem") == doc
    for block in doc.blocks:
        assert "\r" not in repr(block)
        if isinstance(block, Table):
            assert block.raw == "\n".join([block.header_row, block.separator, *block.rows])
