"""Fuzz every parser entry point with hypothesis and print what it found (issue 22).

    .venv/bin/python benchmarks/fuzz_parsers.py [--minutes 5] [--targets markdown,xlsx,...]

Each target draws inputs from a hypothesis strategy and runs one entry point; the time is shared
out round-robin in batches until the minutes are spent. An input is fine when the entry point
returns or raises ``ParseError`` (the refusal whose message becomes a skip reason). Anything
else is a crash: it is counted, and the first of each kind is printed with its input. So is an
example slower than ``--slow`` seconds (a hang in the making). Exit status 1 when anything
crashed.

Targets:
  markdown, text   ``parse_file`` on generated markdown-like text and on raw bytes
  docx, xlsx, pptx ``parse_file`` on packages built from random parts and random XML, then
                   some of them damaged byte by byte
  pdf              ``parse_file`` on generated PDFs, damaged byte by byte
  safezip          ``SafeZip`` and ``parse_xml`` on random and damaged archives and XML
  section          ``section_document`` on random block lists under random settings
  discover         ``discover`` over a folder of odd names: control characters, non-UTF-8
                   bytes, long names, pipes, links in and out of the root

The test suite runs ``run(seconds=...)`` for a few seconds as a property test.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tempfile
import time
import traceback
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from contextpull.config import Settings  # noqa: E402
from contextpull.parsing.blocks import Code, Heading, ListBlock, Paragraph, ParsedDocument, ParseError, Table  # noqa: E402
from contextpull.parsing.parse import parse_file  # noqa: E402
from contextpull.parsing.safezip import SafeZip, parse_xml  # noqa: E402
from contextpull.writing.discover import Candidate, discover  # noqa: E402
from contextpull.writing.records import Skipped  # noqa: E402
from contextpull.writing.section import section_document  # noqa: E402

# -- strategies --------------------------------------------------------------------------------

_MD_PIECES = st.sampled_from(
    ["# ", "## ", "###### ", "####### ", "#", "\n", "\n\n", "```", "```py", "~~~", "    ", "- ", "* ",
     "1. ", "> ", "|", "| a | b |", "|---|---|", "---", "+++", "title: x", "<!--", "-->", "\\", "`",
     "*", "_", "[x](y)", "\t", " ", "\r\n", "\ufeff", "\u2028", "é", "\x00", "word", "Heading"]
)
markdown_text = st.lists(st.one_of(_MD_PIECES, st.text(max_size=20)), max_size=80).map("".join)
raw_bytes = st.one_of(st.binary(max_size=2000), markdown_text.map(lambda t: t.encode("utf-8", "surrogatepass")))

_xml_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
_esc = _xml_text.map(lambda t: "".join(c for c in t if c >= " " or c in "\t\n").replace("&", "&amp;").replace("<", "&lt;"))

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
P = ('xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
     'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
     'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"')


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


@st.composite
def damaged(draw, data: bytes) -> bytes:
    """Some bytes overwritten, or the file cut short, or left as it is."""
    how = draw(st.sampled_from(["keep", "flip", "cut"]))
    if how == "keep" or not data:
        return data
    if how == "cut":
        return data[: draw(st.integers(0, len(data)))]
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
    return bytes(out)


@st.composite
def docx(draw) -> bytes:
    paras = []
    for _ in range(draw(st.integers(0, 12))):
        style = draw(st.sampled_from(["", "Heading1", "Heading9", "Title", "ListParagraph", "x"]))
        ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
        if draw(st.booleans()):
            ppr = f'<w:pPr><w:numPr><w:ilvl w:val="{draw(st.integers(-2, 12))}"/><w:numId w:val="1"/></w:numPr></w:pPr>'
        paras.append(f"<w:p>{ppr}<w:r><w:t>{draw(_esc)}</w:t></w:r></w:p>")
        if draw(st.integers(0, 5)) == 0:
            cells = "".join(f"<w:tc><w:p><w:r><w:t>{draw(_esc)}</w:t></w:r></w:p></w:tc>" for _ in range(draw(st.integers(0, 4))))
            paras.append(f"<w:tbl><w:tr>{cells}</w:tr><w:tr>{cells}</w:tr></w:tbl>")
    members = {"word/document.xml": f"<w:document {W}><w:body>{''.join(paras)}</w:body></w:document>".encode()}
    if draw(st.booleans()):
        members["word/styles.xml"] = f'<w:styles {W}><w:style w:styleId="x"><w:name w:val="{draw(_esc)}"/><w:basedOn w:val="x"/></w:style></w:styles>'.encode()
    return draw(damaged(_zip(members)))


_col = st.one_of(st.sampled_from(["A", "B", "Z", "AA", "XFD", "ZZZ", "", "a1", "1"]), st.text("ABCXYZ", min_size=1, max_size=4))


@st.composite
def xlsx(draw) -> bytes:
    rows = []
    for r in range(draw(st.integers(0, 15))):
        cells = []
        for _ in range(draw(st.integers(0, 6))):
            kind = draw(st.sampled_from(["n", "s", "b", "inlineStr", "str", "e", None]))
            ref = draw(_col) + draw(st.sampled_from([str(r + 1), "", "0", "99999999"]))
            t = f' t="{kind}"' if kind else ""
            value = f"<is><t>{draw(_esc)}</t></is>" if kind == "inlineStr" else f"<v>{draw(st.one_of(_esc, st.integers(-3, 5).map(str)))}</v>"
            cells.append(f'<c r="{ref}"{t}>{value}</c>')
        row_ref = draw(st.sampled_from([f' r="{r + 1}"', "", ' r="x"', ' r="1048576"']))
        rows.append(f"<row{row_ref}>{''.join(cells)}</row>")
    shared = "".join(f"<si><t>{draw(_esc)}</t></si>" for _ in range(draw(st.integers(0, 4))))
    sheets = draw(st.integers(0, 3))
    members = {
        "xl/workbook.xml": f"<workbook {S} {P.split(' ', 2)[2]}><sheets>"
        + "".join(f'<sheet name="{draw(_esc)}" r:id="rId{i}"/>' for i in range(1, sheets + 1)) + "</sheets></workbook>",
        "xl/_rels/workbook.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        + "".join(f'<Relationship Id="rId{i}" Type="x" Target="worksheets/sheet{i}.xml"/>' for i in range(1, sheets + 1))
        + "</Relationships>",
        "xl/sharedStrings.xml": f"<sst {S}>{shared}</sst>",
    }
    for i in range(1, sheets + 1):
        members[f"xl/worksheets/sheet{i}.xml"] = f"<worksheet {S}><sheetData>{''.join(rows)}</sheetData></worksheet>"
    return draw(damaged(_zip({k: v.encode() for k, v in members.items()})))


@st.composite
def pptx(draw) -> bytes:
    members = {}
    n = draw(st.integers(0, 5))
    for i in range(1, n + 1):
        shapes = []
        for _ in range(draw(st.integers(0, 4))):
            ph = draw(st.sampled_from(["", "title", "ctrTitle", "body", "x"]))
            nv = f'<p:nvSpPr><p:nvPr><p:ph type="{ph}"/></p:nvPr></p:nvSpPr>' if ph else ""
            paras = "".join(f'<a:p><a:pPr lvl="{draw(st.integers(-1, 9))}"/><a:r><a:t>{draw(_esc)}</a:t></a:r></a:p>' for _ in range(draw(st.integers(0, 3))))
            shapes.append(f"<p:sp>{nv}<p:txBody>{paras}</p:txBody></p:sp>")
        members[f"ppt/slides/slide{draw(st.integers(0, 20))}.xml"] = f"<p:sld {P}><p:cSld><p:spTree>{''.join(shapes)}</p:spTree></p:cSld></p:sld>"
    if draw(st.booleans()):
        ids = "".join(f'<p:sldId id="{255 + i}" r:id="rId{i}"/>' for i in range(1, n + 2))
        members["ppt/presentation.xml"] = f"<p:presentation {P}><p:sldIdLst>{ids}</p:sldIdLst></p:presentation>"
    if not members:
        members["ppt/presentation.xml"] = f"<p:presentation {P}/>"
    return draw(damaged(_zip({k: v.encode() for k, v in members.items()})))


@st.composite
def pdf(draw) -> bytes:
    from pdf_files import make_pdf  # the tests' PDF writer

    pages = []
    for _ in range(draw(st.integers(1, 3))):
        lines = []
        for _ in range(draw(st.integers(0, 5))):
            size = draw(st.sampled_from([8, 11, 14, 24, 0, -3]))
            text = draw(st.text(st.characters(min_codepoint=32, max_codepoint=255, blacklist_characters="()\\"), max_size=30))
            lines.append(f"BT /F1 {size} Tf 1 0 0 1 72 {draw(st.integers(-10, 800))} Tm ({text}) Tj ET")
        pages.append("\n".join(lines))
    return draw(damaged(make_pdf(pages, image=draw(st.booleans()))))


xml_bytes = st.one_of(
    st.binary(max_size=300),
    st.lists(st.sampled_from(["<a>", "</a>", "<b x='1'/>", "<!DOCTYPE a>", "<!ENTITY e 'x'>", "&e;", "&amp;", "text",
                              "<?xml version='1.0' encoding='utf-16'?>", "\ufeff", "<![CDATA[x]]>"]), max_size=20)
    .map(lambda parts: "".join(parts).encode("utf-8")),
    st.text(max_size=50).map(lambda t: t.encode("utf-16")),
)

_headings = st.builds(Heading, st.integers(0, 9), st.text(max_size=300))
_table = st.builds(
    lambda rows, w: Table("| a |", "|---|", tuple(f"| {'x' * w} {i} |" for i in range(rows)),
                          "\n".join(["| a |", "|---|", *(f"| {'x' * w} {i} |" for i in range(rows))])),
    st.integers(0, 50), st.integers(0, 400),
)
blocks = st.lists(
    st.one_of(_headings, st.builds(Paragraph, st.text(max_size=900)), st.builds(ListBlock, st.text(max_size=300)),
              st.builds(Code, st.just(""), st.text(max_size=500).map(lambda t: "```\n" + t + "\n```")), _table),
    max_size=40,
)
section_settings = st.builds(
    lambda mx, mn, d: Settings(section_max_chars=mx, section_min_chars=min(mn, mx - 1), section_heading_depth=d),
    st.integers(100, 3000), st.integers(0, 500), st.integers(1, 6),
)

_name_part = st.one_of(
    st.text(st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)), min_size=1, max_size=40),
    st.sampled_from(["-rf", "--help", " lead", "trail ", "a\nb", "a\\b", "é", "ü", ".hidden", "x" * 200, "CON", "*", "[x]", "!keep"]),
)
odd_entry = st.tuples(
    st.lists(_name_part, min_size=1, max_size=3),
    st.sampled_from([".md", ".txt", ".MD", ".pdf", ".docx", ""]),
    st.sampled_from(["file", "file", "fifo", "link-in", "link-out", "dir", "bad-utf8"]),
)


# -- checks ------------------------------------------------------------------------------------


def check_parse(kind: str) -> Callable[[bytes], None]:
    def run(data: bytes) -> None:
        try:
            doc = parse_file(data, kind, "fuzz")
        except ParseError:
            return
        section_document(doc, Settings())  # the parser's blocks must section
    return run


def check_safezip(data: bytes) -> None:
    try:
        pkg = SafeZip(data)
        for name in pkg.names()[:5]:
            pkg.read(name)
    except ParseError:
        pass


def check_xml(data: bytes) -> None:
    try:
        parse_xml(data, "part.xml")
    except ParseError:
        pass


def check_section(args) -> None:
    items, cfg = args
    drafts = section_document(ParsedDocument("T", items), cfg)
    for d in drafts:
        assert not d.heading_path.endswith(" > "), d.heading_path


def check_discover(entries) -> None:
    base = Path(tempfile.mkdtemp(prefix="fuzz-discover-"))
    root = base / "docs"
    try:
        root.mkdir()
        (base / "outside.md").write_text("x")
        for parts, ext, how in entries:
            rel = [p.strip("/").replace("\x00", "") or "x" for p in parts]
            path = root.joinpath(*rel[:-1], rel[-1] + ext)
            raw = os.fsencode(path.parent) + b"/\xff\xfe" + os.fsencode(ext)
            try:
                # A name made twice is skipped: writing to a FIFO an earlier entry made would wait
                # for a reader forever.
                if os.path.lexists(raw if how not in ("file", "fifo", "link-in", "link-out", "dir") else path):
                    continue
                path.parent.mkdir(parents=True, exist_ok=True)
                if how == "file":
                    path.write_text("# x\n")
                elif how == "fifo":
                    os.mkfifo(path)
                elif how == "link-in":
                    os.symlink(root, path)  # a link to a folder: never followed
                elif how == "link-out":
                    os.symlink(base / "outside.md", path)
                elif how == "dir":
                    path.mkdir()
                else:
                    os.close(os.open(raw, os.O_CREAT | os.O_WRONLY))
            except (OSError, ValueError):
                continue  # the file system refused the name: nothing to discover
        found = list(discover(root))
        for item in found:
            assert isinstance(item, (Candidate, Skipped)), item
            item.path.encode("utf-8")
    finally:
        shutil.rmtree(base, ignore_errors=True)


TARGETS: dict[str, tuple[st.SearchStrategy, Callable]] = {
    "markdown": (raw_bytes, check_parse("markdown")),
    "text": (raw_bytes, check_parse("text")),
    "docx": (docx(), check_parse("docx")),
    "xlsx": (xlsx(), check_parse("xlsx")),
    "pptx": (pptx(), check_parse("pptx")),
    "pdf": (pdf(), check_parse("pdf")),
    "safezip": (st.one_of(st.binary(max_size=500), docx(), xlsx()), check_safezip),
    "xml": (xml_bytes, check_xml),
    "section": (st.tuples(blocks, section_settings), check_section),
    "discover": (st.lists(odd_entry, max_size=8), check_discover),
}


# -- the run -------------------------------------------------------------------------------------


@dataclass
class Tally:
    examples: int = 0
    crashes: int = 0
    slowest: float = 0.0
    first: dict[str, str] = field(default_factory=dict)  # crash kind -> input and traceback


def run_target(name: str, seconds: float, tally: Tally, slow: float, batch: int = 50) -> None:
    strategy, check = TARGETS[name]
    stop = time.monotonic() + seconds
    first = tally.examples  # at least one example per call, however loaded the machine

    @settings(max_examples=batch, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(value) -> None:
        if time.monotonic() > stop and tally.examples > first:
            return
        started = time.perf_counter()
        try:
            check(value)
        except Exception as exc:  # noqa: BLE001 - a crash is what we are looking for
            tally.crashes += 1
            kind = f"{type(exc).__name__} at {traceback.extract_tb(exc.__traceback__)[-1].name}"
            tally.first.setdefault(kind, f"input {value!r:.300}\n{traceback.format_exc(limit=-4)}")
        finally:
            took = time.perf_counter() - started
            tally.examples += 1
            tally.slowest = max(tally.slowest, took)
            if took > slow:
                tally.first.setdefault(f"slow example ({took:.1f} s)", f"input {value!r:.300}")

    one()
    while time.monotonic() < stop:
        one()


def run(seconds: float, targets: list[str] | None = None, slow: float = 10.0, batch: int = 50) -> dict[str, Tally]:
    """Share ``seconds`` out round-robin over ``targets`` (all by default) in slices of a few
    seconds, so every target gets its share even when one is slow."""
    names = targets or list(TARGETS)
    tallies = {name: Tally() for name in names}
    end = time.monotonic() + seconds
    share = min(20.0, seconds / (len(names) * 3))
    rounds = 0
    while rounds == 0 or time.monotonic() < end:  # the first round visits every target
        for name in names:
            left = max(end - time.monotonic(), 0.0)
            run_target(name, min(share, left), tallies[name], slow, batch)
        rounds += 1
    return tallies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--targets", default=",".join(TARGETS), help="comma-separated: " + ",".join(TARGETS))
    parser.add_argument("--slow", type=float, default=10.0, help="report examples slower than this (s)")
    args = parser.parse_args()
    names = [n for n in args.targets.split(",") if n]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown targets: {', '.join(unknown)}")
    started = time.monotonic()
    tallies = run(args.minutes * 60, names, args.slow)
    print(f"fuzzed {len(names)} targets for {time.monotonic() - started:.0f} s (hypothesis)")
    print(f"{'target':<10} {'examples':>9} {'crashes':>8} {'slowest s':>10}")
    for name, t in tallies.items():
        print(f"{name:<10} {t.examples:>9} {t.crashes:>8} {t.slowest:>10.3f}")
    total = sum(t.examples for t in tallies.values())
    crashes = sum(t.crashes for t in tallies.values())
    print(f"{'total':<10} {total:>9} {crashes:>8}")
    for name, t in tallies.items():
        for kind, detail in t.first.items():
            print(f"\n[{name}] {kind}\n{detail}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
