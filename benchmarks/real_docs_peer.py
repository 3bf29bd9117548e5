#!/usr/bin/env python3
"""Real documentation repositories against the published implementation (issue 26, build time).

``real_docs.py`` compares a ``--dialect auto`` build with a ``--dialect plain`` build of the same
code: what reading a site as its generator does costs over reading its files as plain Markdown.
A user choosing a tool compares something else: the time from a docs folder to a store, with
the published ``contextpull ingest`` (which reads every site as plain Markdown, and skips the
``.mdx`` and ``.rst`` it cannot read) beside ``contextpull build --dialect auto``. This script
runs the three alternately on each repository of ``real_docs.REPOSITORIES`` and prints the
medians, wall and CPU (user + system of the command and its children, from wait4), and the two
ratios to the published ingest.

    python -m venv /tmp/peer && /tmp/peer/bin/pip install contextpull==0.2.1
    .venv/bin/python benchmarks/real_docs_peer.py --corpora corpora --peer /tmp/peer/bin/contextpull --repeats 5
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_docs import REPOSITORIES, as_checkout, run_child  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def commands(ours: list[str], peer: str, docs: Path, out: Path) -> dict[str, list[str]]:
    return {
        "published ingest": [peer, "ingest", str(docs), "--store", str(out / "peer" / "store.sqlite")],
        "ours plain": [*ours, "build", str(docs), "--out", str(out / "plain"), "--dialect", "plain"],
        "ours auto": [*ours, "build", str(docs), "--out", str(out / "auto"), "--dialect", "auto"],
    }


def measure(name: str, docs_rel: str, *, corpora: Path, ours: list[str], peer: str, repeats: int,
            work: Path) -> dict:
    repo = (corpora / name).resolve()
    if not (repo / ".git").exists():
        repo = as_checkout(repo, work / f"{name}-checkout")
    runs: dict[str, list[dict]] = {}
    for i in range(repeats):
        cmds = commands(ours, peer, repo / docs_rel, work / name)
        order = list(cmds) if i % 2 == 0 else list(cmds)[::-1]
        for label in order:
            for sub in ("peer", "plain", "auto"):
                shutil.rmtree(work / name / sub, ignore_errors=True)
            (work / name / "peer").mkdir(parents=True, exist_ok=True)
            run = run_child(cmds[label], 600)
            if run["rc"] not in (0, 1):
                raise SystemExit(f"{name}: {label} exited {run['rc']}: {run['stderr'].strip()[-300:]}")
            runs.setdefault(label, []).append(run)
    row = {"name": name}
    for label, done in runs.items():
        row[label] = {"wall_s": statistics.median(r["wall_s"] for r in done),
                      "cpu_s": statistics.median(r["cpu_s"] for r in done)}
    peer_row = row["published ingest"]
    for label in ("ours plain", "ours auto"):
        row[label]["wall_ratio"] = row[label]["wall_s"] / peer_row["wall_s"]
        row[label]["cpu_ratio"] = row[label]["cpu_s"] / peer_row["cpu_s"]
    return row


def table(rows: list[dict]) -> str:
    lines = ["| repository | published ingest s (CPU) | ours plain s (CPU) | ours auto s (CPU) | auto / published, wall (CPU) |",
             "|---|---|---|---|---|"]
    for r in rows:
        p, pl, au = r["published ingest"], r["ours plain"], r["ours auto"]
        lines.append(f"| {r['name']} | {p['wall_s']:.2f} ({p['cpu_s']:.2f}) | {pl['wall_s']:.2f} ({pl['cpu_s']:.2f}) | "
                     f"{au['wall_s']:.2f} ({au['cpu_s']:.2f}) | {au['wall_ratio']:.2f}x ({au['cpu_ratio']:.2f}x) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, required=True, help="folder holding one checkout per repository")
    parser.add_argument("--peer", required=True, help="the published contextpull command")
    parser.add_argument("--cli", default=f"{sys.executable} -m contextpull", help="our contextpull command")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", action="append", default=[], help="a repository name (repeatable)")
    parser.add_argument("--json", type=Path, help="write the rows here too")
    args = parser.parse_args(argv)
    names = {r[0] for r in REPOSITORIES}
    unknown = sorted(set(args.only) - names)
    if unknown:
        parser.error(f"--only: no repository named {', '.join(unknown)}")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "contextpull")], check=False)
    rows = []
    with tempfile.TemporaryDirectory(prefix="real-docs-peer-") as tmp:
        for name, _generator, _url, _commit, docs in REPOSITORIES:
            if args.only and name not in args.only:
                continue
            rows.append(measure(name, docs, corpora=args.corpora, ours=args.cli.split(), peer=args.peer,
                                repeats=args.repeats, work=Path(tmp)))
            print(f"{name}: done", file=sys.stderr)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
