"""Special and oversized files never hang or exhaust a build (issue 22, "Special files", "Size").

Anything that could hang (a named pipe) or allocate without bound (a link to /dev/zero, a sparse
8 GiB file) runs the real CLI in a child process with a timeout and a memory ceiling, so a
regression fails this test instead of stalling CI or the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from contextpull.system.bounded_read import FileTooLarge, NotRegularFile, read_regular
from contextpull.config import DEFAULT_MAX_FILE_BYTES, resolve_settings
from contextpull.errors import ConfigError

posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
TIMEOUT = 60


def _limit_memory() -> None:
    import resource

    two_gib = 2 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (two_gib, two_gib))


def cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    """``contextpull ARGS`` in a child that cannot hang this test or take more than 2 GiB."""
    return subprocess.run(
        [sys.executable, "-m", "contextpull", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
        preexec_fn=_limit_memory if os.name == "posix" else None,
        env={**os.environ, "SOURCE_DATE_EPOCH": "0"},
    )


def skips(result: subprocess.CompletedProcess) -> dict[str, str]:
    report = json.loads(result.stdout)
    report = report.get("manifest", report)  # build --json wraps the manifest; ingest does not
    return {s["path"]: s["reason"] for s in report["skipped"]}


@pytest.fixture
def docs(make_corpus):
    return make_corpus({"a.md": "# A\n\nThe document that still builds.\n", "sub/b.md": "# B\n\nAnother one.\n"})


@posix_only
def test_named_pipes_and_device_links_named_like_documents_are_named_skips(docs, tmp_path):
    os.mkfifo(docs / "top.md")
    os.mkfifo(docs / "sub" / "deep.pdf")
    os.symlink("/dev/zero", docs / "zero.md")  # outside the root: refused as such
    os.symlink(docs / "top.md", docs / "sub" / "to-pipe.md")  # inside, but a pipe
    result = cli("build", str(docs), "--out", str(tmp_path / "out"), "--json")
    assert result.returncode == 0, result.stderr
    assert skips(result) == {
        "sub/deep.pdf": "not a regular file (a named pipe)",
        "sub/to-pipe.md": "symbolic link does not point to a regular file (a named pipe)",
        "top.md": "not a regular file (a named pipe)",
        "zero.md": "symbolic link points outside the corpus root",
    }
    assert json.loads(result.stdout)["manifest"]["counts"]["documents"] == 2


@posix_only
def test_strict_fails_on_a_pipe_as_on_any_skip(docs, tmp_path):
    os.mkfifo(docs / "top.md")
    result = cli("build", str(docs), "--out", str(tmp_path / "out"), "--strict")
    assert result.returncode == 1
    assert "top.md (not a regular file (a named pipe))" in result.stderr


@posix_only
@pytest.mark.parametrize(
    "make, kind",
    [(os.mkfifo, "a named pipe"), (lambda p: os.symlink("/dev/zero", p), "a character device")],
    ids=["fifo", "dev-zero"],
)
@pytest.mark.parametrize("command", ["build", "ingest"])
def test_an_ignore_file_that_is_not_a_file_is_one_clear_error(docs, tmp_path, make, kind, command):
    make(docs / ".contextpullignore")
    target = ["--out", str(tmp_path / "out")] if command == "build" else ["--store", str(tmp_path / "s.sqlite")]
    result = cli(command, str(docs), *target)
    assert result.returncode == 3
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"Error: cannot read {docs.resolve() / '.contextpullignore'}: not a regular file ({kind})"
        " (make .contextpullignore a regular text file or remove it)"
    ]


@posix_only
@pytest.mark.parametrize(
    "make, kind",
    [(os.mkfifo, "a named pipe"), (lambda p: os.symlink("/dev/zero", p), "a character device")],
    ids=["fifo", "dev-zero"],
)
def test_a_pyproject_that_is_not_a_file_is_one_clear_error(docs, tmp_path, make, kind):
    make(docs / "pyproject.toml")
    result = cli("build", str(docs), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"Error: cannot read {docs / 'pyproject.toml'}: not a regular file ({kind})"
    ]


def test_an_oversized_pyproject_or_ignore_file_is_refused_unread(docs, monkeypatch):
    with open(docs / "pyproject.toml", "wb") as handle:
        handle.truncate(64 * 1024**3)  # sparse: no bytes on disk
    with pytest.raises(ConfigError, match=r"pyproject.toml: file is 68719476736 bytes, over the limit of 16777216"):
        resolve_settings(docs, None, environ={})


@posix_only
def test_a_sparse_8_gib_document_is_skipped_before_reading(docs, tmp_path):
    with open(docs / "huge.md", "wb") as handle:
        handle.truncate(8 * 1024**3)
    result = cli("build", str(docs), "--out", str(tmp_path / "out"), "--json")
    assert result.returncode == 0, result.stderr
    assert skips(result) == {
        "huge.md": f"file is 8589934592 bytes, over max_file_bytes ({DEFAULT_MAX_FILE_BYTES}); not read"
    }


def test_max_file_bytes_from_flag_env_and_pyproject_in_that_order(docs, tmp_path):
    (docs / "pyproject.toml").write_text("[tool.contextpull]\nmax_file_bytes = 4096\n")
    assert resolve_settings(docs, None, environ={}).max_file_bytes == 4096
    env = {"CONTEXTPULL_MAX_FILE_BYTES": "8192"}
    assert resolve_settings(docs, None, environ=env).max_file_bytes == 8192
    assert resolve_settings(docs, {"max_file_bytes": 2048}, environ=env).max_file_bytes == 2048
    assert resolve_settings(None, None, environ={}).max_file_bytes == DEFAULT_MAX_FILE_BYTES
    with pytest.raises(ConfigError, match="max_file_bytes must be between 1024 and"):
        resolve_settings(None, {"max_file_bytes": "12"}, environ={})
    # it chooses which files are read, not what they become: not part of the recorded settings
    assert "max_file_bytes" not in resolve_settings(docs, None, environ={}).to_dict()


def test_the_ingest_flag_skips_a_document_over_the_limit(docs, tmp_path):
    (docs / "big.md").write_text("# Big\n\n" + "word " * 1000)
    result = cli("ingest", str(docs), "--store", str(tmp_path / "s.sqlite"), "--max-file-bytes", "2048", "--json")
    assert result.returncode == 0, result.stderr
    assert skips(result) == {"big.md": "file is 5007 bytes, over max_file_bytes (2048); not read"}


@posix_only
def test_golden_checksum_and_cache_files_that_are_pipes_are_refused(docs, tmp_path):
    out = tmp_path / "out"
    assert cli("build", str(docs), "--out", str(out)).returncode == 0
    golden = tmp_path / "golden"
    golden.mkdir()
    os.mkfifo(golden / "index.txt")
    os.mkfifo(golden / "ids.txt")
    result = cli("build", str(docs), "--out", str(out), "--golden", str(golden))
    assert result.returncode == 3
    assert f"cannot read golden file {golden / 'index.txt'}: not a regular file (a named pipe)" in result.stderr

    pipe_cache = tmp_path / "cache.sqlite"
    os.mkfifo(pipe_cache)
    result = cli("build", str(docs), "--out", str(tmp_path / "out2"), "--cache", str(pipe_cache))
    assert result.returncode == 0, result.stderr
    assert f"ignoring cache {pipe_cache}: not a regular file (a named pipe)" in result.stderr

    os.unlink(out / "store.sqlite.sha256")
    os.mkfifo(out / "store.sqlite.sha256")
    result = cli("verify", str(out / "store.sqlite"))
    assert result.returncode == 1
    assert "not a regular file (a named pipe)" in result.stderr


def test_read_regular_refuses_what_is_not_a_bounded_regular_file(tmp_path):
    small = tmp_path / "small.txt"
    small.write_bytes(b"x" * 100)
    assert read_regular(small, 100) == b"x" * 100
    with pytest.raises(FileTooLarge, match="file is 100 bytes, over the limit of 99"):
        read_regular(small, 99)
    with pytest.raises(NotRegularFile, match=r"not a regular file \(a folder\)"):
        read_regular(tmp_path, 100)
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "absent", 100)


@posix_only
@pytest.mark.parametrize("command", [["index"], ["ingest", "DOCS"]], ids=["read", "ingest"])
def test_a_store_path_that_is_a_pipe_is_refused_not_waited_on(docs, tmp_path, command):
    store = tmp_path / "s.sqlite"
    os.mkfifo(store)
    args = [str(docs) if a == "DOCS" else a for a in command]
    result = cli(*args, "--store", str(store))
    assert result.returncode == 3
    assert result.stderr.strip() == f"Error: {store} is a named pipe, not a store file (pass the store.sqlite file)"
