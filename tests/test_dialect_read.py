"""Front matter, configuration read as data, detection and the read dispatch (issue 26)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.data import yaml_load
from contextpull.dialects.api import Site
from contextpull.dialects.data.files import DataError, load_conf_py, load_yaml
from contextpull.dialects.detect import detect_site
from contextpull.dialects.data.front_matter import split_front_matter
from contextpull.dialects.read import read_document
from contextpull.dialects.site_reader import open_site
from contextpull.parsing.blocks import Heading

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(8)
)


def test_yaml_alias_bomb_is_refused_quickly():
    started = time.perf_counter()
    with pytest.raises(DataError, match="alias bomb"):
        load_yaml(BOMB)
    assert time.perf_counter() - started < 5  # bounded: the check never expands the aliases


def _block_bomb() -> str:
    lines = ["a: &a\n" + "".join("  - x\n" for _ in range(9))]
    for i in range(8):
        prev, name = chr(97 + i), chr(98 + i)
        lines.append(f"{name}: &{name}\n" + "".join(f"  - *{prev}\n" for _ in range(9)))
    return "".join(lines)


@pytest.mark.parametrize("text", [
    BOMB,
    _block_bomb(),  # aliases as block sequence items
    BOMB.replace(", ", ","),  # flow items with no space after the comma
    "{" + BOMB.replace("\n", ", ").rstrip(", ") + "}",  # one flow mapping
    "- " + BOMB.replace("\n", "\n  "),  # inside a sequence item
])
def test_every_place_an_alias_can_stand_is_checked(text):
    with pytest.raises(DataError, match="alias bomb"):
        load_yaml(text)


def test_a_star_that_cannot_be_an_alias_is_plain_text():
    assert load_yaml('a: "x * y and 2*3"\nb: a **bold** word\n') == {"a": "x * y and 2*3", "b": "a **bold** word"}


def test_yaml_self_reference_is_refused():
    with pytest.raises(DataError):
        load_yaml("a: &a [*a]\n")


def test_yaml_tags_that_would_construct_objects_read_as_none():
    data = load_yaml(
        "emoji: !!python/name:material.extensions.emoji.twemoji\n"
        "obj: !!python/object/apply:os.system ['echo pwned']\n"
        "env: !ENV [HOME, x]\n"
        "rel: !relative $config_dir\n"
        "keep: 3\n"
    )
    assert data == {"emoji": None, "obj": None, "env": None, "rel": None, "keep": 3}


def test_malformed_yaml_names_the_line():
    with pytest.raises(DataError, match=r"malformed YAML: .*line 2"):
        load_yaml("a: [1, 2\nb: : :\n")


def test_conf_py_is_read_without_running_it(tmp_path):
    text = "import os\nproject = 'Flask'\nextensions = ['a', 'b']\nversion = os.environ['X']\nos.system('false')\n"
    assert load_conf_py(text) == {"project": "Flask", "extensions": ["a", "b"]}
    with pytest.raises(DataError):
        load_conf_py("def (:\n")


@pytest.mark.parametrize(
    "text, data, detail",
    [
        ("---\ntitle: A\ndescription: B\n---\nbody\n", {"title": "A", "description": "B"}, "yaml"),
        ("+++\ntitle = 'A'\n+++\nbody\n", {"title": "A"}, "toml"),
        ("---\ntitle: [unclosed\n---\nbody\n", {}, "malformed YAML"),
        ("---\n- a\n- b\n---\nbody\n", {}, "YAML front matter is a list, not a mapping"),
        ("---\nx: !!python/object/apply:os.system ['true']\n---\nbody\n", {"x": None}, "yaml"),
        ("---\n" + BOMB + "---\nbody\n", {}, "alias bomb"),
        ("+++\ntitle = \n+++\nbody\n", {}, "malformed TOML"),
    ],
)
def test_front_matter_is_parsed_or_named_and_line_numbers_survive(text, data, detail):
    fm = split_front_matter(text)
    assert fm.data == data
    assert detail in fm.notes[0].detail
    assert fm.notes[0].outcome == ("converted" if data or detail in ("yaml", "toml") else "unresolved")
    lines = fm.body.split("\n")
    assert len(lines) == len(text.split("\n")) and lines[text.split("\n").index("body")] == "body"


def test_unclosed_front_matter_is_text():
    fm = split_front_matter("---\ntitle: x\nno end\n")
    assert fm.data == {} and fm.notes == [] and fm.body.startswith("---")


def _block_by_lines(text: str) -> tuple[str, str] | None:
    """The front-matter rule one line at a time: the first line is ``---`` or ``+++`` (white space
    around), the block runs to the first later line that is its closer (``---`` or ``...`` for
    YAML, ``+++`` for TOML, white space after); (the block's source, the body with the block's
    lines blank), or None when the text has no block."""
    lines = text.split("\n")
    closers = {"---": ("---", "..."), "+++": ("+++",)}.get(lines[0].strip())
    if closers is None or len(lines) < 2:
        return None
    end = next((j for j in range(1, len(lines)) if lines[j].rstrip() in closers), None)
    if end is None:
        return None
    return "\n".join(lines[1:end]), "\n" * (end + 1) + "\n".join(lines[end + 1 :])


_FM_PIECES = st.sampled_from(["---", "+++", "...", "----", "--- ", "\n", "\n", " ", "\t", "\r", "\x85",
                              "title: x", "a = 1", "x"])


@settings(max_examples=800, deadline=None)
@given(st.lists(_FM_PIECES, max_size=16).map("".join))
def test_front_matter_is_cut_where_the_line_by_line_rule_cuts(text):
    from contextpull.dialects.data import front_matter

    seen: list[str] = []
    real_yaml, real_toml = front_matter._yaml, front_matter.load_toml
    front_matter._yaml = front_matter.load_toml = lambda source: seen.append(source) or {}
    try:
        fm = split_front_matter(text)
    finally:
        front_matter._yaml, front_matter.load_toml = real_yaml, real_toml
    expected = _block_by_lines(text)
    if expected is None:
        assert (fm.body, seen) == (text, [])
    else:
        assert (fm.body, seen) == (expected[1], [expected[0]])


def make(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    "files, docs, dialect, config",
    [
        ({"mkdocs.yml": "site_name: x\n", "docs/a.md": "a"}, "docs", "mkdocs", "mkdocs.yml"),
        ({"website/docusaurus.config.ts": "x", "docs/a.md": "a"}, "docs", "docusaurus", "website/docusaurus.config.ts"),
        ({"docusaurus.config.js": "x", "docs/a.md": "a"}, "docs", "docusaurus", "docusaurus.config.js"),
        ({"hugo.toml": "", "content/a.md": "a"}, "content", "hugo", "hugo.toml"),
        ({"config.toml": "", "content/a.md": "a"}, "content", "hugo", "config.toml"),
        ({"config.toml": "", "docs/a.md": "a"}, "docs", "plain", None),
        ({"book.toml": "", "src/a.md": "a"}, "src", "mdbook", "book.toml"),
        ({"docs/_config.yml": "x: 1", "docs/a.md": "a"}, "docs", "jekyll", "docs/_config.yml"),
        ({"book/_config.yml": "x: 1", "book/_toc.yml": "", "book/a.md": "a"}, "book", "sphinx", "book/_config.yml"),
        ({"docs/conf.py": "project = 'x'", "docs/a.rst": "a"}, "docs", "sphinx", "docs/conf.py"),
        ({"docs/source/conf.py": "", "docs/source/a.rst": "a"}, "docs", "sphinx", "docs/source/conf.py"),
        ({"config/_default/hugo.toml": "", "content/a.md": "a"}, "content", "hugo", "config/_default/hugo.toml"),
        ({"config/_default/config.yaml": "", "content/a.md": "a"}, "content", "hugo", "config/_default/config.yaml"),
        ({"docs/a.md": "a"}, "docs", "plain", None),
        # nearest folder first: the docs folder's own configuration wins over the root's
        ({"mkdocs.yml": "", "docs/conf.py": "", "docs/a.md": "a"}, "docs", "sphinx", "docs/conf.py"),
        # a configuration split into files joined by INHERIT: the leaf, the first by name
        # among leaves; a base alone (its leaf written by a script) is the base
        ({"mkdocs-base.yml": "site_name: x\n", "mkdocs-en.yml": "INHERIT: mkdocs-base.yml\n", "docs/a.md": "a"},
         "docs", "mkdocs", "mkdocs-en.yml"),
        ({"mkdocs-fr.yml": "INHERIT: ./mkdocs-base.yml\n", "mkdocs-base.yml": "", "mkdocs-en.yml": "INHERIT: mkdocs-base.yml\n",
          "docs/a.md": "a"}, "docs", "mkdocs", "mkdocs-en.yml"),
        ({"mkdocs-base.yml": "site_name: x\n", "mkdocs-a.yml": "INHERIT: mkdocs-zz.yml\n", "mkdocs-zz.yml": "INHERIT: mkdocs-base.yml\n",
          "docs/a.md": "a"}, "docs", "mkdocs", "mkdocs-a.yml"),
        ({"mkdocs-base.yml": "site_name: x\n", "docs/a.md": "a"}, "docs", "mkdocs", "mkdocs-base.yml"),
        ({"mkdocs-base.yml": "[unclosed\n", "docs/a.md": "a"}, "docs", "mkdocs", "mkdocs-base.yml"),
        ({"mkdocs.yml": "INHERIT: mkdocs-base.yml\n", "mkdocs-base.yml": "", "mkdocs-pdf.yml": "INHERIT: mkdocs-base.yml\n",
          "docs/a.md": "a"}, "docs", "mkdocs", "mkdocs.yml"),
        ({"mkdocs-base.json": "{}", "docs/a.md": "a"}, "docs", "plain", None),
        # Zensical's own configuration, and a YAML file of its name a site gives it with -f;
        # beside mkdocs.yml, mkdocs.yml
        ({"zensical.toml": "[project]\nsite_name = 'x'\n", "docs/a.md": "a"}, "docs", "mkdocs", "zensical.toml"),
        ({"zensical.yml": "site_name: x\n", "docs/a.md": "a"}, "docs", "mkdocs", "zensical.yml"),
        ({"zensical.toml": "", "mkdocs.yml": "", "docs/a.md": "a"}, "docs", "mkdocs", "mkdocs.yml"),
        # a nearer configuration whose docs_dir puts its pages elsewhere (a stale copy) gives way
        # to one of the same generator farther up that builds DOCS; none such: it is kept
        ({"zensical.yml": "docs_dir: docs/src/markdown\n", "docs/src/zensical.yml": "docs_dir: docs/src/markdown\n",
          "docs/src/markdown/a.md": "a"}, "docs/src/markdown", "mkdocs", "zensical.yml"),
        ({"mkdocs.yml": "docs_dir: other\n", "site/mkdocs.yml": "docs_dir: elsewhere\n", "site/docs/a.md": "a"},
         "site/docs", "mkdocs", "site/mkdocs.yml"),
        ({"mkdocs.yml": "docs_dir: site/docs\n", "site/mkdocs.yml": "INHERIT: ../mkdocs.yml\n", "site/docs/a.md": "a"},
         "site/docs", "mkdocs", "site/mkdocs.yml"),  # docs_dir left to the parent: cannot be told
        ({"book.toml": "", "site/mkdocs.yml": "docs_dir: elsewhere\n", "site/docs/a.md": "a"},
         "site/docs", "mkdocs", "site/mkdocs.yml"),  # only a file of the same generator takes over
        ({"mkdocs.yml": "site_name: x\n", "docs/guide/a.md": "a"}, "docs/guide", "mkdocs", "mkdocs.yml"),
        # specific names before shared ones in one folder
        ({"docs/_config.yml": "", "docs/mkdocs.yml": "", "docs/a.md": "a"}, "docs", "mkdocs", "docs/mkdocs.yml"),
    ],
)
def test_auto_detection(tmp_path, files, docs, dialect, config):
    root = make(tmp_path, {".git/HEAD": "ref", **files})
    site = detect_site(root / docs)
    assert (site.dialect, site.config_file) == (dialect, config)
    assert site.repo_root == str(root.resolve())


_HUGO_PAGE = "# Install\n\n{{< tabs >}}\n{{< tab \"pip\" >}}\npip install x\n{{< /tab >}}\n{{< /tabs >}}\n\n{{% note %}}\nRead me.\n{{% /note %}}\n"


@pytest.mark.parametrize(
    ("pages", "dialect", "guessed"),
    [
        # a docs folder whose Hugo site lives in another repository (python-poetry/poetry)
        ({"docs/a.md": _HUGO_PAGE}, "hugo", "3 Hugo shortcode calls in 1 of the first pages"),
        # shown in code, as a page about Hugo shows them: no evidence
        ({"docs/a.md": "# A\n\n```go-html-template\n{{< tabs >}}\n{{% note %}}\n```\n\nWrite `{{< x >}}` or `{{% y %}}`.\n"},
         "plain", None),
        # one call is not enough; Liquid and Jinja tags are not Hugo's
        ({"docs/a.md": "{{< figure src=\"a.png\" >}}\n\n{{ page.title }} {% include x.html %}\n"}, "plain", None),
        # a configuration file decides first, whatever the pages hold
        ({"mkdocs.yml": "site_name: x\n", "docs/a.md": _HUGO_PAGE}, "mkdocs", None),
    ],
)
def test_hugo_pages_without_their_site_are_read_as_hugo(tmp_path, pages, dialect, guessed):
    root = make(tmp_path, {".git/HEAD": "ref", **pages})
    site = detect_site(root / "docs")
    assert (site.dialect, site.config_file, site.guessed_from) == (dialect, "mkdocs.yml" if dialect == "mkdocs" else None, guessed)
    assert detect_site(root / "docs", "plain").guessed_from is None


def test_detection_stops_at_the_repository_root(tmp_path):
    make(tmp_path, {"mkdocs.yml": "", "repo/.git/HEAD": "", "repo/docs/a.md": "a"})
    assert detect_site(tmp_path / "repo" / "docs").dialect == "plain"


def test_an_exported_repository_is_known_by_its_github_folder(tmp_path):
    make(tmp_path, {"repo/.github/workflows/ci.yml": "", "repo/book.toml": "", "repo/src/a.md": "a"})
    site = detect_site(tmp_path / "repo" / "src")
    assert (site.dialect, site.config_file, site.repo_root) == ("mdbook", "book.toml", str((tmp_path / "repo").resolve()))


def test_without_a_repository_docs_is_its_own_root(tmp_path):
    make(tmp_path, {"mkdocs.yml": "", "docs/a.md": "a"})
    site = detect_site(tmp_path / "docs")
    assert (site.dialect, site.repo_root) == ("plain", str((tmp_path / "docs").resolve()))


def test_an_explicit_dialect_finds_its_own_configuration(tmp_path):
    root = make(tmp_path, {".git/HEAD": "", "mkdocs.yml": "site_name: x\n", "docs/a.md": "a"})
    assert detect_site(root / "docs", "plain") == Site("plain", None, str(root / "docs"), str(root))
    site = detect_site(root / "docs", "hugo")
    assert (site.dialect, site.config_file) == ("hugo", None)
    assert detect_site(root / "docs", "mkdocs").config_file == "mkdocs.yml"


def test_a_broken_configuration_is_a_problem_not_a_failure(tmp_path):
    root = make(tmp_path, {".git/HEAD": "", "mkdocs.yml": BOMB, "docs/a.md": "# A\n\ntext\n"})
    site = detect_site(root / "docs")
    config, problem = open_site(site).configuration
    assert config == {} and "alias bomb" in problem
    result = read_document(b"# A\n\ntext\n", "markdown", "a", "a.md", site)
    assert [n.detail for n in result.notes if n.construct == "configuration"] == [problem]


def site_at(tmp_path, dialect="mkdocs"):
    (tmp_path / "docs").mkdir(exist_ok=True)
    return Site(dialect, None, str(tmp_path / "docs"), str(tmp_path))


def test_title_from_front_matter_heads_every_path_and_description_is_kept(tmp_path):
    data = b"---\ntitle: Install\ndescription: How to   install it.\n---\n## Usage\n\ntext\n"
    result = read_document(data, "markdown", "install", "install.md", site_at(tmp_path))
    assert result.parsed.title == "Install"
    assert result.parsed.blocks[0] == Heading(1, "Install")
    assert result.description == "How to install it."


@pytest.mark.parametrize(
    "text, title",
    [
        ("## Second level first\n\ntext\n", "Second level first"),
        ("just text\n", "stem"),
        ("# Own H1\n\n## b\n", "Own H1"),
        ("---\ntitle: 42\n---\n# Other\n", "42"),
    ],
)
def test_title_rule(tmp_path, text, title):
    result = read_document(text.encode(), "markdown", "stem", "stem.md", site_at(tmp_path))
    assert result.parsed.title == title


def test_a_page_of_front_matter_alone_is_its_description(tmp_path):
    data = b"---\ntitle: Functions\ndescription: Use these functions in templates.\n---\n"
    result = read_document(data, "markdown", "_index", "functions/_index.md", site_at(tmp_path))
    assert result.parsed.title == "Functions"
    assert [getattr(b, "text", None) for b in result.parsed.blocks] == ["Use these functions in templates."]
    bare = read_document(b"---\ntitle: Empty\n---\n", "markdown", "_index", "e/_index.md", site_at(tmp_path))
    assert bare.parsed.blocks == []


def test_a_document_that_starts_with_its_own_h1_keeps_its_blocks(tmp_path):
    result = read_document(b"# Own\n\ntext\n", "markdown", "s", "s.md", site_at(tmp_path))
    assert [type(b).__name__ for b in result.parsed.blocks] == ["Heading", "Paragraph"]


def test_a_dialect_that_fails_is_named_and_the_document_still_read(tmp_path, monkeypatch):
    from contextpull.dialects.site_reader import reading_module
    from contextpull.dialects.site_reader import SiteReader

    class Broken(SiteReader):
        def prepare(self, text, ctx):
            return 1 / 0

    monkeypatch.setattr(reading_module("mkdocs"), "Reader", Broken)
    result = read_document(b"# T\n\ntext\n", "markdown", "s", "s.md", site_at(tmp_path))
    assert result.parsed.title == "T"
    assert [(n.construct, n.outcome) for n in result.notes] == [("mkdocs dialect", "unresolved")]
    assert "ZeroDivisionError" in result.notes[0].detail


def test_a_reader_that_says_the_file_is_unusable_makes_a_skip_not_markdown(tmp_path, monkeypatch):
    import types

    from contextpull.dialects import read
    from contextpull.parsing.blocks import ParseError

    def to_markdown(text, ctx):
        raise ParseError("notebook is not JSON")

    fake = types.SimpleNamespace(to_markdown=to_markdown)
    real = read.load_module
    monkeypatch.setattr(read, "load_module", lambda path: fake if path == "read_ipynb" else real(path))
    with pytest.raises(ParseError, match="notebook is not JSON"):
        read_document(b"{not json", "ipynb", "nb", "nb.ipynb", site_at(tmp_path))


def test_every_row_of_the_table_opens_a_reader_of_its_own_and_the_shared_readers_import(tmp_path):
    from contextpull.dialects import read, registry
    from contextpull.dialects.site_reader import SiteReader

    for entry in registry.DIALECTS:
        reader = open_site(site_at(tmp_path, entry.name))
        assert isinstance(reader, SiteReader) and type(reader) is not SiteReader, entry.name
        assert type(reader).prepare is not SiteReader.prepare, entry.name
    assert type(open_site(site_at(tmp_path, "plain"))) is SiteReader
    for path, func in (("sphinx.rst.read", "parse_rst"), ("read_ipynb", "to_markdown"), ("mdx.mdx", "prepare")):
        assert callable(getattr(read.load_module(path), func)), path


def test_a_misspelt_module_path_raises_rather_than_reading_as_the_identity():
    from contextpull.dialects import read

    with pytest.raises(ModuleNotFoundError):
        read.load_module("mkdcos")


def test_the_configuration_file_is_a_dependency(tmp_path):
    make(tmp_path, {".git/HEAD": "", "mkdocs.yml": "site_name: x\n", "docs/a.md": "a"})
    site = detect_site(tmp_path / "docs")
    result = read_document(b"text\n", "markdown", "a", "a.md", site)
    assert [path for path, _ in result.deps] == ["mkdocs.yml"]


def test_yaml_node_bound_is_a_module_setting(monkeypatch):
    monkeypatch.setattr(yaml_load, "MAX_YAML_NODES", 10)
    assert load_yaml("a: &a [1, 2]\nb: *a\n") == {"a": [1, 2], "b": [1, 2]}
    with pytest.raises(DataError):
        load_yaml("a: &a [1, 2, 3]\nb: [*a, *a]\n")


@pytest.mark.parametrize("text", ["[" * 100_000, "{" * 50_000, "a:\n" + "".join(" " * i + "b:\n" for i in range(1, 3000))])
def test_deeply_nested_yaml_is_refused_quickly(text):
    started = time.perf_counter()
    with pytest.raises(DataError):
        load_yaml(text)
    assert time.perf_counter() - started < 5


def test_a_zensical_site_reads_as_mkdocs_with_its_project_table(tmp_path):
    """Zensical keeps mkdocs' settings under ``[project]`` and lets a table name an extension
    without quotes (``[project.markdown_extensions.pymdownx.snippets]``), which it reads as
    ``pymdownx.snippets``: the snippet is expanded from the base path that table gives."""
    from site_build import SECTIONS, build_json, store_rows, write_site

    files = {
        "zensical.toml": ('[project]\nsite_name = "Harbour"\ndocs_dir = "pages"\n\n'
                          "[project.markdown_extensions.admonition]\n"
                          '[project.markdown_extensions.pymdownx.snippets]\nbase_path = ["parts"]\n'),
        "parts/tide.md": "High tide at six.\n",
        "pages/index.md": '# Tides\n\n!!! note "Check"\n    --8<-- "tide.md"\n',
    }
    root = write_site(tmp_path / "site", files)
    report = build_json(root / "pages", tmp_path / "out")
    assert (report["dialect"]["name"], report["dialect"]["config_file"]) == ("mkdocs", "zensical.toml")
    (text,) = [t for _, _, t in store_rows(tmp_path / "out" / "store.sqlite", SECTIONS)]
    assert text == "# Tides\n\nCheck: High tide at six."
