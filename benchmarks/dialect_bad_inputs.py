#!/usr/bin/env python3
"""Hostile sites for the dialects of issue 26 ("Bad input"), each built once, bounded.

Every case is a small repository written in a temporary folder (``git init``, a generator's
configuration file, DOCS) with one hostile thing in it and a harmless ``ok.md`` beside it, built
with ``contextpull build DOCS --out OUT --json --dialect NAME`` (``CONTEXTPULL_DIALECT=NAME`` on a
build with the setting and no flag; neither on a build before issue 26, which is plain). A file ``secret.txt`` outside the repository holds a marker that must
never reach the store. Per case it prints: exit code, wall time, peak RSS of the build (wait4,
reaped worker processes included), whether it was killed at ``--timeout``, whether a Python
traceback appeared, whether ``ok.md`` (and the text inside unknown constructs) is in the store,
whether anything leaked (the outside marker in the store, or a file a YAML tag would create), and
the number of unresolved constructs the construct report names, and the first warning, skip or
unresolved construct the build named for the case's file.

    .venv/bin/python benchmarks/dialect_bad_inputs.py
    .venv/bin/python benchmarks/dialect_bad_inputs.py --only include-cycle --only notebook-not-json --json bad.json

The address space of each build is capped at ``--memory-mb`` (RLIMIT_AS) so a build that would
expand an alias or include bomb without bound fails here instead of taking the machine down.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_docs import dialect_args, dialect_setting, find_key, run_child  # noqa: E402

SECRET = "OUTSIDE-SECRET-5e1d"
KEPT = "KEEP-MARKER-9c2b"
CONFIG = {
    "mdbook": ("book.toml", '[book]\ntitle = "Hostile"\nsrc = "src"\n', "src"),
    "mkdocs": ("mkdocs.yml", "site_name: Hostile\ndocs_dir: docs\n", "docs"),
    "jekyll": ("docs/_config.yml", "title: Hostile\n", "docs"),
    "hugo": ("hugo.toml", 'title = "Hostile"\n', "content"),
    "sphinx": ("docs/conf.py", 'project = "Hostile"\n', "docs"),
    "docusaurus": ("docusaurus.config.js", "module.exports = {title: 'Hostile'};\n", "docs"),
}


def _laughs(levels: int = 9, width: int = 9) -> str:
    """A YAML alias bomb: ``width ** levels`` copies of one string if aliases are expanded."""
    lines = ['a0: &a0 "lol"']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _chain(n: int, fanout: int) -> dict[str, str]:
    """parts/l0.md includes l1.md ``fanout`` times, and so on: ``fanout ** n`` copies unbounded."""
    files = {f"parts/l{i}.md": "".join(f"{{{{#include l{i + 1}.md}}}}\n" for _ in range(fanout)) for i in range(n)}
    files[f"parts/l{n}.md"] = "lol " * 100 + "\n"
    return files


# name -> (dialect, the hostile file (relative to the repository), files, what a good build does)
CASES: dict[str, tuple[str, str, dict[str, str], str]] = {
    "include-cycle": ("mdbook", "src/cycle.md", {
        "src/cycle.md": "# Cycle\n\n{{#include ../parts/x.md}}\n",
        "parts/x.md": "x includes y\n{{#include y.md}}\n", "parts/y.md": "y includes x\n{{#include x.md}}\n",
    }, "a named cycle warning; x and y once each"),
    "include-multiply": ("mdbook", "src/laughs.md", {
        "src/laughs.md": "# Laughs\n\n{{#include ../parts/l0.md}}\n", **_chain(8, 10),
    }, "stopped by the byte budget, named"),
    "include-escape": ("mdbook", "src/escape.md", {
        "src/escape.md": "# Escape\n\n{{#include ../../secret.txt}}\n\n{{#include {SECRET_ABS}}}\n",
    }, "refused: outside the repository"),
    "include-symlink": ("mdbook", "src/link.md", {
        "src/link.md": "# Link\n\n```\n{{#include ../listings/link.rs}}\n```\n",
    }, "refused: a symlink out of the repository"),
    "include-fifo": ("mdbook", "src/fifo.md", {
        "src/fifo.md": "# Fifo\n\n```\n{{#include ../listings/fifo.rs}}\n```\n",
    }, "refused: not a regular file (never opened)"),
    "include-huge": ("mdbook", "src/huge.md", {
        "src/huge.md": "# Huge\n\n```\n{{#include ../listings/huge.rs}}\n```\n",
    }, "refused: too large (a sparse 8 GiB file)"),
    "snippet-escape": ("mkdocs", "docs/snip.md", {
        "docs/snip.md": '# Snip\n\n--8<-- "../../secret.txt"\n\n{* ../../secret.txt *}\n',
    }, "refused: outside the repository"),
    "yaml-bomb-front-matter": ("mkdocs", "docs/bomb.md", {
        "docs/bomb.md": "---\n" + _laughs() + "title: Bomb\n---\n# Bomb\n\nBody.\n",
    }, "front matter refused (aliases), body kept"),
    "yaml-bomb-data": ("jekyll", "docs/_data/bomb.yml", {
        "docs/_data/bomb.yml": _laughs(), "docs/page.md": "# Page\n\nValue: {{ site.data.bomb.a9 }}\n",
    }, "data file refused, the file and its reason named at the reference"),
    "yaml-object-tags": ("mkdocs", "docs/tags.md", {
        "docs/tags.md": "---\ntitle: !!python/object/apply:os.system ['touch {PWNED}']\n"
                        "x: !!python/object/new:builtins.exec [\"open('{PWNED}', 'w')\"]\n---\n# Tags\n\nBody.\n",
        "mkdocs.yml": "site_name: Hostile\ndocs_dir: docs\nextra: !!python/object/apply:os.system ['touch {PWNED}']\n"
                      "markdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
    }, "nothing constructed, nothing run"),
    "front-matter-malformed-yaml": ("mkdocs", "docs/bad.md", {
        "docs/bad.md": "---\ntitle: [unclosed\n  - : :\n---\n# Bad\n\nBody kept.\n",
    }, "a named warning, body kept"),
    "front-matter-malformed-toml": ("hugo", "content/bad.md", {
        "content/bad.md": "+++\ntitle = \ndate = [1,\n+++\n# Bad\n\nBody kept.\n",
    }, "a named warning, body kept"),
    "rst-broken": ("sphinx", "docs/broken.rst", {
        "docs/broken.rst": "Title\n==\n\nSection\n-------\n\nSub\n===\n\n*unclosed emphasis and `unclosed\n\n"
                           ".. nosuch:: arg\n\n   INNER-TEXT-rst\n\n:nosuchrole:`text`\n\n.. [#] orphan footnote\n",
    }, "read with notes, no traceback"),
    "rst-file-reads": ("sphinx", "docs/reads.rst", {
        "docs/reads.rst": "Reads\n=====\n\n.. include:: ../../secret.txt\n\n.. literalinclude:: {SECRET_ABS}\n\n"
                          ".. raw:: html\n   :file: ../../secret.txt\n\n.. csv-table:: T\n   :file: ../../secret.txt\n\n"
                          ".. csv-table:: U\n   :url: http://127.0.0.1:9/x.csv\n",
    }, "each refused, nothing fetched"),
    "notebook-not-json": ("sphinx", "docs/nb.ipynb", {
        "docs/nb.ipynb": "{not json at all\n", "docs/shape.ipynb": '{"cells": "not a list", "nbformat": 4}\n',
    }, "a named skip each"),
    "backtick-runs": ("hugo", "content/ticks.md", {
        "content/ticks.md": "# Ticks\n\nCode: " + "`" * 3000 + " <b>INNER-TEXT-1</b> " + "`" * 1000 + "\n\nAfter <i>it</i>.\n",
    }, "read at once: a run of backticks costs a pass, not time cubic in its length"),
    "blank-runs-hugo": ("hugo", "content/blanks.md", {
        "content/blanks.md": "# Blanks\n\nText <a" + " " * 4000 + "\n\n> [!NOTE] x" + " " * 4000 + "y\n> INNER-TEXT-1\n"
                             "\n<!--" * 4000 + "\n",
    }, "read at once: a tag opener, a callout title and comment openers followed by thousands of blanks"),
    "blank-runs-jekyll": ("jekyll", "docs/blanks.md", {
        "docs/blanks.md": "# Blanks\n\nINNER-TEXT-1\n{:" + " " * 4000 + "x\n",
    }, "read at once: a kramdown attribute list with thousands of blanks"),
    "blank-runs-mdbook": ("mdbook", "src/blanks.md", {
        "src/blanks.md": "# Blanks\n\nINNER-TEXT-1 {{#include" + " " * 4000 + "x\n",
    }, "read at once: an include opener with thousands of blanks"),
    "blank-runs-mkdocs": ("mkdocs", "docs/blanks.md", {
        "docs/blanks.md": "# Blanks\n\nINNER-TEXT-1\n\n{* a" + " " * 4000 + "b\n\n/// note | t" + " " * 4000 + "u\nbody\n///\n",
    }, "read at once: a {* *} line and a block title with thousands of blanks"),
    "unknown-mkdocs": ("mkdocs", "docs/unknown.md", {
        "docs/unknown.md": '# U\n\n!!! madeup "Made up"\n    INNER-TEXT-1\n\n/// frob\nINNER-TEXT-2\n///\n',
    }, "inner text kept; !!! madeup converted, /// frob named unresolved"),
    "unknown-mdbook": ("mdbook", "src/unknown.md", {"src/unknown.md": "# U\n\n{{#frobnicate x}}\n\nINNER-TEXT-1\n"},
                       "left visible, noted"),
    "unknown-hugo": ("hugo", "content/unknown.md", {
        "content/unknown.md": "# U\n\n{{< nosuch arg >}}INNER-TEXT-1{{< /nosuch >}}\n\n{{% nosuch2 %}}INNER-TEXT-2{{% /nosuch2 %}}\n",
    }, "inner text kept, each named unresolved (no template)"),
    "unknown-jekyll": ("jekyll", "docs/unknown.md", {
        "docs/unknown.md": "# U\n\n{% nosuchtag x %}\nINNER-TEXT-1\n{% endnosuchtag %}\n\n{{ site.data.missing.key }}\n",
    }, "inner text kept, the tag and the output named unresolved"),
    "unknown-docusaurus": ("docusaurus", "docs/unknown.mdx", {
        "docs/unknown.mdx": "# U\n\n<NoSuch prop={1}>\nINNER-TEXT-1\n</NoSuch>\n\n:::nosuch\nINNER-TEXT-2\n:::\n",
    }, "inner text kept, each named unresolved"),
    "unknown-sphinx": ("sphinx", "docs/unknown.rst", {
        "docs/unknown.rst": "U\n=\n\n.. nosuch::\n\n   INNER-TEXT-1\n",
    }, "inner text kept, named unresolved"),
}


def make_case(name: str, root: Path) -> tuple[Path, str, str, Path]:
    """Write case ``name`` under root: (DOCS, dialect, hostile file, the file a tag would create)."""
    dialect, hostile, files, _ = CASES[name]
    repo = root / "repo"
    secret = root / "secret.txt"
    secret.write_text(f"{SECRET}\n")
    pwned = root / "PWNED"
    config_file, config_text, docs_rel = CONFIG[dialect]
    _write(repo, {config_file: config_text, f"{docs_rel}/ok.md": f"# Fine\n\n{KEPT} stays readable.\n"})
    _write(repo, {rel: text.replace("{SECRET_ABS}", str(secret)).replace("{PWNED}", str(pwned))
                  for rel, text in files.items()})
    listings = repo / "listings"
    listings.mkdir(exist_ok=True)
    if name == "include-symlink":
        os.symlink(secret, listings / "link.rs")
    elif name == "include-fifo":
        os.mkfifo(listings / "fifo.rs")
    elif name == "include-huge":
        with open(listings / "huge.rs", "wb") as handle:
            handle.truncate(8 * 1024**3)
    if subprocess.run(["git", "init", "-q", str(repo)], capture_output=True).returncode != 0:
        (repo / ".git").mkdir()
    return repo / docs_rel, dialect, hostile, pwned


def _store_text(store: Path) -> str:
    if not store.exists():
        return ""
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return "\n".join(t for (t,) in con.execute("SELECT heading_path || '\n' || text FROM sections"))
    finally:
        con.close()


def document_status(store: Path, report: dict, docs: Path, hostile: Path) -> str:
    """Whether the hostile file, when it is a document of DOCS, was read, named as a skip, or
    neither (lost without a word); "-" for a file that is not a document (a data file)."""
    try:
        rel = hostile.relative_to(docs).as_posix()
    except ValueError:
        return "-"
    if rel.startswith("_data/"):
        return "-"
    if any(isinstance(s, dict) and s.get("path") == rel for s in find_key(report, "skipped") or []):
        return "skipped"
    if store.exists():
        con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        try:
            if con.execute("SELECT 1 FROM documents WHERE path = ?", (rel,)).fetchone():
                return "read"
        finally:
            con.close()
    return "silently not read"


def named_line(report: dict, stderr: str, hostile: str) -> str:
    """The first thing the build named about the hostile file: a skip, a warning line, an
    unresolved construct; else the first of any of them; else the error."""
    candidates: list[str] = []
    for item in find_key(report, "skipped") or []:
        if isinstance(item, dict):
            candidates.append(f"skipped {item.get('path')}: {item.get('reason')}")
    for item in report.get("warnings") or []:
        candidates.append(f"warning: {item}" if isinstance(item, str) else json.dumps(item))
    for item in _unresolved(report):
        candidates.append(f"unresolved {item}")
    candidates += [line for line in stderr.splitlines() if line.startswith(("warning:", "Error:", "error:"))]
    if report.get("error"):
        candidates.append(f"error: {report['error']}")
    stem = Path(hostile).name
    for line in candidates:
        if stem in line:
            return line
    if candidates:
        return candidates[0]
    counted = _construct_totals(report)
    return f"counted only: {counted}" if counted else "(nothing named)"


def _construct_totals(report: dict) -> str:
    """The construct report's counts, for a build that named nothing one by one."""
    constructs = find_key(report, "constructs")
    if not isinstance(constructs, dict):
        return ""
    return ", ".join(f"{name} {outcome} {n}" for name, outcomes in sorted(constructs.items())
                     if isinstance(outcomes, dict) for outcome, n in outcomes.items() if n)


