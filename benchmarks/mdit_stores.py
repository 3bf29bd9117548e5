#!/usr/bin/env python3
"""The fastapi store's sections, read today and read through markdown-it-py tokens (issue 35).

Every page of the fastapi site (mkdocs) is read twice in one process: today's way
(``ingest.engine.read_record``, then the sectioner) and through the prototype in
``mdit_proto.py`` (the same includes, then markdown-it-py block tokens instead of the dialect's
block and line passes and the shared line-based parser), then the same sectioner. Today's
sections are first checked against main's store (``/work/notes/six-main/fastapi``), so the
comparison is with what users have.

A section id is ``path#ordinal`` (store-format.txt): when the heading structure or the packing
of a page moves, ids move, and so does every golden file that names one. Printed: documents
whose sections are all equal, sections whose id names the same heading path and text, and a
few differences of each kind (``--show``).

    .venv/bin/python benchmarks/mdit_stores.py --show 12 --time 3
"""

from __future__ import annotations

import argparse
import difflib
import sqlite3
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mdit_proto  # noqa: E402
from mdit_sites import STORES, docs_path, pages  # noqa: E402

from contextpull.config import Settings  # noqa: E402
from contextpull.dialects import read as dialect_read  # noqa: E402
from contextpull.dialects.context import DocumentContext  # noqa: E402
from contextpull.dialects.data.front_matter import split_front_matter  # noqa: E402
from contextpull.dialects.detect import detect_site, load_config  # noqa: E402
from contextpull.dialects.mkdocs import dialect as mkdocs  # noqa: E402
from contextpull.ingest.engine import _stem, read_record  # noqa: E402
from contextpull.parsing.parse import decode_text  # noqa: E402
from contextpull.parsing.parse_markdown import normalize_newlines  # noqa: E402
from contextpull.writing.section import section_document  # noqa: E402

SITE = "fastapi"


def stored() -> dict[str, list[tuple[str, str]]]:
    con = sqlite3.connect(STORES / SITE / "store.sqlite")
    try:
        rows = con.execute(
            "SELECT d.path, s.heading_path, s.text FROM sections s JOIN documents d USING (doc_id)"
            " ORDER BY d.path, s.ordinal"
        ).fetchall()
    finally:
        con.close()
    out: dict[str, list[tuple[str, str]]] = {}
    for path, heading, text in rows:
        out.setdefault(path, []).append((heading, text))
    return out


def proto_read(page, settings):
    """The prototype's parsed document, titled as today's reading titles it."""
    site = settings.site
    text = normalize_newlines(decode_text(page.data))
    config, _ = load_config(site)
    ctx = DocumentContext(site, page.path, config)
    fm = split_front_matter(text)
    ctx.front_matter = fm.data
    stem = _stem(page.path)
    parsed = mdit_proto.read(fm.body, ctx, stem)
    before = parsed.title
    parsed = mkdocs.finish(parsed, ctx)
    parsed, _ = dialect_read.finish(parsed, ctx, stem, parsed.title if parsed.title != before else None)
    return parsed


def proto_sections(page, settings) -> list[tuple[str, str]]:
    return [(s.heading_path, s.text) for s in section_document(proto_read(page, settings), settings)]


def timing(settings, passes: int) -> None:
    """CPU seconds for every page read today's way and the prototype's (sectioning excluded),
    fastest of ``passes`` after a warm-up: the prototype is a whole mkdocs read, includes and
    hooks too, so this is the figure the parse-only floor in ``mdit_reading.py`` leads to."""
    import time

    docs = pages(SITE)
    ways = {"today": lambda p: read_record(p.path, p.data, "0" * 64, settings),
            "prototype": lambda p: proto_read(p, settings)}
    best: dict[str, float] = {}
    for n in range(passes + 1):
        for name, fn in ways.items():
            start = time.process_time()
            for page in docs:
                fn(page)
            spent = time.process_time() - start
            if n:
                best[name] = min(best.get(name, spent), spent)
    print(f"read of {len(docs)} pages: today {best['today']:.3f} s, prototype {best['prototype']:.3f} s,"
          f" {best['prototype'] / best['today']:.2f}x")


