"""The issue 26 benchmark scripts, run on tiny sites written here (benchmarks/real_docs.py and
benchmarks/dialect_bad_inputs.py): what they count is what the README's figures rest on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import docs_markup  # noqa: E402
import real_docs  # noqa: E402


@pytest.mark.parametrize(("heading_path", "text", "expected"), [
    ("Setup", "```js\nimport React from 'react'\n```\n", []),
    ("Setup", "import Tabs from '@theme/Tabs'\n\n<Tabs>\n", ["JSX <Component", "MDX import"]),
    ("Setup", "Write `{{#include x.rs}}` in a chapter.\n", []),
    ("Setup", "    ```python\n    !!! note\n    ```\n!!! tip\n    Body\n", ["admonition !!! / ???"]),
    ("Setup", "```{note}\nA MyST note.\n```\n", ["MyST fence ```{x}"]),
    ("Setup", "~~~~\n```\n{% raw %}\n~~~~\nSee :ref:`intro`.\n", ["rst role :x:`"]),
    ("Guide > Path { #path }", "## Path { #path }\n", ["heading attribute {#"]),
    ("Hugo", "{{% include \"/_common/a.md\" %}}\n", ["Hugo {{< {{%"]),
    ("API", "::: fastapi.FastAPI\n", ["mkdocstrings ::: "]),
    ("Tip", ":::tip[Careful]\nBody\n:::\n", ["admonition :::"]),
    ("Liquid", "<code>{% raw %}{{ site.x }}{% endraw %}</code> and {{ site.title }}\n", ["Liquid {{ site."]),
    ("Jinja", "use the `{%\nautoescape %}` block\n\n`unclosed\n\n{% if x %}` closes here\n", ["Liquid {%"]),
])
def test_markup_counts_outside_code_only(heading_path, text, expected):
    assert docs_markup.markup_in(heading_path, text) == expected


@pytest.mark.parametrize(("front", "title"), [
    ("---\ntitle: <Suspense>\n---\n", "<Suspense>"),
    ("---\ntitle: '<Tabs> and ''quotes'''\n---\n", "<Tabs> and 'quotes'"),
    ('---\nid: x\ntitle: "<Note> \\"here\\""\n---\n', '<Note> "here"'),
    ("---\nid: x\n---\ntitle: <Body>\n", None),  # after the front matter: text, not a title
    ("title: <NoFront>\n", None),
])
def test_front_matter_title_reads_the_title_as_written(tmp_path, front, title):
    page = tmp_path / "page.md"
    page.write_text(front + "\n# Body\n")
    assert docs_markup.front_matter_title(page) == title


def test_a_front_matter_title_counts_as_markup_only_where_the_generator_writes_it_unescaped(tmp_path):
    import sqlite3

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "suspense.md").write_text("---\ntitle: <Suspense>\n---\n\nText.\n")
    (docs / "other.md").write_text("# <Other>\n\nText.\n")
    store = tmp_path / "store.sqlite"
    con = sqlite3.connect(store)
    con.executescript(
        "CREATE TABLE documents (doc_id INTEGER, path TEXT, title TEXT);"
        "CREATE TABLE sections (doc_id INTEGER, ordinal INTEGER, heading_path TEXT, text TEXT);"
        "INSERT INTO documents VALUES (1, 'suspense.md', '<Suspense>'), (2, 'other.md', '<Other>');"
        "INSERT INTO sections VALUES (1, 0, '<Suspense>', 'Text.'), (1, 1, '<Suspense> > Props', 'Text.'),"
        " (1, 2, '<Suspense> > Props {#props}', 'Text.'), (2, 0, '<Other>', 'Text.');")
    con.commit()
    con.close()
    escaped = docs_markup.analyse_store(store, docs, tmp_path, titles_as_text=True)
    raw = docs_markup.analyse_store(store, docs, tmp_path)
    # the title as written is text; markup in a heading below it and a Markdown heading's is not
    assert (escaped["sections_with_markup"], raw["sections_with_markup"]) == (2, 4)
    assert "mdx guessed" in docs_markup.TITLES_AS_TEXT and "jekyll" not in docs_markup.TITLES_AS_TEXT


def test_includes_count_in_code_only_where_the_generator_expands_them_there():
    text = ("```rust\n{{#include ../listings/a.rs:here}}\n```\n\n```liquid\n{% include footer.html %}\n```\n"
            "{% include note.html %}\n`{{% include \"x.md\" %}}` and {{% include \"/_common/y.md\" %}}\n")
    assert docs_markup.includes_in(text) == [
        ("mdbook include", "../listings/a.rs:here"), ("hugo include", "/_common/y.md"), ("jekyll include", "note.html")]


@pytest.mark.parametrize("report", [
    {"constructs": {"mdbook include": {"resolved": 3, "unresolved": [{"line": 4}]}, "admonition": {"converted": 2}}},
    {"manifest": {"constructs": [
        {"construct": "mdbook include", "outcome": "resolved", "count": 3},
        {"construct": "mdbook include", "outcome": "unresolved", "line": 4},
        {"construct": "admonition", "outcome": "converted", "count": 2}]}},
])
def test_construct_counts_read_either_report_shape(report):
    counts = real_docs.construct_counts(report)
    assert (counts["includes_resolved"], counts["includes_missing"], counts["unresolved"]) == (3, 1, 1)
    assert counts["by_construct"]["admonition"] == {"converted": 2}


def test_construct_counts_are_absent_without_a_construct_report():
    assert real_docs.construct_counts({"manifest": {"counts": {"documents": 1}}}) is None


def _book(root: Path) -> None:
    """An mdBook-shaped checkout named like a REPOSITORIES row: one include whose target exists,
    one whose target is missing, a stem-titled chapter and a comment."""
    (root / "book" / "listings").mkdir(parents=True)
    (root / "book" / "listings" / "main.rs").write_text("fn main() {}\n")
    src = root / "book" / "src"
    src.mkdir()
    (src / "ch01.md").write_text(
        "## Hello\n\nA program:\n\n```rust\n{{#include ../listings/main.rs}}\n```\n\n"
        "## Gone\n\n```rust\n{{#include ../listings/missing.rs}}\n```\n\n"
        "## Aside\n\n<!-- not shown -->\nShown text.\n"
    )
    (src / "ch02.md").write_text("# Second chapter\n\nPlain prose with `code`.\n")
    (src / "notes.adoc").write_text("= Not read\n")


def test_real_docs_counts_a_tiny_book(tmp_path, data_regression):
    _book(tmp_path / "corpora")
    out = tmp_path / "rd.json"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "real_docs.py"), "--corpora", str(tmp_path / "corpora"),
         "--only", "book", "--repeats", "1", "--plain-only", "--json", str(out)],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "| book (mdbook) |" in done.stdout
    row = json.loads(out.read_text())["repositories"][0]
    plain = row["plain"]
    assert plain["build_s"] > 0 and plain["cpu_s"] > 0 and plain["exit_code"] == 0
    # the .adoc is counted as silently left out, or (with the dialects) a named skip, never both
    assert (plain["unaccounted_examples"], plain["skipped"]) in ((["notes.adoc"], 0), ([], 1))
    keep = ("documents", "sections", "sections_with_markup", "markup_by_pattern",
            "includes_left", "includes_left_target_exists", "includes_left_by_construct",
            "stem_titles", "stem_title_examples")
    data_regression.check({"files": row["files"], "plain": {k: plain[k] for k in keep}})


def test_real_docs_names_a_missing_checkout(tmp_path):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "real_docs.py"), "--corpora", str(tmp_path),
                           "--only", "flask"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no checkout for flask" in done.stderr and "Traceback" not in done.stderr


def test_bad_inputs_builds_each_case_bounded_and_reports_it(tmp_path):
    out = tmp_path / "bad.json"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "dialect_bad_inputs.py"), "--only", "include-cycle",
         "--only", "yaml-object-tags", "--only", "include-fifo", "--timeout", "60", "--json", str(out)],
        capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    rows = {r["case"]: r for r in json.loads(out.read_text())}
    assert set(rows) == {"include-cycle", "yaml-object-tags", "include-fifo"}
    for row in rows.values():
        # what must hold on every build, before and after the dialects: no traceback, no hang,
        # the harmless document beside the hostile one kept, nothing from outside in the store
        assert (row["traceback"], row["timed_out"], row["ok_kept"], row["leak"]) == (False, False, True, False), row
        assert row["exit_code"] == 0 and row["rss_mb"] > 0
    assert "| include-fifo |" in done.stdout


def test_bad_inputs_case_files_hold_what_they_name(tmp_path):
    """The hostile things are really there: the FIFO a FIFO, the huge file sparse and 8 GiB, the
    symlink pointing out of the repository, the secret outside it."""
    import stat

    import dialect_bad_inputs as bad

    for name, check in [
        ("include-fifo", lambda repo: stat.S_ISFIFO(os.lstat(repo / "listings" / "fifo.rs").st_mode)),
        ("include-huge", lambda repo: (repo / "listings" / "huge.rs").stat().st_size == 8 * 1024**3),
        ("include-symlink", lambda repo: not os.path.realpath(repo / "listings" / "link.rs").startswith(str(repo))),
    ]:
        root = tmp_path / name
        root.mkdir()
        docs, dialect, hostile, _ = bad.make_case(name, root)
        assert check(root / "repo"), name
        assert (root / "repo" / hostile).is_file() and (docs / "ok.md").is_file()
        assert bad.SECRET in (root / "secret.txt").read_text()
    assert bad._laughs(3, 2).count("*a") == 6


def test_bad_inputs_name_each_unknown_construct(tmp_path):
    """Each construct the generator itself would not render is an unresolved note of its own."""
    cases = {"unknown-hugo": 2, "unknown-docusaurus": 2, "unknown-sphinx": 1, "unknown-mkdocs": 1, "unknown-jekyll": 2}
    out = tmp_path / "bad.json"
    args = [a for case in cases for a in ("--only", case)]
    done = subprocess.run([sys.executable, str(BENCHMARKS / "dialect_bad_inputs.py"), *args, "--json", str(out)],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    rows = {r["case"]: r for r in json.loads(out.read_text())}
    assert {case: rows[case]["unresolved"] for case in cases} == cases
    assert all(r["inner_kept"].split("/")[0] == r["inner_kept"].split("/")[1] for r in rows.values())
    assert "unknown shortcode {{< nosuch >}}" in rows["unknown-hugo"]["named"]
