#!/usr/bin/env python3
"""One large build, ours only (issue 8, "a scale run at 500,000 sections").

Builds CORPUS with ``contextpull build`` as a subprocess (wall time, CPU, peak RSS from wait4),
reports the store's size and its tables, then runs the shared harness's latency driver with our
reader on the built store (the harness's own workloads: search for two common words, a 3-word
query, identifiers; literal grep whole corpus and filtered).

  python benchmarks/scale_run.py --corpus synthetic:26000 --calls 30
  python benchmarks/scale_run.py --corpus /tmp/g8/syn26000 --json scale.json

The corpus spec is cpbench's; the store is written under --tmp (default: system temp).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import DEFAULT_CPBENCH, REPO, load_cpbench  # noqa: E402
from precompile import compile_package


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--our-python", default=str(REPO / ".venv" / "bin" / "python"))
    ap.add_argument("--cpbench", default=str(DEFAULT_CPBENCH))
    ap.add_argument("--root", default=os.environ.get("CPBENCH_ROOT", "/tmp/cpbench"))
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--op-budget-s", type=float, default=30.0)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    compile_package()  # as pip does on install (precompile.py)
    cp = load_cpbench(Path(args.cpbench))
    corpus, name = cp.resolve_corpus(args.corpus, Path(args.root) / "corpora") if ":" in args.corpus else (Path(args.corpus), Path(args.corpus).name)
    files = cp.corpus_files(corpus)
    work = Path(tempfile.mkdtemp(prefix=f"scale-{name}-", dir=args.tmp))
    out = work / "out"
    cli = [str(Path(args.our_python).parent / "contextpull")]
    cp.bound_hash(corpus, repeats=1)
    load_before = os.getloadavg()
    cp.log(f"building {len(files)} files")
    build = cp.timed_subprocess(cli + ["build", str(corpus), "--out", str(out), "--json"], work / "build.log")
    if build["rc"] != 0:
        raise SystemExit(f"build failed: {cp.read_tail(work / 'build.log')}")
    text = (work / "build.log").read_text()
    report = json.loads(text[text.index("{"):text.rindex("}") + 1])
    store = out / "store.sqlite"
    stats = cp.store_stats(store)
    cp.log("deriving queries")
    queries = cp.derive_queries(corpus, files, args.calls, 1)["queries"]
    cp.log("latency")
    with tempfile.TemporaryDirectory(prefix="scale-lat-") as td:
        latency = cp.run_latency(args.our_python, store, queries, args.calls, args.calls, args.op_budget_s, 1, Path(td))
    result = {
        "corpus": {"spec": args.corpus, "files": len(files), "bytes": sum((corpus / f).stat().st_size for f in files)},
        "loadavg": {"before": load_before, "after": os.getloadavg()},
        "build": build,
        "build_timings": report.get("timings"),
        "store": stats,
        "latency": latency,
    }
    print(f"corpus {name}: {len(files)} files, {stats['sections']:,} sections")
    print(f"build: {build['wall_s']:.1f} s wall, {build['cpu_s']:.1f} s CPU, peak RSS {build['maxrss_mb']:.0f} MB; timings {report.get('timings')}")
    print(f"store: {stats['file_bytes']:,} bytes, {stats['bytes_per_section']:,.0f} bytes/section")
    print(f"tables: { {k: round(v / 1e6, 1) for k, v in list(stats.get('tables_bytes', {}).items())[:6]} } MB")
    for op, rec in latency["ops"].items():
        if "p50_ms" in rec:
            print(f"  {op:18} p50 {rec['p50_ms']:8.1f} ms  p95 {rec['p95_ms']:8.1f} ms  (n={rec['n']})")
    print(f"load average before {tuple(round(x, 1) for x in load_before)}, after {tuple(round(x, 1) for x in os.getloadavg())}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
