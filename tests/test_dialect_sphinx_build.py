"""A small Sphinx project built end to end with ``contextpull build`` (issue 26): rst, MyST
Markdown and a notebook read under the ``sphinx`` dialect found from ``conf.py``; what the store
holds and what the construct report says are regression fixtures."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from contextpull.cli import cli
from griffe_needed import needs_griffe

SITE = Path(__file__).parent / "sphinx_site"


def build(tmp_path, *args):
    root = tmp_path / "repo"
    shutil.copytree(SITE, root)
    (root / ".git").mkdir()
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["build", str(root / "docs"), "--out", str(out), "--json", *args],
        env={"SOURCE_DATE_EPOCH": "0"},
    )
    return result, out


def sections(store: Path) -> str:
    con = sqlite3.connect(store)
    rows = con.execute(
        "SELECT d.path, d.title, d.kind, s.heading_path, s.kind, s.text FROM sections s"
        " JOIN documents d USING (doc_id) ORDER BY d.path, s.ordinal"
    ).fetchall()
    con.close()
    out = []
    for path, title, kind, heading, section_kind, text in rows:
        out.append(f"== {path} ({kind}) title={title!r} | {heading} [{section_kind}]\n{text}\n")
    return "\n".join(out)


@needs_griffe
def test_sphinx_site_builds_into_what_its_pages_show(tmp_path, file_regression, data_regression):
    result, out = build(tmp_path)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    file_regression.check(sections(out / "store.sqlite"), extension=".txt")
    data_regression.check({"dialect": report["dialect"], "skipped": report.get("skipped")})


def test_plain_reads_the_same_files_without_the_myst_meanings(tmp_path):
    result, out = build(tmp_path, "--dialect", "plain")
    assert result.exit_code == 0, result.output
    text = sections(out / "store.sqlite")
    assert ":::{tip}" in text  # MyST is not read under plain
    assert "Note: Sow after the last frost." in text  # rst is read through docutils anyway
