#!/usr/bin/env python3
"""Reproducible and incremental `contextpull build` figures (issue 4; issue 8's build rows).

Runs the CLI as subprocesses and prints a markdown table:

- reproducibility: two copies of a corpus, made at different times (different mtimes), built from
  different working directories into different folders: same sha256 or not;
- full build, `build --cache` with nothing changed, and `build --cache` after one document
  changed (its bytes compared with a fresh build of the changed corpus), on one corpus.

Usage:
  python benchmarks/build_bench.py repro --corpus ../shared/corpora/uv-docs
  python benchmarks/build_bench.py incremental --docs 5000 [--repeats 3] [--contextpull .venv/bin/contextpull]

The synthetic corpus comes from the shared harness's generator (cpbench.py gen synthetic), cached
under $CPBENCH_ROOT or /tmp/cpbench/corpora. Medians of --repeats runs; the machine is shared,
so quote ratios rather than absolute times.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from contextpull.build.fingerprint import file_sha256 as sha256

HERE = Path(__file__).resolve().parent
CPBENCH = HERE.parent.parent / "shared" / "bench" / "cpbench.py"


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("CONTEXTPULL_")}
    e.pop("SOURCE_DATE_EPOCH", None)
    e.pop("GITHUB_SHA", None)
    return e


def run_build(cli: str, docs: Path, out: Path, *extra: str, cwd: Path | None = None) -> tuple[float, dict]:
    started = time.perf_counter()
    proc = subprocess.run(
        [cli, "build", str(docs), "--out", str(out), "--json", *extra],
        capture_output=True, text=True, env=env(), cwd=cwd,
    )
    elapsed = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        raise SystemExit(f"build failed ({proc.returncode}): {proc.stderr.strip()}")
    return elapsed, json.loads(proc.stdout)


def cmd_repro(a: argparse.Namespace) -> int:
    src = Path(a.corpus).resolve()
    with tempfile.TemporaryDirectory(prefix="cp-repro-") as tmp:
        tmp = Path(tmp)
        first = tmp / "a" / "docs"
        shutil.copytree(src, first)
        time.sleep(1.5)  # the second copy is made later: every mtime differs
        second = tmp / "b" / "elsewhere" / "docs-copy"
        shutil.copytree(src, second, copy_function=shutil.copyfile)
        _, r1 = run_build(a.contextpull, first, tmp / "a" / "out", cwd=tmp / "a")
        _, r2 = run_build(a.contextpull, Path("elsewhere/docs-copy"), Path("out2"), cwd=tmp / "b")
        s1, s2 = r1["manifest"]["store"]["sha256"], r2["manifest"]["store"]["sha256"]
        m = r1["manifest"]
        print(f"| corpus | documents | sections | build 1 sha256 | build 2 sha256 | identical |")
        print("|---|---:|---:|---|---|---|")
        print(f"| {src.name} | {m['counts']['documents']} | {m['counts']['sections']} | `{s1}` | `{s2}` | {'yes' if s1 == s2 else 'NO'} |")
    return 0 if s1 == s2 else 1


def synthetic(n_docs: int) -> Path:
    root = Path(os.environ.get("CPBENCH_ROOT", "/tmp/cpbench")) / "corpora" / f"synthetic-{n_docs}-0"
    if not root.exists() or not any(root.iterdir()):
        subprocess.run([sys.executable, str(CPBENCH), "gen", "synthetic", "--docs", str(n_docs), "--out", str(root)], check=True)
    return root


def cmd_incremental(a: argparse.Namespace) -> int:
    base = Path(a.corpus).resolve() if a.corpus else synthetic(a.docs)
    full, nochange, onechange = [], [], []
    identical = []
    with tempfile.TemporaryDirectory(prefix="cp-incr-") as tmp:
        tmp = Path(tmp)
        docs = tmp / "docs"
        shutil.copytree(base, docs)
        victim = sorted(p for p in docs.rglob("*.md"))[len(list(docs.rglob("*.md"))) // 2]
        original = victim.read_text(encoding="utf-8")
        for i in range(a.repeats):
            victim.write_text(original, encoding="utf-8")
            out = tmp / f"out{i}"
            t, report = run_build(a.contextpull, docs, out)
            full.append(t)
            store = out / "store.sqlite"
            t, r = run_build(a.contextpull, docs, out, "--cache", str(store))
            assert r["cache"]["reuse"] == "whole", r["cache"]
            nochange.append(t)
            victim.write_text(original + f"\n\n## Edited {i}\n\nOne more paragraph, edit {i}.\n", encoding="utf-8")
            t, r = run_build(a.contextpull, docs, out, "--cache", str(store))
            onechange.append(t)
            assert r["cache"]["parsed_documents"] == 1, r["cache"]
            _, fresh = run_build(a.contextpull, docs, tmp / f"fresh{i}")
            identical.append(sha256(store) == sha256(tmp / f"fresh{i}" / "store.sqlite"))
            shutil.rmtree(tmp / f"fresh{i}")
            shutil.rmtree(out)
        m = report["manifest"]
    f, n, o = (statistics.median(x) for x in (full, nochange, onechange))
    print(f"corpus: {base} ({m['counts']['documents']} documents, {m['counts']['sections']} sections,"
          f" store {m['store']['bytes'] / 1e6:.1f} MB); medians of {a.repeats}")
    print()
    print("| build | wall time | vs full build | output |")
    print("|---|---:|---:|---|")
    print(f"| full (no cache) | {f:.2f} s | 1.00x | |")
    print(f"| `--cache`, nothing changed | {n:.2f} s | {n / f:.2f}x | cached artifact reused whole |")
    print(f"| `--cache`, one document changed | {o:.2f} s | {o / f:.2f}x | byte-identical to a fresh build: {'yes' if all(identical) else 'NO'} |")
    return 0 if all(identical) else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--contextpull", default=str(HERE.parent / ".venv" / "bin" / "contextpull"))
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("repro")
    r.add_argument("--corpus", required=True)
    r.set_defaults(func=cmd_repro)
    i = sub.add_parser("incremental")
    i.add_argument("--docs", type=int, default=5000)
    i.add_argument("--corpus", default=None, help="use this folder instead of a synthetic corpus")
    i.add_argument("--repeats", type=int, default=3)
    i.set_defaults(func=cmd_incremental)
    a = p.parse_args(argv)
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main())
