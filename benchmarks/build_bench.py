#!/usr/bin/env python3
"""Reproducible and incremental `contextpull build` figures (issue 4; issue 8's build rows).

Runs the CLI as subprocesses and prints a markdown table:

- reproducibility: two copies of a corpus, made at different times (different mtimes), built from
  different working directories into different folders: same sha256 or not;
- full build, `build --cache` with nothing changed, and `build --cache` after one document
  changed, at several places in the corpus (each compared byte for byte with a fresh build of
  the changed corpus): an edit re-indexes the chunk it falls in, and chunk sizes vary.

Usage:
  python benchmarks/build_bench.py repro --corpus ../shared/corpora/uv-docs
  python benchmarks/build_bench.py incremental --docs 5000 [--repeats 3] [--edits 5] [--contextpull .venv/bin/contextpull]

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

from contextpull.writing.fingerprint import file_sha256 as sha256
from precompile import compile_package

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
        print("| corpus | documents | sections | build 1 sha256 | build 2 sha256 | identical |")
        print("|---|---:|---:|---|---|---|")
        print(f"| {src.name} | {m['counts']['documents']} | {m['counts']['sections']} | `{s1}` | `{s2}` | {'yes' if s1 == s2 else 'NO'} |")
    return 0 if s1 == s2 else 1


def synthetic(n_docs: int) -> Path:
    root = Path(os.environ.get("CPBENCH_ROOT", "/tmp/cpbench")) / "corpora" / f"synthetic-{n_docs}-0"
    if not root.exists() or not any(root.iterdir()):
        subprocess.run([sys.executable, str(CPBENCH), "gen", "synthetic", "--docs", str(n_docs), "--out", str(root)], check=True)
    return root


def _chunk_share(store: Path, path: str) -> float:
    """The share of the corpus's bytes in the chunk that holds ``path`` (what an edit re-indexes)."""
    import sqlite3

    from contextpull.artifact import chunks

    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    docs = conn.execute("SELECT path, bytes FROM documents ORDER BY path").fetchall()
    conn.close()
    size, total = dict(docs), sum(b for _, b in docs)
    for _, paths in chunks.plan(docs):
        if path in paths:
            return sum(size[p] for p in paths) / total
    return 0.0


def cmd_incremental(a: argparse.Namespace) -> int:
    """Full build, then ``--cache`` builds after editing one document at each of ``--edits``
    places spread over the corpus (each from the full build's artifact, each compared with a
    fresh build of the edited corpus), and one with nothing changed."""
    base = Path(a.corpus).resolve() if a.corpus else synthetic(a.docs)
    full, nochange, rows = [], [], []
    with tempfile.TemporaryDirectory(prefix="cp-incr-") as tmp:
        tmp = Path(tmp)
        docs = tmp / "docs"
        shutil.copytree(base, docs)
        files = sorted(docs.rglob("*.md"))
        for i in range(a.repeats):
            out = tmp / f"out{i}"
            if out.exists():
                shutil.rmtree(out)
            t, report = run_build(a.contextpull, docs, out)
            full.append(t)
        store = out / "store.sqlite"
        t, r = run_build(a.contextpull, docs, tmp / "nochange", "--cache", str(store))
        assert r["cache"]["reuse"] == "whole", r["cache"]
        nochange.append(t)
        for k in range(a.edits):
            victim = files[(2 * k + 1) * len(files) // (2 * a.edits)]
            original = victim.read_text(encoding="utf-8")
            victim.write_text(original + f"\n\n## Edited {k}\n\nOne more paragraph, edit {k}.\n", encoding="utf-8")
            try:
                t, r = run_build(a.contextpull, docs, tmp / f"inc{k}", "--cache", str(store))
                assert r["cache"]["parsed_documents"] == 1, r["cache"]
                run_build(a.contextpull, docs, tmp / f"fresh{k}")
                same = sha256(tmp / f"inc{k}" / "store.sqlite") == sha256(tmp / f"fresh{k}" / "store.sqlite")
            finally:
                victim.write_text(original, encoding="utf-8")
            rel = victim.relative_to(docs).as_posix()
            rows.append((rel, _chunk_share(store, rel), t, r["cache"], same))
            shutil.rmtree(tmp / f"inc{k}")
            shutil.rmtree(tmp / f"fresh{k}")
        m = report["manifest"]
    f, n = statistics.median(full), statistics.median(nochange)
    times = [t for _, _, t, _, _ in rows]
    print(f"corpus: {base} ({m['counts']['documents']} documents, {m['counts']['sections']} sections,"
          f" store {m['store']['bytes'] / 1e6:.1f} MB); full build median of {a.repeats}")
    print()
    print("| build | wall time | vs full build | output |")
    print("|---|---:|---:|---|")
    print(f"| full (no cache) | {f:.2f} s | 1.00x | |")
    print(f"| `--cache`, nothing changed | {n:.2f} s | {n / f:.2f}x | cached artifact reused whole |")
    for rel, share, t, cache, same in rows:
        how = "patched" if cache.get("patched") else "copied"
        print(f"| `--cache`, `{rel}` changed (its chunk: {share:.0%} of the corpus; {how}) | {t:.2f} s | {t / f:.2f}x |"
              f" byte-identical to a fresh build: {'yes' if same else 'NO'} |")
    print(f"| `--cache`, one document changed: median of {len(times)} places | {statistics.median(times):.2f} s |"
          f" {statistics.median(times) / f:.2f}x | range {min(times) / f:.2f}-{max(times) / f:.2f}x |")
    return 0 if all(same for *_, same in rows) else 1


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
    i.add_argument("--repeats", type=int, default=3, help="full builds (the median is the reference)")
    i.add_argument("--edits", type=int, default=5, help="places in the corpus to edit, one at a time")
    i.set_defaults(func=cmd_incremental)
    a = p.parse_args(argv)
    compile_package()  # as pip does on install (precompile.py)
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main())
