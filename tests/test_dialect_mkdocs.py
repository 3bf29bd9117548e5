"""The mkdocs dialect on strings (contextpull/dialects/mkdocs/dialect.py): one fixture file per syntax,
input and the text a reader of the rendered page sees, plus the notes the report counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from contextpull.dialects.mkdocs import dialect as mkdocs
from contextpull.dialects.page_title import navigation_title
from contextpull.dialects import markdown_blocks
from contextpull.parsing.blocks import ParsedDocument
from contextpull.parsing.parse_markdown import parse_markdown

from memory_context import FakeContext, read_fixture_file

FIXTURES = Path(__file__).parent / "dialect_fixtures"
SYNTAXES = ["admonitions", "blocks", "inline", "snippets", "variants"]

# The site of every fixture: mkdocs.yml in docs/en, pages in docs/en/docs, snippets under
# docs/en/snippets (base_path), example code in docs_src at the repository root.
CONFIG = {"markdown_extensions": ["admonition", {"pymdownx.snippets": {"base_path": ["snippets"]}}]}
FILES = {
    "docs/en/snippets/tide.md": "High tide at six.\nLow tide at noon.\n",
    "docs/en/snippets/rows.txt": "one\ntwo\nthree\nfour\n",
    "docs/en/snippets/boat.py": "import os\n# --8<-- [start:hull]\nclass Hull:\n    pass\n# --8<-- [end:hull]\n",
    "docs/en/snippets/nested.md": 'Nested start.\n--8<-- "tide.md"\n',
    "docs_src/first.py": "import harbour\n\nboat = harbour.Boat()\n",
}


def _context(**kwargs) -> FakeContext:
    return FakeContext(FILES, path="guide/page.md", docs="docs/en/docs", config=CONFIG, config_file="docs/en/mkdocs.yml", **kwargs)


def _cases():
    for syntax in SYNTAXES:
        for name, source, expected in read_fixture_file(FIXTURES / f"mkdocs_{syntax}.txt"):
            yield pytest.param(source, expected, id=f"{syntax}: {name}")


@pytest.mark.parametrize(("source", "expected"), list(_cases()))
def test_prepare_gives_what_the_page_shows(source, expected):
    assert mkdocs.prepare(source, _context()) == expected


def test_every_construct_is_noted_with_its_line():
    source = "# T { #t }\n\n!!! note\n    x\n\n/// tip\ny\n///\n\n::: pkg.mod\n\n--8<-- \"nowhere.md\"\n"
    ctx = _context()
    mkdocs.prepare(source, ctx)
    assert sorted(ctx.outcomes(), key=lambda o: o[2]) == [
        ("heading attributes", "converted", 1),
        ("admonition", "converted", 3),
        ("pymdown block", "converted", 6),
        ("mkdocstrings", "unresolved", 10),
        ("snippet", "unresolved", 12),
    ]


def test_notes_name_the_source_line_after_an_include_added_lines():
    ctx = _context()
    mkdocs.prepare('--8<-- "rows.txt"\n\n!!! note\n    x\n', ctx)
    assert ("admonition", "converted", 3) in ctx.outcomes()


def test_missing_snippet_is_reported_with_its_target():
    ctx = _context()
    mkdocs.prepare('--8<-- "nowhere.md"', ctx)
    assert [(n.outcome, n.detail) for n in ctx.notes] == [("unresolved", "target missing: nowhere.md")]


def test_snippet_cycle_stops_with_a_note():
    files = {**FILES, "docs/en/snippets/loop.md": 'Loop.\n--8<-- "loop.md"\n'}
    ctx = FakeContext(files, docs="docs/en/docs", config=CONFIG, config_file="docs/en/mkdocs.yml")
    assert mkdocs.prepare('--8<-- "loop.md"', ctx) == "Loop."
    assert ctx.notes[-1].outcome == "unresolved" and "cycle" in ctx.notes[-1].detail


def test_snippets_stay_when_the_site_does_not_enable_them():
    ctx = FakeContext(FILES, docs="docs/en/docs", config={"markdown_extensions": ["admonition"]}, config_file="docs/en/mkdocs.yml")
    assert mkdocs.prepare('--8<-- "tide.md"', ctx) == '--8<-- "tide.md"'
    assert ctx.notes == []


def test_markdown_extensions_as_a_mapping_are_read():
    config = {"markdown_extensions": {"pymdownx.snippets": {"base_path": "snippets"}}}
    ctx = FakeContext(FILES, docs="docs/en/docs", config=config, config_file="docs/en/mkdocs.yml")
    assert mkdocs.prepare('--8<-- "tide.md:1:1"', ctx) == "High tide at six."


def test_an_unclosed_block_runs_to_the_end_and_says_so():
    ctx = _context()
    assert mkdocs.prepare("/// note\nNever closed.", ctx) == "Note: Never closed."
    assert "never closed" in ctx.notes[0].detail


def test_prepare_gives_an_attr_list_fence_its_language_and_title():
    """superfences' ```` ```{ .dockerfile .annotate title="x" } ````: ``prepare`` writes the
    opener as its language and the title the page shows, so the parser's block has the
    language and no hook after the parser is needed; a header the scanner refuses (a brace in a
    value) is left as written, as before."""
    doc = _parsed('```{ .dockerfile .annotate title="x" }\nFROM python\n```\n\n```{ .py }\npass\n```', _context())
    assert [(b.lang, b.raw) for b in doc.blocks] == [
        ("dockerfile", '```dockerfile title="x"\nFROM python\n```'), ("py", "```py\npass\n```")]
    refused = '```{.textual path="p.py" type=\'{"n": 1}\'}\n```'
    assert [b.raw for b in _parsed(refused, _context()).blocks] == [refused]


def test_a_fence_header_reads_as_superfences_reads_it_commas_and_all():
    """Textual's ``{.textual path="x.py", press="a,b"}``: attr_list's scanner takes the comma as
    a word of its own, so the page renders the fence; a brace in a value is still refused."""
    source = ('```{.textual path="key01.py", press="T,e,x"}\n```\n\n'
              '```{.textual path="w.py" press=["a"]}\n```\n\n'
              '```{.textual path="p.py" type="[b]Hi"] lines=16}\n```\n\n'
              '```{.textual path="p.py" type=\'{"n": 1}\'}\n```')
    ctx = _context()
    assert mkdocs.prepare(source, ctx).split("\n\n")[:3] == ["```textual\n```"] * 3
    assert [o for o in ctx.outcomes() if o[0] == "attr_list"] == [("attr_list", "converted", n) for n in (1, 4, 7)]
    assert _parsed('```{.textual path="key01.py", press="T,e,x"}\n```', _context()).blocks[0].lang == "textual"


def _title(doc, ctx) -> str:
    """The title the page takes: the shared navigation rule (``page_title``) asking this
    dialect's hooks, else the parsed one."""
    return navigation_title(mkdocs.Reader(ctx.site), doc, ctx) or doc.title