def _unresolved(value) -> list[str]:
    """Unresolved construct notes anywhere in the report, as one line each (shape-tolerant)."""
    found: list[str] = []
    if isinstance(value, dict):
        if value.get("outcome") == "unresolved" or ("unresolved" in value and isinstance(value["unresolved"], list)):
            items = value["unresolved"] if isinstance(value.get("unresolved"), list) else [value]
            for item in items:
                found.append(json.dumps(item, ensure_ascii=False) if not isinstance(item, str) else item)
        for item in value.values():
            if isinstance(item, (dict, list)):
                found += _unresolved(item)
    elif isinstance(value, list):
        for item in value:
            found += _unresolved(item)
    return found


def run_case(name: str, cli: list[str], how: str | None, timeout: float, memory_mb: int) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"bad-{name}-") as tmp:
        root = Path(tmp)
        docs, dialect, hostile, pwned = make_case(name, root)
        out = root / "out"
        args, env = dialect_args(how, dialect)
        cmd = [*cli, "build", str(docs), "--out", str(out), "--json", *args]
        run = run_child(cmd, timeout, memory_mb=memory_mb, cwd=str(root / "repo"), env=env)
        try:
            report = json.loads(run["stdout"])
        except ValueError:
            report = {}
        text = _store_text(out / "store.sqlite")
        inner = sorted({w for rel in CASES[name][2].values() for w in _inner_markers(rel)})
        return {
            "case": name, "dialect": dialect if how else "(none: plain)", "expected": CASES[name][3],
            "exit_code": run["rc"], "wall_s": round(run["wall_s"], 3), "rss_mb": round(run["rss_mb"], 1),
            "timed_out": run["timed_out"],
            "traceback": "Traceback (most recent call last)" in run["stdout"] + run["stderr"],
            "ok_kept": KEPT in text, "inner_kept": f"{sum(w in text for w in inner)}/{len(inner)}" if inner else "",
            "leak": SECRET in text or pwned.exists(),
            "document": document_status(out / "store.sqlite", report, docs, root / "repo" / hostile),
            "store_mb": round((((report.get("manifest") or {}).get("store") or {}).get("bytes") or 0) / 1e6, 2),
            "unresolved": len(_unresolved(report)),
            "named": named_line(report, run["stderr"], hostile)[:160],
        }


