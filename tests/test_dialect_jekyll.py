"""The Jekyll dialect (contextpull/dialects/jekyll/): Liquid and
kramdown read as the rendered page shows them, data printed where the page prints it, includes
through the guarded resolver, every construct counted with its line.

Pages of the fixture site in tests/dialect_sites/jekyll are prepared with a stand-in context; the
prepared text and the notes are regression fixtures."""

from __future__ import annotations

import os

import pytest
import yaml

from contextpull.dialects.jekyll import dialect as jekyll, kramdown
from contextpull.dialects.data.front_matter import split_front_matter
from dialect_context import context, outcomes, read

SITE = os.path.join(os.path.dirname(__file__), "dialect_sites", "jekyll")


def _prepare(rel: str):
    with open(os.path.join(SITE, rel), encoding="utf-8") as f:
        fm = split_front_matter(f.read())
    text, front = fm.body, fm.data
    with open(os.path.join(SITE, "_config.yml"), encoding="utf-8") as f:
        config = yaml.safe_load(f)
    ctx = context(SITE, rel, dialect="jekyll", config_file="_config.yml", config=config, front_matter=front)
    return jekyll.prepare(text, ctx), ctx


def test_a_page_reads_as_rendered(file_regression, data_regression):
    out, ctx = _prepare("guide/boiling.md")
    file_regression.check(out, basename="jekyll_boiling", extension=".md")
    data_regression.check([[n.construct, n.outcome, n.line, n.detail] for n in ctx.notes], basename="jekyll_boiling_notes")


def test_no_liquid_or_kramdown_syntax_is_left_but_the_raw_text():
    out, _ = _prepare("guide/boiling.md")
    assert "{%" not in out and "{:" not in out
    assert out.count("{{") == 2 and "Write `{{ page.title }}` to print a title." in out
    assert "Type `{{ page.kind }}` to print the kind." in out  # an HTML code element stays code


def test_data_and_includes_are_read_through_the_context():
    out, ctx = _prepare("guide/boiling.md")
    assert "Kettle needs Python 3.10 or later; the linter is\nRUFF." in out
    assert {"_data/python.yml", "_data/tools/linters.json", "_includes/badge.html", "_includes/tip.html",
            "guide/parts/steps.md"} <= read(ctx)
    assert "Descale it **monthly**." in out and "<div" not in out


def test_what_cannot_be_shown_is_named_and_nothing_outside_is_read():
    _, ctx = _prepare("guide/boiling.md")
    unresolved = {(n.construct, n.detail.split(":")[0]) for n in ctx.notes if n.outcome == "unresolved"}
    assert ("liquid output", "site.nothing_here") in unresolved
    assert ("liquid output", "site.data.python.tested") in unresolved  # a list is not a sentence
    assert ("liquid output", "site.data.bomb.e") in unresolved
    assert ("jekyll include", "target missing") in unresolved
    assert ("jekyll include", "../secrets.txt") in unresolved
    assert ("liquid tag", "seo") in unresolved
    assert ("liquid output", "site.data.broken.key") in unresolved  # YAML that does not parse
    assert ("liquid output", "site.data.tags.cmd") in unresolved  # a tag that would construct an object
    assert all(not p.startswith("..") for p in ctx.deps)


def test_a_data_file_is_data_never_code():
    out, _ = _prepare("guide/boiling.md")
    assert "Broken data: ; tagged:  and safe." in out


