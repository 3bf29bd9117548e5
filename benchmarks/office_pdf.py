"""Figures for issue 7 ("What it must show"), printed for benchmarks/README.md.

    .venv/bin/python benchmarks/office_pdf.py [--pages 200] [--peer /tmp/peer/bin/contextpull]

1. A zip bomb named ``.docx`` whose member really expands to 1 GiB of zeros (deflated in chunks,
   about 1 MB on disk), and a second one that declares a small size but expands to 1 GiB: the
   time to refuse each and the peak memory of a fresh process doing only that (ru_maxrss,
   interpreter included) plus the tracemalloc peak of the parse itself.
2. A 200-page text PDF (written by hand: a heading and 40 body lines per page): parse time and,
   when ``contextpull ingest`` is available, the whole ingest time of a folder holding it.
3. With ``--peer``: the office/PDF documents of the published conformance corpus ingested by the
   published implementation and by ours, compared on (id, heading_path, kind, text).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

GIB = 1024**3
CORPUS = Path("/tmp/peer-sdist/contextpull-0.2.1/conformance/scenarios/corpus")

CHILD = r"""
import json, resource, sys, time, tracemalloc
from pathlib import Path
from contextpull.parsing.blocks import ParseError
from contextpull.parsing.parse_docx import parse_docx
data = Path(sys.argv[1]).read_bytes()
tracemalloc.start()
t0 = time.perf_counter()
try:
    parse_docx(data, "bomb")
    reason = None
except ParseError as exc:
    reason = str(exc)
elapsed = time.perf_counter() - t0
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps({"reason": reason, "seconds": elapsed, "parse_peak_bytes": peak,
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "file_bytes": len(data)}))
"""


def write_bomb(path: Path, *, lie: bool) -> None:
    """1 GiB of zeros deflated into word/document.xml; with ``lie`` the headers claim 1 KB."""
    chunk = b"\0" * (16 * 1024 * 1024)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        with zf.open("word/document.xml", "w") as member:
            for _ in range(GIB // len(chunk)):
                member.write(chunk)
    if lie:
        data = bytearray(path.read_bytes())
        local = data.find(b"PK\x03\x04")
        central = data.find(b"PK\x01\x02")
        data[local + 22 : local + 26] = (1024).to_bytes(4, "little")
        data[central + 24 : central + 28] = (1024).to_bytes(4, "little")
        path.write_bytes(bytes(data))


def ingest_bomb(tmp: Path) -> None:
    """Run first, so RUSAGE_CHILDREN's maximum is this ingest process alone."""
    corpus = tmp / "bomb-corpus"
    corpus.mkdir()
    write_bomb(corpus / "bomb.docx", lie=False)
    t0 = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "contextpull", "ingest", str(corpus), "--store", str(tmp / "bomb.sqlite")],
        capture_output=True, text=True,
    )
    wall = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    skip = next((line.strip() for line in (run.stdout + run.stderr).splitlines() if "bomb.docx" in line), "no skip line")
    print(f"- `contextpull ingest` of a folder holding only bomb.docx: exit {run.returncode}, {wall:.2f} s wall "
          f"(process start included), max RSS {rss:.1f} MB; {skip}")


def bomb_figures(tmp: Path) -> None:
    print("## zip bomb (.docx expanding to 1 GiB)")
    ingest_bomb(tmp)
    for lie in (False, True):
        path = tmp / ("bomb-lying.docx" if lie else "bomb.docx")
        write_bomb(path, lie=lie)
        out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout)
        label = "declares 1 KB, expands to 1 GiB" if lie else "declares and expands to 1 GiB"
        print(
            f"- {label}: file {r['file_bytes'] / 1e6:.2f} MB; refused in {r['seconds'] * 1000:.1f} ms "
            f"with reason {r['reason']!r}; parse tracemalloc peak {r['parse_peak_bytes'] / 1e6:.2f} MB; "
            f"process max RSS {r['maxrss_kb'] / 1024:.1f} MB (interpreter included)"
        )


