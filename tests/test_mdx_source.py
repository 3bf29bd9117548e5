"""The source steps of MDX (dialects/mdx/mdx_source.py) on any mix of code, links, list fences
and ESM lines: ``unmask`` gives back exactly what ``mask`` took, with the line count kept between
them, and ``take_esm`` takes every statement line MDX would and keeps the line count."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.mdx.mdx_source import _ESM_START, mask, take_esm, unmask

_LINES = st.sampled_from([
    "```js", "```", "~~~", "  ```", "1.  ```ts", "- ~~~py", "    indented code", "\tx = `y`", "", " ", "\t",
    "text `code` more", "``a ` b``", "[l](http://x/{y})", "[a](b \"t\") c", "<Tab>", "  </Tab>",
    "import X from './x.mdx'", "import {a, b} from './s.md'", "export const v = 'x'", "export const o = {",
    "  a: `", "}", "`", "importance", "exported", "{/* c */}", "&amp; \ue000 \ue001", "\ue0003\ue001 an author's own", "\ue004 a mark", "x \ue004",
])


@settings(max_examples=600, deadline=None)
@given(st.lists(_LINES, max_size=30))
def test_unmask_gives_back_what_mask_took(lines):
    text = "\n".join(lines)
    codes: list[str] = []
    masked = mask(text, codes)
    assert masked.count("\n") == text.count("\n")
    # One pass gives everything back: the page's own openers were held first, and a span across
    # lines that holds a link target's placeholder is restored with it.
    assert unmask(masked, codes) == text


@settings(max_examples=600, deadline=None)
@given(st.lists(_LINES, min_size=1, max_size=30))
def test_every_statement_line_is_taken_and_lines_are_kept(lines):
    codes: list[str] = []
    masked = mask("\n".join(lines), codes).split("\n")  # code lines are placeholders now
    out, statements, _ = take_esm("\n".join(masked), codes, [])
    out_lines = out.split("\n")
    assert len(out_lines) == len(lines)
    starts = {line - 1 for _, line in statements}
    for k, line in enumerate(masked):
        if _ESM_START.match(line):  # a statement's first line, or a line inside an earlier one
            assert k in starts or out_lines[k] == ""
        if k in starts:
            assert _ESM_START.match(line) and out_lines[k] == ""
        elif out_lines[k] != "":
            assert out_lines[k] == line


def test_a_page_that_writes_the_placeholder_characters_reads_as_written():
    from contextpull.dialects.mdx.mdx import prepare
    from mdx_helpers import FakeContext

    ctx = FakeContext()
    text = "A \ue0000\ue001 and \ue00099\ue001 in prose, `and \ue0001\ue001 in code`.\n"
    assert prepare(text, ctx) == text.strip("\n")
    assert not [n for n in ctx.notes if n.outcome == "unresolved"]


_LINKISH = st.text(alphabet=" \t\n]()\"x\u00a0", max_size=30)


@settings(max_examples=1500, deadline=None)
@given(_LINKISH)
def test_link_targets_are_the_one_character_per_step_reading(text):
    import re

    from contextpull.dialects.mdx.mdx_source import _LINK_TARGET
    stepwise = re.compile(r"\]\(((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?)\)")
    assert [m.span(1) for m in _LINK_TARGET.finditer(text)] == [m.span(1) for m in stepwise.finditer(text)]


def test_a_fence_at_the_margin_is_held_whole_and_keeps_its_lines():
    """A fenced block at the margin is one placeholder and a mark per further line: notes after
    it name their source line, its code keeps its indentation inside an indented element, and an
    author's own mark character reads as written, in prose and in code."""
    from contextpull.dialects.mdx.mdx import prepare
    from mdx_helpers import FakeContext

    text = ("# T\n\n```js\nconst a = <B>;\n  x()\n\n```\n\n<Note>\n  Inside, indented.\n\n```py\n    deep()\n```\n"
            "</Note>\n\nMark \ue004 in prose.\n\n```\n\ue004 in code\n```\n\n<Later>text</Later>\n")
    codes: list[str] = []
    masked = mask(text, codes)
    assert masked.count("\n") == text.count("\n") and len(codes) < 8  # not a placeholder per line
    ctx = FakeContext()
    out = prepare(text, ctx)
    assert "```js\nconst a = <B>;\n  x()\n\n```" in out and "```py\n    deep()\n```" in out
    assert "Inside, indented." in out and "Mark \ue004 in prose." in out and "```\n\ue004 in code\n```" in out
    lines = {n.detail.split()[2]: n.line for n in ctx.notes if n.construct == "jsx component"}
    assert lines == {"<Note>:": 9, "<Later>:": 23}


def test_a_held_block_folded_into_a_label_comes_back_folded_and_an_authors_mark_stays():
    """Where a step folds white space (a <summary> label) the block's marks are joined to its
    placeholder by spaces: the block comes back folded as its lines held one by one did, and
    the page after it keeps its own structure. A mark the page itself writes (as a character
    reference, in an expression, or right after a block) is text, never a line break taken."""
    from contextpull.dialects.mdx.mdx import prepare
    from mdx_helpers import FakeContext

    summary = ("# Page\n\n<details>\n<summary>Show the code\n```js\nconst a = 1;\n    b()\n\n```\n</summary>\n\n"
               "body\n</details>\n\n## Later section\n\nProse after.\n")
    assert prepare(summary, FakeContext()) == (
        "# Page\n\nShow the code ```js const a = 1; b()  ```: body\n\n## Later section\n\nProse after.")
    assert prepare("Line one\n&#xE004; starts line two.\n", FakeContext()) == "Line one\n\ue004 starts line two."
    assert prepare("Line one\n{'\ue004'} two\n", FakeContext()) == "Line one\n\ue004 two"
    assert prepare("```\ncode\n```\n&#xE004; right after.\n", FakeContext()) == "```\ncode\n```\n\ue004 right after."


def test_unmask_folds_a_block_as_the_marks_were_folded():
    codes: list[str] = []
    masked = mask("```js\nx = 1\n\n    y = 2\n```", codes)
    assert " ".join(masked.split()).count("\ue004") == 4
    assert unmask(" ".join(masked.split()), codes) == "```js x = 1  y = 2 ```"
    assert unmask(masked, codes) == "```js\nx = 1\n\n    y = 2\n```"


_JSX_PIECES = st.sampled_from([
    "<Note>", "</Note>", "<A>", "<A/>", '<B x="1">', "</B>", "{x}", "{", "}", "text", " ", "\n",
    ":::tip\n", "\n:::\n", "<>", "</>", "\\<A>", "&amp;", "<a.b>", "<$>",
])


@settings(max_examples=1500, deadline=None)
@given(st.lists(_JSX_PIECES, max_size=60))
def test_a_run_of_tags_past_the_nesting_bound_is_read_as_the_parse_reads_each(parts):
    """``jsx._past_the_bound`` reads a run of plain opening tags past the bound in one match each;
    the tree and the problems equal the parse's own step per tag (the shortcut switched off)."""
    import re

    from contextpull.dialects.mdx import jsx

    text = "<N>" * jsx.MAX_NESTING + "".join(parts)
    fast = jsx.parse(text)
    saved = jsx._PLAIN_OPEN
    jsx._PLAIN_OPEN = re.compile(r"(?!)")  # matches nothing: every tag takes the parse's step
    try:
        slow = jsx.parse(text)
    finally:
        jsx._PLAIN_OPEN = saved
    assert repr(fast) == repr(slow)
