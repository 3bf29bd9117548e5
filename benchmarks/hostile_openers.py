"""A page of each dialect holding one 1 MB line of a syntax opener, and a 10 MB page (issue 35,
"Hostile"): prints seconds per (dialect, opener) and whether the build printed a traceback.

    .venv/bin/python benchmarks/hostile_openers.py                       # every cell, 1 MB and 10 MB
    .venv/bin/python benchmarks/hostile_openers.py --dialects mkdocs --openers '{%' '['
    .venv/bin/python benchmarks/hostile_openers.py --checkout /work/main --cap 30   # before
    .venv/bin/python benchmarks/hostile_openers.py --dialects mintlify --openers '<' '<Note>' '<ParamField '  # its components

Each site is the dialect's configuration file and one page: a heading, a paragraph, then one
line of ``--mb`` megabytes made of the opener repeated (backticks, blanks, ``:::``, ``{%``,
``{{<``, ``<``, ``[``, ``*``, ``{``, and VitePress's ``<<<`` and ``<!--@include:`` openers, unclosed
and closed), then a closing paragraph. The rst reader refuses a line over
10,000 characters (the build names the file and skips it), so an rst page holds the megabyte as
lines of 9,999. Every build is the CLI (``python -m contextpull build DOCS --out OUT --dialect
X``) in a subprocess killed at ``--cap`` seconds, interpreter start included, timed in CPU
seconds of the build and its children (a machine shared with other work stretches wall time,
not CPU time; ``--wall`` for wall seconds). "base" is the same site with the line left out, so
the line's own cost is the difference. Targets: each cell under 1 s, no traceback; the 10 MB
page (the realistic mixed page of ``format_scaling.py`` repeated) under 10 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from format_scaling import FORMATS, page  # noqa: E402

# dialect label -> the format_scaling format that gives its site and page
DIALECTS = {"plain": "md plain", "mkdocs": "md mkdocs", "docusaurus": "md docusaurus", "mdx": "mdx",
            "hugo": "md hugo", "mdbook": "md mdbook", "jekyll": "md jekyll", "sphinx-rst": "rst",
            "sphinx-myst": "md sphinx", "vitepress": "md vitepress", "starlight": "md starlight",
            "markdoc": "mdoc",
            "mintlify": "mdx mintlify"}
OPENERS = ["`", " ", ":::", "{%", "{{<", "<", "[", "*", "{", "<<<", "<!--@include:", "<!--@include: x.md-->"]
RST_LINE = 9_999
WALL = False


def _site(root: Path, fmt: str, body: str) -> None:
    _dialect, name, config = FORMATS[fmt]
    for rel, text in {**config, name: body}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def _page(fmt: str, line: str) -> str:
    if fmt == "rst":  # the rst reader refuses a line over 10,000 characters: lines of 9,999
        line = "\n".join(line[i : i + RST_LINE] for i in range(0, len(line), RST_LINE))
        return f"Hostile\n=======\n\nA paragraph before.\n\n{line}\n\nA paragraph after.\n"
    head = "import Tabs from '@theme/Tabs';\n\n" if fmt == "mdx" else ""
    return f"{head}# Hostile\n\nA paragraph before.\n\n{line}\n\nA paragraph after.\n"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(site: Path, out: Path, dialect: str, checkout: Path, cap: float) -> tuple[str, bool, int | None]:
    """(seconds or '>cap', traceback seen, exit code) of one CLI build: CPU seconds of the build
    and its children (what a busy machine changes least), or wall seconds with ``--wall``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    start, cpu = time.perf_counter(), _cpu()
    try:
        proc = subprocess.run([sys.executable, "-m", "contextpull", "build", str(site), "--out", str(out),
                               "--dialect", dialect], env=env, cwd=site, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=cap)
    except subprocess.TimeoutExpired:
        return f">{cap:.0f}", False, None
    seconds = time.perf_counter() - start if WALL else _cpu() - cpu
    err = proc.stderr.decode(errors="replace")
    return f"{seconds:.2f}", "Traceback" in err, proc.returncode


