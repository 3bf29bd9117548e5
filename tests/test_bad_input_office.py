"""Office packages judged by what they cost, not by how many parts they have (issue 22, "Office"
and the xlsx parser cost).
"""

from __future__ import annotations

import io
import tracemalloc
import zipfile

import pytest
from test_parse_office import P_NS, RELS_NS, make_zip, shape, slide, worksheet, xlsx

from contextpull.parsing.blocks import Heading, ParseError
from contextpull.parsing.parse_docx import parse_docx
from contextpull.parsing.parse_pptx import parse_pptx
from contextpull.parsing.parse_xlsx import MAX_TABLE_CELLS, parse_xlsx
from contextpull.parsing.safezip import SafeZip


def deck(n: int) -> bytes:
    ids = "".join(f'<p:sldId id="{256 + i}" r:id="rId{i}"/>' for i in range(1, n + 1))
    rels = "".join(f'<Relationship Id="rId{i}" Type="slide" Target="slides/slide{i}.xml"/>' for i in range(1, n + 1))
    members = {
        "ppt/presentation.xml": f"<p:presentation {P_NS}><p:sldIdLst>{ids}</p:sldIdLst></p:presentation>",
        "ppt/_rels/presentation.xml.rels": f"<Relationships {RELS_NS}>{rels}</Relationships>",
    }
    for i in range(1, n + 1):
        members[f"ppt/slides/slide{i}.xml"] = slide(shape([f"Slide {i} title"], "title"), shape([f"Body {i}."]))
        members[f"ppt/slides/_rels/slide{i}.xml.rels"] = f"<Relationships {RELS_NS}/>"
    return make_zip(members)


def test_a_deck_of_10000_slides_is_a_document_not_a_bomb():
    doc = parse_pptx(deck(10_000), "big-deck")
    headings = [b.text for b in doc.blocks if isinstance(b, Heading) and b.level == 2]
    assert len(headings) == 10_000
    assert headings[-1] == "Slide 10000: Slide 10000 title"


def test_a_package_that_expands_a_thousand_fold_is_refused_before_reading():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("word/document.xml", b"<w:document/>" + b" " * (60 * 1024 * 1024))
    data = buffer.getvalue()
    assert len(data) < 100_000
    tracemalloc.start()
    with pytest.raises(ParseError, match=r"zip bomb: expands \d+ times \(60 MB from \d+ bytes; the limit is 250 times\)"):
        parse_docx(data, "bomb")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 10 * 1024 * 1024


def test_a_small_package_may_compress_well():
    # under the ratio floor, a highly compressible part is cheap whatever its ratio
    data = make_zip({"a.xml": b"<a>" + b" " * 1_000_000 + b"</a>"})
    assert SafeZip(data).read("a.xml").startswith(b"<a>")


def test_one_cell_far_to_the_right_does_not_pad_every_row():
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c></row>' for r in range(1, 201))
    rows += '<row r="201"><c r="XFD201" t="inlineStr"><is><t>far</t></is></c></row>'
    table = parse_xlsx(xlsx([("S", "worksheets/sheet1.xml", worksheet(rows))]), "s").blocks[2]
    assert table.header_row == "| 1 |  |"
    assert table.rows[-1] == "|  | far |"
    assert len(table.raw) < 3_000  # was 32 million characters


def test_empty_columns_between_values_are_dropped_and_order_kept():
    rows = '<row r="1"><c r="B1"><v>1</v></c><c r="K1"><v>2</v></c></row><row r="2"><c r="Z2"><v>3</v></c></row>'
    table = parse_xlsx(xlsx([("S", "worksheets/sheet1.xml", worksheet(rows))]), "s").blocks[2]
    assert (table.header_row, table.rows) == ("| 1 | 2 |  |", ("|  |  | 3 |",))


def test_a_sheet_too_sparse_to_tabulate_is_a_named_skip(monkeypatch):
    import contextpull.parsing.parse_xlsx as parse_xlsx_mod

    monkeypatch.setattr(parse_xlsx_mod, "MAX_TABLE_CELLS", 99)
    diagonal = "".join(f'<row r="{i}"><c r="{chr(64 + i)}{i}"><v>{i}</v></c></row>' for i in range(1, 11))
    data = xlsx([("Diag", "worksheets/sheet1.xml", worksheet(diagonal))])
    with pytest.raises(ParseError, match=r"sheet 'Diag' is too sparse to tabulate: 10 rows x 10 columns is over 99 cells"):
        parse_xlsx(data, "s")
    assert MAX_TABLE_CELLS == 5_000_000
