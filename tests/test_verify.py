"""verify catches a flipped byte, a deleted section row, a manifest of another store, and more."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from artifact_helpers import assert_verified, clean_env, fixture_corpus, quiet_build
from contextpull.writing.fingerprint import file_sha256
from contextpull.checks.verify import verify_store
from contextpull.cli import cli
from contextpull.errors import CheckFailed, StoreError


@pytest.fixture
def built(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    return tmp_path / "out"


def _verify(*args):
    return CliRunner().invoke(cli, ["verify", *map(str, args)], env=clean_env())


def _edit(store, sql, *params):
    conn = sqlite3.connect(store)
    conn.execute(sql, params)
    conn.commit()
    conn.close()


def _bare_copy(out, tmp_path, name="bare.sqlite"):
    """The store alone, without the checksum and manifest beside it."""
    target = tmp_path / "bare" / name
    target.parent.mkdir(exist_ok=True)
    shutil.copy(out / "store.sqlite", target)
    return target


def test_a_fresh_artifact_passes_every_check(built):
    result = _verify(built / "store.sqlite", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True
    for check in ("sha256", "manifest file", "integrity_check", "ordinals", "links", "section hashes", "manifest contents"):
        assert check in report["checks"]
    assert report["documents"] == 4


def test_flipped_byte_is_caught_by_the_checksum(built):
    store = built / "store.sqlite"
    data = bytearray(store.read_bytes())
    data[len(data) // 2] ^= 0x01
    store.write_bytes(bytes(data))
    result = _verify(store)
    assert result.exit_code == 1
    assert "checksum mismatch" in result.stderr


def test_flipped_byte_in_section_text_is_caught_without_any_sidecar(built, tmp_path):
    bare = _bare_copy(built, tmp_path)
    data = bytearray(bare.read_bytes())
    at = data.find(b"insufficient funds")
    assert at > 0
    data[at] ^= 0x20  # 'i' -> 'I': same length, still valid UTF-8
    bare.write_bytes(bytes(data))
    with pytest.raises(CheckFailed, match="hash does not match|integrity_check"):
        verify_store(bare)


def test_a_byte_that_breaks_utf8_in_section_text_is_a_failed_check_not_a_crash(built, tmp_path):
    bare = _bare_copy(built, tmp_path)
    data = bytearray(bare.read_bytes())
    at = data.find(b"insufficient funds")
    assert at > 0
    data[at] = 0xFF  # never valid in UTF-8: reading the value back fails, integrity_check does not
    bare.write_bytes(bytes(data))
    result = _verify(bare)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert str(bare) in result.stderr and "damaged" in result.stderr


def test_expected_sha256_option(built, tmp_path):
    bare = _bare_copy(built, tmp_path)
    good = (built / "store.sqlite.sha256").read_text().split()[0]
    assert _verify(bare, "--sha256", good).exit_code == 0
    bad = _verify(bare, "--sha256", "0" * 64)
    assert bad.exit_code == 1 and "checksum mismatch" in bad.stderr


def test_deleted_section_row_is_caught(built, tmp_path):
    bare = _bare_copy(built, tmp_path)
    _edit(bare, "DELETE FROM sections WHERE id = 'guide/install.md#1'")
    with pytest.raises(CheckFailed, match="guide/install.md: n_sections"):
        verify_store(bare)


def test_manifest_of_another_store_is_caught(built, tmp_path):
    other_docs = fixture_corpus(tmp_path / "other")
    (other_docs / "notes.txt").unlink()
    quiet_build(other_docs, tmp_path / "other-out")
    result = _verify(built / "store.sqlite", "--manifest", tmp_path / "other-out" / "manifest.json")
    assert result.exit_code == 1
    assert "manifest" in result.stderr and "another store" in result.stderr


def test_manifest_with_wrong_fingerprint_is_caught(built, tmp_path):
    manifest = json.loads((built / "manifest.json").read_text())
    manifest["fingerprints"]["content"] = "0" * 64
    path = tmp_path / "m.json"
    path.write_text(json.dumps(manifest))
    with pytest.raises(CheckFailed, match="content fingerprint"):
        verify_store(built / "store.sqlite", manifest=path)


@pytest.mark.parametrize(
    "sql, message",
    [
        ("UPDATE sections SET next_id = NULL WHERE id = 'errors.md#0'", "next_id"),
        ("UPDATE sections SET ordinal = 7 WHERE id = 'errors.md#1'", "ordinals are not contiguous"),
        ("UPDATE documents SET n_sections = n_sections + 1 WHERE path = 'notes.txt'", "n_sections"),
        ("UPDATE sections SET hash = 'x' WHERE id = 'errors.md#0'", "hash does not match"),
        ("UPDATE sections SET char_len = 1 WHERE id = 'errors.md#0'", "char_len"),
        ("UPDATE meta SET value = 'different' WHERE key = 'index_text'", "content fingerprint"),
        ("UPDATE meta SET value = 'zzz' WHERE key = 'index_mode'", "index_mode"),
        ("UPDATE documents SET sha256 = 'x' WHERE path = 'notes.txt'", "fingerprint"),
        ("DELETE FROM sections_fts WHERE rowid = (SELECT min(rowid) FROM sections)", "sections_fts has"),
        ("UPDATE sections_fts SET text = 'other words' WHERE rowid = (SELECT min(rowid) FROM sections)", "normalised text"),
    ],
)
def test_structural_damage_is_named(built, tmp_path, sql, message):
    bare = _bare_copy(built, tmp_path)
    _edit(bare, sql)
    with pytest.raises(CheckFailed, match=message):
        verify_store(bare)


def test_unusable_files_exit_3(tmp_path):
    assert _verify(tmp_path / "missing.sqlite").exit_code == 3
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite" * 100)
    result = _verify(junk)
    assert result.exit_code == 3 and "not a SQLite file" in result.stderr
    foreign = tmp_path / "foreign.sqlite"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    result = _verify(foreign)
    assert result.exit_code == 3 and "not a ContextPull store" in result.stderr


def test_newer_major_version_is_refused(built, tmp_path):
    bare = _bare_copy(built, tmp_path)
    _edit(bare, "UPDATE meta SET value = '2.0' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="2.0"):
        verify_store(bare)


def test_an_artifact_in_wal_mode_or_with_a_journal_beside_it_fails(built, tmp_path):
    bare = _bare_copy(built, tmp_path)
    conn = sqlite3.connect(bare)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    with pytest.raises(CheckFailed, match="WAL"):
        verify_store(bare, sha256=file_sha256(bare))  # an expected checksum marks it as an artifact
    (built / "store.sqlite-journal").write_bytes(b"hot journal")
    with pytest.raises(CheckFailed, match="-journal exists"):
        verify_store(built / "store.sqlite")


def test_verify_opens_read_only_and_changes_nothing(built):
    store = built / "store.sqlite"
    before = store.read_bytes()
    assert_verified(store)
    assert store.read_bytes() == before
    assert sorted(p.name for p in built.iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]


def test_verify_is_importable_without_click():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['click'] = None\n"
        "import contextpull.checks.verify as v; print(v.verify_store.__name__)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "verify_store"


def test_json_failure_names_the_check(built):
    store = built / "store.sqlite"
    data = bytearray(store.read_bytes())
    data[-100] ^= 0x01
    store.write_bytes(bytes(data))
    result = _verify(store, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False and "checksum mismatch" in report["error"]


def test_fts_rows_that_keep_punctuation_only_tokens_still_verify(built, tmp_path):
    """Another writer may leave `--` list markers in the FTS text; no query can match them."""
    bare = _bare_copy(built, tmp_path)
    conn = sqlite3.connect(bare)
    rowid, body = conn.execute("SELECT rowid, text FROM sections_fts ORDER BY rowid LIMIT 1").fetchone()
    conn.execute("UPDATE sections_fts SET text = ? WHERE rowid = ?", ("-- " + body + " ..", rowid))
    conn.commit()
    conn.close()
    report = verify_store(bare)
    assert "fts text" in report.checks
