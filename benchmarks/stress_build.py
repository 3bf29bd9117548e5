#!/usr/bin/env python3
"""Many builds under load, every store checked against the serial build's bytes (issue 34: a build
cannot fail from its own concurrency, and the same inputs give the same store every time).

    python benchmarks/stress_build.py [--rounds 25] [--busy 2] [--work DIR] [--dialect-pages 300]

Two corpora are written into a temporary folder (outside any git checkout, with a fixed
``SOURCE_DATE_EPOCH``, so provenance cannot vary): a Hugo site of ``--dialect-pages`` pages
(includes, shortcodes, callouts: enough pages that a dialect build hands them to a parse
worker) and a plain corpus of Markdown and text. Each has two states, A and B (B edits one
page, adds one and removes one), and each state's reference sha256 is its serial, fresh build's.

Each round builds every combination of corpus (dialect, plain), parse worker (on:
``CONTEXTPULL_JOBS=2``; off: ``CONTEXTPULL_JOBS=1``) and cache (``fresh``: a new OUT;
``in-place``: OUT still holding the other state's store, built with ``--cache OUT/store.sqlite``;
``other``: ``--cache`` of a store in another folder), alternating the state, with ``--busy``
CPU-bound processes running the whole time: 12 builds a round. A build fails when it exits
non-zero or its store's sha256 differs from its state's reference. Prints one line per failure
and ``builds N, failures F``; exit 0 when none failed.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import busy  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "contextpull"]


def hugo_site(root: Path, pages: int, state: str) -> Path:
    files = {
        "hugo.toml": 'title = "Stress"\n[params]\nversion = "3.1"\n',
        "content/_common/note.md": "Shared text from an include, the same on every page.\n",
        "layouts/_shortcodes/box.html": "{{ .Inner }}\n",
    }
    for i in range(pages):
        files[f"content/section{i % 7}/page{i:04d}.md"] = (
            f"---\ntitle: Page {i}\ndescription: About page {i}.\n---\n\n## Part {i}\n\n"
            f'{{{{% include "/_common/note.md" %}}}}\n\n{{{{< box >}}}}Boxed {i} {{{{< param version >}}}}{{{{< /box >}}}}\n\n'
            f"> [!NOTE]\n> Callout {i}.\n\n```go\nfunc F{i}() int {{ return {i} }}\n```\n\n"
            + "".join(f"### Step {i}.{k}\n\nText of step {k} on page {i}, with words to index.\n\n" for k in range(4))
        )
    _vary(files, state, lambda name: f"content/section{name % 7}/page{name:04d}.md")
    return _write(root, files) / "content"


def plain_corpus(root: Path, pages: int, state: str) -> Path:
    files = {}
    for i in range(pages):
        name = f"docs/area{i % 5}/doc{i:04d}." + ("txt" if i % 4 == 0 else "md")
        files[name] = f"# Document {i}\n\n" + "".join(
            f"## Heading {i}.{k}\n\nPlain paragraph {k} of document {i} about retries, refunds and limits.\n\n"
            "| key | value |\n|---|---|\n| a | 1 |\n\n" for k in range(5)
        )
    _vary(files, state, lambda name: f"docs/area{name % 5}/doc{name:04d}." + ("txt" if name % 4 == 0 else "md"))
    return _write(root, files) / "docs"


def _vary(files: dict[str, str], state: str, path_of) -> None:
    """State B: page 1 edited, page 2 removed, one page added."""
    if state == "B":
        files[path_of(1)] += "\n## Edited\n\nA paragraph only state B has.\n"
        del files[path_of(2)]
        files[path_of(10_000)] = "# Added in B\n\nA page only state B has.\n"


def _write(root: Path, files: dict[str, str]) -> Path:
    (root / ".git").mkdir(parents=True)  # the repository root a generator's configuration is looked for at
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build(docs: Path, out: Path, jobs: str, cache: Path | None, log: Path) -> tuple[int, float]:
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "CONTEXTPULL_JOBS": jobs}
    env = {k: v for k, v in env.items() if not k.startswith("GITHUB_")}
    command = [*CLI, "build", str(docs), "--out", str(out)] + (["--cache", str(cache)] if cache else [])
    started = time.monotonic()
    with open(log, "a") as handle:
        handle.write(f"$ {' '.join(command)}  (CONTEXTPULL_JOBS={jobs})\n")
        handle.flush()
        code = subprocess.run(command, env=env, stdout=handle, stderr=subprocess.STDOUT, cwd=docs.parent).returncode
    return code, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=25, help="12 builds a round")
    parser.add_argument("--busy", type=int, default=2)
    parser.add_argument("--dialect-pages", type=int, default=300)
    parser.add_argument("--plain-pages", type=int, default=300)
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="stress-build-"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    log = work / "builds.log"
    corpora = {}
    for kind, make, pages in (("dialect", hugo_site, args.dialect_pages), ("plain", plain_corpus, args.plain_pages)):
        for state in "AB":
            corpora[kind, state] = make(work / "corpora" / f"{kind}-{state}", pages, state)
    reference = {}
    for key, docs in corpora.items():
        out = work / "reference" / "-".join(key)
        code, _ = build(docs, out, "1", None, log)
        if code != 0:
            print(f"the serial reference build of {key} failed (exit {code}); see {log}")
            return 2
        reference[key] = sha256(out / "store.sqlite")
    dialect = subprocess.run([*CLI, "build", str(corpora["dialect", "A"]), "--out", str(work / "probe"), "--json"],
                             capture_output=True, text=True, cwd=work).stdout
    if '"hugo"' not in dialect:
        print("the dialect corpus was not read as a Hugo site")
        return 2
    print(f"work {work}; references: " + ", ".join(f"{k}-{s} {h[:12]}" for (k, s), h in reference.items()), flush=True)

    builds = failures = 0
    seconds: list[float] = []
    combos = list(itertools.product(("dialect", "plain"), ("2", "1"), ("fresh", "in-place", "other")))
    with busy(args.busy):
        for round_no in range(args.rounds):
            state, previous = ("A", "B") if round_no % 2 == 0 else ("B", "A")
            for kind, jobs, cache in combos:
                tag = f"{kind}-w{jobs}-{cache}"
                out = work / "outs" / tag
                docs = corpora[kind, state]
                cache_path = None
                if cache == "fresh":
                    shutil.rmtree(out, ignore_errors=True)
                elif cache == "in-place":
                    if not (out / "store.sqlite").exists():  # first round: seed OUT with the other state
                        shutil.copytree(work / "reference" / f"{kind}-{previous}", out)
                    cache_path = out / "store.sqlite"
                else:
                    cache_path = work / "reference" / f"{kind}-{previous}" / "store.sqlite"
                code, took = build(docs, out, jobs, cache_path, log)
                builds += 1
                seconds.append(took)
                got = sha256(out / "store.sqlite") if code == 0 and (out / "store.sqlite").exists() else "-"
                if code != 0 or got != reference[kind, state]:
                    failures += 1
                    print(f"FAIL round {round_no} {tag} state {state}: exit {code}, sha256 {got[:12]}", flush=True)
            print(f"round {round_no + 1}/{args.rounds}: builds {builds}, failures {failures}", flush=True)
    seconds.sort()
    print(f"median build {seconds[len(seconds) // 2]:.2f} s, slowest {seconds[-1]:.2f} s")
    print(f"builds {builds}, failures {failures}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
