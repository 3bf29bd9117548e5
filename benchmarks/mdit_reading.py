#!/usr/bin/env python3
"""markdown-it-py as the intermediate form for dialect reading: what it costs (issue 35).

Two measurements, each side by side in one process so the ratios hold on a shared machine:

``speed``: every page of the six issue-26 sites (the documents main's stores hold), read four
ways, CPU seconds (``time.process_time``), fastest of ``--passes`` passes after one warm-up:

- ``current``: today's dialect read, ``ingest.engine.read_record`` (front matter, the dialect's
  ``prepare`` with its includes, the shared line-based parser, ``finish``); sectioning excluded;
- ``plain``: the shared line-based parser alone on the page (``parse_markdown``), the floor;
- ``mdit-block``: markdown-it-py, CommonMark + tables + the dialect's plugins (``mdit_sites``),
  block rules only: block tokens with line maps, what a sectioner needs;
- ``mdit-full``: the same with the inline rules, what masking code spans or reading roles needs.

The markdown-it-py figures are a floor for a pipeline built on it: they include no includes, no
shortcodes, no hooks over the tokens. A ``.rst`` page (Flask) has no markdown-it-py reading.

``linear``: markdown-it-py (every plugin, inline rules on) on one line of each opener issue 35
lists, 100 KB and 1 MB, and on 10 MB pages; each case in a child process with a time limit, so
a quadratic case is a figure, not a hang.

    .venv/bin/python benchmarks/mdit_reading.py speed --passes 3
    .venv/bin/python benchmarks/mdit_reading.py linear --limit 60
    .venv/bin/python benchmarks/mdit_reading.py blame --limit 30

``blame``: the superlinear openers at 100 KB and 400 KB under four parsers (block rules only or
with the inline rules; CommonMark alone or with every plugin), to say where the cost lives.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mdit_sites import DOCS, PLUGINS, docs_path, markdown_it, pages  # noqa: E402

SITES = tuple(DOCS)
WAYS = ("current", "plain", "mdit-block", "mdit-full")


def _readers(site: str):
    """(name -> function(page) -> anything), the four ways of reading a page of ``site``."""
    from dataclasses import replace

    from contextpull.config import Settings
    from contextpull.dialects.detect import detect_site
    from contextpull.ingest.engine import read_record
    from contextpull.parsing.parse import decode_text
    from contextpull.parsing.parse_markdown import normalize_newlines, parse_markdown

    settings = replace(Settings(), site=detect_site(docs_path(site), "auto"))
    dialect = settings.site.dialect
    block = markdown_it(dialect, inline=False) if dialect in ("mkdocs", "mdbook", "hugo", "jekyll", "docusaurus") else None
    full = markdown_it(dialect) if block is not None else None

    def text(page):
        return normalize_newlines(decode_text(page.data))

    def markdown(page) -> bool:
        return page.kind in ("markdown", "mdx")

    return dialect, {
        "current": lambda p: read_record(p.path, p.data, "0" * 64, settings),
        "plain": lambda p: parse_markdown(text(p), "x") if markdown(p) else None,
        "mdit-block": (lambda p: block.parse(text(p)) if markdown(p) else None) if block else None,
        "mdit-full": (lambda p: full.parse(text(p)) if markdown(p) else None) if full else None,
    }


def speed(passes: int) -> None:
    print(f"{'site':9} {'dialect':10} {'pages':>5} " + " ".join(f"{w:>11}" for w in WAYS) + "   block/cur full/cur block/plain")
    totals = dict.fromkeys(WAYS, 0.0)
    for site in SITES:
        docs = pages(site)
        dialect, readers = _readers(site)
        best = {}
        for n in range(passes + 1):  # the first pass warms caches and is not counted
            for way in WAYS:
                fn = readers[way]
                if fn is None:
                    continue
                start = time.process_time()
                for page in docs:
                    fn(page)
                spent = time.process_time() - start
                if n:
                    best[way] = min(best.get(way, spent), spent)
        if "mdit-block" in best:  # the totals are over the sites markdown-it-py reads
            for way in best:
                totals[way] += best[way]
        cells = " ".join(f"{best[w]:>9.3f} s" if w in best else f"{'n/a':>11}" for w in WAYS)
        ratios = ""
        if "mdit-block" in best:
            ratios = f"   {best['mdit-block'] / best['current']:>8.2f}x {best['mdit-full'] / best['current']:>7.2f}x {best['mdit-block'] / best['plain']:>10.2f}x"
        print(f"{site:9} {dialect:10} {len(docs):>5} {cells}{ratios}", flush=True)
        rate = " ".join(f"{w} {len(docs) / best[w]:,.0f}/s" for w in best if best[w])
        print(f"{'':26}pages/s: {rate}")
    block, full = totals["mdit-block"] / totals["current"], totals["mdit-full"] / totals["current"]
    print(f"{'markdown sites, total':26} " + " ".join(f"{totals[w]:>9.3f} s" for w in WAYS)
          + f"   {block:>8.2f}x {full:>7.2f}x {totals['mdit-block'] / totals['plain']:>10.2f}x")


# -- linear time ---------------------------------------------------------------------------------

OPENERS = {
    "backticks": "`",
    "blanks": " ",
    ":::": ":::",
    "{%": "{%",
    "{{<": "{{<",
    "<": "<",
    "[": "[",
    "*": "*",
    "{": "{",
    # markdown-it's own known hard inputs (see docs/reading-form.md): nested emphasis and links
    "*a (nest)": "*a ",
    "[a]( (nest)": "[a](",
    "<a  (tags)": "<a ",
    "![ (images)": "![",
    "- (list nest)": "- ",
    "> (quote nest)": "> ",
}


def _line(opener: str, size: int) -> str:
    return "# Page\n\nText before.\n\n" + (opener * (size // len(opener) + 1))[:size] + "\n\nText after.\n"


def _timed(queue, text: str, dialect: str = "all", inline: bool = True) -> None:
    md = markdown_it(dialect, inline=inline)
    start = time.process_time()
    md.parse(text)
    queue.put(time.process_time() - start)


def _run(text: str, limit: float, dialect: str = "all", inline: bool = True) -> float | None:
    """CPU seconds markdown-it-py takes on ``text`` in a child process; None past ``limit``."""
    queue = mp.Queue()
    child = mp.Process(target=_timed, args=(queue, text, dialect, inline))
    child.start()
    child.join(limit)
    if child.is_alive():
        child.kill()
        child.join()
        return None
    if child.exitcode != 0:
        return -1.0  # a traceback in the child: printed there, marked here
    return queue.get()


def _cell(seconds: float | None, limit: float) -> str:
    if seconds is None:
        return f">{limit:.0f} s".rjust(10)
    if seconds < 0:
        return "traceback".rjust(10)
    return f"{seconds:>8.3f} s"


def linear(limit: float, only: str = "") -> None:
    print(f"{'opener (one line)':16} {'100 KB':>10} {'1 MB':>10} {'ratio':>7}   (linear: ~10x)")
    for name, opener in OPENERS.items():
        if not name.startswith(only):
            continue
        small = _run(_line(opener, 100_000), limit)
        big = _run(_line(opener, 1_000_000), limit)
        ratio = f"{big / small:>6.1f}x" if small and big and small > 0 and big > 0 else "    -"
        print(f"{name:16} {_cell(small, limit)} {_cell(big, limit)} {ratio}", flush=True)
    print()
    print(f"{'10 MB page':34} {'1 MB':>10} {'10 MB':>10} {'ratio':>7}")
    for name, (page, dialect) in _pages().items():
        if not name.startswith(only):
            continue
        small = _run(page(1_000_000), limit, dialect)
        big = _run(page(10_000_000), limit, dialect)
        ratio = f"{big / small:>6.1f}x" if small and big and small > 0 and big > 0 else "    -"
        print(f"{name:34} {_cell(small, limit)} {_cell(big, limit)} {ratio}", flush=True)


# The parsers ``blame`` compares: which part of markdown-it-py a superlinear case lives in.
PARSERS = (("commonmark", False), ("all", False), ("commonmark", True), ("all", True))


def blame(limit: float) -> None:
    """The superlinear openers at 100 KB and 400 KB under four parsers: block rules only or with
    the inline rules, without plugins or with all of them."""
    names = ("{%", "{{<", "<", "[", "{", "*a (nest)", "[a]( (nest)", "<a  (tags)", "![ (images)")
    heads = [f"{d}{'' if i else ', block'}" for d, i in PARSERS]
    print(f"{'opener':14} " + " ".join(f"{h:>26}" for h in heads))
    for name in names:
        cells = []
        for dialect, inline in PARSERS:
            small = _run(_line(OPENERS[name], 100_000), limit, dialect, inline)
            big = _run(_line(OPENERS[name], 400_000), limit, dialect, inline)
            ratio = f"{big / small:4.1f}x" if small and big and small > 0 and big > 0 else "   -"
            cells.append(f"{_cell(small, limit)} {_cell(big, limit)} {ratio}")
        print(f"{name:14} " + " ".join(f"{c:>26}" for c in cells), flush=True)
    print()
    print("CommonMark (inline rules on) with one plugin, the opener '<' then '{'; 100 KB, 400 KB")
    for plugin in PLUGINS["all"]:
        cells = []
        for name in ("<", "{"):
            small = _run(_line(OPENERS[name], 100_000), limit, "+" + plugin)
            big = _run(_line(OPENERS[name], 400_000), limit, "+" + plugin)
            ratio = f"{big / small:4.1f}x" if small and big and small > 0 and big > 0 else "   -"
            cells.append(f"{_cell(small, limit)} {_cell(big, limit)} {ratio}")
        print(f"{plugin:14} " + " ".join(f"{c:>26}" for c in cells), flush=True)


def _pages():
    """10 MB pages: real text repeated, and each opener in 80-character lines."""
    real = "\n\n".join(p.data.decode("utf-8", "replace") for p in pages("fastapi"))

    def repeat(text: str):
        return lambda size: (text * (size // len(text) + 1))[:size]

    # The site's own parser: with every plugin, colon_fence takes mkdocstrings' "::: name" for
    # an unclosed fence and reads the rest of the text as one code block.
    out = {"fastapi pages, repeated (mkdocs)": (repeat(real), "mkdocs")}
    for name in ("backticks", ":::", "{%", "<", "[", "*"):
        opener = OPENERS[name]
        line = (opener * 80)[:80] + "\n"
        out[f"{name} in 80-char lines"] = (repeat(line), "all")
    out["'> ' nested 80 deep, repeated"] = (repeat("> " * 40 + "x\n"), "all")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed", help="the six sites read four ways")
    s.add_argument("--passes", type=int, default=3)
    lin = sub.add_parser("linear", help="long lines of each opener, 10 MB pages")
    lin.add_argument("--limit", type=float, default=60.0, help="seconds a case may take (default 60)")
    lin.add_argument("--only", default="", help="the cases whose name starts with this")
    bl = sub.add_parser("blame", help="which rules a superlinear opener meets (4x the size: ~4x if linear)")
    bl.add_argument("--limit", type=float, default=30.0)
    args = parser.parse_args(argv)
    if args.what == "blame":
        blame(args.limit)
        return 0
    if args.what == "speed":
        if args.passes < 1:
            parser.error("--passes: at least 1")
        speed(args.passes)
    else:
        linear(args.limit, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