NAV = {"nav": [{"Home": "index.md"}, {"Guide": [{"Mooring knots": "guide/page.md"}, "guide/other.md"]}]}


def test_a_page_without_an_h1_takes_its_nav_title():
    ctx = FakeContext(FILES, path="guide/page.md", docs="docs/en/docs", config=NAV, config_file="docs/en/mkdocs.yml")
    assert _title(parse_markdown("## Bowline\n\nText.", "page"), ctx) == "Mooring knots"


def test_a_page_with_an_h1_or_a_front_matter_title_keeps_it():
    ctx = FakeContext(FILES, path="index.md", docs="docs/en/docs", config=NAV, config_file="docs/en/mkdocs.yml")
    assert _title(parse_markdown("# Harbour guide\n", "index"), ctx) == "Harbour guide"
    ctx = FakeContext(FILES, path="guide/page.md", docs="docs/en/docs", config=NAV, config_file="docs/en/mkdocs.yml", front_matter={"title": "Own"})
    assert _title(parse_markdown("Text.", "page"), ctx) == "page"


def test_an_inherited_configuration_enables_snippets():
    parent = "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: [snippets]\n"
    files = {**FILES, "docs/base.yml": parent}
    ctx = FakeContext(files, docs="docs/en/docs", config={"INHERIT": "../base.yml", "site_name": "x"}, config_file="docs/en/mkdocs.yml")
    assert mkdocs.prepare('--8<-- "tide.md:1:1"', ctx) == "High tide at six."
    assert "docs/base.yml" in ctx.dependencies


def test_the_merged_and_hoisted_configuration_is_built_once_per_build_and_chain():
    """Each page reads the parent (its dependency); the merge and Zensical's hoisting are kept."""
    from contextpull.dialects.mkdocs.config import site_config

    files = {**FILES, "docs/base.yml": "markdown_extensions:\n  pymdownx:\n    snippets: {}\n"}
    ctx = FakeContext(files, docs="docs/en/docs", config={"INHERIT": "../base.yml"}, config_file="docs/en/mkdocs.yml")
    first = site_config(ctx)
    assert first["markdown_extensions"] == {"pymdownx.snippets": {}}
    ctx.dependencies.clear()
    assert site_config(ctx) is first and ctx.dependencies == ["docs/base.yml"]
    ctx.files["docs/base.yml"] = "site_name: edited\n"  # another chain's contents: merged anew
    assert site_config(ctx) == {"site_name": "edited"}


