"""No-change re-ingest, ours against the published CLI, alternating in one run (issue 8).

    python benchmarks/noop_ingest.py CORPUS --ours .venv/bin/contextpull --peer /tmp/peer/bin/contextpull --runs 9

Both stores are first brought up to date (one full ingest each, not timed); then each run is a
re-ingest that finds nothing changed. Prints every run and the medians with their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from precompile import compile_package


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("--ours", default=".venv/bin/contextpull")
    ap.add_argument("--peer", default="/tmp/peer/bin/contextpull")
    ap.add_argument("--runs", type=int, default=9)
    a = ap.parse_args()
    compile_package()  # as pip does on install (precompile.py)
    with tempfile.TemporaryDirectory() as tmp:
        clis = {"ours": (a.ours, Path(tmp) / "ours.sqlite"), "published": (a.peer, Path(tmp) / "peer.sqlite")}
        for cli, store in clis.values():
            subprocess.run([cli, "ingest", a.corpus, "--store", str(store)], capture_output=True, check=True)
        times: dict[str, list[float]] = {name: [] for name in clis}
        for _ in range(a.runs):
            for name, (cli, store) in clis.items():
                started = time.perf_counter()
                subprocess.run([cli, "ingest", a.corpus, "--store", str(store)], capture_output=True, check=True)
                times[name].append(time.perf_counter() - started)
    for name, values in times.items():
        print(name, " ".join(f"{v:.3f}" for v in values))
    ours, peer = statistics.median(times["ours"]), statistics.median(times["published"])
    print(f"no-change ingest: ours {ours:.3f} s, published {peer:.3f} s, ratio {ours / peer:.2f}x")


if __name__ == "__main__":
    main()
