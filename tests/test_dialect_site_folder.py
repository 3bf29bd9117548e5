"""Where the site is (issue 26; ``detect.site_folder``, docs/dialects.md "Where the site is"): one
rule for every generator, the no-configuration case above all (a dialect set by hand on a folder
without ``hugo.toml``, ``book.toml``, ...). Each generator's own reading is held to it here, so no
helper of one dialect can drift from the others again."""

from __future__ import annotations

import os

import pytest

from contextpull.dialects import detect
from contextpull.dialects.api import Site
from contextpull.dialects.hugo import dialect as hugo, pages as hugo_pages
from contextpull.dialects.jekyll import dialect as jekyll
from contextpull.dialects.mdbook import dialect as mdbook, pages as mdbook_pages
from contextpull.dialects.mdx import provided
from contextpull.dialects.mdx.mdx import prepare as prepare_mdx
from contextpull.dialects.mkdocs import dialect as mkdocs
from contextpull.dialects.page_title import navigation_title
from contextpull.dialects.pages import site_files
from contextpull.dialects.sphinx.rst.read import document_folders
from contextpull.parsing.parse_markdown import parse_markdown
from contextpull.dialects.site_reader import open_site
from dialect_context import context, read

ABOVE = ("plain", "mkdocs", "docusaurus", "hugo", "mdbook")
BESIDE = ("jekyll", "sphinx")


