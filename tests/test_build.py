"""contextpull build: reproducible bytes, self-contained artifact, atomic publish, cache, bad input."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from artifact_helpers import assert_verified, clean_env, fixture_corpus, quiet_build, write_files
from contextpull.artifact import run as artifact_mod
from contextpull.artifact import build_file
from contextpull.artifact import cache as cache_mod
from contextpull.artifact import cache_copy
from contextpull.artifact import chunks as chunks_mod
from contextpull.artifact import outdir as outdir_mod
from contextpull.writing import writer as writer_mod
from contextpull.writing.fingerprint import file_sha256
from contextpull.cli import cli
from contextpull.errors import BuildError


def _sha(out):
    return file_sha256(out / "store.sqlite")


def _meta(store):
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return dict(conn.execute("SELECT key, value FROM meta"))
    finally:
        conn.close()


def _artifact_bytes(out):
    return {name: (out / name).read_bytes() for name in ("store.sqlite", "store.sqlite.sha256", "manifest.json")}


def test_two_copies_at_different_times_and_places_give_the_same_bytes(tmp_path, monkeypatch):
    first = fixture_corpus(tmp_path / "one" / "docs")
    second = fixture_corpus(tmp_path / "elsewhere" / "deeper" / "copy")
    for i, path in enumerate(sorted(second.rglob("*"))):
        os.utime(path, (1_000_000 + i, 1_000_000 + i))  # other mtimes
    monkeypatch.chdir(tmp_path / "one")
    r1, _ = quiet_build(first, tmp_path / "out1")
    monkeypatch.chdir(tmp_path / "elsewhere")
    r2, _ = quiet_build("deeper/copy", "out2")
    assert r1.manifest["store"]["sha256"] == r2.manifest["store"]["sha256"]
    assert _sha(tmp_path / "out1") == _sha(tmp_path / "elsewhere" / "out2")
    assert r1.manifest["fingerprints"] == r2.manifest["fingerprints"]
    meta = _meta(tmp_path / "out1" / "store.sqlite")
    assert meta["corpus_root"] == "."
    assert str(tmp_path) not in (tmp_path / "out1" / "store.sqlite").read_bytes().decode("latin-1")
    assert_verified(tmp_path / "out1" / "store.sqlite")
    assert_verified(tmp_path / "elsewhere" / "out2" / "store.sqlite")


def test_source_date_epoch_sets_every_time_and_the_manifest_build_time(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    unset, _ = quiet_build(docs, tmp_path / "a")
    dated, _ = quiet_build(docs, tmp_path / "b", environ=clean_env(SOURCE_DATE_EPOCH="1700000000"))
    assert unset.manifest["build_time"] is None
    assert dated.manifest["build_time"] == "2023-11-14T22:13:20Z"
    store = tmp_path / "b" / "store.sqlite"
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    times = {t for (t,) in conn.execute("SELECT DISTINCT ingested_at FROM documents")}
    conn.close()
    assert times == {"2023-11-14T22:13:20+00:00"}
    assert _meta(store)["ingested_at"] == "2023-11-14T22:13:20+00:00"
    assert unset.manifest["store"]["sha256"] != dated.manifest["store"]["sha256"]
    assert unset.manifest["fingerprints"]["content"] == dated.manifest["fingerprints"]["content"]
    assert_verified(store)


def test_bad_source_date_epoch_is_a_config_error(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    from contextpull.errors import ConfigError

    for bad in ("yesterday", "-5", "99999999999999"):
        with pytest.raises(ConfigError, match="SOURCE_DATE_EPOCH"):
            quiet_build(docs, tmp_path / "out", environ=clean_env(SOURCE_DATE_EPOCH=bad))


def test_artifact_is_self_contained(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    report, _ = quiet_build(docs, tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    header = store.read_bytes()[:100]
    assert header[18:20] == b"\x01\x01"  # rollback journal, not WAL
    assert int.from_bytes(header[16:18], "big") == writer_mod.PAGE_SIZE == artifact_mod.PAGE_SIZE
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    assert conn.execute("PRAGMA freelist_count").fetchone()[0] == 0
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
    sha_line = (tmp_path / "out" / "store.sqlite.sha256").read_text()
    assert sha_line == f"{report.manifest['store']['sha256']}  store.sqlite\n"
    assert report.manifest["store"]["bytes"] == store.stat().st_size
    # It opens with a read-only connection (no journal, no -shm needed) and serves.
    from contextpull import Ops, Store

    with Store.open(store) as opened:
        assert Ops(opened).index().startswith("ContextPull index")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]
    assert_verified(store)


@pytest.mark.parametrize("sidecars", [True, False], ids=["checksum-beside", "bare-file"])
@pytest.mark.parametrize("per_document", [True, False], ids=["chunk-per-document", "one-chunk"])
def test_incremental_build_after_editing_one_document_equals_a_fresh_build(tmp_path, sidecars, per_document, monkeypatch, cache_mode):
    if per_document:  # every document its own chunk, so the fixture shows chunks being copied
        monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 1)
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    cache = tmp_path / "out" / "store.sqlite"
    if not sidecars:  # a CI cache that kept only the store file: verified in full, its pages not copied
        cache = tmp_path / "cache.sqlite"
        shutil.copy(tmp_path / "out" / "store.sqlite", cache)
    (docs / "errors.md").write_text("# Error codes\n\nRewritten: codes and their meaning.\n\n## TX-45xx\n\nTX-4501 is a timeout.\n")
    loaded = []
    real_load = cache_mod.BuildCache.load
    monkeypatch.setattr(cache_mod.BuildCache, "load", lambda self, rec: loaded.append(rec.path) or real_load(self, rec))
    cached, warnings = quiet_build(docs, tmp_path / "out", cache=cache)
    fresh, _ = quiet_build(docs, tmp_path / "fresh")
    assert warnings == []
    assert cached.reuse == "documents"
    assert (cached.reused_documents, cached.parsed_documents) == (3, 1)
    unchanged = ["guide/config.md", "guide/install.md", "notes.txt"]
    patched = sidecars and cache_mode == "patch"
    assert cached.patched == patched
    if per_document and sidecars:  # the three unchanged chunks are copied, pages and all
        assert (cached.copied_chunks, cached.indexed_chunks) == (3, 1)
        assert [p for p in loaded if p in unchanged] == []
    elif patched:
        # One chunk, patched: errors.md (first in path order) went from 2 sections to 1, so
        # every document after it takes other rowids; their rows are moved with SQL, not loaded.
        assert cached.copied_chunks == 0 and cached.kept_documents == 3
        assert [p for p in loaded if p in unchanged] == []
    else:  # indexed again, from sections read out of the cache (nothing parsed)
        assert cached.copied_chunks == 0
        assert [p for p in loaded if p in unchanged] == unchanged
    assert _sha(tmp_path / "out") == _sha(tmp_path / "fresh")
    assert cached.manifest == fresh.manifest
    assert_verified(tmp_path / "out" / "store.sqlite")


def test_cache_with_nothing_changed_reuses_the_whole_file(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    first, _ = quiet_build(docs, tmp_path / "out")
    before = _artifact_bytes(tmp_path / "out")
    again, _ = quiet_build(docs, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    assert again.reuse == "whole" and again.parsed_documents == 0
    assert _artifact_bytes(tmp_path / "out") == before
    # A cache restored somewhere else (a CI cache folder) is copied, still byte-identical.
    shutil.copytree(tmp_path / "out", tmp_path / "restored")
    copied, _ = quiet_build(docs, tmp_path / "new", cache=tmp_path / "restored" / "store.sqlite")
    assert copied.reuse == "whole"
    assert _artifact_bytes(tmp_path / "new") == before
    assert_verified(tmp_path / "new" / "store.sqlite")


def test_a_cache_reused_whole_is_copied_and_checked_when_it_cannot_be_patched(tmp_path, monkeypatch):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    before = _artifact_bytes(tmp_path / "out")
    # No copy begun while the corpus is hashed: the whole reuse makes its own, checked the same way.
    monkeypatch.setattr(cache_mod.BuildCache, "patchable", lambda self: False)
    copied, warnings = quiet_build(docs, tmp_path / "new", cache=tmp_path / "out" / "store.sqlite")
    assert warnings == [] and copied.reuse == "whole"
    assert _artifact_bytes(tmp_path / "new") == before
    # A copy whose bytes are not the ones vouched for is never published: built without the cache.
    monkeypatch.setattr(cache_copy.CacheCopy, "digest", property(lambda self: "0" * 64))
    rebuilt, warnings = quiet_build(docs, tmp_path / "newer", cache=tmp_path / "out" / "store.sqlite")
    assert rebuilt.reuse == "none" and warnings == [
        f"ignoring cache {tmp_path / 'out' / 'store.sqlite'}: the sha256 of its copy 000000000000... does not match"
        " the checksum beside it (damaged, or changed while it was copied)"
    ]
    assert _artifact_bytes(tmp_path / "newer") == before


def test_cache_without_sidecars_is_verified_then_its_documents_used(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    bare = tmp_path / "bare.sqlite"
    shutil.copy(tmp_path / "out" / "store.sqlite", bare)
    report, warnings = quiet_build(docs, tmp_path / "out2", cache=bare)
    assert warnings == [] and report.reuse == "documents" and report.parsed_documents == 0
    assert _sha(tmp_path / "out2") == _sha(tmp_path / "out")


@pytest.mark.parametrize("edit", [
    "UPDATE sections_fts_content SET c2 = 'tampered text' WHERE rowid = (SELECT min(rowid) FROM sections_fts_content)",
    "DELETE FROM meta WHERE key = 'content_fingerprint'",
])
def test_a_cache_without_a_checksum_is_never_published_as_it_is(tmp_path, edit):
    """Its rows are checked, not its FTS text or every meta key: the file is written anew."""
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    bare = tmp_path / "bare.sqlite"
    shutil.copy(tmp_path / "out" / "store.sqlite", bare)
    with sqlite3.connect(bare) as conn:
        conn.execute(edit)
    report, _ = quiet_build(docs, tmp_path / "out2", cache=bare)
    assert report.reuse != "whole"
    assert _sha(tmp_path / "out2") == _sha(tmp_path / "out")
    assert_verified(tmp_path / "out2" / "store.sqlite")


def test_cache_built_with_other_settings_is_not_reused_and_bytes_match_fresh(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out", flags={"section_max_chars": 500})
    cached, warnings = quiet_build(docs, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    fresh, _ = quiet_build(docs, tmp_path / "fresh")
    assert cached.reuse == "none" and any("other settings" in w for w in warnings)
    assert _sha(tmp_path / "out") == _sha(tmp_path / "fresh")


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"this is not a database at all" * 50, "not a SQLite file"),
        (None, "not written by `contextpull build`"),
    ],
    ids=["corrupt", "foreign"],
)
def test_corrupt_or_foreign_cache_is_ignored_with_a_warning(tmp_path, content, expected):
    docs = fixture_corpus(tmp_path / "docs")
    cache = tmp_path / "cache.sqlite"
    if content is None:
        conn = sqlite3.connect(cache)
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("CREATE TABLE unrelated (x)")
        conn.commit()
        conn.close()
    else:
        cache.write_bytes(content)
    report, warnings = quiet_build(docs, tmp_path / "out", cache=cache)
    fresh, _ = quiet_build(docs, tmp_path / "fresh")
    assert report.reuse == "none"
    assert any(expected in w or "ignoring cache" in w for w in warnings), warnings
    assert _sha(tmp_path / "out") == _sha(tmp_path / "fresh")


def test_tampered_cache_with_a_checksum_beside_it_is_ignored(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    data = bytearray(store.read_bytes())
    data[-10] ^= 0xFF
    store.write_bytes(bytes(data))
    report, warnings = quiet_build(docs, tmp_path / "out", cache=store)
    assert report.reuse == "none"
    assert any("does not match the checksum" in w for w in warnings)
    assert_verified(store)


def test_a_cache_that_cannot_be_read_back_is_one_warning_line(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "old")
    store = tmp_path / "old" / "store.sqlite"
    data = bytearray(store.read_bytes())
    for at in range(len(data)):  # every copy of the text: sections, FTS content
        at = data.find(b"insufficient funds", at)
        if at < 0:
            break
        data[at] = 0xFF  # invalid UTF-8: SQLite's error message then quotes the text, newlines and all
    store.write_bytes(bytes(data))
    for sidecar in ("store.sqlite.sha256", "manifest.json"):  # so the cache is vetted by reading it
        (tmp_path / "old" / sidecar).unlink()
    result = _cli([str(docs), "--out", str(tmp_path / "out"), "--cache", str(store)], tmp_path)
    fresh, _ = quiet_build(docs, tmp_path / "fresh")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1 and warnings[0].startswith("warning: ") and "cache" in warnings[0]
    assert _sha(tmp_path / "out") == _sha(tmp_path / "fresh")


def test_failed_build_leaves_the_previous_artifact_and_no_temporary_files(tmp_path, monkeypatch):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    before = _artifact_bytes(tmp_path / "out")
    (docs / "notes.txt").write_text("Changed notes\n\nNew content.\n")
    calls = []
    real_insert = writer_mod.insert_document_row

    def failing_insert(conn, doc, **kwargs):
        calls.append(doc.path)
        if len(calls) == 3:
            raise RuntimeError("disk on fire")
        return real_insert(conn, doc, **kwargs)

    monkeypatch.setattr(writer_mod, "insert_document_row", failing_insert)
    with pytest.raises(RuntimeError, match="disk on fire"):
        quiet_build(docs, tmp_path / "out")
    assert _artifact_bytes(tmp_path / "out") == before
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]


def test_leftovers_of_a_killed_build_are_removed_by_the_next_build(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    out = tmp_path / "out"
    out.mkdir()
    (out / ".store.sqlite.999999999.build.tmp").write_bytes(b"half a store")
    (out / ".store.sqlite.999999999.build.tmp-journal").write_bytes(b"x")
    quiet_build(docs, out)
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]


def test_strict_fails_on_a_skipped_file_and_publishes_nothing(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    before = _artifact_bytes(tmp_path / "out")
    (docs / "broken.md").write_bytes(b"\x00\x01binary\x00")
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(tmp_path / "out"), "--strict"], env=clean_env())
    assert result.exit_code == 1
    assert "broken.md" in result.stderr and "--strict" in result.stderr
    assert _artifact_bytes(tmp_path / "out") == before
    # Without --strict the skip is reported in the manifest and the build succeeds.
    report, _ = quiet_build(docs, tmp_path / "out")
    assert report.manifest["skipped"][0]["path"] == "broken.md"
    assert report.manifest["counts"]["skipped"] == 1
    assert_verified(tmp_path / "out" / "store.sqlite")


def test_json_report_has_the_agreed_shape_and_nothing_else_on_stdout(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(tmp_path / "out"), "--json"], env=clean_env())
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {"exit_code", "paths", "manifest", "golden", "timings"} <= set(report)
    assert set(report["paths"]) == {"store", "manifest", "sha256"}
    assert report["golden"]["status"] == "none"
    assert report["manifest"] == json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert report["timings"]["total_s"] >= 0


def test_human_summary(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(tmp_path / "out")], env=clean_env())
    assert result.exit_code == 0
    assert "4 documents" in result.stdout and "sha256" in result.stdout


def _cli(args, tmp_path):
    return CliRunner().invoke(cli, ["build", *args], env=clean_env())


def test_docs_missing_empty_or_a_file(tmp_path):
    missing = _cli([str(tmp_path / "nope"), "--out", str(tmp_path / "out")], tmp_path)
    assert missing.exit_code == 3 and "does not exist" in missing.stderr
    assert ".md .markdown .txt" in missing.stderr  # supplement, failure modes: names the extensions
    (tmp_path / "empty").mkdir()
    empty = _cli([str(tmp_path / "empty"), "--out", str(tmp_path / "out")], tmp_path)
    assert empty.exit_code == 3 and "no usable documents" in empty.stderr
    (tmp_path / "file.md").write_text("# A file\n")
    a_file = _cli([str(tmp_path / "file.md"), "--out", str(tmp_path / "out")], tmp_path)
    assert a_file.exit_code == 3 and "is a file, not a folder" in a_file.stderr
    assert not (tmp_path / "out" / "store.sqlite").exists()


def test_out_inside_docs_is_left_out_of_the_corpus_and_said(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    write_files(docs / "site-out", {"stale.md": "# Stale\n\nA leftover page that must not be indexed.\n"})
    report, warnings = quiet_build(docs, docs / "site-out")
    assert any("inside DOCS" in w for w in warnings)
    assert report.manifest["counts"]["documents"] == 4
    again, _ = quiet_build(docs, docs / "site-out")  # the artifact itself is not picked up either
    assert again.manifest["store"]["sha256"] == report.manifest["store"]["sha256"]
    same = _cli([str(docs), "--out", str(docs)], tmp_path)
    assert same.exit_code == 3 and "DOCS folder itself" in same.stderr
    assert_verified(docs / "site-out" / "store.sqlite")


def test_unwritable_out(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    (tmp_path / "plain-file").write_text("x")
    result = _cli([str(docs), "--out", str(tmp_path / "plain-file" / "out")], tmp_path)
    assert result.exit_code == 3 and "cannot write to --out" in result.stderr
    if os.geteuid() != 0:  # root ignores directory permissions
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        try:
            result = _cli([str(docs), "--out", str(locked)], tmp_path)
            assert result.exit_code == 3 and "cannot write to --out" in result.stderr
        finally:
            locked.chmod(0o755)


def test_golden_folder_missing_names_the_fix(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    result = _cli([str(docs), "--out", str(tmp_path / "out"), "--golden", str(tmp_path / "nogolden")], tmp_path)
    assert result.exit_code == 3
    assert "does not exist" in result.stderr and "--update-golden" in result.stderr


def test_update_golden_needs_golden(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    result = _cli([str(docs), "--out", str(tmp_path / "out"), "--update-golden"], tmp_path)
    assert result.exit_code == 2 and "--golden" in result.stderr


def test_settings_flags_change_the_build_and_land_in_the_manifest(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    result = CliRunner().invoke(
        cli, ["build", str(docs), "--out", str(tmp_path / "out"), "--index-budget-tokens", "200", "--json"], env=clean_env()
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.stdout)["manifest"]
    assert manifest["settings"]["index_budget_tokens"] == 200
    assert manifest["index"]["budget"] == 200


def test_temporary_files_live_in_the_out_folder(tmp_path, monkeypatch):
    """The temporary store is created beside its target, so the rename never crosses filesystems."""
    docs = fixture_corpus(tmp_path / "docs")
    seen = []
    real_create = writer_mod.create_store

    def spy(path):
        seen.append(path)
        return real_create(path)

    monkeypatch.setattr(writer_mod, "create_store", spy)
    quiet_build(docs, tmp_path / "out")
    assert seen and all(p.parent == tmp_path / "out" and p.name.startswith(outdir_mod.TMP_PREFIX) for p in seen)


def test_cache_built_at_another_source_date_epoch_is_not_reused_whole(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out", environ=clean_env(SOURCE_DATE_EPOCH="1"))
    later = clean_env(SOURCE_DATE_EPOCH="2")
    cached, _ = quiet_build(docs, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite", environ=later)
    fresh, _ = quiet_build(docs, tmp_path / "fresh", environ=later)
    assert cached.reuse == "documents"
    assert _sha(tmp_path / "out") == _sha(tmp_path / "fresh")


def test_a_cache_reused_whole_that_is_not_shaped_as_built_is_dropped_not_fatal(tmp_path, monkeypatch):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    real_check = build_file.check_shape
    calls = []

    def misshapen_first(path):
        calls.append(path)
        if len(calls) == 1:
            raise BuildError("the built store is not in rollback-journal mode (header 0202)")
        return real_check(path)

    monkeypatch.setattr(build_file, "check_shape", misshapen_first)
    report, warnings = quiet_build(docs, tmp_path / "out2", cache=tmp_path / "out" / "store.sqlite")
    assert report.reuse == "none" and len(calls) == 2
    assert warnings == [f"ignoring cache {tmp_path / 'out' / 'store.sqlite'}: the built store is not in rollback-journal mode (header 0202)"]
    assert _sha(tmp_path / "out2") == _sha(tmp_path / "out")


def test_a_manifest_of_the_wrong_shape_beside_a_cache_is_a_warning(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    (tmp_path / "out" / "store.sqlite.sha256").unlink()
    manifest = tmp_path / "out" / "manifest.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "store": "store.sqlite"}))
    report, warnings = quiet_build(docs, tmp_path / "out2", cache=tmp_path / "out" / "store.sqlite")
    assert report.reuse == "none"
    assert warnings == [f"ignoring cache {tmp_path / 'out' / 'store.sqlite'}: manifest {manifest}: store is not a JSON object"]
    result = CliRunner().invoke(cli, ["verify", str(tmp_path / "out" / "store.sqlite")])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: manifest {manifest}: store is not a JSON object"


def test_a_failed_first_build_leaves_no_empty_out_folder(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "picture.png").write_bytes(b"\x89PNG")
    (docs / "empty.md").write_text("")
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(tmp_path / "out")], env=clean_env())
    assert result.exit_code == 3 and "no usable documents" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_cache_whose_checksum_is_wrong_is_said_so(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "out")
    (tmp_path / "out" / "store.sqlite.sha256").write_text("0" * 64 + "  store.sqlite\n")
    (docs / "notes.txt").write_text("Changed notes\n\nNew text.\n")
    report, warnings = quiet_build(docs, tmp_path / "out2", cache=tmp_path / "out" / "store.sqlite")
    assert report.reuse == "none" and len(warnings) == 1
    # said by whichever check ends first: the hash of the cache or the hash of its copy
    assert warnings[0].startswith(f"ignoring cache {tmp_path / 'out' / 'store.sqlite'}: ")
    assert "does not match the checksum beside it" in warnings[0]


def test_strict_failure_in_json_lists_every_skipped_file(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    for n in range(7):
        (docs / f"broken{n}.md").write_bytes(b"\x00\x01binary\x00")
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(tmp_path / "out"), "--strict", "--json"], env=clean_env())
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["published"] is False and report["exit_code"] == 1
    assert [item["path"] for item in report["skipped"]] == [f"broken{n}.md" for n in range(7)]
    assert report["error"].startswith("--strict: 7 file(s) skipped: broken0.md (")
