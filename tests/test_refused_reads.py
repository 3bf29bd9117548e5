"""Every read a page asks for outside its repository is refused and named in the build report
with the page's file and line, in every dialect and for every kind of read: includes, snippets,
literal and CSV includes, ``:doc:`` titles and MDX imports of any file type (issue 34). The
secret beside the repository never reaches the store."""

from __future__ import annotations

import pytest

from site_build import SECTIONS, build_json, store_rows, write_site

SECRET = "the secret beside the repository"

CASES = {
    "sphinx": ({
        "conf.py": "project = 'x'\nextensions = ['myst_parser']\n",
        "index.rst": "Title\n=====\n\n.. include:: ../../secret.txt\n\n.. literalinclude:: ../../secret.txt\n\n"
                     "See :doc:`../../secret`.\n\n.. csv-table::\n   :file: ../../secret.txt\n",
        "m.md": "# M\n\nSee {doc}`../../secret` here.\n",
    }, {("index.rst", 4, "rst include"), ("index.rst", 6, "rst literalinclude"), ("index.rst", 8, "rst role"),
        ("index.rst", 10, "rst csv-table"), ("m.md", 3, "myst role")}),
    "mkdocs": ({
        "mkdocs.yml": "site_name: S\nmarkdown_extensions:\n  - pymdownx.snippets\n",
        "docs/index.md": '# P\n\n--8<-- "../../secret.txt"\n',
    }, {("docs/index.md", 3, "snippet")}),
    "mdbook": ({
        "book.toml": "[book]\ntitle = 'x'\n", "src/SUMMARY.md": "- [P](p.md)\n",
        "src/p.md": "# P\n\n{{#include ../../secret.txt}}\n\n{{#rustdoc_include ../../secret.txt}}\n",
    }, {("src/p.md", 3, "mdbook include"), ("src/p.md", 5, "mdbook rustdoc_include")}),
    "jekyll": ({
        "_config.yml": "title: x\n",
        "p.md": "---\ntitle: P\n---\n# P\n\n{% include_relative ../secret.txt %}\n\n{% include ../../secret.txt %}\n",
    }, {("p.md", 6, "jekyll include_relative"), ("p.md", 8, "jekyll include")}),
    "hugo": ({
        "hugo.toml": "title = 'x'\n",
        "content/p.md": '---\ntitle: P\n---\n# P\n\n{{< readfile file="../../secret.txt" >}}\n',
    }, {("content/p.md", 6, "hugo readfile")}),
    "docusaurus": ({
        "docusaurus.config.js": "module.exports = {title: 'S'};\n",
        "docs/p.mdx": "import S from '../../secret.txt';\nimport '../../secret.css';\n\n# P\n\nText.\n",
    }, {("docs/p.mdx", 1, "mdx import"), ("docs/p.mdx", 2, "mdx import")}),
}


@pytest.mark.parametrize("dialect", list(CASES))
def test_every_read_outside_the_repository_is_named_with_file_and_line(tmp_path, dialect):
    files, expected = CASES[dialect]
    (tmp_path / "secret.txt").write_text(SECRET + "\n")
    (tmp_path / "secret.rst").write_text(f"Secret\n======\n\n{SECRET}\n")
    root = write_site(tmp_path / "repo", files)
    report = build_json(root, tmp_path / "out", "--dialect", dialect)
    unresolved = report["dialect"]["unresolved"]
    assert {(u["path"], u["line"], u["construct"]) for u in unresolved} == expected
    assert all("outside the repository" in u["detail"] or "leaves its folder" in u["detail"] for u in unresolved)
    texts = [text for _, _, text in store_rows(tmp_path / "out" / "store.sqlite", SECTIONS)]
    assert not any(SECRET in t for t in texts)