def test_an_unclosed_raw_keeps_the_rest_as_written():
    out, ctx = _prepare("guide/broken.md")
    assert out == "Before.\n\n\nNever closed {{ page.x }}\n"
    assert outcomes(ctx) == [("liquid raw", "unresolved", 3)]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # A list's line becomes blank, so every later line keeps its number for the report.
        ("{: .note}\nA remark.\n\nNext.", "\nNote: A remark.\n\nNext."),
        ("First line\nsecond line\n{: .note .warning}", "Warning: First line\nsecond line\n"),
        # Just the Docs: a callout class on a block quote makes the quote its box.
        ("{: .warning }\n> Back up first.\n>\n> Then upgrade.", "\nWarning: Back up first.\n\nThen upgrade."),
        ("{: .note }\n> A quote\nthen text.", "\nNote: > A quote\nthen text."),  # not all quoted: as written
        # The Carpentries' lessons: the quote's heading is the box's title, the class below it.
        ("> ## `.caution`\n>\n> Mind the gap.\n{: .caution}", "`.caution`: Mind the gap.\n"),
        ("Plain.\n{: .image-description}", "Plain.\n"),
        ("{::options parse_block_html=\"true\" /}\nText.", "\nText."),
        ("a {::comment}hidden{:/comment} b", "a  b"),
        ("## Title {#title}", "## Title"),
        ("```\n{: .note}\n```", "```\n{: .note}\n```"),
        ("Use `{: .x}` inline", "Use `{: .x}` inline"),
    ],
)
def test_kramdown_extensions(tmp_path, source, expected):
    ctx = context(tmp_path, "p.md", dialect="jekyll", config_file=None)
    assert kramdown.prepare(source, ctx) == expected


def test_unclosed_blocks_are_searched_once_and_named(tmp_path):
    """Sizes at which a search per opener would be quadratic: each kind is searched once."""
    ctx = context(tmp_path, "p.md", dialect="jekyll", config_file=None)
    text = "{::comment}" * 20_000 + "{% a " * 20_000
    assert jekyll.prepare(text, ctx) == text and ctx.notes == []
    out = jekyll.prepare("{% capture a %}" * 5_000 + "kept", ctx)
    assert out == "kept"
    assert {(n.construct, n.outcome) for n in ctx.notes} == {("liquid capture", "unresolved")}
    listed = ctx.listed_notes()  # a hundred listed, the rest counted in one
    assert len(listed) == 101 and listed[-1].detail == "4900 more on this page, from here on, not listed"


def test_a_raw_brace_does_not_swallow_the_output_after_it(tmp_path):
    ctx = context(tmp_path, "p.md", dialect="jekyll", config_file=None, config={"title": "Kettle"})
    assert jekyll.prepare("{% raw %}{{{% endraw %} {{ site.title }} }}", ctx) == "{{ Kettle }}"


def test_a_page_without_liquid_still_shows_its_html_as_text():
    out, _ = _prepare("guide/descaling.md")
    assert "<" not in out and "Use vinegar" in out and "Never use bleach & water." in out
    assert "The variable  is empty." in out


def _tag_site(tmp_path, config: str = "", files: dict | None = None):
    (tmp_path / "_config.yml").write_text(config)
    for rel, text in (files or {}).items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return context(tmp_path, "page.md", dialect="jekyll", config_file="_config.yml",
                   config=yaml.safe_load(config) or {})


def _tag_notes(ctx):
    return [(n.outcome, n.line, n.detail) for n in ctx.notes if n.construct == "liquid tag"]


def test_a_tag_no_one_defines_is_named_and_keeps_its_inner_text(tmp_path):
    ctx = _tag_site(tmp_path)
    out = jekyll.prepare("# U\n\n{% nosuchtag x %}\nINNER\n{% endnosuchtag %}\n\n{% alone %}\n", ctx)
    assert "INNER" in out
    assert _tag_notes(ctx) == [
        ("unresolved", 3, "unknown Liquid tag {% nosuchtag %}: not defined by Liquid, Jekyll or the site's plugins,"
                          " its inner text kept"),
        ("unresolved", 7, "unknown Liquid tag {% alone %}: not defined by Liquid, Jekyll or the site's plugins,"
                          " nothing kept"),
    ]
    assert ctx.deps["_plugins/nosuchtag.rb"] == "missing"  # a plugin added later rebuilds the page


