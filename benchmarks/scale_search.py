#!/usr/bin/env python3
"""Ranked search at scale (issue 39): ours and the published reader on the same store, one run.

  python benchmarks/scale_search.py STORE --queries benchmarks/queries/msdocs.json \
      --peer-python /work/peer/bin/python [--plain] [--json out.json]

For each query set of ``scale_queries.py`` (natural language, two common words, identifiers) the
same store is searched by: our reader (``search_impacts`` where the store has it), the published
0.2.1 reader (``--peer-python``), and with ``--plain`` our reader with the table ignored (the plain
FTS5 query). Each runs in its own interpreter, one after the other per set, every query once
after a warm-up of 10. Prints p50/p95/p99 per reader and set, and how many answers (ids, order,
scores; ``limit`` 10) are identical to the published reader's, and to ours-plain.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

DRIVER = r'''
import json, sys, time
cfg = json.load(open(sys.argv[1]))
from contextpull import Store, Ops
store = Store.open(cfg["store"])
ops = Ops(store)
if cfg["plain"]:
    ops._impacts = False  # ours with the table ignored: the plain FTS5 query
for q in cfg["queries"][:10]:
    ops.search(q, limit=10)
out = []
for q in cfg["queries"]:
    t = time.perf_counter()
    res = ops.search(q, limit=10)
    ms = (time.perf_counter() - t) * 1000
    out.append([ms, [[h.id, h.score] for h in res.hits]])
json.dump(out, open(cfg["out"], "w"))
'''


def run(python: str, store: Path, queries: list[str], plain: bool, tmp: Path, cwd: Path) -> list:
    cfg, out, driver = tmp / "cfg.json", tmp / "out.json", tmp / "driver.py"
    driver.write_text(DRIVER)
    cfg.write_text(json.dumps({"store": str(store), "queries": queries, "plain": plain, "out": str(out)}))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if cwd == REPO:  # ours: this checkout's package, whichever one the interpreter installs
        env["PYTHONPATH"] = str(REPO)
    subprocess.run([python, str(driver), str(cfg)], check=True, cwd=cwd, env=env)
    return json.loads(out.read_text())


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("store", type=Path)
    ap.add_argument("--queries", type=Path, default=HERE / "queries" / "msdocs.json")
    ap.add_argument("--our-python", default=str(REPO / ".venv" / "bin" / "python"))
    ap.add_argument("--peer-python", default=None)
    ap.add_argument("--plain", action="store_true", help="also run ours with search_impacts ignored")
    ap.add_argument("--sets", default="nl,common2,identifiers")
    ap.add_argument("--max", type=int, default=None, help="at most this many queries of each set")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    sets = json.loads(args.queries.read_text())
    readers = [("ours", args.our_python, False)]
    if args.peer_python:
        readers.append(("published", args.peer_python, False))
    if args.plain:
        readers.append(("ours-plain", args.our_python, True))
    report = {}
    with tempfile.TemporaryDirectory(prefix="scale-search-") as td:
        for name in args.sets.split(","):
            queries = sets[name][:args.max]
            results = {}
            for reader, python, plain in readers:
                cwd = REPO if reader.startswith("ours") else Path(td)  # the published reader from outside the checkout
                results[reader] = run(python, args.store, queries, plain, Path(td), cwd)
            row = {}
            for reader, res in results.items():
                ms = [r[0] for r in res]
                row[reader] = {"p50": pct(ms, 50), "p95": pct(ms, 95), "p99": pct(ms, 99), "n": len(ms)}
            for other in ("published", "ours-plain"):
                if other in results:
                    same = sum(a[1] == b[1] for a, b in zip(results["ours"], results[other]))
                    row[f"identical_to_{other}"] = same
            report[name] = row
            line = "  ".join(f"{r} {v['p50']:.1f}/{v['p95']:.1f}/{v['p99']:.1f}" for r, v in row.items() if isinstance(v, dict))
            same = "  ".join(f"{k}={v}/{len(queries)}" for k, v in row.items() if k.startswith("identical"))
            print(f"{name:12} p50/p95/p99 ms: {line}  {same}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
