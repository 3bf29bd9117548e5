#!/usr/bin/env python3
"""One row per repository, built by two checkouts with ``--dialect auto``: what a reading change
did to it (benchmarks/README.md, "Forty-seven more repositories, read as a new user would").

    .venv/bin/python benchmarks/before_after.py --before CLI --after CLI \\
        --repo vuejs/pinia=/tmp/pinia:packages/docs --repo rust-lang/cargo=/tmp/cargo:doc/book/src

A CLI is a command that runs ``contextpull`` from a checkout (``PYTHONPATH=CHECKOUT python -P -m
contextpull.cli "$@"``). A repository is a plain tree with a ``.git`` folder (the guard root).
Each cell is before -> after: the dialect detected, documents, sections, the share of sections
showing markup a reader never sees (``docs_markup``), the build report's ``unresolved`` notes, and
sections whose prose still holds a link reference definition (``[label]: url``).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_markup as dm  # noqa: E402

_DEFINITION = re.compile(r"^ {0,3}\[[^\]^\n][^\]\n]*\]:(?:[ \t]|$)", re.M)


def measure(cli: str, repo: Path, docs: str) -> dict:
    out = Path(tempfile.mkdtemp(prefix="before-after-"))
    try:
        done = subprocess.run([cli, "build", str(repo / docs), "--out", str(out / "o"), "--json", "--dialect", "auto"],
                              capture_output=True, text=True, cwd=repo, env={"SOURCE_DATE_EPOCH": "0", "PATH": "/usr/bin:/bin"})
        if done.returncode != 0:
            raise SystemExit(f"{cli} failed on {repo / docs}: {done.stderr[-500:]}")
        report = json.loads(done.stdout)
        dialect = report.get("dialect") or {}
        store = out / "o" / "store.sqlite"
        found = dm.analyse_store(store, repo / docs, repo, titles_as_text=True)
        con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        try:
            documents = con.execute("SELECT count(*) FROM documents").fetchone()[0]
            definitions = sum(1 for (text,) in con.execute("SELECT text FROM sections") if _DEFINITION.search(dm.outside_code(text)))
        finally:
            con.close()
        return {
            "dialect": dialect.get("name") or "plain",
            "documents": documents,
            "sections": found["sections"],
            "markup": f"{found['markup_share'] * 100:.1f} %",
            "unresolved": sum(v.get("unresolved", 0) for v in dialect.get("constructs", {}).values()),
            "definitions": definitions,
        }
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--before", required=True, help="the CLI of the checkout before")
    parser.add_argument("--after", required=True, help="the CLI of the checkout after")
    parser.add_argument("--repo", action="append", required=True, metavar="NAME=TREE:DOCS")
    args = parser.parse_args(argv)
    columns = ("dialect", "documents", "sections", "markup", "unresolved", "definitions")
    print("| repository | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for spec in args.repo:
        name, _, rest = spec.partition("=")
        tree, _, docs = rest.rpartition(":")
        before, after = (measure(cli, Path(tree), docs) for cli in (args.before, args.after))
        cells = [str(before[c]) if before[c] == after[c] else f"{before[c]} -> {after[c]}" for c in columns]
        print(f"| {name} (`{docs}`) | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