def test_the_plugin_files_are_read_once_a_page_however_many_unknown_tags_it_holds(tmp_path):
    plugins = {f"_plugins/p{i}.rb": f"Liquid::Template.register_tag('known{i}', K)\n" for i in range(5)}
    ctx = _tag_site(tmp_path, files=plugins)
    page = "# U\n\n" + "".join(f"{{% unknown{i} %}}\n" for i in range(30)) + "{% known3 %}\n"
    jekyll.prepare(page, ctx)
    assert [n[2] for n in _tag_notes(ctx)].count("") == 0 and len(_tag_notes(ctx)) >= 30
    # 5 plugin files and a Gemfile once, and each unknown name's conventional plugin file
    assert ctx._resolver.reads <= 5 + 2 + 30
    assert set(plugins) <= set(ctx.deps) and ctx.deps["_plugins/unknown7.rb"] == "missing"


@pytest.mark.parametrize(
    ("config", "files"),
    [
        ("", {"_plugins/notes.rb": "class Notes < Liquid::Block; end\nLiquid::Template.register_tag('notebox', Notes)\n"}),
        ("plugins_dir: lib/tags\n", {"lib/tags/n.rb": "Liquid::Template.register_tag :notebox, Notes\n"}),
        ("", {"_plugins/any.rb": "Liquid::Template.register_tag(NAME, Notes)\n"}),  # a computed name may be it
        ("plugins:\n  - jekyll-house-tags\n", {}),  # a gem whose tags are not known here
        ("theme: house-theme\n", {}),  # a theme gem loads its own dependencies
        ("", {"Gemfile": "group :jekyll_plugins do\n  gem \"jekyll-house-tags\"\nend\n"}),
    ],
)
def test_a_tag_a_plugin_may_define_is_not_called_unknown(tmp_path, config, files):
    ctx = _tag_site(tmp_path, config, files)
    assert "INNER" in jekyll.prepare("{% notebox %}\nINNER\n{% endnotebox %}\n", ctx)
    assert [o for o, _, _ in _tag_notes(ctx)] == ["converted"]


def test_a_data_file_that_is_an_alias_bomb_is_named_once_where_it_is_asked_for(tmp_path):
    levels = ['a0: &a0 "lol"'] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    ctx = _tag_site(tmp_path, files={"_data/bomb.yml": "\n".join(levels) + "\n"})
    out = jekyll.prepare("# P\n\nValue: {{ site.data.bomb.a9 }}\n\nAgain: {{ site.data.bomb.a1 }}\n", ctx)
    assert "lol" not in out
    assert [(n.construct, n.line, n.detail) for n in ctx.notes if n.outcome == "unresolved"] == [
        ("data file", 3, "_data/bomb.yml: YAML expands to more than 200000 nodes (an alias bomb?)"),
        ("liquid output", 3, "site.data.bomb.a9"),
        ("liquid output", 5, "site.data.bomb.a1"),
    ]


def test_a_theme_gem_brings_the_tags_of_the_plugins_it_loads(tmp_path):
    ctx = _tag_site(tmp_path, "theme: minima\n")
    jekyll.prepare("{% seo %}\n\n{% nosuchtag %}\n", ctx)
    assert [(o, d.split(":")[0]) for o, _, d in _tag_notes(ctx)] == [
        ("unresolved", "seo"), ("unresolved", "unknown Liquid tag {% nosuchtag %}")]


def test_a_front_matter_title_with_entities_reads_as_the_page_shows_it(tmp_path):
    """opensource.guide's Spanish pages: ``title: C&oacute;mo Contribuir`` shows "Cómo
    Contribuir" on a Jekyll page (Liquid writes it unescaped); JSX escapes it, so a Docusaurus
    page shows the entity as written."""
    from site_build import DOCUMENTS, build_json, store_rows, write_site

    page = "---\ntitle: C&oacute;mo Contribuir\n---\n\nUn texto.\n"
    for config, title in (("_config.yml", "Cómo Contribuir"), ("docusaurus.config.js", "C&oacute;mo Contribuir")):
        root = write_site(tmp_path / config, {config: "title: x\n" if config.endswith("yml") else "module.exports = {};\n",
                                              "docs/como.md": page})
        build_json(root / "docs", tmp_path / f"out-{config}")
        assert [list(r[:2]) for r in store_rows(tmp_path / f"out-{config}" / "store.sqlite", DOCUMENTS)] == [["como.md", title]]