def text_pdf(pages: int) -> bytes:
    """A text PDF: each page a 16-point heading and 40 lines of 11-point body text."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from pdf_files import make_pdf  # the tests' PDF writer

    contents = []
    for i in range(pages):
        lines = [f"BT /F1 16 Tf 1 0 0 1 72 760 Tm (Chapter {i + 1}: Maintenance topic {i + 1}) Tj ET"]
        for j in range(40):
            y = 730 - j * 16
            lines.append(
                f"BT /F1 11 Tf 1 0 0 1 72 {y} Tm (Line {j} of page {i + 1}: torque the bolt to {j + 10} Nm "
                f"and record code WR-{2200 + j} in the log.) Tj ET"
            )
        contents.append("\n".join(lines))
    return make_pdf(contents)


def pdf_figures(tmp: Path, pages: int) -> None:
    from contextpull.parsing.parse_pdf import parse_pdf

    print(f"## {pages}-page text PDF")
    data = text_pdf(pages)
    t0 = time.perf_counter()
    doc = parse_pdf(data, "manual")
    parse_s = time.perf_counter() - t0
    heads = sum(1 for b in doc.blocks if type(b).__name__ == "Heading")
    print(f"- {len(data) / 1e6:.2f} MB, {pages} pages: parse_pdf {parse_s:.2f} s, {len(doc.blocks)} blocks ({heads} headings)")
    corpus = tmp / "pdf-corpus"
    corpus.mkdir()
    (corpus / "manual.pdf").write_bytes(data)
    store = tmp / "pdf.sqlite"
    t0 = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "contextpull", "ingest", str(corpus), "--store", str(store)], capture_output=True, text=True)
    ingest_s = time.perf_counter() - t0
    if run.returncode == 0:
        n = sqlite3.connect(store).execute("select count(*) from sections").fetchone()[0]
        print(f"- contextpull ingest of a folder holding it: {ingest_s:.2f} s wall (process start included), {n} sections")
    else:
        print(f"- contextpull ingest not available yet (exit {run.returncode}): {run.stderr.strip()[:200]}")


OFFICE_KINDS = ("docx", "xlsx", "pptx", "pdf")


def store_rows(store: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(store)
    rows: dict[str, list[tuple]] = {}
    sql = (
        "select d.path, d.title, s.id, s.heading_path, s.kind, s.text from sections s "
        "join documents d using(doc_id) where d.kind in (?,?,?,?) order by d.path, s.ordinal"
    )
    for path, title, *row in conn.execute(sql, OFFICE_KINDS):
        rows.setdefault(path, [("title", title)]).append(tuple(row))
    return rows


def agreement(tmp: Path, peer: str) -> None:
    print("## agreement with contextpull 0.2.1 on conformance/scenarios/corpus")
    corpus = tmp / "scenario-corpus"
    shutil.copytree(CORPUS, corpus)
    stores = {"peer": tmp / "peer.sqlite", "ours": tmp / "ours.sqlite"}
    subprocess.run([peer, "ingest", str(corpus), "--store", str(stores["peer"])], check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "contextpull", "ingest", str(corpus), "--store", str(stores["ours"])], check=True, capture_output=True)
    theirs, ours = store_rows(stores["peer"]), store_rows(stores["ours"])
    for path in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(path, []), ours.get(path, [])
        if a == b:
            print(f"- {path}: identical ({len(a) - 1} sections, title and id/heading_path/kind/text)")
            continue
        print(f"- {path}: DIFFERENT")
        for i in range(max(len(a), len(b))):
            if i >= len(a) or i >= len(b) or a[i] != b[i]:
                print(f"    peer: {a[i] if i < len(a) else None!r}\n    ours: {b[i] if i < len(b) else None!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--peer", help="path to the published contextpull executable")
    parser.add_argument("--skip-bomb", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if not args.skip_bomb:
            bomb_figures(tmp)
        pdf_figures(tmp, args.pages)
        if args.peer:
            agreement(tmp, args.peer)


if __name__ == "__main__":
    main()
