#!/usr/bin/env python3
"""The full test suite on a clean clone, run again and again under load (issue 34: a test that
fails one run in ten is a bug, found and fixed, never retried away).

    python benchmarks/suite_runs.py [--runs 10] [--busy 2] [--commit HEAD] [--work DIR]

Clones this repository at ``--commit`` into a fresh folder, installs it there the way
``.ci/run`` does (its own ``.venv``, ``pip install -e .[dev]``), then runs the README's test
command (``python -m pytest -q``) ``--runs`` times in a row while ``--busy`` CPU-bound processes
share the machine. Prints one line per run (seconds, the pytest summary, the failing tests) and
finally ``runs N, failures F``. Exit 0 when no run failed.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import busy  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def clean_clone(commit: str, work: Path) -> Path:
    clone = work / "clone"
    shared = ROOT.parent / "shared"  # the spec and corpora some tests read, beside the checkout as in CI
    if shared.is_dir() and not (work / "shared").exists():
        (work / "shared").symlink_to(shared)
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", commit], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(clone / ".venv")], check=True)
    subprocess.run([str(clone / ".venv/bin/pip"), "install", "-q", "-e", ".[dev]"], cwd=clone, check=True)
    return clone


def run_once(clone: Path, log: Path) -> tuple[float, str, list[str], int]:
    started = time.monotonic()
    with open(log, "w") as out:
        code = subprocess.run(
            [str(clone / ".venv/bin/python"), "-m", "pytest", "-q"], cwd=clone, stdout=out, stderr=subprocess.STDOUT
        ).returncode
    text = log.read_text(errors="replace")
    summary = next((line for line in reversed(text.splitlines()) if re.search(r"\d+ (passed|failed)", line)), "no summary")
    failed = sorted(set(re.findall(r"^(?:FAILED|ERROR) (\S+)", text, re.MULTILINE)))
    return time.monotonic() - started, summary.strip("= "), failed, code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--busy", type=int, default=2, help="CPU-bound processes beside the suite")
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--work", type=Path, help="where to clone (default: a temporary folder)")
    args = parser.parse_args()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", args.commit], capture_output=True, text=True, check=True).stdout.strip()
    work = args.work or Path(tempfile.mkdtemp(prefix="suite-runs-"))
    work.mkdir(parents=True, exist_ok=True)
    clone = clean_clone(commit, work)
    print(f"commit {commit[:7]}, clone {clone}, {args.busy} busy processes", flush=True)
    failures = 0
    with busy(args.busy):
        for run in range(1, args.runs + 1):
            seconds, summary, failed, code = run_once(clone, work / f"run{run}.log")
            failures += code != 0
            print(f"run {run}: {seconds:.0f} s, exit {code}, {summary}" + (f"; failed: {' '.join(failed)}" if failed else ""), flush=True)
    print(f"runs {args.runs}, failures {failures}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
