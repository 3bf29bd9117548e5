"""What hostile but valid inputs cost (issue 22), printed for benchmarks/README.md.

    .venv/bin/python benchmarks/bad_input_costs.py

1. Sectioning a file of bare headings (4 to 5 MB, the shape that made fragment merging
   quadratic): parse and section times, sections and the longest one.
2. An xlsx whose sheets have one cell far to the right (column XFD): file size and the
   characters of the table text it becomes.
3. A deck of 10,000 slides: parse time and slides read.
4. A sparse 8 GiB .md beside a small one: the whole ingest time and the skip it reports.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/: deck() builds slides with test_parse_office

from contextpull.config import Settings  # noqa: E402
from contextpull.ingest.engine import ingest  # noqa: E402
from contextpull.parsing.blocks import Heading  # noqa: E402
from contextpull.parsing.parse import parse_file  # noqa: E402
from contextpull.writing.section import section_document  # noqa: E402

S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'


def _zip(members: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    return buffer.getvalue()


def headings() -> None:
    print("1. bare headings")
    for label, text in [
        ("400,000 '## Hn'", "".join(f"## H{i}\n\n" for i in range(400_000))),
        ("200,000 mixed levels", "".join(f"{'#' * (1 + i % 4)} Heading number {i}\n\n" for i in range(200_000))),
        ("200,000 heading + word", "".join(f"## H{i}\n\nw\n\n" for i in range(200_000))),
    ]:
        t0 = time.perf_counter()
        doc = parse_file(text.encode(), "markdown", "h")
        t1 = time.perf_counter()
        out = section_document(doc, Settings())
        t2 = time.perf_counter()
        print(f"   {label:<24} {len(text) / 1e6:.1f} MB  parse {t1 - t0:5.2f} s  section {t2 - t1:5.2f} s"
              f"  {len(out)} sections, longest {max(len(s.text) for s in out)}")


def far_cell() -> None:
    print("2. xlsx with one cell in column XFD")
    for rows in (200, 2000):
        cells = "".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c></row>' for r in range(1, rows + 1))
        cells += f'<row r="{rows + 1}"><c r="XFD{rows + 1}"><v>1</v></c></row>'
        data = _zip({
            "xl/workbook.xml": f'<workbook {S} {R}><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>',
            "xl/_rels/workbook.xml.rels": f'<Relationships {RELS}><Relationship Id="rId1" Type="x" Target="worksheets/sheet1.xml"/></Relationships>',
            "xl/worksheets/sheet1.xml": f"<worksheet {S}><sheetData>{cells}</sheetData></worksheet>",
        })
        t0 = time.perf_counter()
        doc = parse_file(data, "xlsx", "far")
        took = time.perf_counter() - t0
        chars = sum(len(getattr(b, "raw", "")) for b in doc.blocks)
        print(f"   {rows} rows: {len(data):,} bytes -> {chars:,} characters of table in {took:.3f} s")


def deck() -> None:
    from test_parse_office import P_NS, shape, slide

    n = 10_000
    ids = "".join(f'<p:sldId id="{256 + i}" r:id="rId{i}"/>' for i in range(1, n + 1))
    rels = "".join(f'<Relationship Id="rId{i}" Type="slide" Target="slides/slide{i}.xml"/>' for i in range(1, n + 1))
    members = {
        "ppt/presentation.xml": f"<p:presentation {P_NS}><p:sldIdLst>{ids}</p:sldIdLst></p:presentation>",
        "ppt/_rels/presentation.xml.rels": f"<Relationships {RELS}>{rels}</Relationships>",
    }
    for i in range(1, n + 1):
        members[f"ppt/slides/slide{i}.xml"] = slide(shape([f"Slide {i}"], "title"), shape([f"Body of slide {i}."]))
        members[f"ppt/slides/_rels/slide{i}.xml.rels"] = f"<Relationships {RELS}/>"
    data = _zip(members)
    t0 = time.perf_counter()
    doc = parse_file(data, "pptx", "deck")
    took = time.perf_counter() - t0
    slides = sum(1 for b in doc.blocks if isinstance(b, Heading) and b.level == 2)
    print(f"3. deck of {n:,} slides ({len(members):,} members, {len(data) / 1e6:.1f} MB): {slides:,} slides in {took:.2f} s")


def sparse() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        (docs / "a.md").write_text("# A\n\nA small document.\n")
        with open(docs / "huge.md", "wb") as handle:
            handle.truncate(8 * 1024**3)
        t0 = time.perf_counter()
        report = ingest(docs, Path(tmp) / "s.sqlite", Settings())
        took = time.perf_counter() - t0
        print(f"4. sparse 8 GiB .md: ingest {took:.2f} s, {report.documents} document,"
              f" skipped {report.skipped[0].path}: {report.skipped[0].reason}")


def main(argv: list[str] | None = None) -> None:
    """The four measurements, after the arguments are read: ``--help`` must not write an 8 GiB
    sparse file or spend minutes sectioning."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.parse_args(argv)
    headings()
    far_cell()
    deck()
    sparse()


if __name__ == "__main__":
    main()
