"""What hostile documentation costs the dialect spine (issue 26, "Bad input"), printed as a table.

    .venv/bin/python benchmarks/dialect_bad_input.py

Each case is built in a scratch repository and read through the parts every dialect shares: the
include resolver behind ``Context.include`` (``contextpull/dialects/includes.py``), front matter
(``front_matter.py``) and configuration or data files read as YAML (``data_files.py``). For each
it prints what the build is told (the note, or the error) and its cost: wall time and the peak of
memory allocated by Python while it ran (``tracemalloc``, in a second run). The dialects' own syntax (mdBook,
snippets, Liquid, ...) is theirs to measure; what is bounded here bounds all of them.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from contextpull.dialects.api import Site  # noqa: E402
from contextpull.dialects.context import DocumentContext  # noqa: E402
from contextpull.dialects.data_files import DataError, load_yaml  # noqa: E402
from contextpull.dialects.front_matter import split_front_matter  # noqa: E402

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8)
)  # 9**9 = 387,420,489 nodes once expanded


def measure(call):
    """(outcome, seconds, peak bytes): timed on its own, then run again under ``tracemalloc``,
    whose bookkeeping would otherwise be most of the time."""
    started = time.perf_counter()
    outcome = call()
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    try:
        call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return outcome, elapsed, peak


def include_chain(ctx, target, depth=0, within=None, fan=1):
    """Follow ``INCLUDE name`` lines as a dialect would, ``fan`` copies each, depth first."""
    got = ctx.include(target, base="docs", line=1, construct="include", within=within)
    if got is None:
        return 0
    total = len(got.text)
    for line in got.text.splitlines():
        if line.startswith("INCLUDE "):
            for _ in range(fan):
                total += include_chain(ctx, line.split(" ", 1)[1], depth + 1, got, fan)
    return total


def cases(root: Path):
    docs = root / "docs"
    site = Site("mkdocs", None, str(docs), str(root))

    def ctx():
        return DocumentContext(site, "page.md")

    def last_note(c):
        unresolved = [n for n in c.notes if n.outcome == "unresolved"]
        kinds = sorted({n.detail.split(":")[0] for n in unresolved})
        return f"{len(unresolved)} unresolved: {'; '.join(kinds)}" if unresolved else "read"

    (docs / "a.md").write_text("INCLUDE b.md\n")
    (docs / "b.md").write_text("INCLUDE a.md\n")

    def cycle():
        c = ctx()
        include_chain(c, "a.md")
        return c.notes[-1].detail

    yield "include cycle a -> b -> a", cycle

    (docs / "fan.md").write_text("x" * 1000 + "\n" + "\n".join(["INCLUDE fan2.md"] * 10) + "\n")
    (docs / "fan2.md").write_text("y" * 1000 + "\n" + "\n".join(["INCLUDE fan3.md"] * 10) + "\n")
    (docs / "fan3.md").write_text("z" * 100_000 + "\n")

    def multiply():
        c = ctx()
        read = include_chain(c, "fan.md")
        return f"{read:,} characters read, then {last_note(c)}"

    yield "chain that multiplies (10 x 10 x 100 kB)", multiply
    (docs / "empty.md").write_text("")

    def many():
        c = ctx()
        for _ in range(20_000):
            c.include("empty.md", base="docs", line=1, construct="include")
        return last_note(c)

    yield "20,000 includes of an empty file", many
    secret = Path(tempfile.mkdtemp()) / "secret.txt"
    secret.write_text("outside\n")
    os.symlink(secret, docs / "link.md")
    for label, target in [
        ("escape ../../../../etc/passwd", "../../../../etc/passwd"),
        ("absolute /etc/passwd", "/etc/passwd"),
        ("symbolic link out of the repository", "link.md"),
        ("a URL", "https://example.com/x.md"),
    ]:
        yield label, (lambda t=target: (lambda c: (c.include(t, base="docs", line=1, construct="include"), last_note(c))[1])(ctx()))
    os.mkfifo(docs / "pipe.md")
    yield "named pipe", lambda: (lambda c: (c.include("pipe.md", base="docs", line=1, construct="include"), last_note(c))[1])(ctx())
    with open(docs / "huge.md", "wb") as f:
        f.truncate(8 << 30)  # sparse: 8 GiB on paper
    yield "8 GiB (sparse) target", lambda: (lambda c: (c.include("huge.md", base="docs", line=1, construct="include"), last_note(c))[1])(ctx())

    def fm(text):
        found = split_front_matter(text)
        return "; ".join(n.detail for n in found.notes if n.outcome == "unresolved") or f"read: {found.data}"

    yield "front matter alias bomb (9^9 nodes)", lambda: fm("---\n" + BOMB + "---\nbody\n")
    yield "front matter !!python/object/apply", lambda: fm("---\nx: !!python/object/apply:os.system ['true']\n---\nbody\n")
    yield "malformed front matter", lambda: fm("---\ntitle: [unclosed\n---\nbody\n")

    def data(text):
        try:
            load_yaml(text)
        except DataError as exc:
            return str(exc)
        return "read"

    yield "data file alias bomb", lambda: data(BOMB)
    yield "data file nested 100,000 deep", lambda: data("[" * 100_000)


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="cp-dialect-bad-"))
    (root / ".git").mkdir()
    (root / "docs").mkdir()
    print("| case | what the build is told | time | peak Python memory |")
    print("|---|---|---|---|")
    for label, call in cases(root):
        outcome, elapsed, peak = measure(call)
        print(f"| {label} | {str(outcome)[:110]} | {elapsed * 1000:.1f} ms | {peak / 1024:,.0f} KiB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
