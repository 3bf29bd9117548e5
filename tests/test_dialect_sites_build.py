"""``contextpull build`` of the small Hugo and Jekyll sites in tests/dialect_sites (issue 26):
the dialect is detected from the site's configuration above DOCS, and the store holds what the
rendered pages show, with includes in place and front-matter titles and descriptions.

Each site is copied into a fresh folder marked as a repository root (``.git``), so the guard
root is the site itself and the build writes nothing under tests/."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from contextpull.cli import cli

SITES = os.path.join(os.path.dirname(__file__), "dialect_sites")


def _site(tmp_path, name):
    root = tmp_path / name
    shutil.copytree(os.path.join(SITES, name), root)
    (root / ".git").mkdir()
    return root


def _build(docs, out, *extra):
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(out), "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _rows(store):
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        docs = conn.execute("SELECT path, title, summary FROM documents ORDER BY path").fetchall()
        sections = conn.execute(
            "SELECT d.path, s.heading_path, s.text FROM sections s JOIN documents d USING (doc_id) "
            "ORDER BY d.path, s.ordinal"
        ).fetchall()
    finally:
        conn.close()
    return docs, sections


def _dump(store) -> str:
    docs, sections = _rows(store)
    out = [f"{path} | {title} | {summary}" for path, title, summary in docs]
    for path, heading, text in sections:
        out += ["", f"== {path} :: {heading}", text]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("name", "docs"), [("hugo", "content"), ("jekyll", "guide")])
def test_a_site_builds_into_what_its_pages_show(tmp_path, file_regression, name, docs):
    root = _site(tmp_path, name)
    _build(root / docs, tmp_path / "out")
    text = _dump(tmp_path / "out" / "store.sqlite")
    file_regression.check(text, basename=f"site_{name}", extension=".txt")
    for markup in ("{{%", "{%", "{: ", "{{ site"):
        assert markup not in text


def test_an_edited_include_rebuilds_the_pages_that_use_it(tmp_path):
    root = _site(tmp_path, "hugo")
    _build(root / "content", tmp_path / "first")
    (root / "content" / "_common" / "safety.md").write_text("Unplug the lantern before cleaning it.\n")
    _build(root / "content", tmp_path / "second", "--cache", str(tmp_path / "first" / "store.sqlite"))
    _build(root / "content", tmp_path / "fresh")
    cached = _dump(tmp_path / "second" / "store.sqlite")
    assert "Unplug the lantern before cleaning it." in cached.split("== guide/lighting.md")[1]
    assert "Never open the case" not in cached
    assert cached == _dump(tmp_path / "fresh" / "store.sqlite")


def test_a_page_created_where_an_include_looks_first_rebuilds_the_page(tmp_path):
    """``{{% include "parts/tip" %}}`` in guide/ is looked for beside the page before the content
    root; once guide/parts/tip.md exists Hugo renders that one, so a cached build must too."""
    root = _site(tmp_path, "hugo")
    (root / "content" / "parts").mkdir()
    (root / "content" / "parts" / "tip.md").write_text("The shared tip.\n")
    (root / "content" / "guide" / "tips.md").write_text('# Tips\n\n{{% include "parts/tip" %}}\n')
    _build(root / "content", tmp_path / "first")
    assert "The shared tip." in _dump(tmp_path / "first" / "store.sqlite").split("== guide/tips.md")[1]
    (root / "content" / "guide" / "parts").mkdir()
    (root / "content" / "guide" / "parts" / "tip.md").write_text("The guide's own tip.\n")
    _build(root / "content", tmp_path / "second", "--cache", str(tmp_path / "first" / "store.sqlite"))
    page = _dump(tmp_path / "second" / "store.sqlite").split("== guide/tips.md")[1].split("\n== ")[0]
    assert "The guide's own tip." in page and "The shared tip." not in page
