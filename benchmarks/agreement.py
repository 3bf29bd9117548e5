"""Row-for-row agreement of our stores with the published implementation's (issues 2 and 19).

  python benchmarks/agreement.py CORPUS [--peer-store S] [--our-store S] [--work DIR]
                                 [--peer /tmp/peer/bin/contextpull] [--via build|ingest]
                                 [--examples N] [-q]

Builds CORPUS with both implementations, unless a store is given for either side: the published
one with ``PEER ingest CORPUS --store FILE``, ours with ``contextpull build CORPUS --out DIR``
(default) or ``contextpull ingest CORPUS --store FILE`` (``--via ingest``). CORPUS is copied to a
scratch folder first, so neither writer can leave anything in it. Then counts differing rows
per table, on what a reader sees:

- ``documents``: path -> (title, summary, kind, n_sections)
- ``sections``: id -> (ordinal, heading_path, level, kind, text, char_len, hash, prev_id, next_id)
- ``sections_fts``: id -> (heading_path, text) as indexed (the normalised columns)
- ``meta``: ``index_text``, ``index_mode``, ``index_tokens`` (these embed the corpus fingerprint)

and prints up to ``--examples`` differing rows per table, showing the first differing field and,
for text, where it first differs. Then, document by document, the class of difference behind
every document whose sections differ (``agreement_classes.py``: table-row trailing whitespace,
bare headings merged backward, a heading and a table over the limit, ...), with the number of
documents per class and up to ``--examples`` of them; ``--classes-out FILE`` writes every path
per class as JSON. Exits 1 when any row differs, 0 when every table agrees.

Corpora measured (benchmarks/README.md, "Agreement"): the uv docs, the published default and
scenarios conformance corpora, ``large_corpus.py``'s 1,100 documents, and a real corpus of
72,355 documents, MicrosoftDocs/cpp-docs ``a2e592a8``, MicrosoftDocs/windows-driver-docs
``825aa15f`` and MicrosoftDocs/win32 ``47e64c18`` (``msdocs_corpus.py`` makes it), built with
``--dialect plain``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from agreement_classes import report as class_report  # noqa: E402

QUERIES = {
    "documents": (
        ("title", "summary", "kind", "n_sections"),
        "SELECT path, title, summary, kind, n_sections FROM documents",
    ),
    "sections": (
        ("ordinal", "heading_path", "level", "kind", "text", "char_len", "hash", "prev_id", "next_id"),
        "SELECT id, ordinal, heading_path, level, kind, text, char_len, hash, prev_id, next_id "
        "FROM sections",
    ),
    "sections_fts": (("heading_path", "text"), "SELECT id, heading_path, text FROM sections_fts"),
    "meta": (
        ("value",),
        "SELECT key, value FROM meta WHERE key IN ('index_text', 'index_mode', 'index_tokens')",
    ),
}


def rows(store: Path, table: str) -> dict[str, tuple]:
    """key -> the compared fields of one table."""
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return {key: tuple(rest) for key, *rest in conn.execute(QUERIES[table][1])}
    finally:
        conn.close()


def where_text_differs(u: str, v: str) -> str:
    at = next((k for k, (c, d) in enumerate(zip(u, v)) if c != d), min(len(u), len(v)))
    lo, hi = max(0, at - 25), at + 35
    return f"at char {at}: ours {u[lo:hi]!r} vs peer {v[lo:hi]!r} (lengths {len(u)} / {len(v)})"


def describe(fields: tuple[str, ...], mine: tuple | None, theirs: tuple | None) -> str:
    if mine is None:
        return "missing from ours"
    if theirs is None:
        return "missing from the peer store"
    for name, u, v in zip(fields, mine, theirs):
        if u != v:
            if isinstance(u, str) and isinstance(v, str) and (len(u) > 60 or len(v) > 60):
                return f"{name} {where_text_differs(u, v)}"
            return f"{name}: ours {u!r} vs peer {v!r}"
    return "identical"


def compare(ours: Path, peer: Path, examples: int, quiet: bool = False) -> int:
    """Prints per-table counts and examples; returns the number of differing rows."""
    total = 0
    for table, (fields, _) in QUERIES.items():
        mine, theirs = rows(ours, table), rows(peer, table)
        keys = sorted(set(mine) | set(theirs))
        differing = [k for k in keys if mine.get(k) != theirs.get(k)]
        total += len(differing)
        print(f"{table:<13} {len(differing):>6} of {len(keys)} rows differ")
        if not quiet:
            for key in differing[:examples]:
                print(f"    {key}: {describe(fields, mine.get(key), theirs.get(key))}")
    return total


def run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")


def build_peer(peer: str, corpus: Path, store: Path) -> Path:
    run([peer, "ingest", str(corpus), "--store", str(store)])
    return store


def build_ours(via: str, corpus: Path, work: Path, dialect: str | None = None) -> Path:
    exe = str(Path(sys.executable).parent / "contextpull")
    if via == "ingest":
        store = work / "ours.sqlite"
        run([exe, "ingest", str(corpus), "--store", str(store), "--quiet"])
        return store
    run([exe, "build", str(corpus), "--out", str(work / "ours-out"),
         *(["--dialect", dialect] if dialect else [])])
    return work / "ours-out" / "store.sqlite"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--peer-store", type=Path, help="a store the published writer built from CORPUS")
    ap.add_argument("--our-store", type=Path, help="a store our writer built from CORPUS")
    ap.add_argument("--peer", default="/tmp/peer/bin/contextpull", help="the published CLI")
    ap.add_argument("--via", choices=("build", "ingest"), default="build")
    ap.add_argument("--dialect", help="build's --dialect (default: build's own, auto)")
    ap.add_argument("--work", type=Path, help="keep the built stores in this folder")
    ap.add_argument("--examples", type=int, default=5)
    ap.add_argument("-q", "--quiet", action="store_true", help="counts only")
    ap.add_argument("--section-max-chars", type=int, default=2000,
                    help="the limit both stores were built with (for the classes)")
    ap.add_argument("--classes-out", type=Path, help="write every differing document per class as JSON")
    args = ap.parse_args(argv)
    if not args.corpus.is_dir():
        raise SystemExit(f"{args.corpus}: not a folder")
    with tempfile.TemporaryDirectory(prefix="agreement-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        corpus = work / "corpus"
        if not (args.peer_store and args.our_store):
            shutil.rmtree(corpus, ignore_errors=True)
            shutil.copytree(args.corpus, corpus)
        peer = args.peer_store
        if peer is None:
            (work / "peer.sqlite").unlink(missing_ok=True)
            peer = build_peer(args.peer, corpus, work / "peer.sqlite")
        ours = args.our_store
        if ours is None:
            shutil.rmtree(work / "ours-out", ignore_errors=True)
            (work / "ours.sqlite").unlink(missing_ok=True)
            ours = build_ours(args.via, corpus, work, args.dialect)
        differing = compare(ours, peer, args.examples, args.quiet)
        print(f"total: {differing} differing rows")
        _, by_class = class_report(ours, peer, 0 if args.quiet else args.examples, args.section_max_chars)
    if args.classes_out:
        args.classes_out.write_text(json.dumps(by_class, indent=1) + "\n")
    return 0 if differing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
