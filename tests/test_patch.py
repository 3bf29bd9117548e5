"""Cache-assisted builds that patch a copy of the cache (contextpull/artifact/patch.py): whatever the
edit, the artifact is byte-identical to a fresh build, and only what changed is written again."""

from __future__ import annotations

import sqlite3

import pytest

from artifact_helpers import assert_verified, quiet_build, write_files
from contextpull.artifact import cache_copy
from contextpull.artifact import chunks as chunks_mod
from contextpull.indexing import segments
from contextpull.writing.fingerprint import file_sha256


def _doc(i: int, sections: int, tag: str = "") -> str:
    body = "".join(
        f"## Topic {j}\n\nDoc {i} topic {j} explains KZ-{i:02d}-{j} and the cache flag{tag}. " * 2 + "\n\n"
        for j in range(sections)
    )
    return f"# Doc {i}\n\nAbout doc {i}{tag}: run the tool with care.\n\n{body}"


def _corpus(n: int = 24) -> dict[str, str]:
    return {f"d{i % 4}/doc{i:02d}.md": _doc(i, 2 + i % 3) for i in range(n)}


def _built(tmp_path):
    """The test corpus written to tmp_path/docs and built into tmp_path/out: (files, docs, out,
    the build's report)."""
    files = _corpus()
    docs = write_files(tmp_path / "docs", files)
    out = tmp_path / "out"
    report, _ = quiet_build(docs, out)
    return files, docs, out, report


def _same_bytes(tmp_path, files, cached_out, name):
    fresh = tmp_path / f"fresh-{name}"
    docs = write_files(tmp_path / f"docs-{name}", files)
    quiet_build(docs, fresh)
    assert file_sha256(cached_out / "store.sqlite") == file_sha256(fresh / "store.sqlite"), name
    assert_verified(cached_out / "store.sqlite")  # and so the fresh one, byte for byte


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 2000)  # a handful of documents per chunk


@pytest.mark.parametrize("layout", ["small-chunks", "one-chunk"])
def test_every_kind_of_edit_patches_to_the_bytes_of_a_fresh_build(tmp_path, monkeypatch, layout, cache_mode):
    if layout == "small-chunks":
        monkeypatch.setattr(chunks_mod, "CHUNK_BYTES", 2000)
    files, docs, out, _ = _built(tmp_path)
    edits = [
        ("same-shape", lambda f: f.__setitem__("d1/doc05.md", _doc(5, 2 + 5 % 3, tag=" (edited)"))),
        ("more-sections", lambda f: f.__setitem__("d2/doc02.md", _doc(2, 6))),
        ("fewer-sections", lambda f: f.__setitem__("d0/doc12.md", _doc(12, 1))),
        ("added-first", lambda f: f.__setitem__("a/first.md", _doc(99, 2))),
        ("removed-early", lambda f: f.pop("d0/doc00.md")),
        ("added-and-removed", lambda f: (f.pop("d3/doc07.md"), f.__setitem__("d3/doc07b.md", _doc(7, 4)))),
        ("removed-last", lambda f: f.pop(max(f))),
        ("many", lambda f: [f.__setitem__(p, _doc(i, 1 + i % 4, tag=" v2")) for i, p in enumerate(sorted(f)) if i % 5 == 0]),
    ]
    for name, edit in edits:
        edit(files)
        for path in list(docs.rglob("*.md")):
            path.unlink()
        write_files(docs, files)
        report, warnings = quiet_build(docs, out, cache=out / "store.sqlite")
        assert warnings == [], name
        assert report.reuse == "documents", name
        _same_bytes(tmp_path, files, out, name)
    conn = sqlite3.connect(out / "store.sqlite")
    assert conn.execute("SELECT count(*) FROM sections WHERE doc_id < 0").fetchone()[0] == 0
    for table in ("sections_fts", "documents_trigram"):  # the cache's totals, less and plus the edits
        assert segments.averages(conn, table) == segments.docsize_totals(conn, table, -(1 << 63), (1 << 63) - 1)
    conn.close()
    assert_verified(out / "store.sqlite")


def test_an_edit_that_keeps_the_section_count_rewrites_only_that_document(tmp_path):
    files, docs, out, _ = _built(tmp_path)
    files["d1/doc01.md"] = _doc(1, 2 + 1 % 3, tag=" (edited)")  # same sections, other words
    write_files(docs, files)
    report, _ = quiet_build(docs, out, cache=out / "store.sqlite")
    assert report.patched and report.parsed_documents == 1
    # one chunk: every other document stays in the copied file, in place
    assert report.kept_documents == len(files) - 1
    _same_bytes(tmp_path, files, out, "one")


