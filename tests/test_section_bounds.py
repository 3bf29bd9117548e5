"""Sections stay within section_max_chars whatever the headings do (issue 22, parser costs).

Outside these shapes the sectioner's output is pinned by test_section.py and by the golden files;
the edits here must leave both alone.
"""

from __future__ import annotations

from hypothesis import given, settings as hsettings, strategies as st

from contextpull.config import Settings
from contextpull.parsing.blocks import Code, Heading, Paragraph, ParsedDocument, Table
from contextpull.parsing.parse_markdown import parse_markdown
from contextpull.writing.section import section_document

LIMIT = 200
SETTINGS = Settings(section_max_chars=LIMIT, section_min_chars=40)


def table(n_rows: int, width: int = 20) -> Table:
    header, sep = "| a | b |", "|---|---|"
    rows = tuple(f"| {i:03d} | {'x' * width} |" for i in range(n_rows))
    return Table(header, sep, rows, "\n".join([header, sep, *rows]))


def sections(*blocks, title="T"):
    return section_document(ParsedDocument(title, list(blocks)), SETTINGS)


def test_a_heading_longer_than_a_section_is_cut_like_prose_and_its_path_is_bounded():
    long = " ".join(f"word{i}" for i in range(200))  # about 1,300 characters
    out = sections(Heading(2, long), Paragraph("Body under the long heading."))
    assert all(len(s.text) <= LIMIT - 2 for s in out)
    assert " ".join(s.text for s in out).split() == ["##", *long.split(), "Body", "under", "the", "long", "heading."]
    assert {len(s.heading_path) for s in out} == {LIMIT}
    assert out[0].heading_path == long[: LIMIT - 1] + "\u2026"


def test_a_heading_followed_by_a_long_table_shares_only_the_room_left():
    t = table(30, 25)  # 1,099 characters; a row-split part alone is 199
    out = sections(Heading(2, "Prices"), t)
    assert max(len(s.text) for s in out) <= LIMIT - 1
    assert out[0].text.startswith("## Prices\n\n| a | b |\n|---|---|\n| 000 |")
    assert all(s.heading_path == "Prices" and s.kind == "table" for s in out)
    rows = [line for s in out for line in s.text.splitlines() if line.startswith("| 0")]
    assert rows == list(t.rows)


def test_a_table_that_fits_alone_but_not_after_its_heading_is_split_at_a_row():
    t = table(6, 17)  # 187 characters: fits a part alone, not after the heading
    assert len(t.raw) == 187
    out = sections(Heading(2, "Price list"), t)
    assert [len(s.text) for s in out] == [13 + 2 + 19 + 5 * 28, 19 + 28]
    assert out[0].text.startswith("## Price list\n\n| a | b |")


def test_a_heading_with_no_room_for_one_row_stands_alone():
    wide = Table("| a |", "|---|", ("| " + "y" * (LIMIT - 20) + " |",), "")
    wide.raw = "\n".join([wide.header_row, wide.separator, *wide.rows])
    out = sections(Paragraph("Intro paragraph long enough to stay a section of its own here."), Heading(2, "H" * 40), wide)
    assert max(len(s.text) for s in out) <= LIMIT - 1
    assert [s.text.splitlines()[0] for s in out] == ["Intro paragraph long enough to stay a section of its own here.", "## " + "H" * 40, "| a |"]


def test_an_empty_heading_starts_a_section_but_stays_out_of_the_path():
    doc = parse_markdown("# Guide\n\nIntro text of the guide, long enough.\n\n## \n\nBody under an empty heading, long enough to stand.\n", "g")
    paths = [s.heading_path for s in section_document(doc, SETTINGS)]
    assert paths == ["Guide", "Guide"]


def test_bare_headings_still_merge_into_sections_of_bounded_size():
    text = "".join(f"## Heading number {i}\n\n" for i in range(2000))
    out = section_document(parse_markdown(text, "h"), SETTINGS)
    assert all(len(s.text) <= LIMIT for s in out)
    assert sum(s.text.count("## Heading") for s in out) == 2000


_blocks = st.one_of(
    st.builds(Heading, st.integers(1, 6), st.text(st.sampled_from("ab #|"), max_size=400)),
    st.builds(Paragraph, st.text(st.sampled_from("ab \n"), min_size=1, max_size=600).filter(str.strip)),
    st.builds(lambda n, w: table(n, w), st.integers(0, 40), st.integers(0, 300)),
)


@hsettings(max_examples=150, deadline=None)
@given(st.lists(_blocks, max_size=30))
def test_no_section_is_longer_than_the_limit_unless_one_row_or_code_is(blocks):
    for s in section_document(ParsedDocument("T", blocks), SETTINGS):
        if len(s.text) > LIMIT:
            # the only oversized sections: one table row (or header) wider than a section
            assert any(len(line) > LIMIT // 2 for line in s.text.splitlines()), s.text
        assert not s.heading_path.endswith(" > ")
        assert len(s.heading_path) <= 6 * (LIMIT + 3)


def test_code_blocks_are_still_never_split():
    code = Code("", "```\n" + "x = 1\n" * 60 + "```")
    out = sections(Heading(2, "Code"), code)
    assert any(code.raw in s.text for s in out)
