"""Benchmark scripts answer ``--help`` without running: some write gigabytes or run for minutes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_bad_input_costs_help_prints_its_docstring_and_measures_nothing():
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bad_input_costs.py"), "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "What hostile but valid inputs cost" in done.stdout and "sparse 8 GiB" in done.stdout
    assert "1. bare headings" not in done.stdout  # the first measurement's line


def test_mounts_bench_help_prints_its_docstring_and_builds_nothing(tmp_path):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "mounts_bench.py"), "--help", "--work", str(tmp_path / "w")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Several stores in one server" in done.stdout
    assert not (tmp_path / "w").exists()
