"""A dialect build parses on a worker process where two cores are usable (ingest/workers.py):
the store it writes is the serial build's, byte for byte, and the report counts the same."""

from __future__ import annotations

import json

from click.testing import CliRunner

from artifact_helpers import clean_env
from contextpull.cli import cli
from contextpull.ingest import workers
from site_build import write_site


def _site(root):
    files = {
        "hugo.toml": 'title = "Workers"\n[params]\nversion = "1.2"\n',
        "content/_common/note.md": "Shared text from an include.\n",
        "layouts/_shortcodes/box.html": "{{ .Inner }}\n",
    }
    for i in range(23):
        files[f"content/page{i:02d}.md"] = (
            f"---\ntitle: Page {i}\ndescription: About page {i}.\n---\n\n## Part {i}\n\n"
            f'{{{{% include "/_common/note.md" %}}}}\n\n{{{{< box >}}}}Boxed {i} {{{{< param version >}}}}{{{{< /box >}}}}\n\n'
            f"> [!NOTE]\n> Callout {i}.\n\n```go\nfunc F{i}() {{}}\n```\n"
        )
    files["content/empty.md"] = ""
    return write_site(root, files)


def _build(docs, out, **env):
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(out), "--json"], env=clean_env(**env))
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout)


def test_a_build_on_a_worker_writes_the_serial_store(tmp_path, monkeypatch):
    root = _site(tmp_path / "site")
    serial = _build(root / "content", tmp_path / "serial", CONTEXTPULL_JOBS="1")
    started = []
    real_parallel = workers._parallel

    def counted(*args, **kwargs):
        started.append(args[3])
        return real_parallel(*args, **kwargs)

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    monkeypatch.setattr(workers, "PARALLEL_MIN_JOBS", 4)
    monkeypatch.setattr(workers, "BATCH_JOBS", 5)
    monkeypatch.setattr(workers, "_parallel", counted)
    parallel = _build(root / "content", tmp_path / "parallel")
    assert started == [1]  # one worker, without the variable: the site reads the hugo dialect
    assert (tmp_path / "serial" / "store.sqlite").read_bytes() == (tmp_path / "parallel" / "store.sqlite").read_bytes()
    assert parallel["manifest"]["counts"] == serial["manifest"]["counts"]
    assert parallel["dialect"] == serial["dialect"]
    assert serial["manifest"]["counts"]["documents"] == 24 and serial["dialect"]["totals"]["resolved"] >= 23


def _open_paths(_index: int) -> tuple[int, list[str]]:
    """The process and the files it has open (Linux's /proc), computed where the job runs."""
    import os

    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return os.getpid(), found


def test_a_worker_holds_none_of_the_callers_sqlite_files(tmp_path):
    """A worker is forked by a fork server, never by the caller, so it never inherits the
    caller's SQLite connections (SQLite forbids carrying one across fork) or its threads' locks."""
    import os
    import sqlite3
    import sys

    import pytest

    if not sys.platform.startswith("linux"):
        pytest.skip("workers are spawned, not forked, off Linux")
    db = tmp_path / "callers.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    try:
        # one batch (fewer jobs than BATCH_JOBS): the worker parses it, none is taken back
        seen = list(workers.ordered_map(_open_paths, [(True, (i,)) for i in range(6)], workers=1, min_jobs=2))
    finally:
        conn.close()
    in_worker = [paths for pid, paths in seen if pid != os.getpid()]
    assert len(in_worker) == 6
    assert any(path.startswith("/") for paths in in_worker for path in paths)  # /proc was read
    assert not any(str(db) in path for paths in in_worker for path in paths)