def _cell(seconds: str, trace: bool, code: int | None) -> str:
    return seconds + ("T" if trace else "") + ("!" if code not in (0, None) else "")


def _row(label: str, args, checkout: Path) -> tuple[list[str], float]:
    """One dialect's cells (base, each opener, the big page) built by ``checkout``."""
    fmt = DIALECTS[label]
    dialect = FORMATS[fmt][0]
    size = int(args.mb * 1_000_000)
    pages = [("base", _page(fmt, "Plain words."), args.cap)]
    pages += [(o, _page(fmt, (o * (size // len(o) + 1))[:size]), args.cap) for o in args.openers]
    if args.big_mb:
        pages.append(("big", page(fmt, int(args.big_mb * 1024 * 1024)), args.cap * 3))
    cells, worst = [], 0.0
    with tempfile.TemporaryDirectory() as tmp:  # warm-up: writes the bytecode this row imports
        _site(Path(tmp) / "site", fmt, pages[0][1])
        build(Path(tmp) / "site", Path(tmp) / "out", dialect, checkout, args.cap)
    for name, text, cap in pages:
        with tempfile.TemporaryDirectory() as tmp:
            site = Path(tmp) / "site"
            _site(site, fmt, text)
            seconds, trace, code = build(site, Path(tmp) / "out", dialect, checkout, cap)
            shutil.rmtree(site, ignore_errors=True)
        cells.append(_cell(seconds, trace, code))
        if name not in ("base", "big"):
            worst = max(worst, float(seconds.lstrip(">")))
    return cells, worst


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dialects", nargs="+", default=list(DIALECTS), help="of: " + ", ".join(DIALECTS))
    ap.add_argument("--openers", nargs="+", default=OPENERS)
    ap.add_argument("--mb", type=float, default=1.0, help="length of the hostile line in MB")
    ap.add_argument("--big-mb", type=float, default=10.0, help="size of the realistic page; 0 skips it")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds before a build is killed")
    ap.add_argument("--checkout", type=Path, default=ROOT, help="the code to build with")
    ap.add_argument("--before", type=Path, default=None,
                    help="another checkout, built right after each row of this one (side by side)")
    ap.add_argument("--wall", action="store_true", help="wall seconds instead of CPU seconds")
    args = ap.parse_args(argv)
    global WALL
    WALL = args.wall
    checkouts = [args.checkout] + ([args.before] if args.before else [])
    # Bytecode kept apart from both trees and written by the first build of each row, so no
    # timed build pays for compiling modules (a checkout without __pycache__ paid 0.1-0.25 s).
    os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "contextpull-bench-pyc")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"checkouts {', '.join(map(str, checkouts))}; line {int(args.mb * 1_000_000):,} characters; "
          f"{'wall' if WALL else 'CPU'} seconds per build (CLI, interpreter start included); "
          f"T = traceback on stderr, ! = non-zero exit")
    print(f"{'dialect':<12} {'code':<7} {'base':>6} " + " ".join(f"{o!r:>7}" for o in args.openers)
          + (f" {f'{args.big_mb:g} MB page':>12}" if args.big_mb else ""))
    worst = {c: 0.0 for c in checkouts}
    for label in args.dialects:
        for k, checkout in enumerate(checkouts):
            cells, slowest = _row(label, args, checkout)
            worst[checkout] = max(worst[checkout], slowest)
            big = f" {cells[-1]:>12}" if args.big_mb else ""
            openers = cells[1:-1] if args.big_mb else cells[1:]
            print(f"{label if k == 0 else '':<12} {'this' if k == 0 else 'before':<7} {cells[0]:>6} "
                  + " ".join(f"{c:>7}" for c in openers) + big, flush=True)
    for checkout, seconds in worst.items():
        print(f"slowest opener cell, {checkout}: {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
