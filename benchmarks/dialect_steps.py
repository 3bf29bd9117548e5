#!/usr/bin/env python3
"""Where a dialect's read of a site spends its time, step by step, without a profiler (issue 26,
"build time against plain").

A profiler charges every Python call a fixed cost, so it overstates code made of many small
calls (a per-line loop) against code that runs in C (a regex over a whole page): on this
project's dialects it pointed at loops whose rewrite then measured slower. This script times the
steps themselves with ``time.process_time`` around each, in one process, over every document
discovery finds under DOCS:

- ``page rule``: the generator's not-a-page rule (``dialects.pages.hook``), for every file;
- ``front matter``: the block parsed and taken off;
- ``mdx``: the MDX rules (a ``.mdx`` file, or any page of a Docusaurus site);
- ``prepare``: the dialect's own ``prepare`` (includes, shortcodes, markup to text);
- ``parse``: the shared Markdown parser on what the dialect gives it, with what every renderer
  does after it (``markdown_blocks``: link reference definitions, hard breaks), or docutils on a ``.rst``
  file (``sphinx.rst.read``, whose directives and roles are the Sphinx dialect's work);
- ``rest``: the rest of ``read_document`` (the dialect's ``finish``, the title rule,
  dependencies);
- and beside them ``plain``: the same files read as ``--dialect plain`` reads them (a kind plain
  does not read, such as ``.rst``, costs nothing there).

The passes share one site reader (``dialects.site_reader``), as a build's documents do: the first
pass pays what a build pays once (the configuration read, page rules, a data file parsed and
printed, templates listed, a label table scanned); later passes show the per-document cost alone,
so both are printed: ``cold`` (the first pass) and ``warm`` (the fastest of the others). Module
imports happen before the first pass and are printed on their own line; the last line says what
the reader kept and what pickling it would cost (a worker started by a fork server gets the site
alone and builds its own: the difference between cold and warm is what that costs it).

    .venv/bin/python benchmarks/dialect_steps.py corpora/hugoDocs/content --passes 5
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

STEPS = ("page rule", "front matter", "mdx", "prepare", "parse", "rest")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("docs", type=Path, help="the DOCS folder of a site (inside its repository)")
    parser.add_argument("--dialect", default="auto", help="the dialect setting (default auto)")
    parser.add_argument("--passes", type=int, default=5, help="passes over the documents (default 5)")
    args = parser.parse_args(argv)
    if not args.docs.is_dir():
        parser.error(f"{args.docs}: not a folder")
    if args.passes < 2:
        parser.error("--passes: at least 2 (one cold, one warm)")

    started = time.process_time()
    from contextpull.dialects import markdown_blocks
    from contextpull.dialects import read as dialect_read
    from contextpull.dialects.detect import detect_site
    from contextpull.dialects.pages.hook import not_a_page
    from contextpull.dialects.site_reader import open_site
    from contextpull.dialects.tracking.reads import reads_dialect
    from contextpull.parsing.parse import kind_for, parse_file
    from contextpull.writing.discover import Skipped, discover

    site = detect_site(args.docs.resolve(), args.dialect)
    if site.dialect == "plain":
        print(f"{args.docs}: the dialect is plain, which has no steps of its own", file=sys.stderr)
        return 2
    reader = open_site(site)  # one build's reader: the first pass is cold, the later ones warm
    imports = time.process_time() - started

    files = []
    for item in discover(args.docs.resolve()):
        if isinstance(item, Skipped) or kind_for(item.path) is None:
            continue
        files.append((item.path, (args.docs / item.path).read_bytes(), kind_for(item.path)))

    spent: Counter = Counter()

    def timed(step: str, func):
        def run(*a, **k):
            t = time.process_time()
            try:
                return func(*a, **k)
            finally:
                spent[step] += time.process_time() - t
        return run

    # The steps as read_document calls them, each wrapped where the read module looks it up.
    originals = {name: getattr(dialect_read, name) for name in ("split_front_matter", "_rst", "_step")}
    dialect_read.split_front_matter = timed("front matter", originals["split_front_matter"])
    dialect_read._rst = timed("parse", originals["_rst"])
    # A Markdown page is parsed through ``markdown_blocks.parse`` (the shared parser and what
    # every renderer does after it), looked up on the module that ``read`` imported.
    blocks_parse = markdown_blocks.parse
    markdown_blocks.parse = timed("parse", blocks_parse)
    dialect_read._step = lambda name, *a, **k: timed("mdx" if name == "mdx" else "prepare", originals["_step"])(name, *a, **k)
    page_rule = timed("page rule", not_a_page)
    reader.prepare = timed("prepare", reader.prepare)  # the dialect's own hook, on its reader

    passes: list[dict[str, float]] = []
    plain: list[float] = []
    try:
        for _ in range(args.passes):
            spent.clear()
            total = 0.0
            for path, data, kind in files:
                if page_rule(path, reader, data) is not None or not reads_dialect(path, site):
                    continue
                t = time.process_time()
                try:
                    dialect_read.read_document(data, kind, Path(path).stem, path, site, reader)
                except Exception:  # noqa: BLE001 - a file the build would skip is timed all the same
                    pass
                total += time.process_time() - t
            inner = sum(spent[s] for s in STEPS if s != "page rule")
            passes.append({**{s: spent[s] for s in STEPS}, "rest": total - inner})
            t = time.process_time()
            for path, data, kind in files:
                try:
                    parse_file(data, kind, Path(path).stem)
                except Exception:  # noqa: BLE001
                    pass
            plain.append(time.process_time() - t)
    finally:
        for name, func in originals.items():
            setattr(dialect_read, name, func)
        markdown_blocks.parse = blocks_parse

    cold, warm = passes[0], {s: min(p[s] for p in passes[1:]) for s in STEPS}
    print(f"{args.docs} ({site.dialect}, {len(files)} files; CPU seconds, cold = first pass, warm = fastest of {args.passes - 1})")
    print(f"  {'imports':<14} {imports:7.3f}")
    for step in STEPS:
        print(f"  {step:<14} {cold[step]:7.3f} cold {warm[step]:7.3f} warm")
    print(f"  {'dialect total':<14} {sum(cold.values()):7.3f} cold {sum(warm.values()):7.3f} warm")
    print(f"  {'plain':<14} {plain[0]:7.3f} cold {min(plain[1:]):7.3f} warm")
    print(f"  {'state':<14} {_state(reader)}")
    return 0


def _state(reader) -> str:
    """What the site's reader kept over the passes, and what pickling it would cost."""
    import pickle

    kept = reader._kept
    try:
        started = time.perf_counter()
        blob = pickle.dumps(kept)
        dumped = time.perf_counter() - started
        started = time.perf_counter()
        pickle.loads(blob)
        loaded = time.perf_counter() - started
    except Exception as exc:  # noqa: BLE001 - a kept value that does not pickle is a figure too
        return f"{len(kept)} values kept; they do not pickle ({type(exc).__name__})"
    return (f"{len(kept)} values kept; pickled {len(blob) / 1024:.0f} KB,"
            f" dump {dumped * 1000:.1f} ms, load {loaded * 1000:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