def test_a_chunk_that_moved_is_copied_instead_of_patched(tmp_path, small_chunks):
    files, docs, out, first = _built(tmp_path)
    assert first.indexed_chunks >= 3
    # A new document early in path order that starts a chunk splits the chunk it lands in and
    # shifts every later chunk's position: their segments would need renumbering, so the
    # build copies them instead.
    for n in range(200):
        path = f"d0/doc01-{n}.md"  # after d0/doc00.md, before d0/doc04.md
        if chunks_mod._starts(path, len(_doc(98, 1).encode())):
            break
    files[path] = _doc(98, 1)
    write_files(docs, files)
    report, warnings = quiet_build(docs, out, cache=out / "store.sqlite")
    assert warnings == []
    assert not report.patched and report.copied_chunks >= first.indexed_chunks - 1
    _same_bytes(tmp_path, files, out, "moved")
    assert_verified(out / "store.sqlite")


def test_changed_documents_wait_in_memory_while_the_cache_is_copied(tmp_path, monkeypatch):
    from contextpull.artifact import build_job

    files, docs, out, _ = _built(tmp_path)
    for i, path in enumerate(sorted(files)[::3]):  # eight changed documents, spread out
        files[path] = _doc(i, 1 + i % 3, tag=" v3")
    write_files(docs, files)
    # A copy that reports itself unfinished: changed documents are held, two at most, then
    # the build waits for the copy and writes them in order.
    monkeypatch.setattr(cache_copy.CacheCopy, "done", lambda self: False)
    monkeypatch.setattr(build_job.BuildJob, "_HOLD_PARSED", 2)
    report, warnings = quiet_build(docs, out, cache=out / "store.sqlite")
    assert warnings == [] and report.patched and report.parsed_documents == 8
    _same_bytes(tmp_path, files, out, "held")


def test_a_cache_that_fails_its_checksum_after_the_copy_began_leaves_nothing_behind(tmp_path):
    files, docs, out, _ = _built(tmp_path)
    store = out / "store.sqlite"
    data = bytearray(store.read_bytes())
    data[-100] ^= 0xFF  # the checksum beside it no longer matches: found while the build runs
    store.write_bytes(bytes(data))
    files["d1/doc01.md"] = _doc(1, 3, tag=" changed")
    write_files(docs, files)
    report, warnings = quiet_build(docs, out, cache=store)
    assert report.reuse == "none" and not report.patched
    assert any("does not match the checksum" in w for w in warnings)
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]
    _same_bytes(tmp_path, files, out, "tampered")
    assert_verified(store)


@pytest.mark.parametrize("edit", [True, False], ids=["patched", "whole-reuse"])
def test_a_copy_that_does_not_match_the_checksum_is_not_used(tmp_path, monkeypatch, edit):

    files, docs, out, _ = _built(tmp_path)
    if edit:
        files["d2/doc06.md"] = _doc(6, 4, tag=" (edited)")
        write_files(docs, files)
    # what the copy's hash says when the cache changed between its checksum and the copy
    monkeypatch.setattr(cache_copy.CacheCopy, "digest", property(lambda self: "0" * 64))
    target = tmp_path / "elsewhere"  # not the cache's own folder, so the cache is copied
    report, warnings = quiet_build(docs, target, cache=out / "store.sqlite")
    assert report.reuse == "none" and not report.patched
    # the copy's hash is the cache's checksum when the copy began first (no second read)
    assert any("does not match" in w for w in warnings), warnings
    _same_bytes(tmp_path, files, target, "mismatch")


def test_the_checksum_comes_from_the_copy_or_from_the_file_when_the_copy_was_cut_short(tmp_path):
    from contextpull.artifact.cache import CacheRejected, open_cache
    from contextpull.config import resolve_settings

    files, docs, out, _ = _built(tmp_path)
    store = out / "store.sqlite"
    settings = resolve_settings(docs, {}, {})

    def opened():
        cache = open_cache(store, settings, lambda message: None, defer_digest=True)
        assert cache is not None
        return cache

    cache = opened()
    copy = cache_copy.CacheCopy(store, tmp_path / "copy.sqlite")
    cache.begin_digest(copy)
    copy.wait()
    assert copy.complete and copy.digest == file_sha256(store)
    cache.confirm()  # the copy's hash, which matches

    cache = opened()
    copy = cache_copy.CacheCopy(store, tmp_path / "cut.sqlite")
    copy.wait()
    copy.complete = False  # as if cancelled part way: its hash covers part of the file
    copy._digest.update(b"only part of it")
    cache.begin_digest(copy)
    cache.copy_dropped(copy)
    cache.confirm()  # the file itself is hashed instead

    cache = opened()
    copy = cache_copy.CacheCopy(store, tmp_path / "copy2.sqlite")
    copy.wait()
    copy._digest.update(b"a byte that was not in the cache")
    cache.begin_digest(copy)
    with pytest.raises(CacheRejected):
        cache.confirm()
