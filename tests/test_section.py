"""Sectioning rules 1-5 and classify (system-design.txt section 3), with the section 13 invariants
checked as properties over random Markdown."""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from contextpull.parsing.blocks import Code, Heading, ParsedDocument, Table
from contextpull.parsing.parse_markdown import parse_markdown
from contextpull.writing.section import SectionDraft, section_document
from contextpull.config import Settings


def sections(text: str, **kw) -> list[SectionDraft]:
    return section_document(parse_markdown(text, "stem"), Settings(**kw))


def words(prefix: str, n: int) -> str:
    return " ".join(f"{prefix}{i}" for i in range(n))


# -- rules, one by one ----------------------------------------------------------------------------


def test_heading_paths_levels_and_depth():
    text = "\n\n".join(
        ["# A", words("a", 20), "## B", words("b", 20), "##### Deep", words("d", 20)]
        + ["### C", words("c", 20), "## E", words("e", 20)]
    )
    got = [(s.heading_path, s.level) for s in sections(text)]
    assert got == [("A", 1), ("A > B", 2), ("A > B > C", 3), ("A > E", 2)]
    deep = sections(text)[1].text
    assert "##### Deep" in deep  # deeper than section_heading_depth: stays inside


def test_heading_depth_setting():
    text = "# A\n\n" + words("a", 20) + "\n\n## B\n\n" + words("b", 20)
    assert [s.heading_path for s in sections(text, section_heading_depth=1)] == ["A"]


def test_preamble_is_level_zero_with_the_title_as_path():
    text = words("p", 20) + "\n\n# Title\n\n" + words("t", 20)
    first, second = sections(text)
    assert (first.heading_path, first.level) == ("Title", 0)
    assert (second.heading_path, second.level) == ("Title", 1)


def test_long_section_splits_at_word_boundaries_sharing_the_path():
    body = words("w", 400)
    got = sections("# T\n\n" + body, section_max_chars=200)
    assert len(got) > 5
    assert all(s.heading_path == "T" and len(s.text) <= 200 for s in got)
    assert " ".join(s.text for s in got) == "# T\n\n" + body
    assert got[0].text.startswith("# T\n\nw0 ")  # the heading keeps content in its own part


def test_a_word_longer_than_the_limit_is_the_only_thing_cut():
    long_word = "x" * 450
    text = f"# T\n\nshort words {long_word} tail"
    got = sections(text, section_max_chars=200, section_min_chars=0)
    assert all(len(s.text) <= 200 for s in got)
    assert "".join(s.text for s in got).replace("\n", "").replace(" ", "") == (
        f"#Tshortwords{long_word}tail"
    )


def test_line_breaks_are_word_boundaries_too():
    body = "\n".join(f"line{i:03d}" for i in range(100))
    got = sections("# T\n\n" + body, section_max_chars=200, section_min_chars=0)
    pieces = [line for s in got for line in s.text.split("\n") if line.startswith("line")]
    assert pieces == [f"line{i:03d}" for i in range(100)]


def test_code_block_is_never_split_and_stands_alone_when_too_big():
    code = "```py\n" + "\n".join(f"x = {i}" for i in range(100)) + "\n```"
    text = f"# T\n\nIntro paragraph that is long enough.\n\n{code}\n\nAfter the code, more words."
    got = sections(text, section_max_chars=200)
    assert [s.kind for s in got] == ["prose", "code", "prose"]
    assert got[1].text == code


def test_heading_directly_before_a_big_code_block_stays_with_it():
    code = "```\n" + "\n".join(f"line {i}" for i in range(60)) + "\n```"
    (only,) = sections(f"# T\n\n{code}", section_max_chars=200)
    assert only.text == f"# T\n\n{code}" and only.kind == "code"