def today_sections(page, settings) -> list[tuple[str, str]]:
    read = read_record(page.path, page.data, "0" * 64, settings)
    return [(s.heading_path, s.text) for s in section_document(read.parsed, settings)]


# What makes a section's text differ, tried in order: each a normalisation that, applied to both
# texts, makes them equal.
_WHY = (
    ("thematic break (---) dropped", lambda t: "\n".join(x for x in t.split("\n") if x.strip() != "---")),
    ("list continuation indentation kept", lambda t: "\n".join(x.strip() for x in t.split("\n"))),
    ("template tag lines ({% %}) dropped", lambda t: "\n".join(x for x in t.split("\n") if not x.lstrip().startswith("{%"))),
)


def _why(a: str, b: str) -> str:
    norm_a, norm_b = a, b
    for name, norm in _WHY:
        norm_a, norm_b = norm(norm_a), norm(norm_b)
        norm_a = "\n".join(x for x in norm_a.split("\n") if x.strip())
        norm_b = "\n".join(x for x in norm_b.split("\n") if x.strip())
        if norm_a == norm_b:
            return name
    return "other (text moved to a neighbour, a block read otherwise)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", type=int, default=8, help="differences to print (default 8)")
    parser.add_argument("--time", type=int, default=0, metavar="PASSES",
                        help="also time both reads, fastest of PASSES (default: no timing)")
    args = parser.parse_args(argv)
    settings = replace(Settings(), site=detect_site(docs_path(SITE), "auto"))
    if args.time:
        timing(settings, args.time)
    store = stored()
    counts: Counter = Counter()
    samples: list[tuple[str, str, tuple, tuple]] = []
    for page in pages(SITE):
        want = store.get(page.path, [])
        today = today_sections(page, settings)
        counts["harness: today's reading = store"] += today == want
        got = proto_sections(page, settings)
        counts["documents"] += 1
        counts["documents, all sections equal"] += got == want
        counts["documents, same number of sections"] += len(got) == len(want)
        counts["sections in the store"] += len(want)
        counts["sections, prototype"] += len(got)
        for ordinal in range(max(len(got), len(want))):
            a = want[ordinal] if ordinal < len(want) else None
            b = got[ordinal] if ordinal < len(got) else None
            if a == b:
                counts["ids: same heading path and text"] += 1
                continue
            if a is None or b is None:
                what = "ids: only in the store" if b is None else "ids: only in the prototype"
            elif a[0] != b[0]:
                what = "ids: heading path differs"
            else:
                what = "ids: same heading path, text differs"
                counts[f"  of which: {_why(a[1], b[1])}"] += 1
            counts[what] += 1
            if what.endswith("text differs"):
                what = f"{what} ({_why(a[1], b[1])})"
            samples.append((what, f"{page.path}#{ordinal}", a, b))
        headings = lambda secs: [h for h, _ in secs]  # noqa: E731
        counts["documents, same heading paths in order"] += headings(got) == headings(want)
    for key in sorted(counts, key=lambda k: k.replace("  of which", "ids: same heading path, text differs ~")):
        print(f"{key:45} {counts[key]:>6}")
    seen: Counter = Counter()
    for what, sid, a, b in samples:
        if seen[what] >= args.show:
            continue
        seen[what] += 1
        print(f"\n== {what}: {sid}")
        if a is not None and b is not None and a[0] != b[0]:
            print(f"   store heading: {a[0]!r}\n   proto heading: {b[0]!r}")
        left = (a[1] if a else "").split("\n")
        right = (b[1] if b else "").split("\n")
        diff = list(difflib.unified_diff(left, right, "store", "prototype", n=1, lineterm=""))
        print("\n".join(line[:160] for line in diff[:24]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
