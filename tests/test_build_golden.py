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