def test_a_release_post_finds_its_release_in_a_data_list(tmp_path):
    """www.ruby-lang.org's release posts: ``{% assign release = site.data.releases | where:
    "version", "3.2.0-rc1" | first %}`` then ``{{ release.sha256.gz }}``. ``where`` compares as
    Jekyll does, as strings (``version: 2.7`` is a float in YAML, "2.7" on the page)."""
    releases = ("- version: 3.2.0-rc1\n  url: {gz: https://x.test/ruby-3.2.0-rc1.tar.gz}\n  sha256: {gz: abc123}\n"
                "- version: 2.7\n  url: {gz: https://x.test/ruby-2.7.tar.gz}\n")
    ctx = _tag_site(tmp_path, files={"_data/releases.yml": releases})
    source = ('{% assign release = site.data.releases | where: "version", "3.2.0-rc1" | first %}\n'
              "Ruby {{ release.version }}: <{{ release.url.gz }}>, sha256 {{ release.sha256.gz }}.\n"
              '{% assign old = site.data.releases | where: "version", "2.7" | last %}'
              "Then {{ old.url.gz }}; {{ site.data.releases | size }} releases.\n"
              '{% assign none = site.data.releases | where: "version", "9.9" | first %}[{{ none.version }}]\n')
    assert jekyll.prepare(source, ctx).strip("\n") == (
        "Ruby 3.2.0-rc1: <https://x.test/ruby-3.2.0-rc1.tar.gz>, sha256 abc123.\n"
        "Then https://x.test/ruby-2.7.tar.gz; 2 releases.\n[]")
    assert [(n.outcome, n.detail) for n in ctx.notes if n.outcome == "unresolved"] == [("unresolved", "none.version")]


def test_loops_through_includes_share_the_page_bound(tmp_path):
    """A loop over 2,000 items whose body includes a file looping over them again would write
    four million bodies; the page's loops, its includes' among them, stop at one bound."""
    from contextpull.dialects.jekyll import liquid

    (tmp_path / "_data").mkdir()
    (tmp_path / "_data" / "big.yml").write_text("".join(f"- n{i}\n" for i in range(2000)))
    (tmp_path / "_includes").mkdir()
    (tmp_path / "_includes" / "row.html").write_text("{% for m in site.data.big %}{{ m }} {% endfor %}\n")
    (tmp_path / "_config.yml").write_text("title: t\n")
    (tmp_path / "page.md").write_text("")
    ctx = context(tmp_path, "page.md", dialect="jekyll", config_file="_config.yml", config={"title": "t"}, front_matter={})
    out = jekyll.prepare("{% for n in site.data.big %}{% include row.html %}{% endfor %}\n", ctx)
    assert len(out) < 3 * liquid.LOOP_CHARS
    assert any(n.construct == "liquid for" and n.outcome == "unresolved" for n in ctx.notes)


def test_a_data_path_is_read_once_per_page(tmp_path, monkeypatch):
    """Each ``site.data`` path probes up to six files; a page of ten thousand loops over one
    missing list, includes among them, probes them once."""
    calls = []
    real = jekyll._data
    monkeypatch.setattr(jekyll, "_data", lambda ctx, path, line: calls.append(path) or real(ctx, path, line))
    (tmp_path / "_includes").mkdir()
    (tmp_path / "_includes" / "more.html").write_text("{% for y in site.data.absent %}{{ y }}{% endfor %}")
    (tmp_path / "_config.yml").write_text("title: t\n")
    (tmp_path / "page.md").write_text("")
    ctx = context(tmp_path, "page.md", dialect="jekyll", config_file="_config.yml", config={"title": "t"}, front_matter={})
    jekyll.prepare("{% for x in site.data.absent %}" * 10_000 + "{% include more.html %}{{ site.data.absent }}", ctx)
    assert calls == ["absent"]
