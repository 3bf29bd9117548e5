"""Section-for-section agreement with the published implementation (issue 2, "What it must show").

Usage: python benchmarks/agreement.py CORPUS PEER_STORE [--max-chars N --min-chars N --depth N]

CORPUS is a folder of documents, PEER_STORE a store that the published contextpull built from it
(``contextpull ingest CORPUS --store PEER_STORE``). For every document this runs our pipeline
(``collect()``: discover, parse, section; it falls back to our parsers directly when the pipeline
module is missing) and compares the list of (id, heading_path, kind, text) with the peer's
``sections`` table. Prints one line per document and a total; exits 1 when any document differs.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from contextpull.config import Settings  # noqa: E402


def ours(corpus: Path, settings: Settings) -> dict[str, list[tuple[str, str, str, str]]]:
    """path -> [(id, heading_path, kind, text)] from our pipeline."""
    result: dict[str, list[tuple[str, str, str, str]]] = {}
    try:
        from contextpull.ingest.engine import collect
    except ImportError:
        collect = None
    if collect is not None:
        from contextpull.writing.records import DocumentRecord

        for item in collect(corpus, settings):
            if isinstance(item, DocumentRecord):
                result[item.path] = [
                    (f"{item.path}#{i}", s.heading_path, s.kind, s.text)
                    for i, s in enumerate(item.sections)
                ]
        return result
    from contextpull.parsing.parse_markdown import parse_markdown
    from contextpull.parsing.parse_text import parse_text
    from contextpull.writing.section import section_document

    for file in sorted(corpus.rglob("*")):
        rel = file.relative_to(corpus).as_posix()
        if not file.is_file() or any(p.startswith(".") for p in rel.split("/")):
            continue
        parser = {".md": parse_markdown, ".markdown": parse_markdown, ".txt": parse_text}.get(
            file.suffix.lower()
        )
        if parser is None:
            continue
        doc = parser(file.read_bytes().decode("utf-8", "replace"), file.stem)
        result[rel] = [
            (f"{rel}#{i}", s.heading_path, s.kind, s.text)
            for i, s in enumerate(section_document(doc, settings))
        ]
    return result


def peers(store: Path) -> dict[str, list[tuple[str, str, str, str]]]:
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    result: dict[str, list[tuple[str, str, str, str]]] = {}
    rows = conn.execute(
        "SELECT d.path, s.id, s.heading_path, s.kind, s.text FROM sections s "
        "JOIN documents d ON d.doc_id = s.doc_id ORDER BY d.path, s.ordinal"
    )
    for path, *row in rows:
        result.setdefault(path, []).append(tuple(row))
    for (path,) in conn.execute("SELECT path FROM documents WHERE n_sections = 0"):
        result.setdefault(path, [])
    conn.close()
    return result


def first_difference(a: list[tuple], b: list[tuple]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            for name, u, v in zip(("id", "heading_path", "kind", "text"), x, y):
                if u != v:
                    if name == "text":
                        at = next(
                            (k for k, (c, d) in enumerate(zip(u, v)) if c != d), min(len(u), len(v))
                        )
                        lo, hi = max(0, at - 20), at + 30
                        return (
                            f"section {i} text differs at char {at}: "
                            f"ours {u[lo:hi]!r} vs peer {v[lo:hi]!r} (lengths {len(u)} / {len(v)})"
                        )
                    return f"section {i} {name}: ours {u!r} vs peer {v!r}"
    return f"section count: ours {len(a)} vs peer {len(b)}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("peer_store", type=Path)
    ap.add_argument("--max-chars", type=int, default=2000)
    ap.add_argument("--min-chars", type=int, default=40)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("-q", "--quiet", action="store_true", help="print only differing documents")
    args = ap.parse_args(argv)
    settings = Settings(
        section_max_chars=args.max_chars,
        section_min_chars=args.min_chars,
        section_heading_depth=args.depth,
    )
    mine, theirs = ours(args.corpus, settings), peers(args.peer_store)
    same = 0
    for path in sorted(set(mine) | set(theirs)):
        if path not in mine:
            print(f"different  {path}: missing from ours")
        elif path not in theirs:
            print(f"different  {path}: missing from the peer store")
        elif mine[path] == theirs[path]:
            same += 1
            if not args.quiet:
                print(f"identical  {path} ({len(mine[path])} sections)")
        else:
            print(f"different  {path}: {first_difference(mine[path], theirs[path])}")
    total = len(set(mine) | set(theirs))
    print(f"total: {same} of {total} documents identical")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
