"""Ingest end to end: the written store, bad input, the command (issue 2; system-design
sections 1-3 and 12; store-format.txt "Identifiers" and "Tokenisation")."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3

import pytest
from ingest_helpers import CACHE_DOC, db, fts_ids, run, section_text

import contextpull.ingest.engine as ingest_mod
import contextpull.writing.writer as writer_mod
from contextpull.writing.records import Skipped
from contextpull.cli import cli
from contextpull.errors import CheckFailed, InputError, StoreError
from contextpull.text import normalize_for_fts


def test_store_shape_ids_links_hashes_and_fts(make_corpus, tmp_path):
    corpus = make_corpus({"guide/cache.md": CACHE_DOC, "notes.txt": "Plain notes about caching.\n"})
    store = tmp_path / "store.sqlite"
    report = run(corpus, store)
    assert (report.documents, report.changed, report.skipped) == (2, 2, [])
    with db(store, rows=True) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        from contextpull.schema import META_KEYS

        assert set(META_KEYS) <= set(meta)
        assert meta["schema_version"] == "1.0"
        assert meta["index_mode"] == "flat"
        assert meta["index_text"].startswith("ContextPull index · 2 documents · ")
        for doc in conn.execute("SELECT * FROM documents"):
            rows = conn.execute(
                "SELECT * FROM sections WHERE doc_id = ? ORDER BY ordinal", (doc["doc_id"],)
            ).fetchall()
            assert doc["n_sections"] == len(rows) > 0
            assert doc["summary_src"] == "offline"
            assert doc["sha256"] == hashlib.sha256((corpus / doc["path"]).read_bytes()).hexdigest()
            for i, row in enumerate(rows):
                assert row["ordinal"] == i
                assert row["id"] == f"{doc['path']}#{i}"
                assert row["hash"] == hashlib.sha256(row["text"].encode()).hexdigest()
                assert row["char_len"] == len(row["text"])
                assert row["prev_id"] == (rows[i - 1]["id"] if i else None)
                assert row["next_id"] == (rows[i + 1]["id"] if i + 1 < len(rows) else None)
                assert row["heading_path"]
                fts = conn.execute(
                    "SELECT heading_path, text FROM sections_fts WHERE id = ?", (row["id"],)
                ).fetchone()
                assert fts["text"] == normalize_for_fts(row["text"])
                assert fts["heading_path"] == normalize_for_fts(row["heading_path"])
        assert (
            conn.execute("SELECT count(*) FROM sections_fts").fetchone()[0]
            == conn.execute("SELECT count(*) FROM sections").fetchone()[0]
        )
    # sections.text is verbatim: the flag keeps its dashes there
    assert any("--no-cache" in section_text(store, f"guide/cache.md#{i}") for i in range(4))


@pytest.mark.parametrize("identifier", ["--no-cache", "UV_CACHE_DIR", "tx-4419", "3.12", "tool.uv.sources"])
def test_identifiers_are_findable_through_fts(make_corpus, tmp_path, identifier):
    corpus = make_corpus({"cache.md": CACHE_DOC})
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    hits = fts_ids(store, identifier)
    assert hits, identifier
    assert identifier in section_text(store, hits[0])


def test_a_heading_match_ranks_above_a_body_match(make_corpus, tmp_path):
    filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. " * 3
    doc = (
        "# Manual\n\n"
        f"## Alpha\n\n{filler}The pruning of old entries happens weekly.\n\n"
        f"## Pruning\n\n{filler}Old entries are removed weekly by the job.\n"
    )
    corpus = make_corpus({"manual.md": doc})
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    hits = fts_ids(store, "pruning")
    assert len(hits) == 2
    with db(store) as conn:
        first = conn.execute("SELECT heading_path FROM sections WHERE id = ?", (hits[0],)).fetchone()[0]
    assert first.endswith("Pruning")


def test_bad_inputs_are_ingested_or_skipped_with_reasons(make_corpus, tmp_path):
    many = "".join(f"## Part {i}\n\nBody text of part number {i} is long enough.\n\n" for i in range(2000))
    corpus = make_corpus(
        {
            "empty.md": "",
            "blank.txt": "  \n\t\n \n",
            "binary.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "latin1.md": "# Café\n\nCrème brûlée à la carte.\n".encode("latin-1"),
            "bom.md": b"\xef\xbb\xbf# Bommed\n\nText after a byte order mark.\n",
            "crlf.md": "# Windows\r\n\r\n## Line endings\r\n\r\nCarriage returns everywhere here.\r\n",
            "long-line.md": "# Long\n\n" + ("x" * 49_990 + " ") + "\n",
            "many.md": "# Many\n\n" + many,
            "日本語/ノート.md": "# ノート\n\n日本語のテキストです。\n",
            "a/index.md": "# A index\n\nFirst of two files with one base name.\n",
            "b/index.md": "# B index\n\nSecond of two files with one base name.\n",
            "h6.md": "".join(f"{'#' * n} Level {n}\n\nText at level {n}.\n\n" for n in range(1, 7)),
            "table-end.md": "# T\n\nIntro text.\n\n| a | b |\n|---|---|\n| 1 | 2 |",
            "table-nobody.md": "# T\n\n| a | b |\n|---|---|\n",
            "unclosed.md": "# U\n\n```python\nprint('never closed')\n",
        }
    )
    store = tmp_path / "s.sqlite"
    report = run(corpus, store)
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons == {
        "empty.md": "empty file",
        "blank.txt": "empty file",
        "binary.md": "binary file (NUL bytes)",
    }
    assert report.seen == 15
    assert report.documents == 12
    with db(store) as conn:
        paths = [r[0] for r in conn.execute("SELECT path FROM documents ORDER BY path")]
        assert "日本語/ノート.md" in paths and "a/index.md" in paths and "b/index.md" in paths
        latin = conn.execute(
            "SELECT group_concat(text, '') FROM sections WHERE id LIKE 'latin1.md#%'"
        ).fetchone()[0]
        assert "Crème brûlée" in latin
        title = conn.execute("SELECT title FROM documents WHERE path = 'bom.md'").fetchone()[0]
        assert title == "Bommed"
        crlf = conn.execute(
            "SELECT heading_path FROM sections WHERE id LIKE 'crlf.md#%' ORDER BY ordinal"
        ).fetchall()
        assert any("Line endings" in row[0] for row in crlf)
        assert not any("\r" in row[0] for row in crlf)
        n_many = conn.execute("SELECT n_sections FROM documents WHERE path = 'many.md'").fetchone()[0]
        ordinals = [
            r[0]
            for r in conn.execute(
                "SELECT ordinal FROM sections s JOIN documents d USING (doc_id)"
                " WHERE d.path = 'many.md' ORDER BY ordinal"
            )
        ]
        assert ordinals == list(range(n_many)) and n_many >= 1000
    assert fts_ids(store, "日本語のテキストです")
    assert fts_ids(store, "never closed") == ["unclosed.md#0"]
    with db(store) as conn:
        levels = {r[0] for r in conn.execute("SELECT level FROM sections WHERE id LIKE 'h6.md#%'")}
        assert max(levels) >= 4


@pytest.mark.skipif(os.name == "nt", reason="POSIX symlinks")
def test_symlink_loops_and_links_out_of_the_root(make_corpus, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\nDo not ingest me please.\n", encoding="utf-8")
    corpus = make_corpus({"a.md": "# A\n\nA document inside the corpus root.\n"})
    os.symlink(outside / "secret.md", corpus / "secret.md")
    os.symlink(outside, corpus / "out")
    os.symlink(corpus, corpus / "loop")
    report = run(corpus, tmp_path / "s.sqlite")
    assert report.documents == 1
    assert {s.path: s.reason for s in report.skipped} == {
        "secret.md": "symbolic link points outside the corpus root"
    }
    assert not fts_ids(tmp_path / "s.sqlite", "ingest")


def test_a_file_that_vanishes_or_becomes_unreadable_during_the_run(make_corpus, tmp_path, monkeypatch):
    corpus = make_corpus(
        {
            "a.md": "# A\n\nStays put for the whole run.\n",
            "gone.md": "# Gone\n\nDeleted after discovery.\n",
            "locked.md": "# Locked\n\nUnreadable after discovery.\n",
        }
    )
    real_discover = ingest_mod.discover

    def discover_then_delete(root, **kwargs):
        for item in real_discover(root, **kwargs):
            if item.path == "gone.md":
                (corpus / "gone.md").unlink()
            yield item

    real_read = ingest_mod.read_regular

    def guarded_read(path, limit):
        if str(path).endswith("locked.md"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_read(path, limit)

    monkeypatch.setattr(ingest_mod, "discover", discover_then_delete)
    monkeypatch.setattr(ingest_mod, "read_regular", guarded_read)
    report = run(corpus, tmp_path / "s.sqlite")
    assert report.documents == 1
    assert {s.path: s.reason for s in report.skipped} == {
        "gone.md": "file vanished during the run",
        "locked.md": "file cannot be read (permission denied)",
    }


def test_a_parser_crash_is_a_skip_not_an_abort(make_corpus, tmp_path, monkeypatch):
    corpus = make_corpus({"a.md": "# A\n\nFine document text here.\n", "b.md": "# B\n\nBoom.\n"})

    def exploding(data, kind, stem):
        if stem == "b":
            raise ValueError("synthetic failure")
        return real(data, kind, stem)

    real = ingest_mod.parse_file
    monkeypatch.setattr(ingest_mod, "parse_file", exploding)
    report = run(corpus, tmp_path / "s.sqlite")
    assert report.documents == 1
    assert report.skipped == [Skipped("b.md", "could not be parsed (ValueError: synthetic failure)")]


def test_missing_and_empty_corpus_are_input_errors(tmp_path):
    with pytest.raises(InputError) as info:
        run(tmp_path / "nope", tmp_path / "s.sqlite")
    assert "nope" in info.value.message and ".md" in info.value.suggestion
    empty = tmp_path / "empty"
    (empty / "sub").mkdir(parents=True)
    (empty / "page.html").write_text("<p>hi</p>", encoding="utf-8")
    with pytest.raises(InputError) as info:
        run(empty, tmp_path / "s.sqlite")
    assert "empty" in info.value.message and ".markdown" in info.value.suggestion
    assert not (tmp_path / "s.sqlite").exists()


def test_strict_raises_after_writing(make_corpus, tmp_path):
    corpus = make_corpus({"a.md": "# A\n\nA good document to keep.\n", "empty.md": ""})
    store = tmp_path / "s.sqlite"
    with pytest.raises(CheckFailed) as info:
        run(corpus, store, strict=True)
    assert info.value.exit_code == 1
    with db(store) as conn:
        assert conn.execute("SELECT path FROM documents").fetchall() == [("a.md",)]


def test_cli_lists_skips_on_stderr_and_strict_exits_one(make_corpus, runner, tmp_path):
    corpus = make_corpus({"a.md": "# A\n\nA good document to keep.\n", "empty.md": "   \n"})
    store = tmp_path / "s.sqlite"
    result = runner.invoke(cli, ["ingest", str(corpus), "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert "skipped empty.md: empty file" in result.stderr
    assert "2 documents seen: 1 changed, 0 unchanged, 0 deleted, 1 skipped" in result.stdout
    assert "index flat" in result.stdout
    strict = runner.invoke(cli, ["ingest", str(corpus), "--store", str(store), "--strict"])
    assert strict.exit_code == 1
    assert "--strict" in strict.stderr


def test_cli_json_report(make_corpus, runner, tmp_path):
    corpus = make_corpus({"a.md": "# A\n\nA good document to keep.\n"})
    result = runner.invoke(cli, ["ingest", str(corpus), "--store", str(tmp_path / "s.sqlite"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seen"] == 1 and data["changed"] == 1 and data["documents"] == 1
    assert data["index_mode"] == "flat" and data["skipped"] == []


def test_cli_missing_corpus_exits_three(runner, tmp_path):
    result = runner.invoke(cli, ["ingest", str(tmp_path / "missing"), "--store", str(tmp_path / "s")])
    assert result.exit_code == 3
    assert "missing" in result.stderr and ".pptx" in result.stderr


def test_cli_default_store_is_in_the_working_directory(make_corpus, runner, tmp_path, monkeypatch):
    corpus = make_corpus({"a.md": "# A\n\nA good document to keep.\n"})
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["ingest", "docs"], env={"CONTEXTPULL_STORE": None})
    assert result.exit_code == 0, result.output
    assert (tmp_path / ".contextpull" / "store.sqlite").is_file()
    with db(tmp_path / ".contextpull" / "store.sqlite") as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'corpus_root'").fetchone()[0] == "docs"
    assert corpus.exists()


def test_cli_store_from_the_corpus_pyproject(make_corpus, runner, tmp_path, monkeypatch):
    corpus = make_corpus(
        {
            "a.md": "# A\n\nA good document to keep.\n",
            "pyproject.toml": '[tool.contextpull]\nstore = "build/cp.sqlite"\n',
        }
    )
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["ingest", "docs"], env={"CONTEXTPULL_STORE": None})
    assert result.exit_code == 0, result.output
    assert (corpus / "build" / "cp.sqlite").is_file()
    flag = runner.invoke(cli, ["ingest", "docs", "--store", "x.sqlite"])
    assert flag.exit_code == 0 and (tmp_path / "x.sqlite").is_file()


def test_a_file_that_is_not_a_store_is_refused(make_corpus, tmp_path):
    corpus = make_corpus({"a.md": "# A\n\nA good document to keep.\n"})
    bogus = tmp_path / "notes.sqlite"
    bogus.write_text("not a database at all, just text" * 40, encoding="utf-8")
    with pytest.raises(StoreError) as info:
        run(corpus, bogus)
    assert "not a ContextPull store" in info.value.message and info.value.exit_code == 3
    empty_db = tmp_path / "other.sqlite"
    sqlite3.connect(empty_db).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StoreError):
        run(corpus, empty_db)


def test_a_failed_first_ingest_leaves_no_store_behind(make_corpus, tmp_path, monkeypatch):
    corpus = make_corpus({"a.md": "# A\n\nFirst document.\n", "b.md": "# B\n\nSecond document.\n"})
    store = tmp_path / "out" / "s.sqlite"
    calls = []

    def interrupted(path, data, sha, settings, reader=None):
        calls.append(path)
        if path == "b.md":
            raise KeyboardInterrupt
        return real(path, data, sha, settings, reader)

    real = ingest_mod.build_record
    monkeypatch.setattr(ingest_mod, "build_record", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(corpus, store)
    assert calls == ["a.md", "b.md"]
    assert list((tmp_path / "out").iterdir()) == []


def test_a_store_that_cannot_be_written_is_one_clear_error(make_corpus, tmp_path, monkeypatch):
    corpus = make_corpus({"a.md": "# A\n\nFirst version of the text.\n"})
    store = tmp_path / "s.sqlite"
    run(corpus, store)
    (corpus / "a.md").write_text("# A\n\nSecond version of the text.\n", encoding="utf-8")

    def failing_insert(*args, **kwargs):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    # raised on the writer thread, reported by the ingest
    monkeypatch.setattr(writer_mod.DocumentBatch, "write", failing_insert)
    with pytest.raises(StoreError) as info:
        run(corpus, store)
    assert "cannot write store" in info.value.message and "readonly" in info.value.message
    with db(store) as conn:  # the failed run changed nothing
        assert conn.execute("SELECT n_sections FROM documents").fetchone()[0] == 1
        assert fts_ids(store, "first") == ["a.md#0"]


def test_an_empty_store_file_is_initialised(make_corpus, tmp_path):
    corpus = make_corpus({"a.md": "# A\n\nA good document to keep.\n"})
    store = tmp_path / "s.sqlite"
    store.touch()
    assert run(corpus, store).documents == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "s.sqlite"]


def test_ingest_into_a_built_artifact_drops_the_build_only_meta(tmp_path):
    """After an in-place change the recorded content fingerprint would describe another store."""
    import sqlite3

    from click.testing import CliRunner

    from contextpull.cli import cli

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nSome words about alpha that are long enough to stay.\n")
    out = tmp_path / "out"
    assert CliRunner().invoke(cli, ["build", str(docs), "--out", str(out)]).exit_code == 0
    store = out / "store.sqlite"
    keys = {k for (k,) in sqlite3.connect(store).execute("SELECT key FROM meta")}
    assert "content_fingerprint" in keys
    (docs / "a.md").write_text("# A\n\nOther words about beta that are long enough to stay.\n")
    result = CliRunner().invoke(cli, ["ingest", str(docs), "--store", str(store)])
    assert result.exit_code == 0, result.output
    keys = {k for (k,) in sqlite3.connect(store).execute("SELECT key FROM meta")}
    assert "content_fingerprint" not in keys and "build_settings" not in keys


def test_a_first_ingest_is_flushed_to_disk_before_it_is_renamed_into_place(make_corpus, tmp_path, monkeypatch):
    import errno

    import contextpull.ingest.target as target_mod

    corpus = make_corpus({"a.md": "# A\n\nA document to keep.\n"})
    store = tmp_path / "s.sqlite"
    flushed = []
    real = target_mod.flush
    monkeypatch.setattr(target_mod, "flush", lambda path: (flushed.append((path, store.exists())), real(path)))
    run(corpus, store)
    assert [(path.name.startswith("s.sqlite.tmp-"), existed) for path, existed in flushed] == [(True, False)]
    run(corpus, store)  # an update in place: SQLite's own commits, no extra flush
    assert len(flushed) == 1

    def full(path):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(target_mod, "flush", full)
    other = tmp_path / "t.sqlite"
    with pytest.raises(StoreError) as info:
        run(corpus, other)
    assert str(other) in info.value.message and "No space left" in info.value.message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "s.sqlite"]  # nothing half-written
