"""Every pattern a user's files or settings reach, against long names (issue 34): prints seconds
per surface at 200- and 2,000-character names, each for a hostile pattern of many stars and one
of three (the most the matcher used to hand to a regular expression), beside what the code
before the shared matcher took, capped.

    .venv/bin/python benchmarks/pattern_bounds.py [--before /work/main] [--cap 20]

Part 1 times each surface's own matcher in this process: a ``.contextpullignore`` rule, mkdocs'
``exclude_docs``, Sphinx's ``exclude_patterns``, Jekyll's ``exclude`` and the read tools' ``in``
filter (SQLite's GLOB, the store format's contract). "before" runs the replaced matcher (the
ignore file's regular expression, the old three-star regular expression of mkdocs and Sphinx,
``fnmatch``) in a subprocess killed at ``--cap`` seconds.

Part 2 is whole builds, as a user meets them, by this checkout and by the one at ``--before``
(side by side, same interpreter): a page whose file name is 200 characters with the pattern as a
``.contextpullignore`` line (matched against the name), and a page at a path of 2,000
characters (folders of 100) with the pattern anchored and each ``*`` written ``**`` (matched
against the whole path, across its folders); then a search of the store with the pattern as
its ``in`` filter.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOSTILE = "*a*a*a*a*a*a*a*b"  # seven stars: the ignore line, one star more
THREE = "*a*a*ab"  # three stars: regular expressions were used up to here
SIZES = (200, 2000)


def _timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def after(surface: str, pattern: str, name: str) -> float:
    from contextpull.dialects.jekyll.pages import _excluded
    from contextpull.dialects.mkdocs.pages import compile_pattern, matching_line
    from contextpull.dialects.sphinx.pages import translate
    from contextpull.writing.discover import _compile_rule, is_ignored

    if surface == "contextpullignore":
        return _timed(lambda: is_ignored([_compile_rule(pattern)], name, False))
    if surface == "mkdocs exclude_docs":
        return _timed(lambda: matching_line((compile_pattern(pattern),), name))
    if surface == "sphinx exclude_patterns":
        return _timed(lambda: translate(pattern).match(name))
    if surface == "jekyll exclude":
        return _timed(lambda: _excluded(name, [pattern]))
    if surface == "in filter (SQLite GLOB)":
        import sqlite3

        conn = sqlite3.connect(":memory:")
        return _timed(lambda: conn.execute("SELECT ? GLOB ?", (name, pattern)).fetchone())
    raise ValueError(surface)


# What each surface ran before the shared matcher, as a script for a subprocess.
_BEFORE = {
    "contextpullignore": """
        import re
        parts = []
        for c in pattern:
            parts.append("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c))
        rx = re.compile("".join(parts) + r"\\Z")
        rx.match(name)
    """,
    "mkdocs exclude_docs": """
        import re
        stars = pattern.count("*")
        if stars <= 3:  # the old MAX_REGEX_STARS: a regular expression, else the automaton
            re.compile("".join("[^/]*" if c == "*" else re.escape(c) for c in pattern) + r"\\Z").match(name)
    """,
    "jekyll exclude": """
        import fnmatch
        fnmatch.fnmatchcase(name, pattern)
    """,
}
_BEFORE["sphinx exclude_patterns"] = _BEFORE["mkdocs exclude_docs"]


def before(surface: str, pattern: str, name: str, cap: float) -> str:
    script = _BEFORE.get(surface)
    if script is None:
        return "same"
    code = f"pattern, name = {pattern!r}, {name!r}\n" + textwrap.dedent(script)
    start = time.perf_counter()
    try:
        subprocess.run([sys.executable, "-c", code], timeout=cap, check=True)
    except subprocess.TimeoutExpired:
        return f">{cap:.0f}"
    return f"{time.perf_counter() - start:.3f}"


def nested_path(length: int) -> str:
    """A relative path of about ``length`` characters: folders of 100 ``a``s, then a page."""
    parts, total = [], 0
    while total + 101 < length - 10:
        parts.append("a" * 100)
        total += 101
    last = "a" * max(1, length - total - 3)
    return "/".join(parts + [last + ".md"])


def build_seconds(checkout: Path, docs: Path, out: Path, cap: float) -> str:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    start = time.perf_counter()
    try:
        subprocess.run([sys.executable, "-m", "contextpull", "build", str(docs), "--out", str(out)],
                       env=env, cwd=str(checkout), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=cap, check=True)
    except subprocess.TimeoutExpired:
        return f">{cap:.0f}"
    return f"{time.perf_counter() - start:.2f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, default=None, help="a checkout of the code before, for part 2")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds before a 'before' run is killed")
    args = ap.parse_args(argv)
    surfaces = ["contextpullignore", "mkdocs exclude_docs", "sphinx exclude_patterns", "jekyll exclude",
                "in filter (SQLite GLOB)"]
    print("part 1: one match, seconds")
    print(f"{'surface':<26} {'pattern':<18} {'name':>6} {'after':>8} {'before':>8}")
    for surface in surfaces:
        for pattern in (HOSTILE, THREE):
            for n in SIZES:
                name = "a" * n
                print(f"{surface:<26} {pattern:<18} {n:>6} {after(surface, pattern, name):>8.4f} "
                      f"{before(surface, pattern, name, args.cap):>8}", flush=True)
    print("\npart 2: whole builds with .contextpullignore holding the pattern, seconds")
    print(f"{'ignore line':<26} {'path':>6} {'after':>8} {'before':>8} {'in filter search':>17}")
    from contextpull.ops import Ops
    from contextpull.store import Store

    for n in SIZES:
        for base in (HOSTILE, THREE):
            line = base if n <= 255 else "/" + base.replace("*", "**")
            with tempfile.TemporaryDirectory() as tmp:
                docs = Path(tmp) / "docs"
                page = docs / (("a" * (n - 3) + ".md") if n <= 255 else nested_path(n))
                page.parent.mkdir(parents=True, exist_ok=True)
                page.write_text("# Page\n\nSome words about the cache.\n")
                (docs / "index.md").write_text("# Index\n\nThe cache.\n")
                (docs / ".contextpullignore").write_text(line + "\n")
                now = build_seconds(ROOT, docs, Path(tmp) / "out", args.cap)
                old = build_seconds(args.before, docs, Path(tmp) / "old", args.cap) if args.before else "-"
                store = Store.open(Path(tmp) / "out" / "store.sqlite")
                search = _timed(lambda: Ops(store).search("cache", in_=[base]))
                store.close()
                print(f"{line:<26} {n:>6} {now:>8} {old:>8} {search:>17.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
