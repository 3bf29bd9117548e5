"""A generated corpus past 1,000 documents and 1,000 sections (issue 28).

  python benchmarks/large_corpus.py OUT [--docs N]

Counts past 1,000 are where the index text first prints a number that could carry a thousands
separator, and none of the agreement corpora reaches them. The corpus is a pure function of N:
folders of Markdown pages, each a title, an opening paragraph and one to three sections of
prose, a table or a code block, with words from a fixed vocabulary chosen by a fixed-seed
generator, so the same N gives the same bytes on every machine. ``write`` is imported by the
regression tests; ``benchmarks/agreement.py OUT`` compares both writers on it.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

WORDS = (
    "cache index resolver lockfile workspace python package install build wheel source tool"
    " environment version marker platform script project dependency upgrade mirror network"
    " registry credential token timeout retry compile export import config setting section"
).split()
FOLDERS = 14


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def page(i: int, rng: random.Random) -> str:
    lines = [f"# Topic {i}: {rng.choice(WORDS)} {rng.choice(WORDS)}", ""]
    lines += [" ".join(_sentence(rng, rng.randint(8, 14)) for _ in range(2)), ""]
    for k in range(rng.randint(1, 3)):
        lines += [f"## Part {k + 1} {rng.choice(WORDS)}", ""]
        shape = rng.randint(0, 5)
        if shape == 0:
            lines += ["| setting | value |", "|---|---|"]
            lines += [f"| {rng.choice(WORDS)}-{j} | {rng.randint(1, 999)} |" for j in range(3)]
        elif shape == 1:
            lines += ["```toml", f"[tool.{rng.choice(WORDS)}]", f"{rng.choice(WORDS)} = {rng.randint(1, 99)}", "```"]
        else:
            lines += [" ".join(_sentence(rng, rng.randint(10, 18)) for _ in range(3))]
        lines.append("")
    return "\n".join(lines)


def write(out: Path, docs: int = 1100) -> Path:
    """``docs`` pages under ``out`` (created), in FOLDERS folders; returns ``out``. The first half
    goes to ``area-00/``, so one folder's line and its ``index(prefix)`` header also count past
    1,000 sections."""
    rng = random.Random(28)
    for i in range(docs):
        folder = out / ("area-00" if i < docs // 2 else f"area-{1 + i % (FOLDERS - 1):02d}")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"topic-{i:04d}.md").write_text(page(i, rng), encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--docs", type=int, default=1100)
    args = ap.parse_args(argv)
    write(args.out, args.docs)
    print(f"{args.docs} documents in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
