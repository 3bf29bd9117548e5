"""The markup every dialect shares (contextpull/dialects/syntax/markup.py): code stays exact, what a
page does not show goes, what it shows stays."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax import markup
from contextpull.dialects.syntax import fences, labels


def test_split_code_round_trips_and_marks_fences():
    text = "a <b>x</b>\n```html\n<b>kept</b>\n```\nafter\n~~~~\nopen fence"
    chunks = fences.split_code(text)
    assert "\n".join(c for _, c in chunks) == text
    assert [is_code for is_code, _ in chunks] == [False, True, False, True]
    assert chunks[1][1] == "```html\n<b>kept</b>\n```"


def test_a_shorter_closing_run_does_not_close_a_fence():
    text = "````\n```\ninside\n````\nout"
    assert fences.split_code(text) == [(True, "````\n```\ninside\n````"), (False, "out")]


def test_a_text_without_fences_is_one_prose_chunk_as_written():
    text = "\n  ``inline`` and ~~strike~~ \n\n``"
    assert fences.split_code(text) == [(False, text)]


def _split_code_by_lines(text: str) -> list[tuple[bool, str]]:
    """The fence rule as the shared parser states it, one line at a time: a line opening with
    three or more backticks or tildes (after spaces or tabs) starts a block, which runs to the
    first later line holding only that character, at least as many times, or to the end."""
    if "```" not in text and "~~~" not in text:
        return [(False, text)]
    lines = text.split("\n")
    out: list[tuple[bool, str]] = []
    prose: list[str] = []
    i = 0
    while i < len(lines):
        m = re.match(r"[ \t]*(`{3,}|~{3,})", lines[i])
        if m is None:
            prose.append(lines[i])
            i += 1
            continue
        marker = m.group(1)
        j = i + 1
        while j < len(lines):
            stripped = lines[j].strip()
            if stripped and stripped == marker[0] * len(stripped) and len(stripped) >= len(marker):
                break
            j += 1
        end = min(j, len(lines) - 1)
        if prose:
            out.append((False, "\n".join(prose)))
            prose = []
        out.append((True, "\n".join(lines[i : end + 1])))
        i = end + 1
    if prose or not out:
        out.append((False, "\n".join(prose)))
    return out


# Fence runs, newlines and the white space str.strip() removes (\r, NEL, U+2028, NBSP, FS among it).
_PIECES = st.sampled_from(["`", "``", "```", "````", "~~~", "~~~~", "~", "\n", "\n", " ", "\t", "x",
                           "\r", "\x85", "\u2028", "\xa0", "\x1c", "a b", "```py", "\n\n"])


@settings(max_examples=800, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_split_code_cuts_where_the_line_by_line_rule_cuts(text):
    assert fences.split_code(text) == _split_code_by_lines(text)


# The rule for inline code spans as a pattern: the reference the one-pass scan is held to.
_CODE_SPAN_RULE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_SPAN_PIECES = st.sampled_from(["`", "``", "```", "````", "``````", "`````````", "`" * 12, "`" * 20, "a", " ", "\n", "b`c"])


@settings(max_examples=800, deadline=None)
@given(st.lists(_SPAN_PIECES, max_size=24).map("".join))
def test_code_spans_are_the_matches_of_the_span_rule(text):
    assert fences.code_spans(text) == [(m.start(), m.end()) for m in _CODE_SPAN_RULE.finditer(text)]


def test_a_long_run_of_backticks_is_one_pass():
    """The pattern takes time cubic in the run (seconds for a thousand backticks); the scan
    finds the span it would, for a run a hundred times longer: it opens where 79,999 backticks
    are left in the run (the last position whose 40,000-wide opener cannot start the content)
    and closes at the later run."""
    text = "`" * 100_000 + " <b>x</b> " + "`" * 40_000 + " <i>y</i>"
    assert fences.code_spans(text) == [(20_001, 100_000 + 10 + 40_000)]
    small = "`" * 10 + " <b>x</b> " + "`" * 4
    assert fences.code_spans(small) == [(m.start(), m.end()) for m in _CODE_SPAN_RULE.finditer(small)] == [(3, 24)]
    assert markup.html_to_text(text).endswith("`" * 40_000 + " y")


def test_outside_code_leaves_fenced_html_alone():
    text = "<em>x</em>\n\n```\n<em>y</em>\n```"
    assert fences.outside_code(text, markup.html_to_text) == "x\n\n```\n<em>y</em>\n```"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a <!-- hidden --> b", "a  b"),
        ("a\n<!--\nmany\nlines\n-->\nb", "a\n\nb"),
        ("a <!-- never closed\nb", "a "),
        ("no comment", "no comment"),
    ],
)
def test_html_comments_go(source, expected):
    assert markup.strip_html_comments(source) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("## Path Parameters { #path-parameters }", "## Path Parameters"),
        ("## Title {#custom-id}", "## Title"),
        ("### Opts {: #opts .wide }", "### Opts"),
        ('# T {#t data-x="1 2"}', "# T"),
        ("## Braces {in text} stay", "## Braces {in text} stay"),
        ("not a heading { #x }", "not a heading { #x }"),
    ],
)
def test_heading_attributes_go(source, expected):
    assert markup.strip_heading_attributes(source) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('Use <a href="x">the link</a> now', "Use the link now"),
        ("line<br/>break", "linebreak"),
        ("a < b and c > d", "a < b and c > d"),
        ("see <https://example.com>", "see <https://example.com>"),
        ("code `<div>` stays", "code `<div>` stays"),
        ("fish &amp; chips &lt;3", "fish & chips <3"),
        ('<div class="grid" markdown>', ""),
    ],
)
def test_html_keeps_its_text(source, expected):
    assert markup.html_to_text(source) == expected


def test_dedent_block_common_and_fixed_width():
    assert markup.dedent_block("    a\n      b\n\n    c") == "a\n  b\n\nc"
    assert markup.dedent_block("    a\n  b", 4) == "a\nb"
    assert markup.dedent_block("\tx") == "x"


@pytest.mark.parametrize(
    ("label", "body", "expected"),
    [
        ("Note", "Read this first.", "Note: Read this first."),
        ("Tip", "```bash\nuv sync\n```", "Tip:\n\n```bash\nuv sync\n```"),
        ("Warning", "- one\n- two", "Warning:\n\n- one\n- two"),
        ("Note:", "", "Note:"),
    ],
)
def test_labelled(label, body, expected):
    assert labels.labelled(label, body) == expected


@pytest.mark.parametrize(
    ("kind", "title"), [("note", "Note"), ("see-also", "See also"), ("DANGER", "Danger"), ("", "")]
)
def test_title_case(kind, title):
    assert labels.title(kind) == title


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.text(alphabet="# {}:.a-\t", max_size=14), min_size=1, max_size=8))
def test_heading_attributes_go_from_heading_lines_only_each_line_read_alone(lines):
    out = markup.strip_heading_attributes("\n".join(lines)).split("\n")
    assert len(out) == len(lines)
    for line, kept in zip(lines, out):
        alone = markup.strip_heading_attributes(line)  # a one-line text: no other line decides
        assert kept == (alone if "{" in "\n".join(lines) else line)
        if not line.startswith("#"):
            assert kept == line


_LINES = st.lists(st.sampled_from([
    "", "text", "# Title", "## Title {#id}", "## Title { #id }", "#no-space {x}", "# {", "  ## Title {#id}",
    "{{ x }}", "{.class}", "a } b", "```", "```go", "~~~", "# comment {x}", "<b>x</b>", "a &amp; b", "<!-- c -->",
    "`<b>`", "a < b", "# a }", "#", "}",
]), max_size=12).map("\n".join)


@settings(max_examples=400, deadline=None)
@given(_LINES)
def test_a_text_shown_as_written_is_given_back_by_every_step(text):
    """``shown_as_written`` lets a caller skip cutting the text: it may say so only when each
    prose run would come back from the three steps as it is."""
    if markup.shown_as_written(text):
        for is_code, chunk in fences.split_code(text):
            if not is_code:
                assert markup.strip_heading_attributes(markup.html_to_text(markup.strip_html_comments(chunk))) == chunk


def test_a_heading_with_attributes_or_any_tag_is_not_shown_as_written():
    assert markup.shown_as_written("# T\ntext {x}\n## U")
    assert not markup.shown_as_written("text\n## T {#id}")
    assert not markup.shown_as_written("## T {#id}")
    assert not markup.shown_as_written("a &amp; b") and not markup.shown_as_written("<b>x</b>")
