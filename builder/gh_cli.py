"""The GitHub CLI as the action's scripts call it: found on PATH first, failures as one line.

``gh`` is on GitHub-hosted runners but often not on self-hosted ones or in container jobs;
without this check the first call ends in a Python traceback (``FileNotFoundError: 'gh'``)
instead of an ``::error::`` that says what to do. Every call gets ``GH_TOKEN`` and ``GH_REPO``
from the step's environment (``action.yml`` sets them from ``github.token`` and
``github.repository``).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]

NO_GH = ("the GitHub CLI (gh) is not on PATH, and the Action needs it for {what}; install it in the job "
         "(https://cli.github.com, or run on a GitHub-hosted runner, where it is installed)")


class GhProblem(Exception):
    """Why a ``gh`` call did not do its job; becomes one ``::error::`` line."""


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, check=False)


def require_gh(what: str, which: Callable[[str], object] = shutil.which) -> None:
    if not which("gh"):
        raise GhProblem(NO_GH.format(what=what))


def last_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = (proc.stderr or proc.stdout or "").strip().splitlines()
    return lines[-1] if lines else f"exit code {proc.returncode}"


def call(argv: Sequence[str], run: Runner = _run, *, what: str) -> subprocess.CompletedProcess[str]:
    """Run ``gh ARGV``; a missing ``gh`` (even one that vanished after the check) is a GhProblem."""
    try:
        return run(["gh", *argv])
    except FileNotFoundError:
        raise GhProblem(NO_GH.format(what=what)) from None


def download(tag: str, names: Sequence[str], folder: Path, run: Runner = _run) -> None:
    """Download the assets ``names`` of release ``tag`` into ``folder``."""
    argv = ["release", "download", tag, "--dir", str(folder), "--clobber"]
    for name in names:
        argv += ["--pattern", name]
    proc = call(argv, run, what=f"release {tag}")
    if proc.returncode != 0:
        raise GhProblem(f"cannot download {', '.join(names)} from release {tag}: {last_line(proc)}")

