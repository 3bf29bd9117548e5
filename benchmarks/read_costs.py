#!/usr/bin/env python3
"""What each page of a site costs to read, in build order, and whether a run's first pages tell
what the rest will cost (issue 35, "build time with auto no slower than at ee445c9").

A build under 256 pages reads them in its own process; one with a parse worker shares the reading
with a second core but pays for the worker (its start, the records shipped back). The worker
pays where the reading left after it starts is large. This script asks whether a run could
know that from its first pages: it builds DOCS serially (``Environment(jobs=1)``), times each
page's read (``engine.read_record``, the half a worker would take) in thread CPU time, and prints
per run:

- the pages, and their reading in all;
- ``projected``: the mean cost of pages ``--skip`` to ``--skip + --first``, times the pages after
  them, which is what a rule deciding at that point would estimate;
- ``actual``: what the pages after them cost;

and, from the last run, the ``--top`` costliest pages.

    .venv/bin/python benchmarks/read_costs.py corpora/jekyll/docs --runs 3
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


def read_times(docs: Path, dialect: str) -> list[tuple[float, str, int]]:
    """(thread CPU seconds, path, bytes) of each page's read in one serial build of ``docs``."""
    from contextpull.artifact import build
    from contextpull.ingest import engine
    from contextpull.settings.environment import Environment

    times: list[tuple[float, str, int]] = []
    original = engine.read_record

    def timed(path, data, *rest, **kwargs):
        started = time.thread_time()
        result = original(path, data, *rest, **kwargs)
        times.append((time.thread_time() - started, path, len(data)))
        return result

    engine.read_record = timed
    try:
        with tempfile.TemporaryDirectory() as out:
            build(docs, out, dialect=dialect, api_reference=False, warn=lambda line: None,
                  environment=Environment(jobs=1))
    finally:
        engine.read_record = original
    return times


def projection(costs: list[float], skip: int, first: int) -> tuple[float, float] | None:
    """(projected, actual) seconds of the pages after ``skip + first``, or None for a shorter run."""
    if len(costs) <= skip + first:
        return None
    sample = costs[skip : skip + first]
    left = costs[skip + first :]
    return sum(sample) / len(sample) * len(left), sum(left)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("docs", type=Path, help="the DOCS folder of a site")
    parser.add_argument("--dialect", default="auto", help="the dialect setting (default auto)")
    parser.add_argument("--runs", type=int, default=3, help="serial builds (default 3)")
    parser.add_argument("--skip", type=int, default=0, help="pages left out of the sample (default 0)")
    parser.add_argument("--first", type=int, default=32, help="pages in the sample (default 32)")
    parser.add_argument("--top", type=int, default=5, help="costliest pages listed (default 5)")
    args = parser.parse_args(argv)
    if not args.docs.is_dir():
        parser.error(f"DOCS {args.docs} is not a folder")
    if args.runs < 1 or args.first < 1 or args.skip < 0:
        parser.error("--runs and --first must be at least 1, --skip at least 0")
    times: list[tuple[float, str, int]] = []
    for run in range(1, args.runs + 1):
        times = read_times(args.docs, args.dialect)
        costs = [t for t, _, _ in times]
        found = projection(costs, args.skip, args.first)
        guess = "n/a (too few pages)" if found is None else \
            f"projected {found[0] * 1000:.0f} ms, actual {found[1] * 1000:.0f} ms"
        print(f"run {run}: {len(costs)} pages, reading {sum(costs) * 1000:.0f} ms; "
              f"after pages {args.skip}-{args.skip + args.first}: {guess}")
    for cost, path, size in sorted(times, reverse=True)[: args.top]:
        print(f"  {cost * 1000:7.2f} ms {size:>9,} bytes {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