def test_long_table_splits_by_rows_and_repeats_its_header():
    header, sep = "| name | value |", "|------|-------|"
    rows = [f"| row{i} | {i * 7} |" for i in range(60)]
    text = "# T\n\n" + "\n".join([header, sep, *rows]) + "\n"
    got = sections(text, section_max_chars=200)
    assert len(got) > 3
    seen = []
    for s in got:
        assert s.kind == "table"
        body = s.text.split("\n\n")[-1].split("\n")
        assert body[:2] == [header, sep]
        assert all(len(line) <= 200 for line in body)
        seen.extend(body[2:])
    assert seen == rows


def test_heading_only_fragment_merges_forward():
    got = sections("# Top\n\n## Sub\n\n" + words("s", 20))
    assert len(got) == 1
    assert got[0].heading_path == "Top > Sub" and got[0].text.startswith("# Top\n\n## Sub\n\n")


def test_small_fragment_merges_backward_or_forward_when_first():
    text = "# A\n\n" + words("a", 20) + "\n\n# B\n\ntiny\n\n# C\n\n" + words("c", 20)
    got = sections(text)
    assert [s.heading_path for s in got] == ["A", "C"]
    assert got[0].text.endswith("# B\n\ntiny")
    first = sections("tiny preamble\n\n# A\n\n" + words("a", 20))
    assert len(first) == 1 and first[0].heading_path == "A" and first[0].text.startswith("tiny")


def test_fragment_that_nothing_can_absorb_stays():
    full = words("a", 30)
    got = sections(f"# A\n\n{full}\n\n# B", section_max_chars=200)
    assert got[-1].text == "# B" and got[-1].heading_path == "B"  # a trailing bare heading stays
    got = sections(f"# A\n\n{full}\n\nsmall", section_max_chars=len(full) + 10)
    assert [s.text for s in got][-1] == "small"


def test_merges_keep_the_size_limit():
    text = "# A\n\n" + words("a", 35) + "\n\n## B\n\n" + words("b", 35) + "\n\n### C\n\nx"
    for s in sections(text, section_max_chars=200, section_min_chars=60):
        assert len(s.text) <= 200


def test_classify():
    table = "| a |\n|---|\n| 1 |"
    code = "```\nc\n```"
    para = "Some prose words here."
    cases = {
        f"# H\n\n{table}": "table",
        f"# H\n\n{code}": "code",
        f"# H\n\n{code}\n\n{code}": "code",
        f"# H\n\n{table}\n\n{code}": "mixed",
        f"# H\n\n{para}\n\n{table}": "mixed",
        f"# H\n\n{para}\n\n- a list": "prose",
        "# H": "prose",
    }
    for text, kind in cases.items():
        (s,) = sections(text, section_min_chars=0)
        assert s.kind == kind, text


def test_small_room_is_not_filled_large_room_is():
    limit = 300  # prose is cut to fill the room left only when it is >= max(80, limit // 5)
    big = words("b", 60)
    small_room = sections("# T\n\n" + words("a", 60) + "\n\n" + big, section_max_chars=limit)
    assert small_room[0].text == "# T\n\n" + words("a", 60)
    large_room = sections("# T\n\n" + words("a", 20) + "\n\n" + big, section_max_chars=limit)
    assert large_room[0].text.startswith("# T\n\n" + words("a", 20) + "\n\nb0 b1")
    assert all(len(s.text) <= limit - 2 for s in small_room + large_room)


def test_cuts_prefer_the_last_space_to_a_later_line_break():
    body = "alpha beta\n" + "\n".join(["gamma"] * 30)
    got = sections("# T\n\n" + body, section_max_chars=100, section_min_chars=0)
    assert got[0].text == "# T\n\nalpha"
    assert got[1].text.startswith("beta\ngamma\n") and got[1].text.endswith("gamma")


def test_several_headings_keep_the_block_that_follows():
    code = "```\n" + "\n".join(f"line {i}" for i in range(40)) + "\n```"
    got = sections(f"# A\n\n## B\n\n{code}\n\nAfter the code block, prose.", section_max_chars=200)
    assert got[0].text == f"# A\n\n## B\n\n{code}"
    assert (got[0].heading_path, got[0].kind) == ("A > B", "code")


