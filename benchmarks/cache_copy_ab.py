"""The cache's copy made by the kernel against the copy through buffers, alternating (issue 8).

    python benchmarks/cache_copy_ab.py OUT/store.sqlite [--runs 7]

Both are ``contextpull.artifact.cache_copy.CacheCopy``; the buffered run has the kernel copy
refused, as on a file system that does not support it. Each run copies the store to a new file
beside it, checks the copy's digest against the store's ``.sha256`` (or its own hash), and the
two take turns, so a machine that slows down mid-run costs both alike. Prints each time, the
medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from contextpull.artifact import cache_copy  # noqa: E402
from contextpull.writing.fingerprint import file_sha256  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sha_file = Path(f"{args.store}.sha256")
    want = sha_file.read_text().split()[0] if sha_file.exists() else file_sha256(args.store)
    kernel = cache_copy._kernel_copy

    def refused(*_args):
        raise cache_copy._NoKernelCopy

    times: dict[str, list[float]] = {"kernel": [], "buffers": []}
    target = args.store.with_name(args.store.name + ".ab-copy")
    try:
        for run in range(args.runs):
            for label in ("buffers", "kernel") if run % 2 == 0 else ("kernel", "buffers"):
                cache_copy._kernel_copy = kernel if label == "kernel" else refused
                target.unlink(missing_ok=True)
                started = time.perf_counter()
                copy = cache_copy.CacheCopy(args.store, target)
                copy.wait()
                times[label].append(time.perf_counter() - started)
                if not copy.complete or copy.digest != want:
                    raise SystemExit(f"{label}: the copy does not match {args.store}")
    finally:
        cache_copy._kernel_copy = kernel
        target.unlink(missing_ok=True)
    for label, values in times.items():
        print(f"{label:8s}", " ".join(f"{t:.3f}" for t in values), f"median {statistics.median(values):.3f} s")
    print(f"kernel / buffers: {statistics.median(times['kernel']) / statistics.median(times['buffers']):.2f}x")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
