#!/usr/bin/env python3
"""Ours against the published implementation, back to back in one run (issue 8).

For each corpus it times, alternating the two implementations so both see the same machine load:

- full ``ingest`` into a fresh store (published and ours) and full ``contextpull build`` (ours);
- no-change ``ingest`` and ``ingest`` after one document changed (both);
- ``build --cache`` with nothing changed (cache = the previous artifact, in place and into a
  new folder) and after one document changed, whose bytes are compared with a fresh build;
- the shared harness's lower bound (hash every file; insert the same sections into FTS5);
- store bytes per section of each store;
- read latency with the harness's own driver and queries, for both readers on the same store
  (our built artifact, which carries the optional trigram table), with result digests.

Wall times are of the CLI as a subprocess (interpreter start included), peak RSS from wait4.
Prints one markdown table per corpus and writes the raw figures as JSON.

  python benchmarks/compare.py --corpus synthetic:5000 --corpus replicate:62:../shared/corpora/uv-docs
  python benchmarks/compare.py --corpus synthetic:5000 --repeats 3 --calls 40 --json out.json

The corpus specs are cpbench's (``synthetic:N``, ``replicate:K:DIR``, or a folder); generated
corpora are cached under $CPBENCH_ROOT or /tmp/cpbench/corpora.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from contextpull.writing.fingerprint import file_sha256 as sha256_file
from precompile import compile_package

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_CPBENCH = REPO.parent / "shared" / "bench" / "cpbench.py"


def load_cpbench(path: Path):
    spec = importlib.util.spec_from_file_location("cpbench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


class Runner:
    def __init__(self, cp, work: Path, peer_cli: list[str], our_cli: list[str]):
        self.cp, self.work = cp, work
        self.peer_cli, self.our_cli = peer_cli, our_cli
        self.log = work / "commands.log"
        self.times: dict[str, list[dict]] = {}

    def run(self, key: str, cmd: list[str], log: Path | None = None) -> dict:
        log = log or self.log
        os.sync()  # earlier writes' writeback must not land in this timing
        res = self.cp.timed_subprocess(cmd, log)
        if res["rc"] not in (0,):
            raise SystemExit(f"{key}: exit {res['rc']}: {' '.join(cmd)}\n{self.cp.read_tail(log)}")
        self.times.setdefault(key, []).append(res)
        return res

    def ingest(self, key: str, cli: list[str], corpus: Path, store: Path) -> dict:
        return self.run(key, cli + ["ingest", str(corpus), "--store", str(store)])

    def build(self, key: str, corpus: Path, out: Path, cache: Path | None = None) -> dict:
        cmd = self.our_cli + ["build", str(corpus), "--out", str(out), "--json"]
        if cache is not None:
            cmd += ["--cache", str(cache)]
        log = self.work / "build.json"
        log.unlink(missing_ok=True)
        res = self.run(key, cmd, log)
        text = log.read_text()
        report = json.loads(text[text.index("{"):text.rindex("}") + 1])
        res["timings"] = report.get("timings")  # the build's own split: collect/write, trigram, finish
        res["reuse"] = report.get("cache", {}).get("reuse")
        return res

    def median(self, key: str) -> float:
        return statistics.median(r["wall_s"] for r in self.times[key])

    def rss(self, key: str) -> float:
        return max(r["maxrss_mb"] for r in self.times[key])


def rm_store(cp, store: Path) -> None:
    cp.remove_store(store)


def measure(cp, spec: str, args) -> dict:
    root = Path(args.root)
    source, name = cp.resolve_corpus(spec, root / "corpora")
    work = Path(tempfile.mkdtemp(prefix=f"compare-{name}-", dir=args.tmp))
    corpus = work / "corpus"
    shutil.copytree(source, corpus, symlinks=True)
    files = cp.corpus_files(corpus)
    cp.bound_hash(corpus, repeats=1)  # warm the page cache: every timing below is warm
    env_note = {"loadavg_before": os.getloadavg()}
    r = Runner(cp, work, args.peer_cli, args.our_cli)
    peer_store, our_store = work / "peer.sqlite", work / "ours.sqlite"
    out_a, out_b, out_fresh, out_cached = work / "out-a", work / "out-b", work / "out-fresh", work / "out-cached"
    target = corpus / files[len(files) // 2]
    original = target.read_bytes()
    identical = []
    for rep in range(args.repeats):
        cp.log(f"{name}: repeat {rep + 1}/{args.repeats}")
        rm_store(cp, peer_store)
        r.ingest("peer_full", args.peer_cli, corpus, peer_store)
        rm_store(cp, our_store)
        r.ingest("ours_full", args.our_cli, corpus, our_store)
        shutil.rmtree(out_a, ignore_errors=True)
        r.build("build_full", corpus, out_a)
        r.ingest("peer_noop", args.peer_cli, corpus, peer_store)
        r.ingest("ours_noop", args.our_cli, corpus, our_store)
        r.build("build_cache_same_inplace", corpus, out_a, out_a / "store.sqlite")
        shutil.rmtree(out_b, ignore_errors=True)
        r.build("build_cache_same_newdir", corpus, out_b, out_a / "store.sqlite")
        target.write_bytes(original + f"\n\nEdited for the comparison, run {rep}: QZ-EDIT-{rep:03d}.\n".encode())
        try:
            r.ingest("peer_change", args.peer_cli, corpus, peer_store)
            r.ingest("ours_change", args.our_cli, corpus, our_store)
            shutil.rmtree(out_cached, ignore_errors=True)
            r.build("build_cache_change", corpus, out_cached, out_a / "store.sqlite")
            shutil.rmtree(out_fresh, ignore_errors=True)
            r.build("build_full_changed", corpus, out_fresh)
            identical.append(sha256_file(out_cached / "store.sqlite") == sha256_file(out_fresh / "store.sqlite"))
        finally:
            target.write_bytes(original)
        r.ingest("peer_noop", args.peer_cli, corpus, peer_store)  # back to the original corpus
        r.ingest("ours_noop", args.our_cli, corpus, our_store)
    built = out_a / "store.sqlite"
    result: dict = {
        "corpus": {"spec": spec, "name": name, "files": len(files)},
        "host": env_note,
        "times": r.times,
        "cache_change_byte_identical": identical,
        "stores": {
            "peer_ingest": cp.store_stats(peer_store),
            "ours_ingest": cp.store_stats(our_store),
            "ours_build": cp.store_stats(built),
        },
    }
    if not args.no_bound:
        cp.log(f"{name}: lower bound")
        result["bound"] = cp.measure_bound(corpus, our_store, work)
    if not args.no_latency:
        cp.log(f"{name}: latency, both readers on our built store")
        queries = cp.derive_queries(corpus, files, args.calls, 1)["queries"]
        result["latency"] = {}
        for label, py in (("peer", args.peer_python), ("ours", args.our_python)):
            with tempfile.TemporaryDirectory(prefix="compare-lat-") as td:
                result["latency"][label] = cp.run_latency(
                    py, built, queries, args.calls, args.calls, args.op_budget_s, 1, Path(td)
                )
    result["host"]["loadavg_after"] = os.getloadavg()
    result["medians"] = {key: r.median(key) for key in r.times}
    result["peak_rss_mb"] = {key: r.rss(key) for key in r.times}
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}x" if a and b else "-"


def table(res: dict) -> str:
    m, rss, st = res["medians"], res["peak_rss_mb"], res["stores"]
    bound = res.get("bound", {}).get("total_s")
    lines = [
        f"### {res['corpus']['name']} ({res['corpus']['files']} files, {st['ours_build']['sections']:,} sections)",
        "",
        f"load average before {tuple(round(x, 1) for x in res['host']['loadavg_before'])},"
        f" after {tuple(round(x, 1) for x in res['host']['loadavg_after'])};"
        f" medians of {len(res['times']['peer_full'])} alternating runs",
        "",
        "| measure | published 0.2.1 | ours | ratio | target |",
        "|---|---:|---:|---:|---|",
        f"| full ingest | {m['peer_full']:.2f} s | {m['ours_full']:.2f} s | {ratio(m['ours_full'], m['peer_full'])} | <= 0.35x |",
        f"| full build (ours) vs published ingest | {m['peer_full']:.2f} s | {m['build_full']:.2f} s | {ratio(m['build_full'], m['peer_full'])} | <= 0.35x |",
    ]
    if bound:
        lines += [
            f"| harness lower bound | {bound:.2f} s | | | |",
            f"| full ingest / bound | | | {ratio(m['ours_full'], bound)} | <= 2.5x |",
            f"| full build / bound | | | {ratio(m['build_full'], bound)} | <= 2.5x |",
        ]
    same = res["cache_change_byte_identical"]
    lines += [
        f"| no-change ingest | {m['peer_noop']:.3f} s | {m['ours_noop']:.3f} s | {ratio(m['ours_noop'], m['peer_noop'])} | <= 0.6x |",
        f"| ingest, one document changed | {m['peer_change']:.3f} s | {m['ours_change']:.3f} s | {ratio(m['ours_change'], m['peer_change'])} | |",
        f"| build --cache, nothing changed, OUT is the cache | | {m['build_cache_same_inplace']:.3f} s | {ratio(m['build_cache_same_inplace'], m['build_full'])} of our build | <= 0.1x |",
        f"| build --cache, nothing changed, new OUT | | {m['build_cache_same_newdir']:.3f} s | {ratio(m['build_cache_same_newdir'], m['build_full'])} of our build | <= 0.1x |",
        f"| build --cache, one document changed | | {m['build_cache_change']:.3f} s | {ratio(m['build_cache_change'], m['build_full'])} of our build | <= 0.6x |",
        f"| ... byte-identical to a fresh build | | {'yes' if same and all(same) else 'NO'} ({sum(same)}/{len(same)}) | | identical |",
        f"| peak RSS: ingest / build | {rss['peer_full']:.0f} MB | {rss['ours_full']:.0f} / {rss['build_full']:.0f} MB | | < 200 MB |",
    ]
    peer_bps = st["peer_ingest"]["bytes_per_section"]
    for key, label in (("ours_ingest", "ingest"), ("ours_build", "build (with trigram table)")):
        bps = st[key]["bytes_per_section"]
        lines.append(f"| store bytes/section, ours {label} | {peer_bps:,.0f} | {bps:,.0f} | {ratio(bps, peer_bps)} | <= 1.4x |")
    lat = res.get("latency")
    if lat:
        for op in ("search_common2", "search_nl3", "search_identifier", "grep_literal", "grep_in", "read"):
            p, o = lat["peer"]["ops"].get(op, {}), lat["ours"]["ops"].get(op, {})
            if "p50_ms" not in p or "p50_ms" not in o:
                continue
            digest = "same" if p["digest"] == o["digest"] else "DIFFERENT"
            lines.append(
                f"| {op} p50 / p95 (results {digest}) | {p['p50_ms']:.1f} / {p['p95_ms']:.1f} ms |"
                f" {o['p50_ms']:.1f} / {o['p95_ms']:.1f} ms | {ratio(o['p50_ms'], p['p50_ms'])} | |"
            )
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", action="append", required=True, help="cpbench corpus spec; repeatable")
    ap.add_argument("--peer-python", default="/tmp/peer/bin/python")
    ap.add_argument("--our-python", default=str(REPO / ".venv" / "bin" / "python"))
    ap.add_argument("--cpbench", default=str(DEFAULT_CPBENCH))
    ap.add_argument("--root", default=os.environ.get("CPBENCH_ROOT", "/tmp/cpbench"))
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--calls", type=int, default=30, help="timed calls per read operation")
    ap.add_argument("--op-budget-s", type=float, default=20.0)
    ap.add_argument("--no-bound", action="store_true")
    ap.add_argument("--no-latency", action="store_true")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--json", default=None, help="write the raw figures here")
    args = ap.parse_args()
    compile_package()  # as pip does on install (precompile.py)
    cp = load_cpbench(Path(args.cpbench))
    args.peer_cli = [str(Path(args.peer_python).parent / "contextpull")]
    args.our_cli = [str(Path(args.our_python).parent / "contextpull")]
    results = []
    for spec in args.corpus:
        res = measure(cp, spec, args)
        results.append(res)
        print(table(res), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
