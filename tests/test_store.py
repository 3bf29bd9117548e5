"""Store.open refuses what is not a store, in one plain line (store-format "Opening")."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

import contextpull
from contextpull import Store, StoreError
from read_store import make_store


def test_opens_a_store_and_reads_meta_once(tmp_path):
    path = make_store(tmp_path / "s.sqlite")
    with Store.open(path) as store:
        assert store.schema_version == "1.0"
        assert store.index_text == "ContextPull index · test"
        assert store.index_mode == "flat"
        assert store.index_tokens == 6
        assert store.corpus_fingerprint == "0123456789abcdef"
        assert store.counts() == (6, 16)


def test_connection_is_read_only(tmp_path):
    path = make_store(tmp_path / "s.sqlite")
    before = path.read_bytes()
    with Store.open(path) as store:
        with pytest.raises(sqlite3.OperationalError):
            store.conn.execute("INSERT INTO meta VALUES ('x', 'y')")
        with pytest.raises(sqlite3.OperationalError):
            store.conn.execute("CREATE TEMP TABLE t (x)")
    assert path.read_bytes() == before


def test_path_with_uri_characters(tmp_path):
    folder = tmp_path / "a dir?#%"
    folder.mkdir()
    path = make_store(folder / "s.sqlite")
    with Store.open(path) as store:
        assert store.counts()[0] == 6


def test_missing_file_names_it_and_how_to_build(tmp_path):
    with pytest.raises(StoreError) as err:
        Store.open(tmp_path / "nope.sqlite")
    assert "nope.sqlite" in err.value.message
    assert "contextpull" in err.value.suggestion
    assert not (tmp_path / "nope.sqlite").exists()


def test_non_sqlite_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("just some text, long enough to not be an empty database file\n" * 20)
    with pytest.raises(StoreError) as err:
        Store.open(path)
    assert err.value.message == f"{path} is not a SQLite file"


def test_sqlite_that_is_not_a_store(tmp_path):
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as err:
        Store.open(path)
    assert "not a ContextPull store" in err.value.message


def test_meta_without_schema_version(tmp_path):
    path = make_store(tmp_path / "s.sqlite", meta={"schema_version": None})
    with pytest.raises(StoreError) as err:
        Store.open(path)
    assert "not a ContextPull store" in err.value.message


def test_other_major_version_names_both(tmp_path):
    path = make_store(tmp_path / "s.sqlite", meta={"schema_version": "2.0"})
    with pytest.raises(StoreError) as err:
        Store.open(path)
    assert "2.0" in err.value.message and "1.0" in err.value.message
    assert "\n" not in err.value.message


def test_minor_version_of_the_same_major_opens(tmp_path):
    path = make_store(tmp_path / "s.sqlite", meta={"schema_version": "1.7"})
    with Store.open(path) as store:
        assert store.schema_version == "1.7"


def test_missing_fts_table_is_not_a_store(tmp_path):
    path = make_store(tmp_path / "s.sqlite")
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE sections_fts")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as err:
        Store.open(path)
    assert "not a ContextPull store" in err.value.message


_OPEN = "from contextpull import Store\nwith Store.open({!r}) as s:\n    print(s.counts())\n"


@pytest.mark.parametrize("journal", ["DELETE", "WAL"])
def test_read_only_directory(journal):
    """A WAL store needs a -shm file SQLite cannot create here; the reader must still open it."""
    root = Path(tempfile.mkdtemp(prefix="cp-ro-"))
    try:
        folder = root / "ro"
        folder.mkdir()
        path = make_store(folder / "s.sqlite", journal=journal)
        if os.geteuid() != 0:
            folder.chmod(0o555)
            with Store.open(path) as store:
                assert store.counts() == (6, 16)
        else:
            # root ignores permissions: run the reader as 'nobody' with the system Python.
            python = shutil.which("python3", path="/usr/bin:/bin")
            if python is None:
                pytest.skip("needs a system python3 to drop privileges")
            shutil.copytree(Path(contextpull.__file__).parent, root / "pkg" / "contextpull")
            for p in [root, *root.rglob("*")]:
                p.chmod(0o755 if p.is_dir() else 0o644)
            folder.chmod(0o555)
            proc = subprocess.run(
                [python, "-c", _OPEN.format(str(path))],
                env={"PYTHONPATH": str(root / "pkg"), "PATH": "/usr/bin:/bin"},
                user=65534, capture_output=True, text=True, cwd=root,
            )
            assert proc.stderr == ""
            assert proc.stdout == "(6, 16)\n"
        assert sorted(p.name for p in folder.iterdir()) == ["s.sqlite"]
    finally:
        (root / "ro").chmod(0o755)
        shutil.rmtree(root)


@pytest.mark.parametrize("journal", ["DELETE", "WAL"])
def test_read_only_file(tmp_path, journal):
    path = make_store(tmp_path / "s.sqlite", journal=journal)
    path.chmod(stat.S_IRUSR)
    with Store.open(path) as store:
        assert store.counts() == (6, 16)


def test_sqlite_without_fts5_names_the_binding(tmp_path):
    # Simulate a SQLite build without FTS5: the table's module is one this SQLite does not have.
    path = make_store(tmp_path / "s.sqlite")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(
        "UPDATE sqlite_master SET sql = replace(sql, 'USING fts5(', 'USING fts5missing(') WHERE name = 'sections_fts'"
    )
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as err:
        Store.open(path)
    message = err.value.message
    assert "FTS5" in message and "sqlite3 module" in message and sqlite3.sqlite_version in message
    assert "\n" not in message


def test_meta_a_reader_reads_stored_as_bytes_is_a_damaged_store(tmp_path):
    from click.testing import CliRunner

    from contextpull.cli import cli

    store = make_store(tmp_path / "s.sqlite")
    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE meta SET value = CAST(value AS BLOB) WHERE key = 'index_text'")
    with pytest.raises(StoreError) as info:
        Store.open(store)
    assert info.value.message == f"{store} is damaged: meta.index_text is stored as bytes, not text"
    for argv in (["index", "--store", str(store)], ["diff", str(store), str(store)]):
        result = CliRunner().invoke(cli, argv)
        assert result.exit_code == 3 and "meta.index_text is stored as" in result.stderr and "Traceback" not in result.output
