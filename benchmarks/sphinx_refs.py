"""What a Sphinx site's cross-references show, and what the site's label table costs (issue 26,
"Markup to meaning"; ``contextpull/dialects/sphinx/xrefs/``).

    python benchmarks/sphinx_refs.py TREE DOCS [--repeats 7] [--edit] [--cli contextpull]

TREE is a repository or an exported tree (no ``.git``); either way it is copied into a scratch
folder with ``git init`` run in the copy, as ``real_docs.py`` does, so nothing is written into
it. DOCS is the documentation folder inside TREE (``docs``). Prints:

- the label table: document files under the source folder, labels found, the scan a build pays
  once (every file read and scanned, when the first page with a ref asks) and what every later
  page that shows a ref pays to look a label up in the table its build's reader keeps (medians);
- one ``build --json``: per construct (``rst ref``, ``myst ref``) how many were resolved,
  converted (another project's, by intersphinx) and unresolved; the resolved ones by where the
  label stands (the same document, another one, Sphinx's own); the unresolved by reason;
- with ``--edit``: a label another document refers to gets its section retitled, then
  ``build --cache`` and a fresh build: documents read again and whether the two stores are
  byte-identical.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from real_docs import as_checkout  # noqa: E402


def table_figures(root: Path, source_dir: str, repeats: int) -> str:
    from contextpull.dialects.api import Site
    from contextpull.dialects.site_reader import SiteReader
    from contextpull.dialects.sphinx.pages import source_rules
    from contextpull.dialects.sphinx.xrefs import labels

    first, later = [], []
    for _ in range(repeats):
        reader = SiteReader(Site("sphinx", None, str(root), str(root)))  # one build's
        key = (labels.__name__, source_dir)
        started = time.perf_counter()
        found = reader.once(key, lambda: labels.site_table(str(root), source_dir, reader))
        first.append(time.perf_counter() - started)
        started = time.perf_counter()
        reader.once(key, lambda: labels.site_table(str(root), source_dir, reader))
        later.append(time.perf_counter() - started)
    files = len(labels._documents(str(root), source_dir, source_rules(str(root), source_dir)))
    defined = sum(1 for label in found.values() if label.path)
    return (f"label table: {files} files, {defined} labels; the build's one scan {statistics.median(first) * 1000:.1f} ms,"
            f" a later page's lookup {statistics.median(later) * 1e6:.1f} µs (medians of {repeats})")


def build(cli: list[str], docs: Path, out: Path, *extra: str) -> dict:
    if "--cache" not in extra:  # a cached build writes over the store it starts from
        shutil.rmtree(out, ignore_errors=True)
    run = subprocess.run([*cli, "build", str(docs), "--out", str(out), "--json", *extra],
                         capture_output=True, text=True, env={"SOURCE_DATE_EPOCH": "0", "PATH": "/usr/bin:/bin"})
    if run.returncode not in (0,):
        raise SystemExit(f"build failed ({run.returncode}): {run.stderr.strip()[:500]}")
    return json.loads(run.stdout)


def ref_notes(store: Path):
    with sqlite3.connect(store) as con:
        row = con.execute("SELECT value FROM meta WHERE key = 'dialect_reads'").fetchone()
    reads = json.loads(row[0]) if row else {}
    for path, entry in sorted(reads.items()):
        for construct, outcome, line, detail in entry.get("notes", []):
            if construct.endswith(" ref"):
                yield path, construct, outcome, line, detail


def ref_figures(report: dict, store: Path) -> list[str]:
    constructs = report.get("dialect", {}).get("constructs", {})
    lines = [f"{name}: {counts['resolved']} resolved, {counts['converted']} converted,"
             f" {counts['unresolved']} unresolved"
             for name, counts in sorted(constructs.items()) if name.endswith(" ref")]
    where: collections.Counter = collections.Counter()
    why: collections.Counter = collections.Counter()
    for path, _, outcome, _, detail in ref_notes(store):
        if outcome == "resolved":
            where["Sphinx's own" if detail.endswith("(Sphinx)") else
                  "another document" if detail.endswith(")") else "the same document"] += 1
        elif outcome == "unresolved":
            why[re.sub(r"label \S+ \(.*?\)", "label (file)", re.sub(r": .*", ":", detail))] += 1
    lines.append("resolved, where the label stands: " + ", ".join(f"{k} {v}" for k, v in sorted(where.items())))
    if why:
        lines.append("unresolved, why: " + "; ".join(f"{k} {v}" for k, v in why.most_common()))
    return lines


def retitle_one(root: Path, store: Path) -> str | None:
    """Retitle the section of a label that another document refers to; the label, or None."""
    for path, _, outcome, _, detail in ref_notes(store):
        match = re.match(r"(.+) \((.+\.rst)\)$", detail) if outcome == "resolved" else None
        if match is None:
            continue
        name, target = match.groups()
        page = root / target
        lines = page.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines[:-2]):
            if line.strip().lower() == f".. _{name.lower()}:":
                j = i + 1
                while j < len(lines) and not lines[j].strip():
                    j += 1
                under = lines[j + 1] if j + 1 < len(lines) else ""
                if under.strip() and len(set(under.strip())) == 1:
                    lines[j] += " (edited)"
                    lines[j + 1] = under.strip()[0] * len(lines[j])
                    page.write_text("\n".join(lines), encoding="utf-8")
                    return f"{name} in {target}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("docs", help="the documentation folder inside TREE")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--edit", action="store_true")
    parser.add_argument("--cli", default=str(Path(sys.executable).with_name("contextpull")))
    args = parser.parse_args(argv)
    cli = args.cli.split()
    with tempfile.TemporaryDirectory(prefix="sphinx-refs-") as work:
        work = Path(work)
        root = as_checkout(args.tree, work / "repo")
        docs = root / args.docs
        report = build(cli, docs, work / "out")
        config = report.get("dialect", {}).get("config_file") or args.docs
        source_dir = config.rpartition("/")[0] if config.endswith("conf.py") else args.docs
        print(f"{args.tree} ({args.docs}), dialect {report.get('dialect', {}).get('name')} from {config}")
        print(table_figures(root.resolve(), source_dir, args.repeats))
        for line in ref_figures(report, work / "out" / "store.sqlite"):
            print(line)
        if args.edit:
            edited = retitle_one(root, work / "out" / "store.sqlite")
            if edited is None:
                print("edit: no label another .rst page refers to")
                return 0
            cached = build(cli, docs, work / "out", "--cache", str(work / "out" / "store.sqlite"))
            build(cli, docs, work / "fresh")
            same = (work / "out" / "store.sqlite").read_bytes() == (work / "fresh" / "store.sqlite").read_bytes()
            cache = cached.get("cache", {})
            print(f"edit: retitled {edited}; build --cache read {cache.get('parsed_documents')} documents again,"
                  f" reused {cache.get('reused_documents')}; byte-identical to a fresh build: {same}")
            return 0 if same else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
