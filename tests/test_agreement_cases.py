"""Plain sections for each class of difference from the published writer (issue 40).

The inputs are ``agreement_cases.py``; the expected sections are pytest-regressions fixtures in
``tests/test_agreement_cases/``. For the agreed classes the fixtures hold what the published
0.2.1 writer writes for the same input; for the kept ones, what docs/differences.md says we
write instead. Besides the fixture, each test asserts the property its class is about, so a
regenerated fixture cannot silently give the property up.
"""

from __future__ import annotations

import re

import pytest
from test_parse_office import P_NS, RELS_NS, make_zip, shape, slide

from agreement_cases import AGREED, CASES, KEPT, LIMIT, MIN_CHARS
from contextpull.config import Settings
from contextpull.parsing.parse_markdown import parse_markdown
from contextpull.parsing.parse_pptx import parse_pptx
from contextpull.writing.section import section_document

SETTINGS = Settings(section_max_chars=LIMIT, section_min_chars=MIN_CHARS)


def sectioned(name: str) -> list[dict]:
    doc = parse_markdown(CASES[name], name)
    return [
        {"heading_path": s.heading_path, "level": s.level, "kind": s.kind, "text": s.text}
        for s in section_document(doc, SETTINGS)
    ]


def headings_only(text: str) -> bool:
    return all(re.fullmatch(r"#{1,6} .*", block) for block in text.split("\n\n"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_class_sections_as_recorded(name, data_regression):
    data_regression.check(sectioned(name), basename=name)


def test_table_lines_lose_their_trailing_whitespace_and_paragraph_lines_keep_it():
    (section,) = sectioned("table_row_trailing_space")
    lines = section["text"].split("\n")
    assert [line for line in lines if "|" in line and line != line.rstrip()] == []
    assert "A line with two trailing spaces  " in lines


def test_a_table_of_exactly_the_limit_stays_one_section():
    out = sectioned("table_of_exactly_the_limit")
    assert [(s["kind"], len(s["text"])) for s in out][1] == ("table", LIMIT)


def test_a_heading_and_its_first_rows_may_fill_the_limit_itself():
    out = sectioned("heading_and_rows_up_to_the_limit")
    assert len(out[1]["text"]) == LIMIT
    assert out[1]["text"].startswith("## Values\n\n| No. |")


@pytest.mark.parametrize("name", ["heading_and_table_over_the_limit", "heading_alone_before_a_long_table"])
def test_a_heading_before_a_table_is_followed_by_rows_and_no_section_is_over_the_limit(name):
    out = sectioned(name)
    assert max(len(s["text"]) for s in out) <= LIMIT
    assert not any(headings_only(s["text"]) for s in out)


def test_headings_before_a_code_block_stay_with_it():
    out = sectioned("headings_before_a_code_block")
    assert out[1]["text"].startswith("## Platforms\n\n### Windows 10 and later versions\n\n```")


@pytest.mark.parametrize("name", ["bare_heading_at_the_end", "bare_heading_before_a_row_longer_than_the_limit"])
def test_a_bare_heading_nothing_can_take_stays_a_section_of_its_own(name):
    out = sectioned(name)
    bare = [s for s in out if headings_only(s["text"])]
    assert len(bare) == 1 and bare[0]["heading_path"].endswith(bare[0]["text"].lstrip("# "))
    assert not any(s["text"].endswith("\n\n" + bare[0]["text"]) for s in out)


def test_a_hash_ending_a_word_is_part_of_the_heading():
    paths = [s["heading_path"] for s in sectioned("heading_closing_hash")]
    assert paths == ["Using the library from C#", "Using the library from C# > Escaped C\\#"]


def test_prose_without_a_space_in_the_room_is_cut_between_lines_not_inside_a_word():
    out = sectioned("prose_without_space_cut_at_a_line_break")
    words = set(CASES["prose_without_space_cut_at_a_line_break"].split())
    assert all(word in words for s in out for word in s["text"].split())


def test_the_agreed_and_kept_cases_are_told_apart():
    assert not set(AGREED) & set(KEPT)


def test_a_slide_list_item_keeps_its_runs_of_spaces(data_regression):
    body = (
        "<a:p><a:r><a:t>Interval + Recurrence  + Callback</a:t></a:r></a:p>"
        "<a:p><a:r><a:t>tab\there</a:t></a:r><a:br/><a:r><a:t>after  break</a:t></a:r></a:p>"
    )
    members = {
        "ppt/presentation.xml": f'<p:presentation {P_NS}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>',
        "ppt/_rels/presentation.xml.rels": f'<Relationships {RELS_NS}><Relationship Id="rId1" Type="slide" Target="slides/slide1.xml"/></Relationships>',
        "ppt/slides/slide1.xml": slide(shape(["Flow"], "title"), f"<p:sp><p:txBody>{body}</p:txBody></p:sp>"),
        "ppt/slides/_rels/slide1.xml.rels": f"<Relationships {RELS_NS}/>",
    }
    doc = parse_pptx(make_zip(members), "flow")
    items = [b.raw for b in doc.blocks if hasattr(b, "raw")]
    data_regression.check(items)
    assert "Recurrence  + Callback" in items[0]
    assert "tab\there after  break" in items[0]