def test_a_long_heading_keeps_the_first_part_of_a_long_table():
    heading = "# " + "A heading long enough not to count as a fragment"
    table = "\n".join(["| k | v |", "|---|---|", *(f"| key{i} | value{i} |" for i in range(40))])
    got = sections(f"{heading}\n\n{table}", section_max_chars=200)
    assert got[0].text.startswith(heading + "\n\n| k | v |\n|---|---|\n| key0 |")
    assert all(s.kind == "table" for s in got)


def test_section_text_is_stripped_and_fragments_measured_stripped():
    fence = "    ```\n    x = 1\n    ```"  # 25 characters once the indent is dropped
    got = sections(f"{fence}\n\n# Title\n\n" + words("w", 12), section_min_chars=26)
    assert len(got) == 1 and got[0].text.startswith("```\n    x = 1")


def test_row_split_table_parts_fill_a_part_when_they_fit():
    header, sep = "| k | v |", "|---|---|"
    rows = [f"| key{i} | {'value ' * 14}{i} |" for i in range(6)]  # one row per part
    text = "# T\n\nShort lead.\n\n" + "\n".join([header, sep, *rows])
    got = sections(text, section_max_chars=200)
    assert got[0].text.startswith("# T\n\nShort lead.\n\n" + header + "\n" + sep)
    assert got[0].kind == "mixed" and all(s.kind == "table" for s in got[1:])
    assert all(len(s.text) <= 199 for s in got)


def test_two_thousand_section_file():
    text = "\n\n".join(f"## Heading {i}\n\nBody of section {i} with enough words to stand alone."
                       for i in range(2000))
    got = sections(text)
    assert len(got) == 2000
    assert [s.heading_path for s in got[:2]] == ["Heading 0", "Heading 1"]


def test_fifty_thousand_character_line_is_sectioned_within_the_limit():
    line = words("w", 9000)[:50_000]
    got = sections("# T\n\n" + line)
    assert all(len(s.text) <= 2000 for s in got)
    assert "".join(s.text for s in got).replace(" ", "").replace("\n", "") == (
        "#T" + line.replace(" ", "")
    )


def test_empty_document_has_no_sections():
    assert section_document(ParsedDocument("t", []), Settings()) == []


# -- properties over random Markdown (system-design.txt section 13) -------------------------------

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789.,",
                min_size=1, max_size=12)
_LONG_WORD = st.text(alphabet="xyz", min_size=150, max_size=700)


@st.composite
def _paragraph(draw):
    word = st.one_of(_WORD, _WORD, _WORD, _WORD, _WORD, _WORD, _LONG_WORD)
    ws = draw(st.lists(word, min_size=1, max_size=120))
    gaps = st.sampled_from([" ", " ", " ", "\n", "  "])
    seps = draw(st.lists(gaps, min_size=len(ws), max_size=len(ws)))
    text = "".join(w + s for w, s in zip(ws, seps)).strip()
    if draw(st.booleans()):
        return "- " + text
    return text


@st.composite
def _heading(draw):
    title = draw(st.lists(_WORD, min_size=1, max_size=6).map(" ".join))
    return "#" * draw(st.integers(1, 6)) + " " + title


@st.composite
def _code(draw):
    fence = draw(st.sampled_from(["```", "~~~", "````"]))
    lines = draw(st.lists(st.text(alphabet="abc xyz=()", max_size=60), min_size=0, max_size=40))
    info = draw(st.sampled_from(["", "py", 'toml title="x"']))
    return "\n".join([fence + info, *lines, fence])


@st.composite
def _table(draw):
    cols = draw(st.integers(1, 4))
    cell = st.text(alphabet="abcdef 0123", min_size=1, max_size=25).map(str.strip).filter(bool)
    header = "| " + " | ".join(draw(st.lists(cell, min_size=cols, max_size=cols))) + " |"
    sep = "|" + "|".join(["---"] * cols) + "|"
    rows = draw(st.lists(st.lists(cell, min_size=cols, max_size=cols), max_size=60))
    return "\n".join([header, sep, *("| " + " | ".join(r) + " |" for r in rows)])


