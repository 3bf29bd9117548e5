"""The suite's guard against two pytest runs sharing one ``--basetemp`` (basetemp_lock.py): the
second stops with one line and the first one's files stay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import basetemp_lock

pytestmark = pytest.mark.skipif(basetemp_lock.fcntl is None, reason="no fcntl: the guard is off here")

HERE = Path(__file__).parent


def test_a_held_basetemp_cannot_be_held_again_and_is_free_once_released(tmp_path):
    base = tmp_path / "base"
    first = basetemp_lock.hold(base)
    with pytest.raises(pytest.UsageError, match="in use by another pytest run") as info:
        basetemp_lock.hold(base)
    assert str(base) in str(info.value) and "\n" not in str(info.value)
    other = basetemp_lock.hold(tmp_path / "other")  # another folder is another run's
    first.close()
    basetemp_lock.hold(base).close()
    other.close()


def test_a_second_run_on_a_live_basetemp_stops_before_deleting_its_files(tmp_path):
    base = tmp_path / "base"
    base.mkdir()
    (base / "live.sqlite").write_bytes(b"a live run's store")
    (tmp_path / "test_trivial.py").write_text("def test_uses_tmp(tmp_path):\n    assert tmp_path.is_dir()\n")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "basetemp_lock",
               "--rootdir", str(tmp_path), "-c", os.devnull, f"--basetemp={base}", str(tmp_path / "test_trivial.py")]
    # Without the installed plugins a run starts in a fraction of the time; the guard is named.
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
           "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    running = basetemp_lock.hold(base)  # stands for the first run
    try:
        second = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    finally:
        running.close()
    assert second.returncode == pytest.ExitCode.USAGE_ERROR, second.stdout + second.stderr
    assert f"--basetemp {base} is in use by another pytest run" in second.stderr
    assert (base / "live.sqlite").read_bytes() == b"a live run's store"
    alone = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert alone.returncode == 0, alone.stdout + alone.stderr  # with the folder free, pytest empties it as usual
    assert not (base / "live.sqlite").exists()
