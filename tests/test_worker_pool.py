"""Parse workers that die or are stopped cannot stall or change a build (issue 34): a worker
killed mid-run leaves its batch to the caller and the process still exits; Ctrl-C to the
process group never reaches the fork server (ingest/workers.py, ingest/worker_pool.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from contextpull.ingest import workers

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")


def _square_or_die(value: int, parent: int, _page: str = "") -> tuple[int, int]:
    """Kills its own worker at value 40, as the OOM killer would; never kills the caller."""
    if value == 40 and os.getpid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    return value * value, os.getpid()


def test_a_worker_killed_mid_run_leaves_its_batch_to_the_caller(monkeypatch):
    monkeypatch.setattr(workers, "BATCH_JOBS", 8)
    parent = os.getpid()
    jobs = [(True, (i, parent)) if i % 5 else (False, f"kept {i}") for i in range(120)]
    out = list(workers.ordered_map(_square_or_die, jobs, workers=1, min_jobs=4))
    assert [v if isinstance(v, str) else v[0] for v in out] == [f"kept {i}" if i % 5 == 0 else i * i for i in range(120)]
    done_by = {pid for v in out if not isinstance(v, str) for pid in [v[1]]}
    assert parent in done_by and len(done_by) >= 2  # the worker did some, the caller the rest


def test_a_process_whose_worker_was_killed_still_exits(tmp_path):
    """The stall this replaced: the build finished and published, then the interpreter's exit
    waited for ever on a queue thread writing to the dead worker. A 120 s bound catches the hang."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(f"""
        import os, sys
        sys.path[:0] = {[str(Path(__file__).parent)]!r}
        from contextpull.ingest import workers
        from test_worker_pool import _square_or_die
        workers.BATCH_JOBS = 8
        parent = os.getpid()
        page = "x" * 65536  # a batch is larger than a pipe's buffer, as real pages make it
        out = list(workers.ordered_map(_square_or_die, [(True, (i, parent, page)) for i in range(200)], workers=1, min_jobs=4))
        assert [v for v, _ in out] == [i * i for i in range(200)]
        print("done")
    """))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "done"


def _sigint_bits(pid: int) -> tuple[bool, bool]:
    """Whether SIGINT is blocked, and whether it is ignored, in process ``pid`` (Linux's /proc)."""
    status = dict(line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":\t" in line)
    bit = 1 << (signal.SIGINT - 1)
    return bool(int(status["SigBlk"], 16) & bit), bool(int(status["SigIgn"], 16) & bit)


def test_the_fork_server_never_takes_a_ctrl_c_meant_for_the_build():
    """Ctrl-C goes to the whole process group; the fork server is started with SIGINT blocked,
    so it cannot print a traceback of its own under the build's one line."""
    from multiprocessing import forkserver

    workers.prestart()
    server = forkserver._forkserver._forkserver_pid
    assert server is not None
    blocked, _ = _sigint_bits(server)
    assert blocked
    assert not _sigint_bits(os.getpid())[0]  # this process's mask is back as it was
