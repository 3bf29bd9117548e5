"""Decoding and dispatch (contextpull/parsing/parse.py)."""

from __future__ import annotations

import codecs

import pytest

from contextpull.parsing import parse
from contextpull.parsing.blocks import ParseError
from contextpull.parsing.parse import decode_text, kind_for, parse_file


@pytest.mark.parametrize(
    ("path", "kind"),
    [("a.md", "markdown"), ("b/c.MARKDOWN", "markdown"), ("n.txt", "text"), ("d.docx", "docx"),
     ("s.xlsx", "xlsx"), ("p.pptx", "pptx"), ("x.pdf", "pdf"), ("x.html", None), ("md", None),
     (".md/readme", None), ("dir.md/file", None)],
)
def test_kind_for(path, kind):
    assert kind_for(path) == kind


def test_decoding_utf8_bom_utf16_and_latin1():
    assert decode_text("héllo".encode()) == "héllo"
    assert decode_text(codecs.BOM_UTF8 + "héllo".encode()) == "héllo"
    assert decode_text("héllo wörld".encode("utf-16")) == "héllo wörld"
    assert decode_text("Crème brûlée".encode("latin-1")) == "Crème brûlée"


@pytest.mark.parametrize(
    ("data", "reason"),
    [(b"", "empty file"), (b" \n\t\r\n", "empty file"), (codecs.BOM_UTF8 + b"\n", "empty file"),
     (b"text\x00more", "binary file (NUL bytes)"), (b"\x7fELF\x02\x01\x00\x00", "binary file (NUL bytes)")],
)
def test_unusable_text_files(data, reason):
    with pytest.raises(ParseError) as info:
        parse_file(data, "markdown", "stem")
    assert str(info.value) == reason


def test_empty_office_file_and_a_missing_parser_module(monkeypatch):
    with pytest.raises(ParseError, match="empty file"):
        parse_file(b"", "docx", "stem")
    monkeypatch.setitem(parse._PARSERS, "docx", ("no_such_module", "parse_docx"))
    with pytest.raises(ParseError, match="docx files are not supported by this build yet"):
        parse_file(b"PK\x03\x04", "docx", "stem")
    monkeypatch.setitem(parse._PARSERS, "docx", ("parse", "no_such_function"))
    with pytest.raises(ParseError, match="not supported by this build yet"):
        parse_file(b"PK\x03\x04", "docx", "stem")


def test_markdown_dispatch_gets_decoded_text():
    doc = parse_file("# Título\n\nTexto.\n".encode("latin-1"), "markdown", "stem")
    assert doc.title == "Título"
