"""``contextpull build`` of a small mkdocs site and a small mdBook, with the dialect detected from
their configuration: the stored sections are the text their rendered pages show, with the code
their includes stand for, under the titles their navigation gives (issue 26)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from artifact_helpers import clean_env
from contextpull.cli import cli
from griffe_needed import needs_griffe

SITES = Path(__file__).parent / "dialect_sites"
DOCS = {"mkdocs": "docs", "mdbook": "src"}
# What no section may still show once its dialect read it.
MARKUP = ("{{#", "--8<--", "{*", "!!! ", "??? ", "///", "{ #", ":::", "=== ", ":material-", "<Listing", "*[")


def _site(tmp_path: Path, name: str) -> Path:
    """A copy of the fixture site as a repository of its own (the guard root is its .git)."""
    root = tmp_path / name
    shutil.copytree(SITES / name, root)
    (root / ".git").mkdir()
    return root


def _build(docs: Path, out: Path, *extra: str, **env: str) -> dict:
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(out), "--json", *extra], env=clean_env(**env))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _dump(store: Path) -> str:
    """Every document's title and its sections, in store order: what an agent reads."""
    conn = sqlite3.connect(store)
    lines = []
    for doc_id, path, title in conn.execute("SELECT doc_id, path, title FROM documents ORDER BY path"):
        lines.append(f"=== {path} | {title}")
        for heading, text in conn.execute(
            "SELECT heading_path, text FROM sections WHERE doc_id = ? ORDER BY ordinal", (doc_id,)
        ):
            lines += [f"--- {heading}", text]
    conn.close()
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", ["mkdocs", "mdbook"])
@needs_griffe
def test_build_stores_what_the_pages_show(tmp_path, name, file_regression):
    root = _site(tmp_path, name)
    _build(root / DOCS[name], tmp_path / "out")
    text = _dump(tmp_path / "out" / "store.sqlite")
    file_regression.check(text, basename=f"dialect_site_{name}", extension=".txt")


@pytest.mark.parametrize("name", ["mkdocs", "mdbook"])
def test_no_section_shows_generator_markup_except_a_missing_include(tmp_path, name):
    root = _site(tmp_path, name)
    _build(root / DOCS[name], tmp_path / "out")
    conn = sqlite3.connect(tmp_path / "out" / "store.sqlite")
    shown = [
        (heading, mark)
        for heading, text in conn.execute("SELECT heading_path, text FROM sections")
        for mark in MARKUP
        if mark in text.replace("{{#include ../listings/ch01/gone.rs}}", "")
    ]
    assert shown == []


def test_plain_setting_keeps_the_source_as_written(tmp_path):
    root = _site(tmp_path, "mdbook")
    _build(root / "src", tmp_path / "out", CONTEXTPULL_DIALECT="plain")
    conn = sqlite3.connect(tmp_path / "out" / "store.sqlite")
    texts = "\n".join(t for (t,) in conn.execute("SELECT text FROM sections"))
    assert "{{#rustdoc_include ../listings/ch01/main.rs:count}}" in texts


def test_editing_an_included_listing_rebuilds_the_chapter_that_shows_it(tmp_path):
    root = _site(tmp_path, "mdbook")
    _build(root / "src", tmp_path / "first")
    listing = root / "listings" / "ch01" / "main.rs"
    listing.write_text(listing.read_text().replace("20", "32"))
    cached = _build(root / "src", tmp_path / "cached", "--cache", str(tmp_path / "first" / "store.sqlite"))
    fresh = _build(root / "src", tmp_path / "fresh")
    assert cached["manifest"]["store"]["sha256"] == fresh["manifest"]["store"]["sha256"]
    assert "let strokes = 32;" in _dump(tmp_path / "cached" / "store.sqlite")


@needs_griffe
def test_editing_a_docstring_rebuilds_the_page_that_shows_it(tmp_path):
    root = _site(tmp_path, "mkdocs")  # guide/mooring.md shows ::: harbour.Berth (src/ layout)
    _build(root / "docs", tmp_path / "first")
    source = root / "src" / "harbour" / "berth.py"
    source.write_text(source.read_text().replace("Tie a boat up for a while.", "Tie a boat up for the night."))
    cached = _build(root / "docs", tmp_path / "cached", "--cache", str(tmp_path / "first" / "store.sqlite"))
    fresh = _build(root / "docs", tmp_path / "fresh")
    assert cached["manifest"]["store"]["sha256"] == fresh["manifest"]["store"]["sha256"]
    assert cached["cache"]["parsed_documents"] == 1
    assert "Tie a boat up for the night." in _dump(tmp_path / "cached" / "store.sqlite")


def _read(root: Path, docs: str, rel: str, text: str):
    from contextpull.dialects.detect import detect_site
    from contextpull.dialects.read import read_document

    page = root / docs / rel
    page.write_text(text)
    site = detect_site(root / docs)
    return read_document(page.read_bytes(), "markdown", page.stem, rel, site)


@pytest.mark.parametrize(
    ("name", "directive", "kept"),
    [
        ("mkdocs", '--8<-- "../../outside.md"', False),
        ("mkdocs", "{* /etc/hostname *}", True),
        ("mdbook", "{{#include ../../outside.md}}", True),
        ("mdbook", "{{#include /etc/hostname}}", True),
    ],
)
def test_includes_that_leave_the_repository_are_refused_and_named(tmp_path, name, directive, kept):
    (tmp_path / "outside.md").write_text("secret\n")
    root = _site(tmp_path, name)
    result = _read(root, DOCS[name], "escape.md", f"# Escape\n\n{directive}\n")
    texts = [getattr(b, "text", getattr(b, "raw", "")) for b in result.parsed.blocks]
    assert not any("secret" in t for t in texts)
    assert any(directive in t for t in texts) is kept
    unresolved = [n for n in result.notes if n.outcome == "unresolved"]
    assert [n.line for n in unresolved] == [3]
    assert "outside the repository" in unresolved[0].detail or "absolute path" in unresolved[0].detail


def test_an_include_through_a_symlink_out_of_the_repository_is_refused(tmp_path):
    (tmp_path / "outside.rs").write_text("fn secret() {}\n")
    root = _site(tmp_path, "mdbook")
    (root / "listings" / "link.rs").symlink_to(tmp_path / "outside.rs")
    result = _read(root, "src", "link.md", "{{#include ../listings/link.rs}}\n")
    assert "secret" not in result.parsed.blocks[-1].text
    assert [n.outcome for n in result.notes if n.construct == "mdbook include"] == ["unresolved"]