_markdown = st.lists(
    st.one_of(_heading(), _paragraph(), _paragraph(), _code(), _table()), min_size=1, max_size=25
).map("\n\n".join)
_settings = st.builds(
    Settings,
    section_max_chars=st.integers(100, 800),
    section_min_chars=st.integers(0, 90),
    section_heading_depth=st.integers(1, 6),
)


def _render(block) -> str:
    if isinstance(block, Heading):
        return "#" * block.level + " " + block.text
    return getattr(block, "raw", None) or getattr(block, "text")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@settings(
    max_examples=int(os.environ.get("SECTION_EXAMPLES", "60")),  # more for a long local run
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(text=_markdown, cfg=_settings)
# A one-column table whose squashed header is inside a later, wider one's ("|0||---|" in
# "|0|a|0||---|---|---|"): removed first, it cut the wider header's repeats apart.
@example(
    text="# 0\n\n| 0 |\n|---|\n\n# 00000000 000000000000\n\n| 0 | 000000000 | 0 |\n|---|---|---|\n"
    "| 0 | 0 | 0 |\n| 0 | 0000000 | 00000000 |",
    cfg=Settings(section_max_chars=100, section_min_chars=0, section_heading_depth=1),
)
def test_section_invariants(text, cfg):
    doc = parse_markdown(text, "stem")
    got = section_document(doc, cfg)
    assert got == section_document(parse_markdown(text, "stem"), cfg)  # same input, same sections

    # concatenation reproduces the document modulo whitespace and repeated table headers
    expected = _squash("".join(_render(b) for b in doc.blocks))
    actual = _squash("".join(s.text for s in got))
    # Longest header first: a shorter one can be part of a longer one, never the other way.
    heads = {_squash(b.header_row + b.separator) for b in doc.blocks if isinstance(b, Table)}
    for head in sorted(heads, key=len, reverse=True):
        expected, actual = expected.replace(head, ""), actual.replace(head, "")
    assert actual == expected

    table_lines = {line for b in doc.blocks if isinstance(b, Table) for line in b.raw.split("\n")}
    headers = {b.header_row: b.separator for b in doc.blocks if isinstance(b, Table)}
    codes = [b.raw for b in doc.blocks if isinstance(b, Code)]
    limit = cfg.section_max_chars
    doc_tokens = set(" ".join(_render(b) for b in doc.blocks).split())
    long_tokens = [t for t in doc_tokens if len(t) > limit - 2]
    for s in got:
        assert s.heading_path  # non-empty heading path
        assert s.kind in ("prose", "table", "code", "mixed")
        lines = s.text.split("\n")
        # no partial table row; every table part begins with its header and separator
        for i, line in enumerate(lines):
            if "|" in line:
                assert line in table_lines
                if i == 0 or "|" not in lines[i - 1]:
                    assert line in headers and i + 1 < len(lines) and lines[i + 1] == headers[line]
        # no partial fence: every fenced block in a section is one whole block of the document
        for chunk in s.text.split("\n\n"):
            if chunk.startswith(("```", "~~~")):
                assert any(chunk in raw for raw in codes)
        # size limit, except whole code blocks and table parts (a header plus a row too long)
        if len(s.text) > limit:
            assert s.kind in ("code", "table")
        # prose is cut only between words, unless a single word is longer than the limit
        if s.kind == "prose":
            for token in s.text.split():
                assert token in doc_tokens or any(token in t for t in long_tokens)
    for raw in codes:
        assert any(raw in s.text for s in got)


def test_a_heading_label_names_the_section_in_its_path_and_the_text_keeps_the_heading():
    doc = ParsedDocument("API", [Heading(1, "API"), Heading(2, "pkg.mod.Thing", "Thing"),
                                 Code("python", "```python\nclass Thing:\n```"), Heading(3, "run")])
    sections = section_document(doc, Settings(section_min_chars=0))
    assert [s.heading_path for s in sections] == ["API", "API > Thing", "API > Thing > run"]
    assert sections[1].text.startswith("## pkg.mod.Thing\n")