@pytest.mark.parametrize(
    ("files", "detail"),
    [
        ({}, "docs/base.yml: missing or not a mapping"),
        ({"docs/base.yml": "INHERIT: en/mkdocs.yml\n"}, "inheritance loop through docs/en/mkdocs.yml"),
        ({"docs/base.yml": "a: [1, 2\n"}, "docs/base.yml: malformed YAML"),
    ],
)
def test_a_broken_inheritance_is_one_note_and_the_page_still_reads(files, detail):
    ctx = FakeContext({**FILES, **files}, docs="docs/en/docs", config={"INHERIT": "../base.yml"}, config_file="docs/en/mkdocs.yml")
    assert mkdocs.prepare("!!! note\n    Text.", ctx) == "Note: Text."
    _title(parse_markdown("Note: Text.", "page"), ctx)
    notes = [n for n in ctx.notes if n.construct == "mkdocs INHERIT"]
    assert len(notes) == 1 and notes[0].outcome == "unresolved" and notes[0].detail.startswith(detail)


def test_containers_deeper_than_the_limit_stay_text_and_are_noted():
    source = "/// note\n" * 2000 + "Deep."
    ctx = _context()
    out = mkdocs.prepare(source, ctx)
    assert out.endswith("/// note\nDeep.")
    assert [n.detail for n in ctx.notes if n.outcome == "unresolved"] == ["containers nested deeper than 20 are kept as text"]


def test_a_base_path_that_is_a_file_serves_only_its_own_name(tmp_path):
    (tmp_path / "docs" / "snippets").mkdir(parents=True)
    (tmp_path / "LICENSE.md").write_text("MIT, with no warranty.\n")
    config = {"markdown_extensions": [{"pymdownx.snippets": {"base_path": ["docs/snippets", "LICENSE.md"]}}]}
    # The base is chosen by what exists on disk; the read itself goes through the context.
    files = {"LICENSE.md": "MIT, with no warranty.\n"}
    ctx = FakeContext(files, docs="docs/pages", config=config, config_file="mkdocs.yml", repo_root=str(tmp_path))
    assert mkdocs.prepare('--8<-- "LICENSE.md"', ctx) == "MIT, with no warranty."


def _block_notes(ctx):
    return [(n.construct, n.outcome, n.line, n.detail) for n in ctx.notes if n.construct in ("pymdown block", "admonition")]


def test_a_block_name_no_extension_registers_is_named_and_keeps_its_body():
    ctx = _context()
    out = mkdocs.prepare('# U\n\n!!! madeup "Made up"\n    INNER-1\n\n/// frob\nINNER-2\n///\n', ctx)
    assert "INNER-1" in out and "INNER-2" in out
    assert _block_notes(ctx) == [
        ("admonition", "converted", 3, ""),  # Python-Markdown renders any type, with its title
        ("pymdown block", "unresolved", 6, "unknown block /// frob: no pymdown blocks extension of the site"
                                           " defines it, so the page shows it as text; its body kept"),
    ]


@pytest.mark.parametrize(
    "extensions",
    [
        [{"pymdownx.blocks.admonition": {"types": ["note", "frob"]}}],
        [{"pymdownx.blocks.details": {"types": [{"name": "frob", "class": "x"}]}}],
        ["house.blocks"],  # a blocks extension of the site's own may register any name
    ],
)
def test_a_block_name_the_configuration_registers_stays_converted(extensions):
    ctx = FakeContext(FILES, path="guide/page.md", docs="docs/en/docs", config={"markdown_extensions": extensions},
                      config_file="docs/en/mkdocs.yml")
    assert "INNER" in mkdocs.prepare("/// frob\nINNER\n///\n\n/// details | More\nMORE\n///\n", ctx)
    assert [o for _, o, _, _ in _block_notes(ctx)] == ["converted", "converted"]


def test_a_heading_toc_label_names_it_in_the_heading_path():
    """Python-Markdown's ``data-toc-label``: the page shows the heading, its table of contents
    the label; the section keeps the heading, the heading path takes the label."""
    source = '# Guide\n\n## A very long heading about mooring { #moor data-toc-label="Mooring" }\n\nTie up.\n'
    ctx = _context()
    doc = _parsed(source, ctx)
    heading = doc.blocks[1]
    assert (heading.text, heading.label) == ("A very long heading about mooring", "Mooring")
    assert ("heading attributes", "converted", 3) in ctx.outcomes()


@pytest.mark.parametrize("line", [
    "## Title { #id }",                       # no label: the anchor goes, as before
    '## Title { data-toc-label="x" } more',  # not the heading's end
    '## Title {data-toc-label="x"',          # unclosed
])
def test_a_heading_without_a_closing_label_list_has_no_label(line):
    doc = _parsed(line + "\n", _context())
    assert doc.blocks[0].label is None


