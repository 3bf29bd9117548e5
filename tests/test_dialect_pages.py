"""Files a generator never renders as pages are ``not pages``, not documents and not skips
(issue 26; ``dialects/pages.py``, ``dialects/site_pages.py``): one small site per generator,
built through the CLI, with a partial that a page still includes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from artifact_helpers import clean_env
from site_build import store_rows, stored_paths, write_site
from contextpull.cli import cli
from contextpull.dialects.site_reader import open_site

SITES = {
    "docusaurus": ("docs", {
        "docusaurus.config.js": "module.exports = {};\n",
        "docs/intro.mdx": "# Intro\n\nimport Part from './_part.mdx';\n\n<Part />\n\nIntro text.\n",
        "docs/_part.mdx": "Shared PARTIAL-TEXT-D.\n",
        "docs/_drafts/wip.md": "# Wip\n\nNot yet.\n",
    }),
    "hugo": ("content", {
        "hugo.toml": 'title = "Site"\n',
        "content/page.md": '---\ntitle: Page\n---\n\nBefore.\n\n{{% include "/_common/snippet.md" %}}\n',
        "content/_common/_index.md": "---\ncascade:\n  build:\n    list: never\n    render: never\n---\n",
        "content/_common/snippet.md": "---\n---\n\nShared PARTIAL-TEXT-H.\n",
        "content/terms/_index.md": "---\ntitle: Terms\nbuild:\n  render: always\ncascade:\n  build:\n    render: never\n    list: local\n---\n\nAll terms.\n",
        "content/terms/alpha.md": "---\ntitle: Alpha\n---\n\nAlpha is listed on the terms page.\n",
        "content/post/index.md": "---\ntitle: Post\n---\n\nThe bundle's page.\n",
        "content/post/extra.md": "---\ntitle: Extra\n---\n\nA resource of the bundle.\n",
        "content/hidden.md": "---\ntitle: Hidden\nbuild:\n  render: never\n  list: never\n---\n\nNowhere.\n",
    }),
    "mdbook": ("src", {
        "book.toml": '[book]\ntitle = "Book"\nsrc = "src"\n',
        "src/SUMMARY.md": "# Summary\n\n- [Chapter](chapter.md)\n",
        "src/chapter.md": "# Chapter\n\n{{#include part.md}}\n",
        "src/part.md": "Shared PARTIAL-TEXT-M.\n",
    }),
    "jekyll": ("docs", {
        "docs/_config.yml": "title: Site\nexclude: [vendor, README.md]\ncollections:\n  guides:\n    output: true\n  notes:\n    output: false\n",
        "docs/index.md": "---\ntitle: Home\n---\n\n{% include part.md %}\n",
        "docs/_includes/part.md": "Shared PARTIAL-TEXT-J.\n",
        "docs/_layouts/default.html": "<html>{{ content }}</html>\n",
        "docs/_guides/one.md": "---\ntitle: One\n---\n\nA rendered collection.\n",
        "docs/_notes/two.md": "---\ntitle: Two\n---\n\nAn unrendered collection.\n",
        "docs/_posts/2020-01-01-hello.md": "---\ntitle: Hello\n---\n\nA post.\n",
        "docs/readme.md": "# Readme\n\nNo front matter: a page, as GitHub Pages renders it.\n",
        "docs/README.md": "---\ntitle: Readme\n---\n\nExcluded by the configuration.\n",
        "docs/vendor/lib/notes.md": "---\ntitle: Vendored\n---\n\nExcluded folder.\n",
    }),
}


def _site(tmp_path: Path, name: str) -> Path:
    docs, files = SITES[name]
    return write_site(tmp_path / name, files) / docs


def _run(*args: str):
    return CliRunner().invoke(cli, list(args), env=clean_env())


def _text(store: Path) -> str:
    return "\n".join(t for (t,) in store_rows(store, "SELECT text FROM sections"))


@pytest.mark.parametrize("name", sorted(SITES))
def test_files_that_are_not_pages_are_listed_not_stored_and_their_text_reaches_the_page(
    name, tmp_path, data_regression
):
    docs = _site(tmp_path, name)
    result = _run("build", str(docs), "--out", str(tmp_path / "out"), "--json", "--strict")
    assert result.exit_code == 0, result.output + result.stderr  # not a page is not a skip
    report = json.loads(result.stdout)
    store = tmp_path / "out" / "store.sqlite"
    not_pages = report["dialect"]["not_pages"]
    assert not set(stored_paths(store)) & {e["path"] for e in not_pages}
    assert json.loads((tmp_path / "out" / "manifest.json").read_text())["skipped"] == []
    assert f"PARTIAL-TEXT-{name[0].upper()}" in _text(store)  # read where it is included
    data_regression.check({"documents": stored_paths(store), "not_pages": not_pages})


def test_the_text_report_names_the_files_that_are_not_pages(tmp_path, file_regression):
    docs = _site(tmp_path, "jekyll")
    result = _run("build", str(docs), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output + result.stderr
    lines = (result.stderr + result.stdout).splitlines()
    i = next(n for n, line in enumerate(lines) if "not pages" in line)
    file_regression.check("\n".join(lines[i : i + 4]) + "\n")


def test_a_plain_build_of_the_same_files_keeps_every_file(tmp_path):
    docs = _site(tmp_path, "jekyll")
    result = _run("build", str(docs), "--out", str(tmp_path / "out"), "--json", "--dialect", "plain")
    assert result.exit_code == 0, result.output + result.stderr
    assert "not_pages" not in json.loads(result.stdout)["dialect"]
    assert "_includes/part.md" in stored_paths(tmp_path / "out" / "store.sqlite")


def test_ingest_removes_a_document_that_stopped_being_a_page(tmp_path):
    docs = _site(tmp_path, "mdbook")
    (docs / "SUMMARY.md").write_text("# Summary\n\n- [Chapter](chapter.md)\n- [Part](part.md)\n")
    store = tmp_path / "store.sqlite"
    first = _run("ingest", str(docs), "--store", str(store), "--strict")
    assert first.exit_code == 0, first.output + first.stderr
    assert "part.md" in stored_paths(store)
    (docs / "SUMMARY.md").write_text("# Summary\n\n- [Chapter](chapter.md)\n")
    second = _run("ingest", str(docs), "--store", str(store), "--strict", "--json")
    assert second.exit_code == 0, second.output + second.stderr
    assert stored_paths(store) == ["chapter.md"]
    assert [e["path"] for e in json.loads(second.stdout)["dialect"]["not_pages"]] == ["SUMMARY.md", "part.md"]


def test_a_site_of_partials_only_says_so(tmp_path):
    docs = _site(tmp_path, "docusaurus")
    (docs / "intro.mdx").unlink()
    build = _run("build", str(docs), "--out", str(tmp_path / "out"))
    assert build.exit_code == 3, build.output
    assert "(2 not pages: _drafts/wip.md: not a page: partial" in build.stderr
    assert "; _part.mdx: not a page: partial" in build.stderr
    ingest = _run("ingest", str(docs), "--store", str(tmp_path / "store.sqlite"))
    assert ingest.exit_code == 3, ingest.output
    assert "0 file(s) skipped, 2 not pages: _drafts/wip.md: not a page: partial" in ingest.stderr


def test_a_cached_build_drops_a_document_that_stopped_being_a_page(tmp_path):
    docs = _site(tmp_path, "mdbook")
    (docs / "SUMMARY.md").write_text("# Summary\n\n- [Chapter](chapter.md)\n- [Part](part.md)\n")
    first = _run("build", str(docs), "--out", str(tmp_path / "one"))
    assert first.exit_code == 0, first.output + first.stderr
    assert "part.md" in stored_paths(tmp_path / "one" / "store.sqlite")
    (docs / "SUMMARY.md").write_text("# Summary\n\n- [Chapter](chapter.md)\n")
    cached = _run("build", str(docs), "--out", str(tmp_path / "two"), "--cache", str(tmp_path / "one" / "store.sqlite"))
    fresh = _run("build", str(docs), "--out", str(tmp_path / "three"))
    assert cached.exit_code == 0 and fresh.exit_code == 0, cached.output + cached.stderr
    assert stored_paths(tmp_path / "two" / "store.sqlite") == ["chapter.md"]
    assert (tmp_path / "two" / "store.sqlite").read_bytes() == (tmp_path / "three" / "store.sqlite").read_bytes()


def test_hugo_reads_a_front_matter_longer_than_the_head_it_looks_at(tmp_path):
    from contextpull.dialects.detect import detect_site
    from contextpull.dialects.pages.hook import not_a_page

    docs = _site(tmp_path, "hugo")
    padding = "".join(f"k{i}: {'é' * 40}\n" for i in range(400))  # about 33 KB, multi-byte
    (docs / "long.md").write_text(f"---\ntitle: Long\n{padding}build:\n  render: never\n  list: never\n---\n\nBody.\n")
    (docs / "build-word.md").write_text("---\ntitle: Words\n---\n\nHow to build: render never, list never.\n")
    site = open_site(detect_site(docs, "auto"))
    assert not_a_page("long.md", site) == "build render and list are never: Hugo renders no page for it"
    assert not_a_page("build-word.md", site) is None  # the body is not front matter
    assert not_a_page("page.md", site) is None


@pytest.mark.parametrize("data", [
    b"", b"title: x\n", b"---\ntitle: x\n---\nbuild: never in the body\n", b"---\nbuild:\n  render: never\n---\n",
    b"+++\nheadless = true\n+++\n", b"---\r\ntitle: x\r\n---\r\n", b"---\r\nbuild:\r\n  list: never\r\n---\r\n",
    b"\xef\xbb\xbf---\nbuild: {render: never, list: never}\n---\n", b"---\ntitle: \xe2(\nheadless: true\n---\n",
    b"---\ntitle: \xffbuild\n---\n", b"---\ntitle: unclosed\n", b"---\n" + b"x: y\n" * 3000 + b"---\nbuild\n",
    b"---\ntitle: a\n--- not a fence\nheadless: true\n---\n", b"---\nbu\r\nild: 1\n---\n",
])
def test_the_page_rule_reads_from_the_bytes_what_it_reads_from_the_decoded_head(data):
    """``_may_say_build`` only spares decoding: a head it says cannot hold ``build`` or
    ``headless`` is one the rule reads nothing from."""
    from contextpull.dialects.hugo import pages as hugo_pages

    class Unreadable:  # a head too long to hold its block is read again, here refused
        class files:
            @staticmethod
            def head(path, limit):
                raise OSError

    read = hugo_pages._build_front_matter(Unreadable, "/x.md", data)
    assert hugo_pages._may_say_build(data) or read == {}
    if data.startswith(b"---\ntitle: x\n---"):
        assert not hugo_pages._may_say_build(data)  # the page most are: spared
