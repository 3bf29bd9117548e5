"""Bytes to a block stream: decoding and dispatch (system-design.txt section 3, "Parse").

This module owns what every text format shares (decoding, empty and binary detection) and
routes each kind to its parser. Parsers are imported inside ``parse_file`` so that a format
whose module or optional dependency is missing turns into a skipped file with a reason rather
than an import error that stops the whole run.
"""

from __future__ import annotations

import codecs
import importlib

from .blocks import ParsedDocument, ParseError

KINDS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".docx": "docx",
    ".xlsx": "xlsx",
    ".pptx": "pptx",
    ".pdf": "pdf",
    # Read in every dialect through contextpull/dialects/read.py (issue 26).
    ".mdx": "mdx",
    ".rst": "rst",
    ".ipynb": "ipynb",
    # Markdoc: read on an Astro Starlight site only (``registry.Dialect.own_kinds``), a named
    # skip in any other build.
    ".mdoc": "markdoc",
}
# The kinds a plain build reads as it always did, and the kinds a dialect reads (markdown only
# when the site is not plain): engine.build_record chooses the path by these.
PLAIN_KINDS = ("markdown", "text", "docx", "xlsx", "pptx", "pdf")
DIALECT_KINDS = ("markdown", "mdx", "rst", "ipynb", "markdoc")

# kind -> (module in this package, function)
_PARSERS = {
    "markdown": ("parse_markdown", "parse_markdown"),
    "text": ("parse_text", "parse_text"),
    "docx": ("parse_docx", "parse_docx"),
    "xlsx": ("parse_xlsx", "parse_xlsx"),
    "pptx": ("parse_pptx", "parse_pptx"),
    "pdf": ("parse_pdf", "parse_pdf"),
}
_TEXT_KINDS = ("markdown", "text")


def kind_for(path: str) -> str | None:
    """The document kind for a file name, or None for an unsupported extension."""
    dot = path.rfind(".")
    if dot <= path.rfind("/"):
        return None
    return KINDS.get(path[dot:].lower())


def decode_bytes(data: bytes) -> str:
    """UTF-8 (with or without BOM), UTF-16 with a BOM, else Latin-1; never fails on text bytes.

    NUL bytes in anything but UTF-16 mean a binary file wearing a text extension: ParseError.
    An included file is decoded by this rule too (``dialects.includes``), where empty is fine.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise ParseError("binary file (NUL bytes)") from None
    elif b"\x00" in data:
        raise ParseError("binary file (NUL bytes)")
    else:
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8) :]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    if "\x00" in text:
        raise ParseError("binary file (NUL bytes)")
    return text


def decode_text(data: bytes) -> str:
    """A document's text by ``decode_bytes``; a document with none is ParseError("empty file")."""
    text = decode_bytes(data)
    if not text.strip():
        raise ParseError("empty file")
    return text


def _parser(kind: str):
    try:
        module_name, func_name = _PARSERS[kind]
    except KeyError:
        raise ParseError(f"unsupported document kind {kind!r}") from None
    full = f"{__package__}.{module_name}"
    try:
        module = importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name == full:
            raise ParseError(f"{kind} files are not supported by this build yet") from None
        raise ParseError(f"{kind} support needs a missing module: {exc.name}") from None
    func = getattr(module, func_name, None)
    if func is None:
        raise ParseError(f"{kind} files are not supported by this build yet")
    return func


def parse_file(data: bytes, kind: str, stem: str) -> ParsedDocument:
    """Turn a file's bytes into a ``ParsedDocument``; ``ParseError(reason)`` when unusable."""
    if kind in _TEXT_KINDS:
        text = decode_text(data)
        return _parser(kind)(text, stem)
    if not data.strip():
        raise ParseError("empty file")
    return _parser(kind)(data, stem)
