"""``contextpull build`` of a small Docusaurus site (tests/mdx_site): the dialect is detected from
docusaurus.config.js, .md and .mdx pages are read as their pages show them, partials are
rendered where used, and an edited partial rebuilds the page that uses it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from artifact_helpers import clean_env
from site_build import DOCUMENTS, SECTIONS, build_json, store_rows
from contextpull.cli import cli

SITE = Path(__file__).parent / "mdx_site"


@pytest.fixture
def site(tmp_path):
    """The fixture site as a repository of its own (the guard root is the folder holding .git)."""
    root = tmp_path / "repo"
    shutil.copytree(SITE, root)
    (root / ".git").mkdir()
    return root


def _store(out: Path):
    store = out / "store.sqlite"
    return store_rows(store, DOCUMENTS), store_rows(store, SECTIONS)


def test_a_docusaurus_site_is_stored_as_its_pages_read(site, tmp_path, data_regression):
    build_json(site / "docs", tmp_path / "out")
    docs, sections = _store(tmp_path / "out")
    data_regression.check(
        {
            "documents": [{"path": p, "title": t, "summary": s} for p, t, s in docs],
            "sections": [{"path": p, "heading_path": h, "text": x} for p, h, x in sections],
        }
    )


def test_no_section_of_the_site_shows_mdx_markup(site, tmp_path):
    build_json(site / "docs", tmp_path / "out")
    _, sections = _store(tmp_path / "out")
    prose = [text for _, _, text in sections if not text.startswith("```")]
    for marker in ("import ", "export ", "{/*", ":::", "[!WARNING]", "<Tabs", "<TabItem", "<details", "props."):
        assert not any(marker in text for text in prose), marker


def test_the_same_site_as_plain_keeps_its_markup(site, tmp_path):
    """The dialect is what changes the reading: plain is today's reader, markup and all."""
    result = CliRunner().invoke(
        cli, ["build", str(site / "docs"), "--out", str(tmp_path / "out"), "--json"],
        env=clean_env(CONTEXTPULL_DIALECT="plain"),
    )
    assert result.exit_code == 0, result.output
    _, sections = _store(tmp_path / "out")
    assert any(":::tip" in text for _, _, text in sections)


def test_an_edited_partial_rebuilds_the_page_that_uses_it_and_the_cache_agrees(site, tmp_path):
    first = tmp_path / "first"
    build_json(site / "docs", first)
    partial = site / "src" / "partials" / "_support.mdx"
    partial.write_text(partial.read_text().replace("stays off", "blinks twice"))
    cached, fresh = tmp_path / "cached", tmp_path / "fresh"
    build_json(site / "docs", cached, "--cache", str(first / "store.sqlite"))
    build_json(site / "docs", fresh)
    assert (cached / "store.sqlite").read_bytes() == (fresh / "store.sqlite").read_bytes()
    _, sections = _store(cached)
    assert any("blinks twice" in text for path, _, text in sections if path == "guide/install.mdx")


def test_the_build_report_names_an_import_outside_the_repository_with_file_and_line(tmp_path):
    from site_build import write_site

    (tmp_path / "secret.txt").write_text("never in the store\n")
    root = write_site(tmp_path / "repo", {
        "docusaurus.config.js": "module.exports = {title: 'S'};\n",
        "docs/guide/page.mdx": "# Page\n\nimport S from '../../../secret.txt';\n\nText.\n",
    })
    report = build_json(root / "docs", tmp_path / "out")
    assert report["dialect"]["unresolved"] == [{
        "path": "guide/page.mdx", "line": 3, "construct": "mdx import",
        "detail": "outside the repository, not read: ../../../secret.txt"}]
    texts = [text for _, _, text in store_rows(tmp_path / "out" / "store.sqlite", SECTIONS)]
    assert not any("never in the store" in t for t in texts)
