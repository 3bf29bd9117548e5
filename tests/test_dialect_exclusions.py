"""A generator's own exclusion settings make files not pages (issue 26, "every documentation file
read or named"): mkdocs' ``exclude_docs`` and ``draft_docs`` (``dialects/mkdocs/pages.py``) and
Sphinx's ``exclude_patterns`` read from ``conf.py`` as data (``dialects/sphinx/pages.py``), each
built through the CLI and listed with its reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from artifact_helpers import clean_env
from site_build import build_json, stored_paths, write_site
from contextpull.cli import cli

MKDOCS = {
    "mkdocs.yml": (
        "site_name: S\n"
        "exclude_docs: |\n"
        "  drafts/\n"
        "  *.tmp.md\n"
        "  /api/internal.md\n"
        "  !drafts/keep.md\n"
        "  legacy/*\n"
        "  !legacy/still.md\n"
        "  !legacy/README.md\n"
        "draft_docs: |\n"
        "  wip-*.md\n"
        "not_in_nav: |\n"
        "  orphan.md\n"
    ),
    "docs/index.md": "# Home\n\nWelcome.\n",
    "docs/README.md": "# Readme\n\nShadowed by index.md.\n",
    "docs/drafts/a.md": "# A\n\nDraft.\n",
    "docs/drafts/keep.md": "# Keep\n\nUnder an excluded folder, taken back by its own ! line (as GitIgnoreSpec decides).\n",
    "docs/notes.tmp.md": "# Tmp\n\nScratch.\n",
    "docs/api/internal.md": "# Internal\n\nAnchored pattern.\n",
    "docs/api/public.md": "# Public\n\nA page.\n",
    "docs/guide/api/internal.md": "# Nested internal\n\nNot matched by the anchored pattern.\n",
    "docs/legacy/old.md": "# Old\n\nExcluded.\n",
    "docs/legacy/still.md": "# Still\n\nTaken back by the ! line.\n",
    "docs/wip-next.md": "# Next\n\nA draft.\n",
    "docs/orphan.md": "# Orphan\n\nNot in nav, still built.\n",
    "docs/templates/page.md": "# Template\n\nmkdocs leaves templates/ out by default.\n",
    "docs/sub/index.md": "# Sub\n\nThe folder's page.\n",
    "docs/sub/README.md": "# Sub readme\n\nShadowed.\n",
    "docs/other/README.md": "# Other\n\nNo index beside it: the folder's page.\n",
    "docs/legacy/README.md": "# Legacy readme\n\nIts index.md is excluded, so it is the folder's page.\n",
    "docs/legacy/index.md": "# Legacy index\n\nExcluded by legacy/*.\n",
}


def _site(tmp_path: Path, files: dict[str, str], docs: str) -> Path:
    return write_site(tmp_path / "site", files) / docs


def _build(docs: Path, out: Path, *extra: str) -> dict:
    return build_json(docs, out, "--strict", *extra)


def test_mkdocs_exclude_docs_and_draft_docs_are_not_pages(tmp_path, data_regression):
    docs = _site(tmp_path, MKDOCS, "docs")
    report = _build(docs, tmp_path / "out")
    not_pages = report["dialect"]["not_pages"]
    stored = stored_paths(tmp_path / "out" / "store.sqlite")
    assert not set(stored) & {e["path"] for e in not_pages}
    assert "orphan.md" in stored  # not_in_nav is no exclusion
    data_regression.check({"documents": stored, "not_pages": not_pages})


def test_a_mkdocs_site_without_exclusions_keeps_every_file_but_the_defaults(tmp_path):
    """... and a ``.txt`` file, which mkdocs copies as a static file (Textual's robots.txt was a
    document of its store)."""
    files = {"mkdocs.yml": "site_name: S\n", "docs/index.md": "# Home\n\nHi.\n", "docs/drafts/a.md": "# A\n\nA.\n",
             "docs/README.md": "# Readme\n\nAlone.\n", "docs/robots.txt": "User-agent: *\nDisallow: /drafts/\n"}
    docs = _site(tmp_path, files, "docs")
    report = _build(docs, tmp_path / "out")
    assert stored_paths(tmp_path / "out" / "store.sqlite") == ["drafts/a.md", "index.md"]
    assert report["dialect"]["not_pages"] == [
        {"path": "README.md", "reason": "README.md beside index.md: mkdocs builds the folder's page from index.md"},
        {"path": "robots.txt", "reason": "mkdocs copies a .txt file as it is, as a static file: no page"}]


def test_mkdocs_exclusions_come_through_inherit_and_a_plain_build_keeps_every_file(tmp_path):
    files = {
        "base.yml": "exclude_docs: |\n  drafts/\n",
        "mkdocs.yml": "INHERIT: base.yml\nsite_name: S\n",
        "docs/index.md": "# Home\n\nHi.\n",
        "docs/drafts/a.md": "# A\n\nA.\n",
    }
    docs = _site(tmp_path, files, "docs")
    report = _build(docs, tmp_path / "out")
    assert report["dialect"]["not_pages"] == [{"path": "drafts/a.md", "reason": "mkdocs.yml exclude_docs: drafts/"}]
    plain = _build(docs, tmp_path / "plain", "--dialect", "plain")
    assert "not_pages" not in plain["dialect"]
    assert stored_paths(tmp_path / "plain" / "store.sqlite") == ["drafts/a.md", "index.md"]


@pytest.mark.parametrize(
    ("pattern", "path", "excluded"),
    [
        ("drafts/", "drafts/a.md", True),
        ("drafts/", "x/drafts/a.md", True),  # unanchored: any depth
        ("drafts/", "drafts.md", False),  # a folder pattern never matches a file
        ("/drafts/", "x/drafts/a.md", False),
        ("*.md", "a/b.md", True),
        ("a/*.md", "a/b/c.md", False),  # * stops at a slash
        ("a/**/c.md", "a/c.md", True),
        ("a/**/c.md", "a/x/y/c.md", True),
        ("a/**", "a/b/c.md", True),
        ("b?.md", "b1.md", True),
        ("b[0-9].md", "b7.md", True),
        ("b[!0-9].md", "b7.md", False),
        ("# comment", "# comment", False),
    ],
)
def test_the_gitignore_rule_of_exclude_docs(pattern, path, excluded):
    from contextpull.dialects.mkdocs.pages import compile_pattern, matching_line

    compiled = compile_pattern(pattern)
    assert (matching_line((compiled,) if compiled else (), path) is not None) is excluded


SPHINX = {
    "docs/conf.py": (
        'project = "P"\n'
        'extensions = ["myst_parser"]\n'
        'templates_path = ["_templates"]\n'
        'exclude_patterns = ["_build", "Thumbs.db", "drafts/*"]\n'
        'exclude_patterns += ["**/generated", "old/page.rst"]\n'
        'html_static_path = ["_static"]\n'
    ),
    "docs/index.rst": "Home\n====\n\nWelcome.\n",
    "docs/guide.md": "# Guide\n\nA MyST page.\n",
    "docs/_build/html/_sources/index.rst.txt": "Home\n",
    "docs/_build/page.rst": "Built\n=====\n\nOutput.\n",
    "docs/drafts/a.rst": "A\n=\n\nDraft.\n",
    "docs/drafts/sub/b.md": "# B\n\nUnder a folder drafts/* matches: pruned with it.\n",
    "docs/api/generated/x.rst": "X\n=\n\nGenerated.\n",
    "docs/generated/y.rst": "Y\n=\n\nSphinx's double star pattern does not match at the top.\n",
    "docs/old/page.rst": "Old\n===\n\nGone.\n",
    "docs/old/kept.rst": "Kept\n====\n\nStill here.\n",
    "docs/_templates/note.md": "# Template\n\nNot a document.\n",
    "docs/_static/readme.md": "# Static\n\nCopied, not read.\n",
    "docs/api/_sources/src.rst": "Src\n===\n\nSphinx always leaves _sources out.\n",
}


def test_sphinx_exclude_patterns_and_what_sphinx_always_leaves_out_are_not_pages(tmp_path, data_regression):
    docs = _site(tmp_path, SPHINX, "docs")
    report = _build(docs, tmp_path / "out")
    assert report["dialect"]["unresolved"] == []
    stored = stored_paths(tmp_path / "out" / "store.sqlite")
    data_regression.check({"documents": stored, "not_pages": report["dialect"]["not_pages"]})


def test_a_computed_exclude_patterns_is_not_read_and_named_once(tmp_path):
    files = {
        "docs/conf.py": 'import os\nexclude_patterns = ["_build"] + os.environ.get("X", "").split()\n',
        "docs/index.rst": "Home\n====\n\nWelcome.\n",
        "docs/other.rst": "Other\n=====\n\nText.\n",
        "docs/_build/page.rst": "Built\n=====\n\nKept: the patterns were not read.\n",
    }
    docs = _site(tmp_path, files, "docs")
    report = _build(docs, tmp_path / "out")
    assert "not_pages" not in report["dialect"]
    assert stored_paths(tmp_path / "out" / "store.sqlite") == ["_build/page.rst", "index.rst", "other.rst"]
    assert report["dialect"]["unresolved"] == [{
        "path": "index.rst", "line": 0, "construct": "sphinx exclude_patterns",
        "detail": "docs/conf.py line 2: exclude_patterns is not a literal list, not read; the files it names stay pages",
    }]


def test_a_text_file_is_no_page_unless_source_suffix_names_it(tmp_path):
    """pytest's and Scrapy's ``requirements.txt``, aiohttp's ``spelling_wordlist.txt``: Sphinx
    reads pages only from its ``source_suffix`` endings (``.rst`` by default), so a ``.txt``
    beside the pages is no page; an include still reads it. Django's docs set
    ``source_suffix = ".txt"``: there it is a page, as it is where conf.py computes the setting,
    and under ``--dialect plain``."""
    files = {
        "docs/conf.py": "project = 'P'\n",
        "docs/index.rst": "Home\n====\n\n.. include:: notice.txt\n",
        "docs/notice.txt": "Read through the include.\n",
        "docs/requirements.txt": "sphinx>=7\nfuro\n",
    }
    docs = _site(tmp_path, files, "docs")
    report = _build(docs, tmp_path / "out")
    assert stored_paths(tmp_path / "out" / "store.sqlite") == ["index.rst"]
    assert {n["path"]: n["reason"] for n in report["dialect"]["not_pages"]} == {
        "notice.txt": "not a source file: conf.py source_suffix is .rst",
        "requirements.txt": "not a source file: conf.py source_suffix is .rst",
    }
    from site_build import SECTIONS, store_rows

    assert "Read through the include." in "\n".join(t for _p, _h, t in store_rows(tmp_path / "out" / "store.sqlite", SECTIONS))
    build_json(docs, tmp_path / "plain", "--dialect", "plain")
    for n, conf in enumerate(("source_suffix = ['.rst', '.txt']\n", "import os\nsource_suffix = os.environ['S']\n")):
        docs = _site(tmp_path / str(n), {**files, "docs/conf.py": conf}, "docs")
        _build(docs, tmp_path / f"out{n}")
        assert stored_paths(tmp_path / f"out{n}" / "store.sqlite") == ["index.rst", "notice.txt", "requirements.txt"]
    assert "requirements.txt" in stored_paths(tmp_path / "plain" / "store.sqlite")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('exclude_patterns = ["a", "b"]\n', (("a", "b"), 0)),
        ('exclude_patterns = ("a",)\nexclude_patterns += ["b"]\n', (("a", "b"), 0)),
        ('exclude_patterns: list[str] = ["a"]\n', (("a",), 0)),
        ('exclude_patterns = ["a"]\nexclude_patterns.append("b")\n', (None, 2)),
        ('exclude_patterns = ["a"]\nif True:\n    exclude_patterns = ["b"]\n', (None, 2)),
        ('exclude_patterns = sorted(["a"])\n', (None, 1)),
        ('exclude_patterns = [x for x in "ab"]\nexclude_patterns = ["c"]\n', (("c",), 0)),  # a literal again
        ('exclude_patterns = f()\nexclude_patterns += ["c"]\n', (None, 1)),
        ('exclude_patterns = ["a", 1]\n', (None, 1)),
        ('exclude_patterns, other = ["a"], 1\n', (None, 1)),
        ('other = exclude_patterns = ["a"]\n', (("a",), 0)),
        ('print(exclude_patterns)\nexclude_patterns = ["a"]\n', (("a",), 0)),  # reading it sets nothing
    ],
)
def test_conf_py_lists_are_read_from_literal_top_level_statements_only(source, expected):
    from contextpull.dialects.sphinx.pages import read_settings

    found = read_settings(source, ("exclude_patterns",))["exclude_patterns"]
    assert (found.values, found.unread_line) == expected


def test_nothing_in_conf_py_is_run(tmp_path):
    marker = tmp_path / "ran"
    files = {
        "docs/conf.py": f'open({str(marker)!r}, "w").write("x")\nexclude_patterns = ["_build"]\n',
        "docs/index.rst": "Home\n====\n\nWelcome.\n",
        "docs/_build/page.rst": "Built\n=====\n\nOut.\n",
    }
    docs = _site(tmp_path, files, "docs")
    report = _build(docs, tmp_path / "out")
    assert not marker.exists()
    assert report["dialect"]["not_pages"] == [{"path": "_build/page.rst", "reason": "conf.py exclude_patterns: _build"}]


@pytest.mark.parametrize(
    "tokens",
    [
        [("star",), ("lit", "a"), ("star",), ("lit", "a"), ("star",), ("lit", "a"), ("star",), ("lit", "b")],
        [("any",), ("lit", "a"), ("any",), ("lit", "/"), ("any",), ("lit", "x"), ("any",)],
        [("dirs",), ("lit", "d"), ("dirs",), ("lit", "e"), ("dirs",), ("lit", "f"), ("dirs",), ("one",), ("lit", ".md")],
        [("star",), ("class", "[0-9]"), ("star",), ("class", "[^/a]"), ("any",), ("dirs",), ("lit", "z")],
    ],
)
def test_a_pattern_with_many_stars_matches_as_its_regular_expression_would(tokens):
    """Past MAX_REGEX_STARS a glob is matched by its automaton (bounded in time on any path);
    it must decide exactly as the regular expression it replaces."""
    import itertools
    import re

    from contextpull.scan.globmatch import _REGEX, compile_glob

    glob = compile_glob(tokens)
    assert glob.regex is None
    regex = re.compile("".join(re.escape(t[1]) if t[0] == "lit" else t[1] if t[0] == "class" else _REGEX[t[0]]
                               for t in tokens) + r"\Z")
    alphabet = "ab/dez1x"
    samples = ["".join(p) for n in range(5) for p in itertools.product(alphabet, repeat=n)]
    samples += ["aaa/b", "d/e/f/x.md", "de/f/q.md", "d/ee/f/x.md", "1b/q/z", "a" * 40 + "b"]
    disagree = [s for s in samples if glob.match(s) != bool(regex.match(s))]
    assert disagree == []


def test_ingest_drops_a_page_once_exclude_docs_names_it(tmp_path):
    files = {"mkdocs.yml": "site_name: S\n", "docs/index.md": "# Home\n\nHi.\n", "docs/drafts/a.md": "# A\n\nA.\n"}
    docs = _site(tmp_path, files, "docs")
    store = tmp_path / "store.sqlite"
    run = CliRunner().invoke(cli, ["ingest", str(docs), "--store", str(store)], env=clean_env())
    assert run.exit_code == 0, run.output + run.stderr
    assert "drafts/a.md" in stored_paths(store)
    (docs.parent / "mkdocs.yml").write_text("site_name: S\nexclude_docs: |\n  drafts/\n")
    run = CliRunner().invoke(cli, ["ingest", str(docs), "--store", str(store), "--json"], env=clean_env())
    assert run.exit_code == 0, run.output + run.stderr
    assert stored_paths(store) == ["index.md"]
    assert json.loads(run.stdout)["dialect"]["not_pages"] == [{"path": "drafts/a.md", "reason": "mkdocs.yml exclude_docs: drafts/"}]
