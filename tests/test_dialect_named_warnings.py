"""Hostile or broken input is named, not only counted (issue 26): an object-constructing YAML
tag in front matter or a data file, the text and line of a docutils warning, an mdBook
directive mdBook does not know. Each is an ``unresolved`` note an author can act on."""

from __future__ import annotations

import importlib

from dialect_context import context

from contextpull.dialects.data.front_matter import split_front_matter
from contextpull.dialects.site_reader import reading_module

# By the registry's table, so these tests hold wherever a dialect's modules live in the package.
jekyll, mdbook = reading_module("jekyll"), reading_module("mdbook")
# The rst reader sits beside the Sphinx dialect's module.
parse_rst = importlib.import_module(reading_module("sphinx").__name__.rpartition(".")[0] + ".rst.read").parse_rst


def _unresolved(notes):
    return [(n.construct, n.line, n.detail) for n in notes if n.outcome == "unresolved"]


def test_each_object_tag_in_front_matter_is_named_with_its_line():
    text = (
        "---\ntitle: !!python/object/apply:os.system ['touch x']\nsafe: yes\n"
        "x: !!python/object/new:builtins.exec [\"1\"]\n---\n# Body\n"
    )
    fm = split_front_matter(text)
    assert fm.data["title"] is None and fm.data["safe"] is True  # nothing constructed, rest read
    assert _unresolved(fm.notes) == [
        ("front matter", 2, "YAML tag !!python/object/apply:os.system ignored"),
        ("front matter", 4, "YAML tag !!python/object/new:builtins.exec ignored"),
    ]


def test_a_generator_tag_that_constructs_nothing_is_not_a_warning():
    fm = split_front_matter("---\ntitle: Page\npath: !ENV HOME\n---\n# Body\n")
    assert _unresolved(fm.notes) == []


def test_an_object_tag_in_a_data_file_is_named_with_the_file_and_its_line(tmp_path):
    (tmp_path / "_data").mkdir()
    (tmp_path / "_data" / "kettle.yml").write_text("name: Kettle\nrun: !!python/object/apply:os.system ['x']\n")
    ctx = context(tmp_path, "page.md", dialect="jekyll", config_file=None)
    out = jekyll.prepare("Name: {{ site.data.kettle.name }}; used twice: {{ site.data.kettle.name }}\n", ctx)
    assert "Name: Kettle" in out
    assert [d for c, _, d in _unresolved(ctx.notes) if c == "data file"] == [
        "YAML tag !!python/object/apply:os.system ignored (_data/kettle.yml line 2)"  # once per file
    ]


def test_a_docutils_warning_is_unresolved_with_its_text_and_line(tmp_path):
    ctx = context(tmp_path, "broken.rst", dialect="sphinx", config_file=None)
    parse_rst("Broken\n=====\n\nText with *unclosed emphasis.\n", ctx)
    assert ("rst markup warning", 2, "Title underline too short.") in _unresolved(ctx.notes)
    assert ("rst markup warning", 4, "Inline emphasis start-string without end-string.") in _unresolved(ctx.notes)


def test_an_unknown_mdbook_directive_is_named_and_kept(tmp_path):
    ctx = context(tmp_path, "ch.md", dialect="mdbook", config_file=None)
    text = (
        "# Ch\n\n{{#frobnicate x}}\n\nShown `{{#each items}}` in code.\n\n"
        "```hbs\n{{#if ok}}\n```\n\n\\{{#escaped y}} and {{#title Tab}}\n"
    )
    out = mdbook.prepare(text, ctx)
    assert "{{#frobnicate x}}" in out
    assert _unresolved(ctx.notes) == [("mdbook directive", 3, "unknown directive {{#frobnicate}}, kept as written")]
