"""The mdBook dialect on strings (contextpull/dialects/mdbook/): one fixture
file per syntax, then titles from SUMMARY.md and the bad inputs of the links preprocessor."""

from __future__ import annotations

from pathlib import Path

import pytest

from contextpull.dialects.mdbook import dialect as mdbook
from contextpull.dialects.mdbook.links import Link, parse_link
from contextpull.dialects.page_title import navigation_title
from contextpull.parsing.parse_markdown import parse_markdown

from memory_context import FakeContext, read_fixture_file

FIXTURES = Path(__file__).parent / "dialect_fixtures"

# A book at the repository root: book.toml, chapters in src/, listings beside src/.
FILES = {
    "listings/ch02/main.rs": "fn main() {\n    // ANCHOR: body\n    let boat = 1;\n    // ANCHOR_END: body\n    println!(\"{boat}\");\n}\n",
    "listings/ch02/out.txt": "a\nb\nc\nd\n",
    "src/part.md": "Part says: {{#include ../listings/ch02/out.txt:1}}\n",
    "src/SUMMARY.md": (
        "# Summary\n\n[Foreword](foreword.md)\n\n"
        "- [Rowing Basics](ch01-00-rowing.md)\n  - [Oars](ch01/oars.md)\n- [Draft]()\n\n"
        "```\n- [Not a chapter](code.md)\n```\n"
    ),
}


def _title(doc, ctx) -> str:
    """The title the page takes: the shared navigation rule (``page_title``) asking this
    dialect's hooks, else the parsed one."""
    return navigation_title(mdbook.Reader(ctx.site), doc, ctx) or doc.title


def _context(path="ch02-00-page.md", **kwargs) -> FakeContext:
    return FakeContext(FILES, path=path, docs="src", dialect="mdbook", config={"book": {}}, config_file="book.toml", **kwargs)


def _cases():
    for syntax in ("links", "render"):
        for name, source, expected in read_fixture_file(FIXTURES / f"mdbook_{syntax}.txt"):
            yield pytest.param(source, expected, id=f"{syntax}: {name}")


@pytest.mark.parametrize(("source", "expected"), list(_cases()))
def test_prepare_gives_what_the_page_shows(source, expected):
    assert mdbook.prepare(source, _context()) == expected


@pytest.mark.parametrize(
    ("args", "link"),
    [
        ("x.rs", Link("include", "x.rs")),
        ("x.rs:here", Link("include", "x.rs", anchor="here")),
        ("x.rs:4", Link("include", "x.rs", 4, 4)),
        ("x.rs:2:10", Link("include", "x.rs", 2, 10)),
        ("x.rs::10", Link("include", "x.rs", None, 10)),
        ("x.rs:2:", Link("include", "x.rs", 2, None)),
    ],
)
def test_a_directive_is_parsed_before_anything_is_read(args, link):
    assert parse_link("include", args) == link


def test_missing_target_is_noted_with_file_and_line():
    ctx = _context()
    mdbook.prepare("Intro.\n\n{{#include ../listings/ch02/gone.rs}}", ctx)
    assert [(n.construct, n.outcome, n.line, n.detail) for n in ctx.notes] == [
        ("mdbook include", "unresolved", 3, "target missing: ../listings/ch02/gone.rs")
    ]


def test_an_anchor_the_file_lacks_is_noted():
    ctx = _context()
    mdbook.prepare("{{#include ../listings/ch02/main.rs:keel}}", ctx)
    assert ("mdbook include anchor", "unresolved", 1) in ctx.outcomes()


def test_a_cycle_through_nested_includes_stops_and_keeps_the_directive():
    files = {**FILES, "src/a.md": "A {{#include b.md}}", "src/b.md": "B {{#include a.md}}"}
    ctx = FakeContext(files, path="page.md", docs="src", dialect="mdbook", config_file="book.toml")
    assert mdbook.prepare("{{#include a.md}}", ctx) == "A B {{#include a.md}}"
    assert ctx.notes[-1].outcome == "unresolved" and "cycle" in ctx.notes[-1].detail


def test_a_chain_deeper_than_ten_stops():
    files = {f"src/d{k}.md": f"{k} {{{{#include d{k + 1}.md}}}}" for k in range(15)}
    ctx = FakeContext(files, path="page.md", docs="src", dialect="mdbook", config_file="book.toml")
    out = mdbook.prepare("{{#include d0.md}}", ctx)
    assert out.startswith("0 1 2") and out.endswith("{{#include d10.md}}")
    assert [n.outcome for n in ctx.notes].count("resolved") == 10


def test_a_directive_without_a_file_is_prose_as_in_mdbook():
    text = "Expands `{{ #include }}`, `{{#playground}}` and `{{#rustdoc_include}}` helpers."
    ctx = _context()
    assert mdbook.prepare(text, ctx) == text and ctx.notes == []


def test_summary_gives_the_title_a_chapter_starting_at_h2_lacks():
    ctx = _context(path="ch01-00-rowing.md")
    assert _title(parse_markdown("## Why row\n\nText.", "ch01-00-rowing"), ctx) == "Rowing Basics"
    assert "src/SUMMARY.md" in ctx.dependencies


def test_summary_titles_nested_chapters_and_skips_code_and_drafts():
    assert mdbook.parse_summary(FILES["src/SUMMARY.md"]) == {
        "foreword.md": "Foreword",
        "ch01-00-rowing.md": "Rowing Basics",
        "ch01/oars.md": "Oars",
    }
    assert _title(parse_markdown("Text.", "oars"), _context(path="ch01/oars.md")) == "Oars"


def test_front_matter_title_wins_over_summary():
    ctx = _context(path="ch01-00-rowing.md", front_matter={"title": "Own"})
    assert navigation_title(mdbook.Reader(ctx.site), parse_markdown("# Own\n", "ch01-00-rowing"), ctx) is None


def test_a_page_missing_from_summary_keeps_its_title():
    assert _title(parse_markdown("# Loose page\n", "loose"), _context(path="loose.md")) == "Loose page"


def test_code_block_language_is_the_word_before_the_comma():
    doc = parse_markdown("```rust,ignore,noplayground\nfn x() {}\n```", "p")
    block = mdbook.finish(doc, _context()).blocks[0]
    assert block.lang == "rust" and block.raw.startswith("```rust,ignore,noplayground")


def test_a_line_of_unclosed_directives_is_kept_as_written():
    # Each unclosed "{{#include " once made the scan for "}}" run to the end of the line.
    text = "{{#include " * 20000
    ctx = _context()
    assert mdbook.prepare(text, ctx) == text and ctx.notes == []


def test_a_malformed_summary_line_is_no_chapter():
    # Nested brackets once made the chapter pattern backtrack for every "[" on the line.
    assert mdbook.parse_summary("- [" + "[a](" * 20000 + "\n- [B [c]](b.md)\n") == {"b.md": "B [c]"}


def test_summary_is_read_from_the_src_folder_book_toml_names():
    files = {"book/pages/SUMMARY.md": "- [Knots](knots.md)\n"}
    ctx = FakeContext(files, path="knots.md", docs="book/pages", dialect="mdbook", config={"book": {"src": "pages"}}, config_file="book/book.toml")
    assert _title(parse_markdown("## Bowline\n", "knots"), ctx) == "Knots"
    assert ctx.dependencies == ["book/pages/SUMMARY.md"]
