"""Bad input in the spine's parts, through a whole build (issue 26, "Bad input"): a named note
or skip each, bounded in time and memory, nothing lost, no traceback."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner
from dialect_fakes import use_fake_dialect

from contextpull.cli import cli

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8)
)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    use_fake_dialect(monkeypatch)
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: bad input\n")
    (root / "docs").mkdir()
    return root


def build(root, tmp_path):
    result = CliRunner().invoke(cli, ["build", str(root / "docs"), "--out", str(tmp_path / "out"), "--json"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return json.loads(result.output)


def unresolved(report):
    return {(u["path"], u["construct"]): u["detail"] for u in report["dialect"]["unresolved"]}


def test_bad_front_matter_is_named_and_the_document_kept(repo, tmp_path):
    docs = repo / "docs"
    (docs / "bomb.md").write_text("---\n" + BOMB + "---\n# Bomb\n\nStill read.\n")
    (docs / "tag.md").write_text("---\ntitle: !!python/object/apply:os.system ['echo x']\n---\n# Tag\n\nStill read.\n")
    (docs / "broken.md").write_text("---\ntitle: [unclosed\n---\n# Broken\n\nStill read.\n")
    (docs / "list.md").write_text("---\n- a\n---\n# List\n\nStill read.\n")
    report = build(repo, tmp_path)
    assert report["manifest"]["counts"]["documents"] == 4 and report["manifest"]["skipped"] == []
    found = unresolved(report)
    assert "alias bomb" in found[("bomb.md", "front matter")]
    assert "malformed YAML" in found[("broken.md", "front matter")]
    assert "not a mapping" in found[("list.md", "front matter")]
    # the tag reads as nothing (the title falls back), and the author is told which and where
    assert found[("tag.md", "front matter")] == "YAML tag !!python/object/apply:os.system ignored"


def test_includes_that_escape_cycle_or_block_are_named(repo, tmp_path):
    docs = repo / "docs"
    outside = tmp_path / "secret.txt"
    outside.write_text("never read\n")
    os.symlink(outside, docs / "link.txt")
    os.mkfifo(docs / "pipe.txt")
    (docs / "a.md").write_text("# A\n\nINCLUDE(b.md)\n")
    (docs / "b.md").write_text("# B\n\nINCLUDE(a.md)\n")
    (docs / "escape.md").write_text(
        "# Escape\n\nINCLUDE(../../../../etc/passwd)\n\nINCLUDE(/etc/passwd)\n\nINCLUDE(link.txt)\n\n"
        "INCLUDE(pipe.txt)\n\nINCLUDE(https://example.com/x)\n"
    )
    report = build(repo, tmp_path)
    details = [u["detail"] for u in report["dialect"]["unresolved"] if u["path"] == "escape.md"]
    assert [d.split(":")[0] for d in details] == [
        "outside the repository", "an absolute path", "through a symbolic link out of the repository",
        "pipe.txt is a named pipe, not a regular file", "a URL, never fetched",
    ]
    lines = [u["line"] for u in report["dialect"]["unresolved"] if u["path"] == "escape.md"]
    assert lines == [3, 5, 7, 9, 11]
    texts = json.dumps(report)
    assert "never read" not in texts


def test_unread_documentation_formats_are_named_skips(repo, tmp_path):
    docs = repo / "docs"
    (docs / "page.md").write_text("# Page\n\ntext\n")
    (docs / "guide.adoc").write_text("= Guide\n")
    (docs / "notes.org").write_text("* Notes\n")
    report = build(repo, tmp_path)
    assert [s["path"] for s in report["manifest"]["skipped"]] == ["guide.adoc", "notes.org"]
    assert report["manifest"]["skipped"][0]["reason"].startswith("AsciiDoc (.adoc) is not read")


def test_a_corpus_without_documents_says_what_it_holds(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("a.png", "b.png", "c.py"):
        (docs / name).write_text("x")
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(tmp_path / "out")])
    assert result.exit_code == 3 and "(it holds 2 .png, 1 .py)" in result.output
    result = CliRunner().invoke(cli, ["ingest", str(docs), "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 3 and "no documents found" in result.output and "2 .png, 1 .py" in result.output


def test_a_config_bomb_is_a_named_problem_and_the_build_goes_on(repo, tmp_path):
    (repo / "mkdocs.yml").write_text(BOMB)
    (repo / "docs" / "page.md").write_text("# Page\n\ntext\n")
    report = build(repo, tmp_path)
    assert "alias bomb" in unresolved(report)[("page.md", "configuration")]