def _write(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("dialect", ABOVE + BESIDE)
def test_without_a_configuration_the_site_is_where_the_file_would_be(tmp_path, dialect):
    site = Site(dialect, None, str(tmp_path / "site" / "docs"), str(tmp_path))
    expected = "site/docs" if dialect in BESIDE else "site"
    assert detect.site_folder(site) == expected
    assert site_files.site_folder(open_site(site)) == os.path.join(str(tmp_path), "site", *expected.split("/")[1:])
    assert site_files.pages_folder(open_site(site), "content") == str(tmp_path / "site" / "docs")


@pytest.mark.parametrize("dialect", ABOVE + BESIDE)
def test_the_site_never_leaves_the_repository(tmp_path, dialect):
    assert detect.site_folder(Site(dialect, None, str(tmp_path), str(tmp_path))) == ""
    assert detect.site_folder(Site(dialect, None, str(tmp_path / "docs"), str(tmp_path / "docs" / "x"))) == ""


@pytest.mark.parametrize(
    ("dialect", "config_file", "expected"),
    [
        ("mkdocs", "web/mkdocs.yml", "web"),
        ("docusaurus", "website/docusaurus.config.js", "website"),
        ("hugo", "hugo.toml", ""),
        ("hugo", "web/config/_default/hugo.toml", "web"),
        ("mdbook", "book/book.toml", "book"),
        ("jekyll", "docs/_config.yml", "docs"),
        ("sphinx", "docs/source/conf.py", "docs/source"),
        ("mkdocs", "config/_default/mkdocs.yml", "config/_default"),  # only Hugo has a config folder
    ],
)
def test_with_a_configuration_the_site_is_its_folder(tmp_path, dialect, config_file, expected):
    site = Site(dialect, config_file, str(tmp_path / "elsewhere"), str(tmp_path))
    assert detect.site_folder(site) == expected
    assert site_files.site_folder(open_site(site)) == os.path.join(str(tmp_path), *[p for p in expected.split("/") if p])


def test_hugo_without_hugo_toml_reads_data_above_docs_and_content_from_docs(tmp_path):
    _write(tmp_path, {
        "site/data/docs.yaml": "config:\n  title: Kettle\n",
        "site/pages/_common/_index.md": "---\ncascade:\n  build:\n    render: never\n    list: never\n---\n",
        "site/pages/_common/part.md": "Part.\n",
    })
    ctx = context(tmp_path, "guide/p.md", dialect="hugo", config_file=None, docs="site/pages")
    assert "Kettle" in hugo.prepare("{{< code-toggle config=title />}}", ctx)
    assert hugo.prepare('{{% include "/_common/part" %}}', ctx).strip() == "Part."
    assert read(ctx) == {"site/data/docs.yaml", "site/pages/_common/part.md"}
    why = hugo_pages.skip("_common/part.md", open_site(ctx.site))
    assert why is not None and "headless" in why


def test_hugo_with_a_config_folder_finds_content_beside_it(tmp_path):
    _write(tmp_path, {
        "web/config/_default/hugo.toml": "",
        "web/content/_common/_index.md": "---\ncascade:\n  build:\n    render: never\n    list: never\n---\n",
        "web/content/_common/part.md": "Part.\n",
    })
    site = Site("hugo", "web/config/_default/hugo.toml", str(tmp_path / "web" / "content"), str(tmp_path))
    why = hugo_pages.skip("_common/part.md", open_site(site))
    assert why is not None and "headless" in why


def test_jekyll_without_config_reads_includes_and_data_from_docs(tmp_path):
    _write(tmp_path, {
        "site/docs/_includes/note.html": "Descale monthly.",
        "site/docs/_data/ruby.yml": "min_version: 2.7.0\n",
    })
    ctx = context(tmp_path, "p.md", dialect="jekyll", config_file=None, docs="site/docs")
    out = jekyll.prepare("{% include note.html %}\n\nRuby {{ site.data.ruby.min_version }}.", ctx)
    assert out == "Descale monthly.\n\nRuby 2.7.0."
    assert read(ctx) == {"site/docs/_includes/note.html", "site/docs/_data/ruby.yml"}


def test_mdbook_without_book_toml_takes_docs_for_the_source_folder(tmp_path):
    _write(tmp_path, {
        "book/src/SUMMARY.md": "# Summary\n\n- [Rowing Basics](ch1.md)\n",
        "book/src/ch1.md": "## Why row\n",
        "book/src/loose.md": "# Loose\n",
    })
    ctx = context(tmp_path, "ch1.md", dialect="mdbook", config_file=None, docs="book/src")
    assert navigation_title(mdbook.Reader(ctx.site), parse_markdown("## Why row\n\nText.", "ch1"), ctx) == "Rowing Basics"
    assert mdbook_pages.skip("ch1.md", open_site(ctx.site)) is None
    why = mdbook_pages.skip("loose.md", open_site(ctx.site))
    assert why == "not listed in SUMMARY.md: mdBook renders only the chapters listed there"


def test_mkdocs_without_mkdocs_yml_reads_snippets_from_above_docs(tmp_path):
    _write(tmp_path, {"site/snippets/kettle.txt": "Fill to the line.\n"})
    ctx = context(tmp_path, "p.md", dialect="mkdocs", config_file=None, docs="site/docs")
    assert mkdocs.prepare('--8<-- "snippets/kettle.txt"', ctx).strip() == "Fill to the line."
    assert read(ctx) == {"site/snippets/kettle.txt"}


def test_docusaurus_without_config_finds_site_imports_and_components_above_docs(tmp_path):
    _write(tmp_path, {
        "site/src/_shared.md": "Shared text.",
        "site/src/theme/MDXComponents.js": "import Kettle from '@site/src/Kettle';\nexport default {Kettle};\n",
    })
    ctx = context(tmp_path, "a.mdx", dialect="docusaurus", config_file=None, docs="site/docs")
    assert prepare_mdx("import Shared from '@site/src/_shared.md'\n\n<Shared />", ctx) == "Shared text."
    assert "Kettle" in provided.provided_components(ctx)


def test_sphinx_without_conf_py_takes_docs_for_the_source_folder(tmp_path):
    ctx = context(tmp_path, "guide/a.rst", dialect="sphinx", config_file=None, docs="site/docs")
    assert document_folders(ctx) == ("site/docs/guide/a.rst", "site/docs/guide", "site/docs")
