"""One contextpull command from two checkouts of this repository, alternating (issue 8).

    git worktree add /tmp/base REV        # the code to compare with, beside this checkout
    python benchmarks/ab_checkouts.py --base /tmp/base --new . --runs 3 -- \
        ingest /tmp/cpbench/corpora/uv-docs-x62 --store {out}/store.sqlite

Each run starts ``python -m contextpull ARGS`` in the checkout's folder, so that its package is
the one imported (both use this interpreter and its installed dependencies; give corpus paths
absolute), with ``{out}`` replaced by a fresh empty folder; the two checkouts take turns, base
first in odd runs and new first in even ones, so a machine that slows down mid-run costs both
alike. Per run it prints the wall time, the CPU time of the whole process tree (children
included) and the peak RSS of the largest process; at the end the medians and their ratio, and
(from four runs) the median of the runs' paired ratios, each new run over the base run beside it.
With ``--timeline`` it also prints the cores in use in each quarter second of every run, sampled
from /proc (Linux), to show where a run leaves a core idle.

Both checkouts' bytecode is compiled first, as pip does on install (``precompile.py``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from precompile import compile_package


def _tree_cpu(pid: int, seen: dict) -> float:
    """CPU seconds of ``pid`` and its descendants so far (threads included), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                seen[(current, task)] = (int(fields[11]) + int(fields[12])) / tick
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    stack += [int(child) for child in handle.read().split()]
        except OSError:
            continue
    return sum(seen.values())


def run_once(checkout: Path, args: list[str], timeline: bool) -> tuple[float, float, float, list[float]]:
    out = Path(tempfile.mkdtemp(prefix="ab-"))
    env = {**os.environ, "PYTHONPATH": str(checkout.resolve())}
    argv = [sys.executable, "-m", "contextpull", *(a.replace("{out}", str(out)) for a in args)]
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        # run from the checkout: ``-m`` puts the working folder first on the path
        proc = subprocess.Popen(argv, env=env, cwd=checkout.resolve(), stdout=subprocess.DEVNULL, stderr=errors)
        cores: list[float] = []
        seen: dict = {}
        last_cpu, last_t = 0.0, started
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.005)  # the wall time's resolution
            now = time.perf_counter()
            if timeline and now - last_t >= 0.25:
                cpu = _tree_cpu(proc.pid, seen)
                cores.append((cpu - last_cpu) / (now - last_t))
                last_cpu, last_t = cpu, now
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, with its rusage
        errors.seek(0)
        stderr = errors.read().decode(errors="replace")
    shutil.rmtree(out, ignore_errors=True)
    if proc.returncode != 0:
        raise SystemExit(f"{checkout}: exit {proc.returncode}\n{stderr[-2000:]}")
    # wait4: CPU of the process and the children it waited for; the larger peak RSS of the two
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, cores


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="the checkout to compare with")
    ap.add_argument("--new", type=Path, default=Path("."), help="the checkout under test")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeline", action="store_true", help="cores in use per quarter second")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="-- then the contextpull arguments")
    a = ap.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if not args:
        ap.error("give the contextpull arguments after --")
    for checkout in (a.base, a.new):
        compile_package(checkout / "contextpull")
    results: dict[str, list[tuple[float, float, float]]] = {"base": [], "new": []}
    for n in range(a.runs):
        order = ("base", "new") if n % 2 == 0 else ("new", "base")
        for name in order:
            wall, cpu, rss, cores = run_once(a.base if name == "base" else a.new, args, a.timeline)
            results[name].append((wall, cpu, rss))
            line = f"{name:4s} run {n + 1}: {wall:6.2f} s wall, {cpu:6.2f} s CPU, peak RSS {rss:5.0f} MB"
            print(line + (("  cores: " + " ".join(f"{c:.1f}" for c in cores)) if cores else ""), flush=True)
    base_wall = statistics.median(w for w, _, _ in results["base"])
    new_wall = statistics.median(w for w, _, _ in results["new"])
    for name, values in results.items():
        print(f"{name}: median {statistics.median(w for w, _, _ in values):.2f} s wall,"
              f" {statistics.median(c for _, c, _ in values):.2f} s CPU, peak RSS {max(r for _, _, r in values):.0f} MB")
    print(f"new / base wall: {new_wall / base_wall:.2f}x")
    if a.runs >= 4:
        print(f"paired: {_paired(results, 0)} wall, {_paired(results, 1)} CPU")
    return 0


def _paired(results: dict, measure: int) -> str:
    """The median of each run's new over its base (the two ran one after the other), with its
    quartiles: a machine whose speed drifts during the runs moves both of a pair alike, where
    it moves the two medians apart by when each ran."""
    ratios = [n[measure] / b[measure] for b, n in zip(results["base"], results["new"])]
    low, _, high = statistics.quantiles(ratios, n=4)
    return f"{statistics.median(ratios):.3f}x (quartiles {low:.2f}-{high:.2f})"


if __name__ == "__main__":
    raise SystemExit(main())
