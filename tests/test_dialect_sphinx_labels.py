"""The site's label table (issue 26, "Markup to meaning"): a Sphinx ``:ref:`` shows the title
of the section its label stands before, in whatever document that is, and what it shows is a
dependency of the referring document, so ``build --cache`` stays byte-identical to a fresh build
when a target is retitled, a missing label appears or a label goes."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from artifact_helpers import quiet_build
from dialect_context import context

from contextpull.dialects.tracking.fingerprint import dependency_sha
from contextpull.dialects.includes import MISSING
from contextpull.dialects.sphinx.xrefs import label_scan, labels
from contextpull.dialects.sphinx.dialect import prepare
from contextpull.dialects.sphinx.rst.read import parse_rst
from contextpull.dialects.site_reader import open_site

SITE = Path(__file__).parent / "sphinx_refs_site"


def titles(text: str, path: str = "docs/page.rst") -> dict[str, str | None]:
    return {name: label.title for name, label in label_scan.scan(text, path)}


# ---- the scan -----------------------------------------------------------------------------
def test_an_rst_label_shows_the_section_title_after_it_underlined_or_overlined():
    text = (".. _Intro:\n\nIntroduction\n============\n\ntext\n\n"
            ".. _First Steps:\n.. _start:\n\n-----------\n ``Begin``\n-----------\n")
    assert titles(text) == {"intro": "Introduction", "first steps": "Begin", "start": "Begin"}


def test_rst_label_names_are_normalised_as_docutils_does():
    text = ".. _`Odd:  Name`:\n\nTitle\n-----\n\n.. _with\\:colon:\n\nOther\n-----\n"
    assert titles(text) == {"odd: name": "Title", "with:colon": "Other"}
    assert label_scan.normalize("  Watering\tSchedule ") == "watering schedule"


def test_a_label_before_a_caption_shows_it_and_before_anything_else_shows_nothing():
    text = (".. _photo:\n\n.. figure:: a.png\n   :alt: A\n\n   The *shed*.\n\n"
            ".. _bare:\n\nA paragraph.\n\n"
            ".. code-block:: python\n   :caption: Raking ``beds``\n   :name: rake\n\n   rake()\n\n"
            ".. _rub:\n\n.. rubric:: Footnotes\n\n"
            ".. _link: https://example.com\n\n"
            "::\n\n    .. _in-code:\n\n    Not a title\n    -----------\n")
    assert titles(text) == {"photo": "The shed.", "bare": None, "rake": "Raking beds",
                            "rub": "Footnotes", "in-code": None}


def test_a_label_before_a_definition_list_field_list_or_toctree_shows_its_first_term():
    text = (".. _fvset:\n\n``'fvset'`` : str\n   Options of fancyvrb.\n\n``'other'``\n   x\n\n"
            ".. _field:\n\n:Version: 2.0\n\n"
            ".. _nav:\n\n.. toctree::\n   :caption: Contents\n\n   a\n\n"
            ".. _items:\n\n- an item\n  continued\n\n.. _numbered:\n\n(1) one\n    more\n")
    assert titles(text) == {"fvset": "'fvset'", "field": "Version", "nav": "Contents",
                            "items": None, "numbered": None}


def test_sphinx_s_own_labels_are_in_every_table_and_a_page_s_own_replaces_them(tmp_path):
    assert {k: v.title for k, v in labels.table(str(tmp_path), "").items()} == {
        "genindex": "Index", "modindex": "Module Index", "search": "Search Page",
        "py-modindex": "Python Module Index"}
    (tmp_path / "s.rst").write_text(".. _search:\n\nFinding things\n==============\n")
    assert labels.table(str(tmp_path), "")["search"].title == "Finding things"


def test_a_myst_label_shows_the_heading_after_it_and_code_fences_hold_none():
    text = ("(intro)=\n# The {term}`intro` of `x`\n\n(para)=\nJust text.\n\n"
            "```text\n(fenced)=\n# not a heading\n```\n\n(setext)=\nSetext title\n---\n")
    assert titles(text, "docs/page.md") == {"intro": "The intro of x", "para": None,
                                            "setext": "Setext title"}


def test_the_table_keeps_the_last_definition_and_leaves_out_what_sphinx_excludes(tmp_path):
    docs = tmp_path / "docs"
    (docs / "_build").mkdir(parents=True)
    (docs / "drafts").mkdir()
    (docs / "a.rst").write_text(".. _twice:\n\nFirst\n=====\n")
    (docs / "b.rst").write_text(".. _twice:\n\nSecond\n======\n")
    (docs / "_build" / "c.rst").write_text(".. _built:\n\nBuilt\n=====\n")
    (docs / "drafts" / "d.md").write_text("(draft)=\n# Draft\n")
    (docs / "conf.py").write_text('exclude_patterns = ["_build", "drafts/*.md"]\n')
    found = labels.site_table(str(tmp_path), "docs")
    assert {k: (v.path, v.title) for k, v in found.items() if v.path} == {"twice": ("docs/b.rst", "Second")}
    (docs / "conf.py").write_text("exclude_patterns = []\n")
    assert set(labels.site_table(str(tmp_path), "docs")) - set(labels.BUILT_IN) == {"twice", "built", "draft"}


def _labelled_site(tmp_path: Path, conf: str) -> Path:
    """A source folder in which every document defines one label, named after its file."""
    docs = tmp_path / "docs"
    for rel in ("index.rst", "other.rst", "guide/g.md", "guide/deep/h.rst", "_templates/t.rst",
                "_static/s.rst", "extra/e.md", "notes/_sources/x.rst", "Info.lproj/i.rst"):
        page = docs / rel
        page.parent.mkdir(parents=True, exist_ok=True)
        name = "at-" + rel.replace("/", "-").rsplit(".", 1)[0]
        if rel.endswith(".md"):
            page.write_text(f"({name})=\n# {name}\n")
        else:
            page.write_text(f".. _{name}:\n\n{name}\n{'=' * len(name)}\n")
    (docs / "conf.py").write_text(conf)
    return docs


def _defined(tmp_path: Path) -> set[str]:
    return {label.path for label in labels.site_table(str(tmp_path), "docs").values() if label.path}


def test_a_file_sphinx_reads_no_page_from_defines_no_label(tmp_path):
    _labelled_site(tmp_path, 'templates_path = ["_templates"]\nhtml_static_path = ["_static"]\n'
                             'html_extra_path = ["extra"]\ninclude_patterns = ["index.rst", "guide/**"]\n')
    assert _defined(tmp_path) == {"docs/index.rst", "docs/guide/g.md", "docs/guide/deep/h.rst"}


def test_the_label_table_and_the_pages_rule_agree_on_every_setting(tmp_path):
    from contextpull.dialects.api import Site
    from contextpull.dialects.sphinx.pages import skip

    confs = [
        "",
        'exclude_patterns = ["other.rst", "guide/*.md"]\n',
        'templates_path = ["_templates"]\nexclude_patterns = ["guide"]\n',
        'include_patterns = ["**/*.rst"]\nhtml_static_path = ["_static", "notes"]\n',
        'include_patterns = ["*", "guide/deep/*"]\nhtml_extra_path = ["extra"]\n',
        "exclude_patterns = [p for p in ['other.rst']]\n",  # not a literal: excludes nothing
    ]
    docs = _labelled_site(tmp_path, "")
    site = Site("sphinx", "docs/conf.py", str(docs), str(tmp_path))
    files = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.suffix in (".rst", ".md"))
    for version, conf in enumerate(confs):
        (docs / "conf.py").write_text(conf)
        os.utime(docs / "conf.py", ns=(version * 10**9, version * 10**9))  # a new stamp each time
        reader = open_site(site)  # a new build for each version of conf.py
        pages = {f"docs/{rel}" for rel in files if skip(rel, reader) is None}
        assert _defined(tmp_path) == pages, conf


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links")
def test_the_scan_never_follows_a_link_out_of_the_repository(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.rst").write_text(".. _outside:\n\nOutside\n=======\n")
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    os.symlink(outside, root / "docs" / "linked")
    os.symlink(outside / "x.rst", root / "docs" / "y.rst")
    assert labels.site_table(str(root), "docs") == labels.BUILT_IN


def test_a_rescan_sees_an_edit_between_two_builds_in_one_process(tmp_path):
    page = tmp_path / "a.rst"
    page.write_text(".. _x:\n\nOld\n===\n")
    assert labels.table(str(tmp_path), "")["x"].title == "Old"
    page.write_text(".. _x:\n\nNewer\n=====\n")
    assert labels.table(str(tmp_path), "")["x"].title == "Newer"


# ---- resolution through the real Context --------------------------------------------------
def _site(tmp_path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(SITE, root)
    (root / ".git").mkdir()
    return root


def _ctx(root: Path, doc: str):
    return context(root, doc, dialect="sphinx", config_file="docs/conf.py", docs="docs",
                   config={"intersphinx_mapping": {"python": ("https://docs.python.org/3/", None)}})


def test_a_ref_shows_its_section_title_from_another_document_and_depends_on_it(tmp_path):
    root = _site(tmp_path)
    ctx = _ctx(root, "index.rst")
    doc = parse_rst((root / "docs" / "index.rst").read_text(), ctx)
    text = "\n".join(getattr(b, "text", "") for b in doc.blocks)
    assert "Start with Soil types and loam, then Compost and watering (the label's" in text
    assert "the compost notes." in text and "The tools are in The tool list, the shed" in text
    assert "photo is The shed in spring. and the raking example is Raking the bed." in text
    assert "Not written yet: not-yet-written. A label before a paragraph: bare-label\nand tools-bare." in text
    assert "Python's own: python:tutorial-index." in text
    assert "This page's own section is Local section." in text
    refs = [(n.outcome, n.line, n.detail) for n in ctx.notes if n.construct == "rst ref"]
    assert refs == [
        ("resolved", 4, "soil-types (docs/garden/soil.rst)"),
        ("resolved", 4, "Watering   Schedule (docs/garden/soil.rst)"),
        ("resolved", 4, "tool-list (docs/garden/tools.md)"),  # docutils: a paragraph's line
        ("resolved", 4, "shed-photo (docs/garden/soil.rst)"),
        ("resolved", 4, "rake-example (docs/garden/soil.rst)"),
        ("unresolved", 8, "undefined label: not-yet-written"),
        ("unresolved", 8, "label bare-label (docs/garden/soil.rst) stands before no section"
                          " title or caption, so the ref needs a title of its own"),
        ("unresolved", 8, "label tools-bare (docs/garden/tools.md) stands before no section"
                          " title or caption, so the ref needs a title of its own"),
        ("converted", 8, "python:tutorial-index: another project's (intersphinx)"),
        ("resolved", 17, "top-label"),
    ]
    virtual = {k: v for k, v in ctx.deps.items() if k.startswith(labels.SCHEME)}
    assert sorted(virtual) == [f"sphinx-label://docs/{n}" for n in (
        "bare-label", "not-yet-written", "rake-example", "shed-photo", "soil-types", "tool-list",
        "tools-bare", "watering%20schedule")]
    assert virtual["sphinx-label://docs/not-yet-written"] == MISSING
    for key, sha in virtual.items():  # what an incremental build recomputes agrees
        assert dependency_sha(str(root.resolve()), key, {}) == sha


def test_a_myst_ref_resolves_alike_and_a_titled_one_needs_no_table(tmp_path):
    root = _site(tmp_path)
    ctx = _ctx(root, "garden/tools.md")
    out = prepare((root / "docs" / "garden" / "tools.md").read_text(), ctx)
    assert "dig where Soil types and loam says, and read\nthe compost notes before" in out
    assert [k for k in ctx.deps if k.startswith(labels.SCHEME)] == ["sphinx-label://docs/soil-types"]


def test_a_depend_key_must_not_look_like_a_file(tmp_path):
    ctx = _ctx(_site(tmp_path), "index.rst")
    with pytest.raises(ValueError, match="scheme://"):
        ctx.depend("docs/a.rst", "0" * 64)


# ---- a build, and a build from its cache --------------------------------------------------
def _sections(store: Path) -> str:
    with sqlite3.connect(store) as con:
        rows = con.execute(
            "SELECT d.path, s.heading_path, s.text FROM sections s JOIN documents d USING (doc_id)"
            " ORDER BY d.path, s.ordinal").fetchall()
    return "\n".join(f"== {path} | {heading}\n{text}\n" for path, heading, text in rows)


def test_the_site_stores_what_its_pages_show(tmp_path, file_regression, data_regression):
    root = _site(tmp_path)
    report, _ = quiet_build(root / "docs", tmp_path / "out")
    file_regression.check(_sections(tmp_path / "out" / "store.sqlite"), extension=".txt")
    d = report.to_dict()["dialect"]
    data_regression.check({k: v for k, v in d["constructs"].items() if k.endswith(" ref")})


def _retitle(docs: Path) -> None:
    soil = docs / "garden" / "soil.rst"
    soil.write_text(soil.read_text().replace("Compost and watering\n--------------------",
                                             "Compost, then watering\n----------------------"))


def _add_label(docs: Path) -> None:
    (docs / "garden" / "later.rst").write_text(".. _not-yet-written:\n\nWritten at last\n===============\n\nIt is.\n")


def _remove_label(docs: Path) -> None:
    tools = docs / "garden" / "tools.md"
    tools.write_text(tools.read_text().replace("(tool-list)=\n", ""))


def _shift_lines(docs: Path) -> None:
    tools = docs / "garden" / "tools.md"
    tools.write_text(tools.read_text().replace("# Tools\n", "# Tools\n\nA new first line.\n"))


def _edit_prose(docs: Path) -> None:
    tools = docs / "garden" / "tools.md"
    tools.write_text(tools.read_text().replace("A spade, a fork", "A spade, two forks"))


@pytest.mark.parametrize(("change", "parsed"), [
    (_retitle, {"garden/soil.rst", "index.rst"}),  # tools.md refs soil-types only: kept
    (_add_label, {"garden/later.rst", "index.rst"}),
    (_remove_label, {"garden/tools.md", "index.rst"}),
    # index.rst refers to tools.md's label, whose entry did not change: only tools.md is read
    # (an edit of soil.rst would read index.rst too: its :doc: reads that file's title)
    (_edit_prose, {"garden/tools.md"}),
    # tools.md's labels move down: index.rst's notes on them name no line, so it is kept
    (_shift_lines, {"garden/tools.md"}),
], ids=["retitle", "add-label", "remove-label", "edit-prose", "shift-lines"])
def test_build_cache_after_a_label_change_equals_a_fresh_build(tmp_path, change, parsed):
    root = _site(tmp_path)
    docs, out = root / "docs", tmp_path / "out"
    quiet_build(docs, out)
    change(docs)
    cached, _ = quiet_build(docs, out, cache=out / "store.sqlite")
    fresh, _ = quiet_build(docs, tmp_path / "fresh")
    assert (out / "store.sqlite.sha256").read_text() == (tmp_path / "fresh" / "store.sqlite.sha256").read_text()
    assert (out / "store.sqlite").read_bytes() == (tmp_path / "fresh" / "store.sqlite").read_bytes()
    assert cached.to_dict()["dialect"] == fresh.to_dict()["dialect"]
    with sqlite3.connect(out / "store.sqlite") as con:
        total = con.execute("SELECT count(*) FROM documents").fetchone()[0]
    assert cached.parsed_documents == len(parsed)
    assert cached.reused_documents == total - len(parsed)


def test_myst_directives_name_labels_and_eval_rst_blocks_are_scanned_as_rst():
    text = ("```{figure} fish.png\n:name: fish\n:width: 10px\n\nParty *time*!\n```\n\n"
            "(code)=\n```{code-block} python\n:caption: A `loop`\n\nfor x in y: pass\n```\n\n"
            "```{eval-rst}\n.. figure:: a.png\n   :name: rst-fig\n\n   Inside rst.\n\n"
            ".. _rst-sec:\n\nAn rst section\n--------------\n```\n\n(plain-fence)=\n```text\nx\n```\n")
    found = dict(label_scan.scan(text, "docs/page.md"))
    assert {k: v.title for k, v in found.items()} == {
        "fish": "Party time!", "code": "A loop", "rst-fig": "Inside rst.",
        "rst-sec": "An rst section", "plain-fence": None}
    assert (found["fish"].line, found["rst-fig"].line, found["rst-sec"].line) == (1, 16, 21)


def test_a_colon_fenced_directive_names_a_label_as_a_backtick_one_does():
    """The label scan reads directives by the page's own rule (syntax/containers): a ``:::``
    figure and one in a list item name their labels; a longer outer fence holds an inner one."""
    text = (":::{figure} a.png\n:name: colon-fig\n\nA colon figure.\n:::\n\n"
            "- ```{list-table} Prices\n  :name: in-list\n  ```\n\n"
            "::::{note}\n:::{figure} b.png\n:::\n::::\n")
    found = dict(label_scan.scan(text, "docs/page.md"))
    assert {k: v.title for k, v in found.items()} == {"colon-fig": "A colon figure.", "in-list": "Prices"}


def test_an_external_role_is_never_looked_up(tmp_path):
    ctx = _ctx(_site(tmp_path), "index.rst")
    doc = parse_rst("See :external+python:ref:`tut-intro` and :external:doc:`tutorial/index`.\n", ctx)
    assert doc.blocks[0].text == "See tut-intro and tutorial/index."
    assert not [k for k in ctx.deps if "://" in k] and not ctx.deps.get("docs/tutorial/index.rst")
    out = prepare("See {external+sphinx:ref}`code-examples`.\n", _ctx(_site(tmp_path / "b"), "p.md"))
    assert out.strip() == "See code-examples."


def test_ingest_in_place_reads_again_exactly_the_pages_a_label_change_touches(tmp_path):
    from artifact_helpers import clean_env

    from contextpull.config import Settings
    from contextpull.ingest.engine import ingest
    from contextpull.cli.environment import read_environment

    root = _site(tmp_path)
    docs, store, env = root / "docs", tmp_path / "store.sqlite", clean_env()
    assert ingest(docs, store, Settings(), environment=read_environment(env)).changed == 3
    assert ingest(docs, store, Settings(), environment=read_environment(env)).changed == 0
    _retitle(docs)
    assert ingest(docs, store, Settings(), environment=read_environment(env)).changed == 2  # soil.rst and index.rst
    with sqlite3.connect(store) as con:
        text = "\n".join(t for (t,) in con.execute("SELECT text FROM sections"))
    assert "then Compost, then watering (the label's" in text
