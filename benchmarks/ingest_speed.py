#!/usr/bin/env python3
"""Side-by-side ingest wall time: this checkout's ``contextpull ingest`` against another one.

Runs both commands alternately (fresh store each time, so every run is a full ingest), N times
each, and prints the median of each and the ratio. Wall time includes interpreter start-up,
which is what a user or a CI step pays.

    python benchmarks/ingest_speed.py /work/shared/corpora/uv-docs \
        --ours .venv/bin/contextpull --peer /tmp/peer/bin/contextpull --runs 5
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path


def one_run(exe: str, corpus: str, store: Path) -> float:
    for suffix in ("", "-wal", "-shm"):
        Path(str(store) + suffix).unlink(missing_ok=True)
    started = time.perf_counter()
    subprocess.run([exe, "ingest", corpus, "--store", str(store)], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("--ours", default=".venv/bin/contextpull")
    parser.add_argument("--peer", default="/tmp/peer/bin/contextpull")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"ours": [], "peer": []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for name, exe in (("ours", args.ours), ("peer", args.peer)):
                times[name].append(one_run(exe, args.corpus, Path(tmp) / f"{name}.sqlite"))
    ours, peer = statistics.median(times["ours"]), statistics.median(times["peer"])
    for name in ("ours", "peer"):
        runs = " ".join(f"{t:.3f}" for t in times[name])
        print(f"{name}: median {statistics.median(times[name]):.3f} s  (runs: {runs})")
    print(f"ratio ours/peer: {ours / peer:.2f}")


if __name__ == "__main__":
    main()
