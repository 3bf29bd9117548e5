"""A build or ingest that ends with no usable documents names each file it skipped and why, the
first NAMED_SKIPS of them, then how many more (issue 34): the user fixes them in one go."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from artifact_helpers import clean_env
from contextpull.cli import cli
from contextpull.writing.records import NAMED_SKIPS, name_skips


def _run(*args):
    return CliRunner().invoke(cli, list(args), env=clean_env())


@pytest.mark.parametrize("command", ["build", "ingest"])
def test_a_page_with_a_long_line_is_named_with_its_reason(tmp_path, command):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text("project = 'x'\n")
    (docs / "page.rst").write_text("Title\n=====\n\n" + "x" * 20_000 + "\n")
    target = ["--out", str(tmp_path / "out")] if command == "build" else ["--store", str(tmp_path / "s.sqlite")]
    result = _run(command, str(docs), *target)
    assert result.exit_code == 3, result.output
    assert "no usable documents" in result.stderr
    assert "page.rst: line 4 is longer than 10,000 characters" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_many_skipped_files_are_named_as_far_as_one_line_holds_and_all_in_json(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(NAMED_SKIPS + 5):
        (docs / f"empty{i:02d}.md").write_text("")
    result = _run("build", str(docs), "--out", str(tmp_path / "out"))
    assert result.exit_code == 3, result.output
    line = result.stderr.strip()
    assert "…" not in line and len(line.splitlines()) == 1
    named = [i for i in range(NAMED_SKIPS + 5) if f"empty{i:02d}.md: empty file" in line]
    assert named == list(range(len(named))) and len(named) >= 5
    assert f"; and {NAMED_SKIPS + 5 - len(named)} more" in line and f"{NAMED_SKIPS + 5} file(s) skipped" in line
    report = _run("build", str(docs), "--out", str(tmp_path / "out"), "--json")
    skipped = json.loads(report.stdout or report.stderr)["skipped"]
    assert skipped == [{"path": f"empty{i:02d}.md", "reason": "empty file"} for i in range(NAMED_SKIPS + 5)]


def test_name_skips_names_each_entry_then_counts_the_rest():
    entries = [(f"f{i}", f"why {i}") for i in range(4)]
    assert name_skips(entries, limit=2) == "f0: why 0; f1: why 1; and 2 more"
    assert name_skips(entries[:2], limit=2) == "f0: why 0; f1: why 1"
    assert name_skips(entries, width=12) == "f0: why 0; and 3 more"  # the first always, then what fits
    assert name_skips([], limit=2) == ""
