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


def test_a_caller_running_other_threads_has_its_workers_forked_by_a_fork_server(tmp_path):
    """A fork copies one thread, and a lock another thread held stays held in the child: where
    the caller runs other threads, workers come from a fork server, which also holds none of the
    caller's SQLite files (SQLite forbids using a connection across fork)."""
    import os
    import sqlite3
    import sys
    import threading

    import pytest

    if not sys.platform.startswith("linux"):
        pytest.skip("workers are spawned, not forked, off Linux")
    db = tmp_path / "callers.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    release = threading.Event()
    other = threading.Thread(target=release.wait, args=(60,))
    other.start()
    try:
        # one batch (fewer jobs than BATCH_JOBS): the worker parses it, none is taken back
        seen = list(workers.ordered_map(_open_paths, [(True, (i,)) for i in range(6)], workers=1, min_jobs=2))
    finally:
        release.set()
        other.join()
        conn.close()
    in_worker = [paths for pid, paths in seen if pid != os.getpid()]
    assert len(in_worker) == 6
    assert any(path.startswith("/") for paths in in_worker for path in paths)  # /proc was read
    assert not any(str(db) in path for paths in in_worker for path in paths)


def test_a_single_threaded_caller_forks_its_workers_with_its_objects_frozen(tmp_path):
    """With one thread a fork is safe and costs nothing; the caller's objects are frozen for the
    fork, so no collection in the worker can close a connection the caller still uses. Run in a
    fresh interpreter, which has no thread but its main one."""
    import subprocess
    import sys
    import textwrap

    import pytest

    if not sys.platform.startswith("linux"):
        pytest.skip("workers are spawned, not forked, off Linux")
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent("""
        import gc, os, sqlite3, sys, threading
        from contextpull.ingest import workers

        def frozen(_index):
            return os.getpid(), os.getppid(), gc.get_freeze_count()

        conn = sqlite3.connect(sys.argv[1])
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
        assert threading.active_count() == 1
        seen = list(workers.ordered_map(frozen, [(True, (i,)) for i in range(6)], workers=1, min_jobs=2))
        conn.execute("INSERT INTO t VALUES (1)")
        conn.commit()
        assert all(parent == os.getpid() and pid != os.getpid() and count > 0 for pid, parent, count in seen), seen
        assert gc.get_freeze_count() == 0  # thawed here at once
        print("ok")
    """))
    result = subprocess.run([sys.executable, str(script), str(tmp_path / "callers.sqlite")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def _where(index: int) -> tuple[int, int]:
    import os

    return os.getpid(), index


def _dies_in_a_worker(parent: int, index: int) -> int:
    import os

    if os.getpid() != parent:
        os._exit(3)  # a worker killed mid-batch (the OOM killer, kill -9)
    return index


def test_the_heavy_jobs_of_a_short_run_go_to_one_worker_and_the_rest_are_read_here():
    """A run too short for batches (API reference: a few pages that read a package's modules)
    sends its heavy jobs to one worker, together, and computes the others here meanwhile; the
    results come back in input order, passed-through values in their places."""
    import os

    jobs = [(i % 5 != 0, (i,) if i % 5 else f"v{i}") for i in range(30)]
    out = list(workers.ordered_map(_where, jobs, workers=1, min_jobs=100, heavy=lambda i: i % 7 == 3))
    assert [o if isinstance(o, str) else o[1] for o in out] == [f"v{i}" if i % 5 == 0 else i for i in range(30)]
    where = {o[1]: o[0] for o in out if not isinstance(o, str)}
    heavy = {i for i in where if i % 7 == 3}
    assert heavy == {3, 17, 24} and len({where[i] for i in heavy}) == 1 and where[3] != os.getpid()
    assert all(pid == os.getpid() for i, pid in where.items() if i not in heavy)


def test_without_a_heavy_job_or_a_worker_a_short_run_starts_no_process(monkeypatch):
    import os

    monkeypatch.setattr(workers, "_offload", lambda *a: (_ for _ in ()).throw(AssertionError("offloaded")))
    jobs = [(True, (i,)) for i in range(10)]
    assert {pid for pid, _ in workers.ordered_map(_where, jobs, workers=1, min_jobs=100, heavy=lambda i: False)} == {os.getpid()}
    assert {pid for pid, _ in workers.ordered_map(_where, jobs, workers=0, min_jobs=100, heavy=lambda i: True)} == {os.getpid()}


def test_a_heavy_batch_lost_with_its_worker_is_computed_here():
    import functools
    import os

    func = functools.partial(_dies_in_a_worker, os.getpid())
    jobs = [(True, (i,)) for i in range(8)]
    assert list(workers.ordered_map(func, jobs, workers=1, min_jobs=100, heavy=lambda i: i in (2, 5))) == list(range(8))


def test_halves_of_heavy_jobs_are_split_between_the_worker_and_this_process():
    import os

    here = os.getpid()
    jobs = [(True, (i,)) for i in range(6)]
    second = lambda first: (first, os.getpid())  # noqa: E731
    out = list(workers.ordered_map(
        lambda i: second(_where(i)), jobs, workers=1, min_jobs=100, heavy=lambda i: i >= 4,
        halves=(_where, second),
    ))
    assert [first[1] for first, _ in out[4:]] == [4, 5]
    assert all(first[0] != here and second == here for first, second in out[4:])
    assert out[:4] == [((here, i), here) for i in range(4)]


def test_a_run_discovery_promises_long_starts_its_worker_after_the_held_jobs(monkeypatch):
    """``expected`` (discovery's count) lets a run whose entries project ``min_jobs`` jobs start
    its worker once it has shown ``HELD_JOBS``; a run without the count shows ``min_jobs`` first,
    so one of fewer jobs stays in this process even when it is longer than ``HELD_JOBS``, and so
    does one whose entries are mostly passed through (files a cache keeps)."""
    import os

    monkeypatch.setattr(workers, "HELD_JOBS", 4)
    monkeypatch.setattr(workers, "BATCH_JOBS", 2)
    jobs = [(True, (i,)) for i in range(12)]
    unpromised = list(workers.ordered_map(_where, jobs, workers=1, min_jobs=20))
    assert {pid for pid, _ in unpromised} == {os.getpid()}
    started = []
    real_parallel = workers._parallel
    monkeypatch.setattr(workers, "_parallel", lambda func, held, *rest: started.append(len(held)) or real_parallel(func, held, *rest))
    promised = list(workers.ordered_map(_where, jobs, workers=1, min_jobs=20, expected=20))
    assert started == [5]  # the held jobs and the one that showed the run goes on
    assert [i for _, i in promised] == [i for _, i in unpromised] == list(range(12))
    short = list(workers.ordered_map(_where, jobs, workers=1, min_jobs=20, expected=12))
    assert {pid for pid, _ in short} == {os.getpid()} and started == [5]
    # a job in every third entry: 40 entries project 13 jobs, short of 20
    cached = [(True, (i,)) if i % 3 == 0 else (False, f"kept{i}") for i in range(40)]
    out = list(workers.ordered_map(_where, cached, workers=1, min_jobs=20, expected=40))
    assert started == [5] and {o[0] for o in out if not isinstance(o, str)} == {os.getpid()}
    assert [o if isinstance(o, str) else o[1] for o in out] == [i if i % 3 == 0 else f"kept{i}" for i in range(40)]


def test_build_and_ingest_both_tell_the_documents_how_many_discovery_found(tmp_path, monkeypatch):
    """The one document source takes discovery's count from ``build`` and ``ingest`` alike, so a
    long ingest starts its worker when a long build does (``_hold``)."""
    from contextpull.ingest import documents as documents_mod

    seen = []
    real = documents_mod.ordered_map
    monkeypatch.setattr(documents_mod, "ordered_map", lambda *a, **k: seen.append(k.get("expected")) or real(*a, **k))
    docs = _site(tmp_path / "site")
    runner = CliRunner()
    built = runner.invoke(cli, ["build", str(docs), "--out", str(tmp_path / "out")], env=clean_env())
    ingested = runner.invoke(cli, ["ingest", str(docs), "--store", str(tmp_path / "s.sqlite")], env=clean_env())
    assert built.exit_code == 0 and ingested.exit_code == 0, (built.output, ingested.output)
    from contextpull.writing.discover import discover

    found = len(list(discover(docs)))
    assert found > 20 and seen == [found, found]
