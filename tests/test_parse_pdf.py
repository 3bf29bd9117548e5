"""PDF parsing through the pdf extra (issue 7; system-design.txt section 3, the PDF bullet).

PDFs are written byte by byte here (a page is a content stream of ``BT ... Tf ... Tm (text) Tj ET``
lines), so the repository carries no opaque binaries.
"""

from __future__ import annotations

import io
import sys

import pytest

from contextpull.parsing import parse_pdf as pdf_module
from contextpull.parsing.blocks import Heading, Paragraph, ParseError
from contextpull.parsing.parse_pdf import INSTALL_HINT, parse_pdf, pdf_available
from pdf_files import make_pdf

pypdf = pytest.importorskip("pypdf")


def page(*lines: tuple[float, str]) -> str:
    """Lines top to bottom, each (font size, text), 20 points apart."""
    out, y = [], 760
    for size, text in lines:
        text = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        out.append(f"BT /F1 {size} Tf 1 0 0 1 72 {y} Tm ({text}) Tj ET")
        y -= 20
    return "\n".join(out)


BODY = "Body text long enough to make eleven points the most common size by far."


def test_headings_by_size_levels_by_descending_size_and_title():
    data = make_pdf(
        [
            page((20, "Guide Title"), (15, "Install"), (11, BODY), (11, "Second line of the paragraph."), (14, "Details"), (11, BODY)),
            page((11, "Page two starts a new paragraph."), (15, "Usage"), (11, BODY)),
        ]
    )
    doc = parse_pdf(data, "guide")
    assert doc.title == "Guide Title"
    assert doc.blocks == [
        Heading(1, "Guide Title"),
        Heading(2, "Install"),
        Paragraph(BODY + " Second line of the paragraph."),
        Heading(3, "Details"),
        Paragraph(BODY),
        Paragraph("Page two starts a new paragraph."),
        Heading(2, "Usage"),
        Paragraph(BODY),
    ]


def test_single_size_pdf_is_one_heading_less_document():
    doc = parse_pdf(make_pdf([page((11, BODY), (11, "And more."))]), "plain")
    assert doc.title == "plain"
    assert doc.blocks == [Paragraph(BODY + " And more.")]


def test_heading_threshold_is_at_least_1_2_times_body():
    doc = parse_pdf(make_pdf([page((11, BODY), (13.2, "Exactly 1.2x"), (11, BODY), (13, "Just under"), (11, BODY))]), "s")
    assert Heading(1, "Exactly 1.2x") in doc.blocks
    assert not any(isinstance(b, Heading) and b.text == "Just under" for b in doc.blocks)


def test_large_runs_of_120_characters_or_more_are_body():
    long_line = "Large print " * 10 + "ends here."
    doc = parse_pdf(make_pdf([page((11, BODY), (11, BODY), (16, long_line), (18, "Short"), (11, BODY))]), "s")
    assert doc.blocks == [Paragraph(f"{BODY} {BODY} {' '.join(long_line.split())}"), Heading(1, "Short"), Paragraph(BODY)]


def test_wrapped_heading_lines_merge_and_sizes_come_from_the_text_matrix():
    content = (
        "BT /F1 1 Tf 20 0 0 20 72 760 Tm (A heading drawn) Tj ET\n"
        "BT /F1 1 Tf 20 0 0 20 72 736 Tm (at twenty points) Tj ET\n" + page((11, BODY), (11, BODY)).replace("760", "700")
    )
    doc = parse_pdf(make_pdf([content]), "s")
    assert doc.blocks[0] == Heading(1, "A heading drawn at twenty points")
    assert doc.title == "A heading drawn at twenty points"


def test_image_only_and_empty_pdfs_say_there_is_no_text():
    image_page = "q 100 0 0 100 72 600 cm /Im1 Do Q"
    with pytest.raises(ParseError, match=r"no text \(image-only PDF\?\)"):
        parse_pdf(make_pdf([image_page], image=True), "scan")
    with pytest.raises(ParseError, match="no text"):
        parse_pdf(make_pdf([""]), "blank")


def _encrypted(user_password: str) -> bytes:
    writer = pypdf.PdfWriter()
    for p in pypdf.PdfReader(io.BytesIO(make_pdf([page((20, "Secret"), (11, BODY))]))).pages:
        writer.add_page(p)
    writer.encrypt(user_password=user_password, owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_encrypted_pdf_is_skipped_unless_the_empty_password_opens_it():
    with pytest.raises(ParseError, match="encrypted PDF"):
        parse_pdf(_encrypted("hunter2"), "locked")
    assert parse_pdf(_encrypted(""), "open").title == "Secret"


def test_unreadable_bytes_are_refused():
    good = make_pdf([page((11, BODY))])
    with pytest.raises(ParseError, match="not a readable PDF"):
        parse_pdf(b"%PDF-1.4\nthis is not a pdf at all", "junk")
    with pytest.raises(ParseError):
        parse_pdf(good[:80], "cut")


def test_extraction_that_raises_becomes_a_skip_reason(monkeypatch):
    def broken(self, *args, **kwargs):
        raise KeyError("/Broken")

    monkeypatch.setattr(pypdf.PageObject, "extract_text", broken)
    with pytest.raises(ParseError, match=r"PDF text extraction failed on page 1 \(KeyError"):
        parse_pdf(make_pdf([page((11, BODY))]), "s")


def test_extraction_that_loops_is_stopped_by_the_time_budget(monkeypatch):
    def spin(self, *args, **kwargs):
        while True:
            pass

    monkeypatch.setattr(pypdf.PageObject, "extract_text", spin)
    monkeypatch.setattr(pdf_module, "TIME_BUDGET_S", 0.2)
    with pytest.raises(ParseError, match="over its 0.2 s budget"):
        parse_pdf(make_pdf([page((11, BODY))]), "s")


def test_page_count_is_bounded(monkeypatch):
    monkeypatch.setattr(pdf_module, "MAX_PAGES", 2)
    with pytest.raises(ParseError, match="PDF has 3 pages, over the 2-page limit"):
        parse_pdf(make_pdf([page((11, BODY))] * 3), "s")


def test_without_the_extra_the_skip_reason_is_the_install_hint(monkeypatch):
    assert pdf_available()
    monkeypatch.setitem(sys.modules, "pypdf", None)
    assert not pdf_available()
    with pytest.raises(ParseError) as info:
        parse_pdf(make_pdf([page((11, BODY))]), "s")
    assert str(info.value) == INSTALL_HINT == (
        'install the pdf extra: pip install "contextpull[pdf] @ git+https://github.com/OWNER/contextpull@v0.5.0"'
    )


def test_nul_characters_in_the_text_are_dropped():
    # \000 in a PDF string is a NUL character: never text, and a reader's LIKE stops at it
    data = make_pdf([page((11, BODY), (11, "Before"))]).replace(b"(Before)", b"(Be\\000fore KX\\000-1)")
    doc = parse_pdf(data, "nul")
    assert doc.blocks == [Paragraph(BODY + " Before KX-1")]
