"""The GitBook dialect (contextpull/dialects/gitbook/): its blocks on strings (one fixture file),
reusable content through the guarded resolver, titles from SUMMARY.md, its page rule, detection
from ``.gitbook.yaml``, and bad input: unclosed blocks, a megabyte of openers, a malformed
``.gitbook.yaml``, each a named note, bounded, never a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from contextpull.dialects.api import Site
from contextpull.dialects.context import MAX_LISTED
from contextpull.dialects.detect import detect_site
from contextpull.dialects.gitbook import blocks
from contextpull.dialects.page_title import navigation_title
from contextpull.dialects.site_reader import open_site
from contextpull.parsing.parse_markdown import parse_markdown

from dialect_context import context
from memory_context import FakeContext, read_fixture_file
from site_build import DOCUMENTS, build_json, write_site

FIXTURES = Path(__file__).parent / "dialect_fixtures"


def _context(files=None, path="page.md") -> FakeContext:
    return FakeContext(files or {}, path=path, docs="", dialect="gitbook", config_file=".gitbook.yaml")


def _unresolved(ctx):
    return [(n.construct, n.line, n.detail) for n in ctx.notes if n.outcome == "unresolved"]


@pytest.mark.parametrize(("source", "expected"), [
    pytest.param(source, expected, id=name) for name, source, expected in read_fixture_file(FIXTURES / "gitbook_blocks.txt")
])
def test_blocks_read_as_the_page_shows_them(source, expected):
    assert blocks.convert(source, _context()) == expected


def test_each_block_is_noted_with_its_line():
    ctx = _context()
    blocks.convert('Text.\n\n{% hint style="info" %}\nA.\n{% endhint %}\n\n{% embed url="https://x.io" %}\n', ctx)
    assert [(n.construct, n.outcome, n.line) for n in ctx.notes] == [
        ("gitbook hint", "converted", 3), ("gitbook embed", "converted", 7)]


def test_unclosed_unknown_and_stray_tags_are_named_with_their_lines():
    ctx = _context()
    blocks.convert('{% tabs %}\n{% tab title="A" %}\nx\n{% endtabs %}\n{% endhint %}\n{% mystery %}\n{% hint %}\n', ctx)
    assert _unresolved(ctx) == [
        ("gitbook tag", 2, "{% tab %} never closed by {% endtab %} before {% endtabs %}: read as if closed there"),
        ("gitbook tag", 5, "{% endhint %} closes no {% hint %}: dropped"),
        ("gitbook tag", 6, "unknown tag {% mystery %}: dropped, the text around it kept"),
        ("gitbook tag", 7, "{% hint %} never closed by {% endhint %} before the page ends: read as if closed there"),
    ]


def test_reusable_content_is_read_through_the_resolver_and_its_blocks_read_too():
    files = {
        ".gitbook/includes/install.md": '---\ntitle: Install\n---\n{% hint style="tip" %}\nRun `pip install x`.\n{% endhint %}\n',
    }
    ctx = _context(files, path="guide/page.md")
    out = blocks.convert('Steps:\n\n{% include "../.gitbook/includes/install.md" %}\n', ctx)
    assert "Tip: Run `pip install x`." in out and "title:" not in out and "{%" not in out
    assert ("gitbook include", "resolved", 3) in ctx.outcomes()
    assert ".gitbook/includes/install.md" in ctx.dependencies


def test_a_missing_or_escaping_include_is_named_and_dropped():
    ctx = _context(path="page.md")
    out = blocks.convert('{% include "gone.md" %}\n{% include "../../etc/passwd" %}\n', ctx)
    assert "{%" not in out
    assert [(c, line) for c, line, _ in _unresolved(ctx)] == [("gitbook include", 1), ("gitbook include", 2)]


def test_an_include_cycle_stops_with_its_chain_named():
    files = {"a.md": '{% include "b.md" %}', "b.md": 'B {% include "a.md" %}'}
    ctx = _context(files)
    assert blocks.convert('{% include "a.md" %}', ctx).strip() == "B"
    assert "cycle" in ctx.notes[-1].detail


@pytest.mark.parametrize(("line", "unresolved"), [
    ("{%" * 500_000, 0),  # a megabyte of openers, none closed: text
    ("{%" * 500_000 + " hint %}", 1),  # one closer after them all: one unclosed tag, the rest text
    ("{% hint %}" * 100_000, 100_000),  # blocks opened and never closed (32 deep, the rest dropped)
    ("{% endtab %}" * 100_000, 100_000),  # end tags that close nothing
    ("`{% hint %}" * 100_000, 50_000),  # every other one inside a code span
])
def test_a_megabyte_of_openers_is_bounded_and_named(line, unresolved):
    ctx = _context()
    out = blocks.convert(line, ctx)
    assert len(out) <= len(line) and "{% hint %}" not in out.replace("`{% hint %}`", "")
    listed = [(n.construct, n.line, n.detail) for n in ctx.listed_notes() if n.outcome == "unresolved"]
    assert len(listed) == min(unresolved, MAX_LISTED + 1)
    if unresolved > MAX_LISTED:
        assert listed[-1][2] == f"{unresolved - MAX_LISTED} more on this page, from here on, not listed"


def _space(tmp_path, files):
    return write_site(tmp_path / "repo", files)


def test_titles_come_from_summary_when_the_page_shows_no_h1(tmp_path):
    root = _space(tmp_path, {
        ".gitbook.yaml": "root: ./docs/\nstructure:\n  summary: SUMMARY.md\n",
        "docs/SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Set up](guide/setup.md)\n",
        "docs/guide/setup.md": "## Steps\n\nText.\n",
        "docs/README.md": "# Own title\n",
    })
    site = detect_site(root / "docs")
    assert (site.dialect, site.config_file) == ("gitbook", ".gitbook.yaml")
    reader = open_site(site)
    ctx = context(root, "guide/setup.md", dialect="gitbook", config_file=".gitbook.yaml", docs="docs")
    ctx.reader = reader
    assert navigation_title(reader, parse_markdown("## Steps\n\nText.\n", "guide/setup.md"), ctx) == "Set up"
    assert "docs/SUMMARY.md" in ctx.deps
    assert navigation_title(reader, parse_markdown("# Own title\n", "README.md"), ctx) is None


def test_summary_and_pages_outside_root_are_not_pages(tmp_path):
    root = _space(tmp_path, {
        ".gitbook.yaml": "root: ./docs/\n",
        "docs/SUMMARY.md": "* [A](a.md)\n",
        "docs/a.md": "# A\n",
        "notes.md": "# Notes\n",
    })
    reader = open_site(detect_site(root))
    assert reader.skip("docs/SUMMARY.md") == "the space's table of contents, read for the pages' titles"
    assert reader.skip("notes.md").startswith("outside the space's root folder docs/")
    assert reader.skip("docs/a.md") is None


@pytest.mark.parametrize(("files", "expected"), [
    ({".gitbook.yaml": "root: ./\n"}, "gitbook"),
    ({"docs/.gitbook.yaml": "root: ./\n"}, "gitbook"),
    # a sync setting left behind: the generator the project uses now wins, wherever its file is
    ({".gitbook.yaml": "root: ./\n", "website/docusaurus.config.js": "module.exports = {};\n"}, "docusaurus"),
    ({"docs/.gitbook.yaml": "root: ./\n", "mkdocs.yml": "site_name: x\n"}, "mkdocs"),
])
def test_gitbook_is_detected_only_where_no_other_generator_is(tmp_path, files, expected):
    root = _space(tmp_path, {"docs/index.md": "# Home\n", **files})
    assert detect_site(root / "docs").dialect == expected


@pytest.mark.parametrize(("config", "construct", "named"), [
    ("root: [unclosed\n", "configuration", ".gitbook.yaml"),  # not YAML
    ("- a list\n- not a mapping\n", "configuration", ".gitbook.yaml is a list, not a mapping"),
    ("root:\n  nested: 1\nstructure: plain text\n", "gitbook configuration", "root is not a folder name"),
    ("root: ../../..\n", "gitbook configuration", "leaves the space's folder"),
    # zero-width spaces, as a real repository (BrighterCommand/Docs) has them: another key
    ("\u200bstructure:\n    readme: README.md\u200b\n", "gitbook configuration", "key '\\u200bstructure' is not one"),
])
def test_a_malformed_gitbook_yaml_is_named_and_the_space_read_with_defaults(tmp_path, config, construct, named):
    root = _space(tmp_path, {
        ".gitbook.yaml": config,
        "SUMMARY.md": "* [Welcome](README.md)\n* [Start](start.md)\n",
        "README.md": "Welcome.\n",
        "start.md": '{% hint style="info" %}\nHello.\n{% endhint %}\n',
    })
    report = build_json(root, tmp_path / "out")
    assert report["dialect"]["name"] == "gitbook"
    with sqlite3.connect(tmp_path / "out" / "store.sqlite") as db:
        assert [row[:2] for row in db.execute(DOCUMENTS).fetchall()] == [("README.md", "Welcome"), ("start.md", "Start")]
    problems = [u for u in report["dialect"]["unresolved"] if u["construct"] == construct]
    assert any(named in u["detail"] for u in problems)
    # GitBook's own settings are named once, on the space's first page
    assert {u["path"] for u in report["dialect"]["unresolved"] if u["construct"] == "gitbook configuration"} <= {"README.md"}


def test_a_forced_gitbook_dialect_without_configuration_reads_docs_as_the_space(tmp_path):
    root = _space(tmp_path, {"docs/SUMMARY.md": "* [Page](page.md)\n", "docs/page.md": "Text.\n"})
    reader = open_site(Site("gitbook", None, str((root / "docs").resolve()), str(root.resolve())))
    assert reader.summary_path == "docs/SUMMARY.md"
    assert reader.skip("SUMMARY.md") is not None and reader.skip("page.md") is None


@pytest.mark.parametrize(("source", "expected"), [
    ('<pre class="language-typescript"><code class="lang-typescript">const a = 1;\n<strong>go(a)</strong> &#x26;&#x26; b\n</code></pre>',
     "```typescript\nconst a = 1;\ngo(a) && b\n```"),
    ('<table data-view="cards"><thead><tr><th></th><th></th></tr></thead><tbody><tr><td><strong>Get API Key</strong></td>'
     '<td>Learn how.</td><td><a href="k.md">k.md</a></td></tr><tr><td>Two</td><td></td></tr></tbody></table>',
     "Get API Key | Learn how. | k.md\nTwo"),
    ("Line one<br>line two with <mark style=\"color:red;\">marks</mark>&#x20;", "Line one\nline two with marks"),
    ("```html\n<pre><code>kept</code></pre>\n```", "```html\n<pre><code>kept</code></pre>\n```"),  # code stays code
    ("<pre><code>never closed", "never closed"),  # no code block: its tags go, its text stays
])
def test_gitbook_html_reads_as_the_page_shows_it(source, expected):
    from contextpull.dialects.gitbook import html

    assert html.read(source, _context()).strip() == expected


def test_a_megabyte_of_html_openers_is_read_once():
    from contextpull.dialects.gitbook import html

    for run in ("<pre", "<pre><code>", "<td>", "<", "&#x"):
        text = run * (1_000_000 // len(run))
        assert len(html.read(text, _context())) <= len(text)
