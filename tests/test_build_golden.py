"""Dogfood (issue 4, item 10): conformance/corpus still builds to the committed golden files.

A failure here means a change altered the index text or the section ids of the fixture corpus.
If that is intended, run `contextpull build conformance/corpus --out /tmp/cp --golden golden
--update-golden` and commit golden/ with the change, so the drift is reviewed.
"""

from __future__ import annotations

from pathlib import Path

from artifact_helpers import assert_verified, quiet_build

ROOT = Path(__file__).resolve().parent.parent


def test_conformance_corpus_matches_the_golden_files(tmp_path):
    report, warnings = quiet_build(ROOT / "conformance" / "corpus", tmp_path / "out", golden=ROOT / "golden")
    assert report.golden.status == "match", report.golden.summary() + "\n" + report.golden.index_diff
    assert report.exit_code == 0
    assert warnings == []
    assert_verified(tmp_path / "out" / "store.sqlite")


def test_editing_a_heading_in_the_fixture_corpus_is_drift_against_golden(tmp_path):
    """Issue 4: editing a heading makes `build --golden golden/` exit 1 and name the shifted ids."""
    import shutil

    from click.testing import CliRunner

    from artifact_helpers import clean_env
    from contextpull.cli import cli

    before = {p.name: p.read_bytes() for p in (ROOT / "golden").iterdir()}
    docs = tmp_path / "corpus"
    shutil.copytree(ROOT / "conformance" / "corpus", docs)
    page = docs / "guides" / "getting-started.md"
    page.write_text(page.read_text(encoding="utf-8").replace("## First request", "## Your first request"), encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["build", str(docs), "--out", str(tmp_path / "out"), "--golden", str(ROOT / "golden")], env=clean_env()
    )
    assert result.exit_code == 1
    assert "golden drift" in result.stdout
    assert "guides/getting-started.md#2" in result.stdout
    assert {p.name: p.read_bytes() for p in (ROOT / "golden").iterdir()} == before  # left untouched
