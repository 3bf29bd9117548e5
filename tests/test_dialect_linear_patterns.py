"""Patterns rewritten so a hostile page costs a pass, not time cubic in a run of blanks or
openers (issue 26, "Bad input ... bounded in time"): each new form reads exactly what the old
pattern read, and the old pattern stays here as the statement of the rule."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax import markup
from contextpull.dialects.syntax import containers
from contextpull.dialects.jekyll import kramdown
from contextpull.dialects.mdbook import links
from contextpull.dialects.mkdocs.snippets import variant
from contextpull.dialects.sphinx.xrefs.doc_titles import atx_title

BLANKS = [" ", "\t", "\r", "\x0b", "\x85", "  "]


def _text(pieces: list[str], size: int = 14):
    return st.lists(st.sampled_from(pieces + BLANKS), max_size=size).map("".join)


def _spans(pattern: re.Pattern[str], text: str) -> list:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


def _match(pattern: re.Pattern[str], text: str):
    m = pattern.match(text)
    return None if m is None else (m.span(), m.groups())


# (the pattern as the module holds it, the old pattern, how its caller applies it, the pieces a
# hostile line is made of)
PATTERN_PAIRS = {
    "markup tag": (lambda: markup._TAG, r"</?[A-Za-z][\w.:-]*(?:\s+[^<>]*?)?\s*/?>", _spans,
                   ["<", ">", "/", "a", "b:", "-", ".", "=", '"', "'", "\n", "<a", "</b"]),
    "extended callout": (lambda: containers._EXTENDED, r"^([ \t]*)>[ \t]?\[!([A-Za-z]+)\][+-]?(?:[ \t]+(.*?))?[ \t]*$", _match,
                         [">", "[!NOTE]", "[!tip]", "+", "-", "a", "b c", "\n", "x"]),
    "pymdown block opener": (lambda: containers.SLASH_OPEN, r"^([ \t]*)(/{3,})[ \t]*([\w-]+)[ \t]*(?:\|[ \t]*(.*?))?[ \t]*$", _match,
                             ["///", "/", "note", "|", "a", "b c", "\n", "-", "x y"]),
}


@pytest.mark.parametrize("name", sorted(PATTERN_PAIRS))
@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_each_rewritten_pattern_reads_what_its_old_pattern_read(name, data):
    current, old, applied, pieces = PATTERN_PAIRS[name]
    text = data.draw(_text(pieces))
    assert applied(current(), text) == applied(re.compile(old), text)


def _escapable_spans(text: str) -> list:
    """mdBook's links as ``links._replace`` reads them: the pattern from the "{{" on, and a
    backslash just before it part of the directive (its escape), as the old pattern's first
    group held it."""
    out = []
    for m in links._LINK.finditer(text):
        start = m.start() - (text[m.start() - 1 : m.start()] == "\\")
        out.append(((start, m.end()), (text[start : m.start() + 2], *m.groups())))
    return out


@settings(max_examples=600, deadline=None)
@given(_text(["{{", "\\{{", "\\", "}}", "#include", "#title", "a", "b c", "\n", "{", "}", "#"]))
def test_mdbook_links_are_read_as_the_old_pattern_read_them(text):
    old = re.compile(r"(\\\{\{|\{\{)[ \t]*#(include|rustdoc_include|playground|title)(?:[ \t]+([^{}\n]*?))?[ \t]*\}\}")
    assert _escapable_spans(text) == _spans(old, text)


@settings(max_examples=600, deadline=None)
@given(_text(["<!--", "-->", "<!-", "--", ">", "-", "a", "\n", "<", "!", "<!---->", "<!-->"]))
def test_html_comments_go_as_the_old_patterns_took_them(text):
    closed, unclosed = re.compile(r"<!--.*?-->", re.S), re.compile(r"<!--.*\Z", re.S)
    assert markup.strip_html_comments(text) == unclosed.sub("", closed.sub("", text))


@settings(max_examples=600, deadline=None)
@given(_text(["{*", "*}", "*", "}", "{", "a", "b c", "hl[1]", "x*}y"], size=10))
def test_variant_lines_are_read_as_the_old_pattern_read_them(line):
    old = re.compile(r"^\{\*\s*(\S+)\s*(.*?)\s*\*\}\s*$")
    m = old.match(line)
    assert variant(line) == (None if m is None else m.groups())


@settings(max_examples=600, deadline=None)
@given(_text(["#", "##", "a", "b c", "x#"], size=10))
def test_atx_titles_are_read_as_the_old_pattern_read_them(line):
    old = re.compile(r"#\s+(.+?)\s*#*\s*$")
    m = old.match(line)
    assert atx_title(line) == (None if m is None else m.group(1))


def test_a_myst_line_with_a_long_run_of_backticks_is_kept_as_written_and_named(tmp_path):
    from site_build import SECTIONS, build_json, write_site
    import sqlite3

    line = "Text {ref}`x` and " + "`" * 4000 + " y } " + "`" * 1000
    root = write_site(tmp_path / "site", {
        "docs/conf.py": 'extensions = ["myst_parser"]\n',
        "docs/index.md": f"# Index\n\n{line}\n\nAfter {{ref}}`z`.\n",
    })
    report = build_json(root / "docs", tmp_path / "out")
    unresolved = report["dialect"]["unresolved"]
    assert any(u["construct"] == "myst role" and "more than 16 backticks" in u["detail"] and u["line"] == 3
               for u in unresolved), unresolved
    with sqlite3.connect(tmp_path / "out" / "store.sqlite") as conn:
        text = " ".join(row[2] for row in conn.execute(SECTIONS))
    assert "Text {ref}`x` and" in text and "After z" in text  # the line as written; the next one read


def test_a_title_with_a_long_run_of_backticks_is_shown_as_written():
    from contextpull.dialects.sphinx.xrefs.doc_titles import code_as_text

    assert code_as_text("The `x` call") == "The x call"
    long = "The " + "`" * 20 + "x" + "`" * 20
    assert code_as_text(long) == long