def _inner_markers(text: str) -> list[str]:
    return re.findall(r"INNER-TEXT-\w+", text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", default=[], metavar="CASE", help=f"cases to run (of {', '.join(CASES)})")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per build before it is killed (default 60)")
    parser.add_argument("--memory-mb", type=int, default=4096, help="address-space cap per build (default 4096)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the rows here")
    parser.add_argument("--cli", default=f"{sys.executable} -m contextpull", help="the contextpull command")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.only) - set(CASES))
    if unknown:
        parser.error(f"--only: no case named {', '.join(unknown)}")
    cli = args.cli.split()
    how = dialect_setting(cli)
    if how is None:
        print("this build has no dialect setting: every case is built plain", file=sys.stderr)
    rows = [run_case(name, cli, how, args.timeout, args.memory_mb)
            for name in (args.only or list(CASES))]
    print("| case | dialect | exit | wall s | peak RSS MB | killed | traceback | hostile document | ok.md kept"
          " | inner text | leak | store MB | unresolved | named |")
    print("|---" * 14 + "|")
    yes = {True: "yes", False: "no"}
    for r in rows:
        print(f"| {r['case']} | {r['dialect']} | {r['exit_code']} | {r['wall_s']:.2f} | {r['rss_mb']:.0f} | {yes[r['timed_out']]}"
              f" | {yes[r['traceback']]} | {r['document']} | {yes[r['ok_kept']]} | {r['inner_kept'] or '-'}"
              f" | {yes[r['leak']]} | {r['store_mb']:.2f} | {r['unresolved']}"
              f" | {r['named'].replace('|', '/')} |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
