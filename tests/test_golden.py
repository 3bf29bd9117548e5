"""Golden checks: index.txt and ids.txt, drift as exit 1 with the ids named, --update-golden."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from artifact_helpers import assert_verified, clean_env, fixture_corpus, quiet_build
from contextpull.checks.golden import parse_ids
from contextpull.cli import cli


def _build(docs, out, golden, *extra):
    return CliRunner().invoke(
        cli, ["build", str(docs), "--out", str(out), "--golden", str(golden), *extra], env=clean_env()
    )


def test_update_then_match(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    updated = _build(docs, tmp_path / "out", golden, "--update-golden", "--json")
    assert updated.exit_code == 0, updated.output
    assert json.loads(updated.stdout)["golden"]["status"] == "updated"
    matched = _build(docs, tmp_path / "out", golden, "--json")
    assert matched.exit_code == 0
    assert json.loads(matched.stdout)["golden"]["status"] == "match"
    assert_verified(tmp_path / "out" / "store.sqlite")


def test_golden_files_are_reviewable_text(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    raw = (golden / "ids.txt").read_bytes()
    assert raw.endswith(b"\n") and b"\r" not in raw
    lines = raw.decode().splitlines()
    assert lines == sorted(lines)
    conn = sqlite3.connect(f"file:{tmp_path / 'out' / 'store.sqlite'}?mode=ro", uri=True)
    rows = dict(conn.execute("SELECT id, hash FROM sections"))
    index = conn.execute("SELECT value FROM meta WHERE key = 'index_text'").fetchone()[0]
    conn.close()
    assert parse_ids(raw.decode()) == rows
    assert all(line.count("\t") == 1 for line in lines)
    assert (golden / "index.txt").read_text().rstrip("\n") == index.rstrip("\n")


def test_editing_a_heading_is_drift_naming_the_changed_ids(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    golden_before = {p.name: p.read_bytes() for p in golden.iterdir()}
    text = (docs / "guide" / "install.md").read_text()
    (docs / "guide" / "install.md").write_text(text.replace("## On Linux", "## On GNU/Linux"))
    result = _build(docs, tmp_path / "out", golden, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["exit_code"] == 1
    g = report["golden"]
    assert g["status"] == "drift"
    assert g["ids_changed"] and all(i.startswith("guide/install.md#") for i in g["ids_changed"])
    assert g["ids_added"] == [] and g["ids_removed"] == []
    # The artifact is still published for review, and the golden files are left alone.
    assert report["published"] is True
    assert {p.name: p.read_bytes() for p in golden.iterdir()} == golden_before
    human = _build(docs, tmp_path / "out", golden)
    assert human.exit_code == 1
    assert "golden drift" in human.stdout
    for sid in g["ids_changed"]:
        assert sid in human.stdout
    assert_verified(tmp_path / "out" / "store.sqlite")


def test_a_new_heading_shifts_ids_and_shows_an_index_diff(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    (docs / "errors.md").write_text(
        "# Error codes\n\nCodes returned by the gateway, with what to do about each.\n\n"
        "## TX-43xx\n\nTX-4301 means the card expired; ask for another card.\n\n"
        "## TX-44xx\n\nTX-4401 means insufficient funds; TX-4419 means the issuer declined.\n"
    )
    (docs / "added.md").write_text("# Added page\n\nA page that did not exist when the golden files were written.\n")
    report, _ = quiet_build(docs, tmp_path / "out", golden=golden)
    assert report.exit_code == 1
    g = report.golden
    assert any(i.startswith("added.md#") for i in g.ids_added)
    assert any(i.startswith("errors.md#") for i in g.ids_added + g.ids_changed)
    assert g.index_diff.startswith("---") and "+" in g.index_diff
    assert "added.md" in g.index_diff
    assert "id(s) added" in g.summary()


def test_a_removed_document_lists_removed_ids(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    (docs / "notes.txt").unlink()
    report, _ = quiet_build(docs, tmp_path / "out", golden=golden)
    assert report.golden.status == "drift"
    assert report.golden.ids_removed and all(i.startswith("notes.txt#") for i in report.golden.ids_removed)


def test_missing_golden_file_is_an_error_naming_the_fix(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    (golden / "ids.txt").unlink()
    result = _build(docs, tmp_path / "out", golden)
    assert result.exit_code == 3
    assert "ids.txt" in result.stderr and "--update-golden" in result.stderr


def test_a_golden_path_that_is_missing_or_a_file_is_named_and_keeps_the_artifact(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    out = tmp_path / "out"
    quiet_build(docs, out)
    before = (out / "store.sqlite").read_bytes()
    (docs / "guides.md").write_text("# Guides\n\nChanged after the first build.\n", encoding="utf-8")
    a_file = tmp_path / "golden.txt"
    a_file.write_text("not a folder\n", encoding="utf-8")
    for golden, words in ((tmp_path / "nowhere", "does not exist"), (a_file, "is not a folder")):
        result = _build(docs, out, golden)
        assert result.exit_code == 3
        assert result.stderr.count("\n") == 1
        assert str(golden) in result.stderr and words in result.stderr
        assert (out / "store.sqlite").read_bytes() == before


def test_update_golden_rewrites_after_drift(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    (docs / "notes.txt").write_text("Release notes\n\nVersion 3 is out.\n")
    assert quiet_build(docs, tmp_path / "out", golden=golden)[0].exit_code == 1
    assert quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)[0].golden.status == "updated"
    assert quiet_build(docs, tmp_path / "out", golden=golden)[0].golden.status == "match"


def test_a_failed_update_keeps_both_old_files_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    before = {p.name: p.read_bytes() for p in golden.iterdir()}
    (docs / "errors.md").write_text("# Error codes\n\nAll of them retired.\n")
    real_open = open

    def full_disk(file, *args, **kwargs):
        if str(file).endswith("ids.txt.tmp"):
            raise OSError(28, "No space left on device")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", full_disk)
    result = _build(docs, tmp_path / "out", golden, "--update-golden")
    monkeypatch.undo()
    assert result.exit_code == 3
    assert "cannot write golden files" in result.stderr and "No space left" in result.stderr
    assert {p.name: p.read_bytes() for p in golden.iterdir()} == before


def test_a_golden_file_that_is_not_utf8_is_bad_input_not_drift(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    golden = tmp_path / "golden"
    quiet_build(docs, tmp_path / "out", golden=golden, update_golden=True)
    with open(golden / "index.txt", "ab") as handle:
        handle.write(b"caf\xe9\n")
    result = _build(docs, tmp_path / "out2", golden)
    assert result.exit_code == 3
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith(f"Error: cannot read golden file {golden / 'index.txt'}: 'utf-8' codec can't decode byte 0xe9")
    assert line.endswith("(golden files are UTF-8 text; rewrite them with --update-golden)")
