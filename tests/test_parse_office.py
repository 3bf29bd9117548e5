"""docx, xlsx and pptx parsing and the safe zip reader (issue 7; system-design.txt section 3).

Every fixture is written here with zipfile, so the repository carries no opaque binaries.
"""

from __future__ import annotations

import io
import struct
import tracemalloc
import zipfile

import pytest

from contextpull.parsing.blocks import Heading, ListBlock, Paragraph, ParseError, Table
from contextpull.parsing.parse_docx import parse_docx
from contextpull.parsing.parse_pptx import parse_pptx
from contextpull.parsing.parse_xlsx import parse_xlsx
from contextpull.parsing.safezip import SafeZip, parse_xml

W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
S_NS = (
    'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
)
P_NS = (
    'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
)
RELS_NS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'


def make_zip(members: dict[str, str | bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


# --- docx fixtures ---------------------------------------------------------------------------


def w_p(text: str = "", style: str | None = None, num: tuple[int, int] | None = None, inner: str | None = None) -> str:
    ppr = ""
    if style or num:
        ppr = "<w:pPr>"
        ppr += f'<w:pStyle w:val="{style}"/>' if style else ""
        ppr += f'<w:numPr><w:ilvl w:val="{num[0]}"/><w:numId w:val="{num[1]}"/></w:numPr>' if num else ""
        ppr += "</w:pPr>"
    runs = inner if inner is not None else (f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else "")
    return f"<w:p>{ppr}{runs}</w:p>"


def w_tbl(rows: list[list[str]]) -> str:
    out = "<w:tbl>"
    for row in rows:
        out += "<w:tr>" + "".join(f"<w:tc>{w_p(cell)}</w:tc>" for cell in row) + "</w:tr>"
    return out + "</w:tbl>"


def docx(body: str, **extra: str) -> bytes:
    members = {"word/document.xml": f"<w:document {W_NS}><w:body>{body}</w:body></w:document>"}
    members.update({f"word/{name}.xml": xml for name, xml in extra.items()})
    return make_zip(members)


NUMBERING = (
    f"<w:numbering {W_NS}>"
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>'
    '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>'
    '<w:num w:numId="5"><w:abstractNumId w:val="0"/></w:num>'
    '<w:num w:numId="6"><w:abstractNumId w:val="1"/></w:num>'
    "</w:numbering>"
)


def test_docx_heading_styles_paragraphs_and_title():
    doc = parse_docx(
        docx(
            w_p("Preamble text.")
            + w_p("Manual", "Title")
            + w_p("Intro paragraph.")
            + w_p("Setup", "Heading1")
            + w_p("Details", "Heading2")
            + w_p("Deep", "Heading8")
        ),
        "stem",
    )
    assert doc.title == "Manual"
    assert doc.blocks == [
        Paragraph("Preamble text."),
        Heading(1, "Manual"),
        Paragraph("Intro paragraph."),
        Heading(1, "Setup"),
        Heading(2, "Details"),
        Heading(6, "Deep"),
    ]


def test_docx_heading_resolved_through_styles_xml_name_and_based_on():
    styles = (
        f"<w:styles {W_NS}>"
        '<w:style w:type="paragraph" w:styleId="Kop2"><w:name w:val="heading 2"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Fancy"><w:name w:val="Fancy"/><w:basedOn w:val="Kop2"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Loop"><w:name w:val="Loop"/><w:basedOn w:val="Loop"/></w:style>'
        "</w:styles>"
    )
    doc = parse_docx(docx(w_p("Localised", "Kop2") + w_p("Derived", "Fancy") + w_p("Plain", "Loop"), styles=styles), "s")
    assert doc.blocks == [Heading(2, "Localised"), Heading(2, "Derived"), Paragraph("Plain")]


def test_docx_title_is_first_level_one_heading_else_stem():
    assert parse_docx(docx(w_p("Second", "Heading2") + w_p("First H1", "Heading1")), "s").title == "First H1"
    assert parse_docx(docx(w_p("Only a paragraph.")), "my-stem").title == "my-stem"


def test_docx_numbered_paragraphs_become_one_list_per_run():
    body = (
        w_p("one", num=(0, 5))
        + w_p("nested", num=(1, 5))
        + w_p("two", num=(0, 5))
        + w_p("")  # an empty paragraph does not end the list
        + w_p("three", num=(0, 5))
        + w_p("Between.")
        + w_p("bullet a", num=(0, 6))
        + w_p("bullet b", num=(0, 6))
        + w_p("unknown numbering", num=(0, 9))
    )
    doc = parse_docx(docx(body, numbering=NUMBERING), "s")
    assert doc.blocks == [
        ListBlock("1. one\n  - nested\n2. two\n3. three"),
        Paragraph("Between."),
        ListBlock("- bullet a\n- bullet b\n- unknown numbering"),
    ]


def test_docx_list_without_numbering_part_uses_dashes():
    doc = parse_docx(docx(w_p("a", num=(0, 1)) + w_p("b", num=(0, 1))), "s")
    assert doc.blocks == [ListBlock("- a\n- b")]


def test_docx_table_becomes_pipe_table_with_escaped_and_padded_cells():
    span = '<w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr>' + w_p("wide") + "</w:tc>"
    tbl = w_tbl([["Key", "Value|pipe", "Note"], ["a", "1"]])
    tbl = tbl.replace("</w:tbl>", f"<w:tr>{span}<w:tc>{w_p('x')}</w:tc></w:tr></w:tbl>")
    doc = parse_docx(docx(w_p("Intro.") + tbl), "s")
    table = doc.blocks[1]
    assert isinstance(table, Table)
    assert table.header_row == "| Key | Value\\|pipe | Note |"
    assert table.separator == "|---|---|---|"
    assert table.rows == ("| a | 1 |  |", "| wide |  | x |")
    assert table.raw == "\n".join([table.header_row, table.separator, *table.rows])


def test_docx_cell_paragraphs_join_with_a_space():
    cell = "<w:tc>" + w_p("first") + w_p("second") + "</w:tc>"
    doc = parse_docx(docx(f"<w:tbl><w:tr>{cell}</w:tr><w:tr><w:tc>{w_p('v')}</w:tc></w:tr></w:tbl>"), "s")
    assert doc.blocks[0].header_row == "| first second |"


def test_docx_run_text_breaks_revisions_fields_and_content_controls():
    inner = (
        "<w:r><w:t>one</w:t><w:br/><w:t>two</w:t><w:tab/><w:t>three</w:t></w:r>"
        "<w:ins><w:r><w:t> added</w:t></w:r></w:ins>"
        "<w:del><w:r><w:delText> removed</w:delText></w:r></w:del>"
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
        "<w:hyperlink><w:r><w:t> linked</w:t></w:r></w:hyperlink>"
    )
    tabs = '<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>tabstops</w:t></w:r></w:p>'
    sdt = "<w:sdt><w:sdtContent>" + w_p("inside control") + "</w:sdtContent></w:sdt>"
    doc = parse_docx(docx(w_p(inner=inner) + tabs + sdt), "s")
    assert doc.blocks == [
        Paragraph("one\ntwo\tthree added linked"),
        Paragraph("tabstops"),
        Paragraph("inside control"),
    ]


def test_docx_main_part_found_through_package_relationships():
    rels = f'<Relationships {RELS_NS}><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document2.xml"/></Relationships>'
    data = make_zip({"_rels/.rels": rels, "word/document2.xml": f"<w:document {W_NS}><w:body>{w_p('Hi', 'Heading1')}</w:body></w:document>"})
    assert parse_docx(data, "s").blocks == [Heading(1, "Hi")]


def test_docx_without_body_content_has_no_blocks():
    doc = parse_docx(docx(""), "empty")
    assert (doc.title, doc.blocks) == ("empty", [])


# --- hostile and broken packages -------------------------------------------------------------


def _declare_size(data: bytes, name: bytes, size: int) -> bytes:
    """Rewrite the uncompressed size a zip declares for ``name`` in both headers."""
    out = bytearray(data)
    local = out.find(b"PK\x03\x04")
    struct.pack_into("<I", out, local + 22, size)
    central = out.find(b"PK\x01\x02")
    assert out[central + 46 : central + 46 + len(name)] == name
    struct.pack_into("<I", out, central + 24, size)
    return bytes(out)


def test_zip_bomb_declared_over_a_gigabyte_is_refused_before_reading():
    data = _declare_size(make_zip({"word/document.xml": b"\0" * 4096}), b"word/document.xml", 1_500_000_000)
    tracemalloc.start()
    with pytest.raises(ParseError, match=r"zip bomb: uncompressed size over 200 MB"):
        parse_docx(data, "bomb")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 10 * 1024 * 1024


def test_zip_member_that_expands_past_its_declared_size_is_refused():
    payload = b"<w:document/>" + b" " * 2_000_000
    data = _declare_size(make_zip({"word/document.xml": payload}), b"word/document.xml", 1000)
    with pytest.raises(ParseError, match="word/document.xml"):
        parse_docx(data, "liar")


def test_zip_member_count_is_capped():
    data = make_zip({f"part{i}.xml": "<a/>" for i in range(6)})
    with pytest.raises(ParseError, match=r"too many zip members \(more than 5\)"):
        SafeZip(data, max_members=5)
    with pytest.raises(ParseError, match="uncompressed size over"):
        SafeZip(data, max_total_bytes=10)


BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
    f"<w:document {W_NS}><w:body><w:p><w:r><w:t>&lol3;</w:t></w:r></w:p></w:body></w:document>"
)


def test_xml_entity_declarations_are_refused_not_expanded():
    with pytest.raises(ParseError, match="entity"):
        parse_docx(make_zip({"word/document.xml": BILLION_LAUGHS}), "lol")
    utf16 = BILLION_LAUGHS.replace('<?xml version="1.0"?>', "").encode("utf-16")
    with pytest.raises(ParseError, match="entity"):
        parse_xml(utf16, "part.xml")


def test_truncated_and_non_zip_files_are_refused():
    good = docx(w_p("Hello", "Heading1"))
    with pytest.raises(ParseError, match="not a zip file"):
        parse_docx(good[: len(good) // 2], "cut")
    with pytest.raises(ParseError, match="not a zip file"):
        parse_docx(b"just some text, not a zip", "plain")


def test_missing_main_parts_are_named():
    with pytest.raises(ParseError, match=r"missing word/document\.xml"):
        parse_docx(make_zip({"[Content_Types].xml": "<Types/>"}), "s")
    with pytest.raises(ParseError, match=r"missing xl/workbook\.xml"):
        parse_xlsx(make_zip({"xl/worksheets/sheet1.xml": "<worksheet/>"}), "s")
    with pytest.raises(ParseError, match="ppt/slides"):
        parse_pptx(make_zip({"ppt/other.xml": "<a/>"}), "s")


def test_malformed_xml_is_refused_with_its_part_name():
    with pytest.raises(ParseError, match=r"malformed XML in word/document\.xml"):
        parse_docx(make_zip({"word/document.xml": "<w:document"}), "s")


# --- xlsx ------------------------------------------------------------------------------------


def worksheet(rows: str) -> str:
    return f"<worksheet {S_NS}><sheetData>{rows}</sheetData></worksheet>"


def xlsx(sheets: list[tuple[str, str, str]], shared: list[str] | None = None, extra: dict | None = None) -> bytes:
    """sheets: (name, rId target relative to xl/, worksheet xml), listed in workbook order."""
    entries = "".join(f'<sheet name="{name}" sheetId="{i}" r:id="rId{i}"/>' for i, (name, _, _) in enumerate(sheets, 1))
    rels = "".join(f'<Relationship Id="rId{i}" Type="x" Target="{target}"/>' for i, (_, target, _) in enumerate(sheets, 1))
    members = {
        "xl/workbook.xml": f"<workbook {S_NS}><sheets>{entries}</sheets></workbook>",
        "xl/_rels/workbook.xml.rels": f"<Relationships {RELS_NS}>{rels}</Relationships>",
    }
    for _, target, xml in sheets:
        members["xl/" + target.lstrip("/").removeprefix("xl/")] = xml
    if shared is not None:
        members["xl/sharedStrings.xml"] = f"<sst {S_NS}>" + "".join(shared) + "</sst>"
    members.update(extra or {})
    return make_zip(members)


def test_xlsx_cached_values_of_every_cell_type():
    shared = ["<si><t>Name</t></si>", "<si><r><t>Rich </t></r><r><t>text</t></r><rPh><t>ignored</t></rPh></si>", "<si><t>a|b</t></si>"]
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Inline</t></is></c></row>'
        '<row r="2"><c r="A2"><v>12</v></c><c r="B2"><v>12.0</v></c><c r="C2"><v>48.00</v></c></row>'
        '<row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" t="b"><v>0</v></c><c r="C3" t="e"><v>#DIV/0!</v></c></row>'
        '<row r="4"><c r="A4"><f>1+1</f><v>2</v></c><c r="B4" t="str"><f>A1</f><v>Name</v></c><c r="C4"><f>NOW()</f></c></row>'
        '<row r="5"><c r="A5" t="s"><v>2</v></c><c r="B5" t="inlineStr"><is><t>two\nlines</t></is></c></row>'
    )
    doc = parse_xlsx(xlsx([("Data", "worksheets/sheet1.xml", worksheet(rows))], shared), "book")
    assert doc.title == "book"
    assert doc.blocks[:2] == [Heading(1, "book"), Heading(2, "Data")]
    table = doc.blocks[2]
    assert table.header_row == "| Name | Rich text | Inline |"
    assert table.rows == (
        "| 12 | 12.0 | 48.00 |",
        "| TRUE | FALSE | #DIV/0! |",
        "| 2 | Name |  |",
        "| a\\|b | two lines |  |",
    )


def test_xlsx_sparse_rows_and_columns_keep_their_positions():
    rows = (
        '<row r="2"><c r="B2" t="inlineStr"><is><t>B</t></is></c><c r="D2" t="inlineStr"><is><t>D</t></is></c></row>'
        '<row r="9"><c r="C9"><v>5</v></c></row>'
        '<row r="4"><c r="A4"><v>1</v></c></row>'
        '<row r="6"></row>'
        '<row><c><v>7</v></c><c><v>8</v></c></row>'  # no refs: positions follow the previous ones
    )
    table = parse_xlsx(xlsx([("S", "worksheets/sheet1.xml", worksheet(rows))]), "s").blocks[2]
    assert table.header_row == "|  | B |  | D |"
    # rows sort by number; the unnumbered row follows row 6, so it is row 7, before row 9
    assert table.rows == ("| 1 |  |  |  |", "| 7 | 8 |  |  |", "|  |  | 5 |  |")


def test_xlsx_sheets_follow_workbook_order_not_file_names():
    one = worksheet('<row r="1"><c r="A1" t="inlineStr"><is><t>first file</t></is></c></row>')
    two = worksheet('<row r="1"><c r="A1" t="inlineStr"><is><t>second file</t></is></c></row>')
    data = xlsx([("Zulu", "/xl/worksheets/sheet2.xml", two), ("Alpha", "worksheets/sheet1.xml", one), ("Blank", "worksheets/sheet3.xml", worksheet(""))])
    blocks = parse_xlsx(data, "s").blocks
    assert [b.text for b in blocks if isinstance(b, Heading)] == ["s", "Zulu", "Alpha", "Blank"]
    assert [b.header_row for b in blocks if isinstance(b, Table)] == ["| second file |", "| first file |"]
    assert blocks[-1] == Heading(2, "Blank")


# --- pptx ------------------------------------------------------------------------------------


def shape(paras: list[str], ph: str | None = None, levels: list[int] | None = None) -> str:
    nvpr = f'<p:ph type="{ph}"/>' if ph else ""
    body = ""
    for i, text in enumerate(paras):
        ppr = f'<a:pPr lvl="{levels[i]}"/>' if levels and levels[i] else ""
        body += f"<a:p>{ppr}<a:r><a:t>{text}</a:t></a:r></a:p>" if text else "<a:p/>"
    return f"<p:sp><p:nvSpPr><p:nvPr>{nvpr}</p:nvPr></p:nvSpPr><p:txBody>{body}</p:txBody></p:sp>"


def slide(*shapes: str) -> str:
    return f"<p:sld {P_NS}><p:cSld><p:spTree>{''.join(shapes)}</p:spTree></p:cSld></p:sld>"


def test_pptx_slides_in_presentation_order_with_titles_and_text():
    pres = f'<p:presentation {P_NS}><p:sldIdLst><p:sldId id="256" r:id="rId7"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst></p:presentation>'
    rels = (
        f"<Relationships {RELS_NS}>"
        '<Relationship Id="rId3" Type="slide" Target="slides/slide1.xml"/>'
        '<Relationship Id="rId7" Type="slide" Target="slides/slide2.xml"/></Relationships>'
    )
    first = slide(shape(["Kick-off"], "ctrTitle"), shape(["One sentence of body."]))
    second = slide(shape(["Agenda"], "title"), shape(["Point one", "", "Sub point"], levels=[0, 0, 1]), shape(["Point two"]))
    data = make_zip({"ppt/presentation.xml": pres, "ppt/_rels/presentation.xml.rels": rels, "ppt/slides/slide2.xml": first, "ppt/slides/slide1.xml": second})
    doc = parse_pptx(data, "deck")
    assert doc.title == "Kick-off"
    assert doc.blocks == [
        Heading(1, "Kick-off"),
        Heading(2, "Slide 1: Kick-off"),
        Paragraph("One sentence of body."),
        Heading(2, "Slide 2: Agenda"),
        ListBlock("- Point one\n  - Sub point\n- Point two"),
    ]


def test_pptx_without_presentation_part_orders_slides_by_number():
    members = {f"ppt/slides/slide{n}.xml": slide(shape([f"body {n}"])) for n in (10, 2, 1)}
    doc = parse_pptx(make_zip(members), "deck")
    assert doc.title == "deck"
    assert [b.text for b in doc.blocks] == ["Slide 1", "body 1", "Slide 2", "body 2", "Slide 3", "body 10"]


def test_pptx_groups_and_tables_are_read():
    cell = lambda t: f"<a:tc><a:txBody><a:p><a:r><a:t>{t}</a:t></a:r></a:p></a:txBody></a:tc>"  # noqa: E731
    frame = f"<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr>{cell('K')}{cell('V')}</a:tr><a:tr>{cell('a')}{cell('1')}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>"
    data = make_zip({"ppt/slides/slide1.xml": slide(f"<p:grpSp>{shape(['grouped'])}</p:grpSp>", frame)})
    blocks = parse_pptx(data, "deck").blocks
    assert blocks[:2] == [Heading(2, "Slide 1"), Paragraph("grouped")]
    assert blocks[2].raw == "| K | V |\n|---|---|\n| a | 1 |"


def test_docx_list_style_numbering_is_inherited_by_its_paragraphs():
    styles = (
        f"<w:styles {W_NS}>"
        '<w:style w:type="paragraph" w:styleId="ListNumber"><w:name w:val="List Number"/>'
        '<w:pPr><w:numPr><w:numId w:val="5"/></w:numPr></w:pPr></w:style>'
        '<w:style w:type="paragraph" w:styleId="MyList"><w:name w:val="Mine"/><w:basedOn w:val="ListNumber"/></w:style>'
        "</w:styles>"
    )
    body = w_p("first", "ListNumber") + w_p("second", "MyList") + w_p("not numbered", "ListNumber", num=(0, 0))
    doc = parse_docx(docx(body, styles=styles, numbering=NUMBERING), "s")
    assert doc.blocks == [ListBlock("1. first\n2. second"), Paragraph("not numbered")]


def test_xlsx_sheet_without_its_part_is_left_out_and_missing_rels_fall_back_to_position():
    members = {
        "xl/workbook.xml": f'<workbook {S_NS}><sheets><sheet name="Kept" sheetId="9" r:id="rId1"/><sheet name="Gone" sheetId="1" r:id="rId2"/></sheets></workbook>',
        "xl/worksheets/sheet1.xml": worksheet('<row r="1"><c r="A1"><v>1</v></c></row>'),
    }
    blocks = parse_xlsx(make_zip(members), "wb").blocks
    assert blocks == [Heading(1, "wb"), Heading(2, "Kept"), Table("| 1 |", "|---|", (), "| 1 |\n|---|")]


def test_xml_nested_deeper_than_the_stack_is_a_skip_reason():
    depth = 50_000
    inner = "<w:hyperlink>" * depth + "<w:r><w:t>x</w:t></w:r>" + "</w:hyperlink>" * depth
    with pytest.raises(ParseError, match="XML nested too deeply"):
        parse_docx(docx(w_p(inner=inner)), "deep")


def test_xlsx_a_negative_shared_string_index_is_an_empty_cell_not_the_last_string():
    shared = ["<si><t>Header</t></si>", "<si><t>Secret last string</t></si>"]
    rows = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>-1</v></c></row>'
    table = parse_xlsx(xlsx([("Data", "worksheets/sheet1.xml", worksheet(rows))], shared), "book").blocks[2]
    assert table.header_row == "| Header |" and "Secret" not in table.raw
