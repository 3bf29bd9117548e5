"""``contextpull build`` of the small Hugo and Jekyll sites in tests/dialect_sites (issue 26):
the dialect is detected from the site's configuration above DOCS, and the store holds what the
rendered pages show, with includes in place and front-matter titles and descriptions.

Each site is copied into a fresh folder marked as a repository root (``.git``), so the guard
root is the site itself and the build writes nothing under tests/."""

from __future__ import annotations

import os
import shutil

import pytest

from site_build import DOCUMENTS, SECTIONS, build_json, store_rows

SITES = os.path.join(os.path.dirname(__file__), "dialect_sites")


def _site(tmp_path, name):
    root = tmp_path / name
    shutil.copytree(os.path.join(SITES, name), root)
    (root / ".git").mkdir()
    return root


def _dump(store) -> str:
    docs, sections = store_rows(store, DOCUMENTS), store_rows(store, SECTIONS)
    out = [f"{path} | {title} | {summary}" for path, title, summary in docs]
    for path, heading, text in sections:
        out += ["", f"== {path} :: {heading}", text]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("name", "docs"), [("hugo", "content"), ("jekyll", "guide"), ("mkdocs_split", "docs"),
                                             ("hugo_docsy", "site/content")])
def test_a_site_builds_into_what_its_pages_show(tmp_path, file_regression, name, docs):
    root = _site(tmp_path, name)
    build_json(root / docs, tmp_path / "out")
    text = _dump(tmp_path / "out" / "store.sqlite")
    file_regression.check(text, basename=f"site_{name}", extension=".txt")
    for markup in ("{{%", "{%", "{: ", "{{ site", "--8<--", "!!!"):
        assert markup not in text


def test_an_edited_include_rebuilds_the_pages_that_use_it(tmp_path):
    root = _site(tmp_path, "hugo")
    build_json(root / "content", tmp_path / "first")
    (root / "content" / "_common" / "safety.md").write_text("Unplug the lantern before cleaning it.\n")
    build_json(root / "content", tmp_path / "second", "--cache", str(tmp_path / "first" / "store.sqlite"))
    build_json(root / "content", tmp_path / "fresh")
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
    build_json(root / "content", tmp_path / "first")
    assert "The shared tip." in _dump(tmp_path / "first" / "store.sqlite").split("== guide/tips.md")[1]
    (root / "content" / "guide" / "parts").mkdir()
    (root / "content" / "guide" / "parts" / "tip.md").write_text("The guide's own tip.\n")
    build_json(root / "content", tmp_path / "second", "--cache", str(tmp_path / "first" / "store.sqlite"))
    page = _dump(tmp_path / "second" / "store.sqlite").split("== guide/tips.md")[1].split("\n== ")[0]
    assert "The guide's own tip." in page and "The shared tip." not in page
