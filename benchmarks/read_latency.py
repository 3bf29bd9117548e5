"""Read-side latency on one store, for our reader or the published one (issue 3 / issue 8 figures).

  python benchmarks/read_latency.py STORE [--calls N]                  # our reader, this interpreter
  /tmp/peer/bin/python benchmarks/read_latency.py STORE --published    # the published 0.2.1 reader

Workloads on a ``cpbench.py gen synthetic`` store (vocabulary words, planted TX-iiiii-ss ids):
search for two common vocabulary words, unfiltered, with ``in`` one document and with ``in`` one
top-level directory; grep, literal, whole corpus, for a planted identifier.
Prints medians and p95 in ms plus a digest of the results, so two readers can be compared on the
same store in one run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

WORDS = "account billing cluster deploy driver engine filter gateway handler invoice".split()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("store")
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--published", action="store_true", help="import the published package's reader")
    args = parser.parse_args()
    if args.published:
        from contextpull.ops import Ops
        from contextpull.store import Store
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from contextpull import Ops, Store
    rng = random.Random(7)
    with Store.open(args.store) as store:
        ops = Ops(store)
        n_docs = store.conn.execute("SELECT count(*) FROM documents").fetchone()[0]
        paths = [p for (p,) in store.conn.execute("SELECT path FROM documents ORDER BY path")]
        pairs = lambda: " ".join(rng.sample(WORDS, 2))  # noqa: E731
        workloads = {
            "search, two common words": [(pairs(), None) for _ in range(args.calls)],
            "search, in = one document": [(pairs(), [rng.choice(paths)]) for _ in range(args.calls)],
            "search, in = one directory": [(pairs(), [rng.choice(paths).split("/")[0]]) for _ in range(args.calls)],
            "grep, literal, whole corpus": [
                (f"TX-{rng.randrange(n_docs):05d}-0{rng.randrange(8)}", None) for _ in range(args.calls)
            ],
        }
        for label, inputs in workloads.items():
            times, digest = [], hashlib.sha256()
            for item, in_ in inputs:
                start = time.perf_counter()
                result = ops.search(item, in_) if label.startswith("search") else ops.grep(item, in_)
                times.append((time.perf_counter() - start) * 1000)
                items = result.hits if label.startswith("search") else result.matches
                digest.update(json.dumps([i.id for i in items]).encode())
            times.sort()
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"{label:30} p50 {statistics.median(times):8.1f} ms  p95 {p95:8.1f} ms  digest {digest.hexdigest()[:12]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