def _parsed(source: str, ctx) -> ParsedDocument:
    """The page through ``prepare`` (mkdocs' only hook on its text) and parsed as a dialect's
    Markdown is, which makes the label the heading's (``markdown_blocks``)."""
    return markdown_blocks.parse(mkdocs.prepare(source, ctx), "page", ctx)


def test_an_mdx_include_slice_it_cannot_read_is_named_and_a_hostile_line_reads_once():
    ctx = _context()
    source = "```python\n{!../../docs_src/first.py[ln:3]!}\n```\n\n{!../../docs_src/first.py[ln:.3-.10]!}\n"
    out = mkdocs.prepare(source, ctx)
    assert out.startswith("```python\nboat = harbour.Boat()\n```")
    assert [(c, o, line) for c, o, line in ctx.outcomes() if c == "mdx include"] == [
        ("mdx include", "resolved", 2), ("mdx include", "unresolved", 5)]
    hostile = "{!" + "a" * 100_000 + " [ln:1" + " " * 100_000 + "\n" + "{!a{!" * 20_000
    assert mkdocs.prepare(hostile, _context()) == hostile


def test_a_snippet_svg_and_a_stylesheet_show_nothing_of_their_source():
    """Textual's blog and guide paste terminal screenshots in with ``--8<-- "x.svg"``: the page
    draws the picture; the store held its CSS, font URLs and path data as prose (27 pages,
    2.24 -> 1.76 MB of text). A ``<style>`` block (FastAPI's home page) is the same."""
    files = dict(FILES)
    files["docs/en/snippets/shot.svg"] = ('<svg class="rich-terminal" viewBox="0 0 9 9">\n  <style>\n'
                                          '  @font-face { font-family: "Fira Code"; }\n  .t-r1 { fill: #c5c8c6 }\n'
                                          '  </style>\n  <defs><clipPath id="c"><rect x="0"/></clipPath></defs>\n'
                                          '  <text class="t-r1" x="1">Hello</text>\n</svg>\n')
    ctx = FakeContext(files, path="guide/page.md", docs="docs/en/docs", config=CONFIG, config_file="docs/en/mkdocs.yml")
    source = ('# Shots\n\n<style>\n.md-typeset h1 { display: none; }\n</style>\n\nBefore.\n\n'
              '=== "Output"\n\n    --8<-- "shot.svg"\n\nAfter `<svg>` and <b>bold</b>.\n\n```html\n<style>kept</style>\n```\n')
    out = mkdocs.prepare(source, ctx)
    assert "font" not in out and "display" not in out and "fill" not in out and "Hello" not in out
    assert "Before." in out and "After `<svg>` and bold." in out and "<style>kept</style>" in out
    assert ("html", "converted", 3) in ctx.outcomes()
    assert out.count("\n") >= source.count("\n") - 2  # lines emptied, not taken out


def test_keys_show_their_names_where_the_site_enables_pymdownx_keys():
    """Textual's guide: ``press ++ctrl+q++``, ``the ++r++ key`` (103 runs on 19 pages showed
    the ``++`` markup -> 0). Names come from the extension's key map and aliases, a quoted key
    shows its text, an unknown key leaves the run as written, code spans are code, and the
    site's ``separator``, ``camel_case`` and ``key_map`` are read."""
    config = {"markdown_extensions": ["pymdownx.keys"]}
    ctx = FakeContext(FILES, path="guide/page.md", docs="docs/en/docs", config=config, config_file="docs/en/mkdocs.yml")
    source = ('Press ++ctrl+alt+del++, then ++pg-up++ or ++"My Key"++; ++nokey++ stays, C++ too,\n'
              'and `++ctrl+q++` is code.\n')
    assert mkdocs.prepare(source, ctx) == ("Press Ctrl+Alt+Del, then Page Up or My Key; ++nokey++ stays, C++ too,\n"
                                           "and `++ctrl+q++` is code.\n")
    assert ("keys", "converted", 1) in ctx.outcomes()
    options = {"pymdownx.keys": {"separator": " ", "camel_case": True, "key_map": {"hyper": "Hyper"}}}
    ctx = FakeContext(FILES, path="guide/page.md", docs="docs/en/docs", config={"markdown_extensions": [options]},
                      config_file="docs/en/mkdocs.yml")
    assert mkdocs.prepare("++Hyper+PageUp++\n", ctx) == "Hyper Page Up\n"
    # a site that does not enable the extension shows the markup as written
    assert mkdocs.prepare("Press ++ctrl+q++.\n", _context()) == "Press ++ctrl+q++.\n"
