"""Parsing: one document's bytes into blocks (system-design.txt section 3, "Parse").

A parser turns a file into a ``ParsedDocument``: a title and a list of typed blocks (headings,
prose, code, tables, lists) that sectioning cuts later. Every format lands here: markdown and
plain text, the Office formats over their zip and XML guards (``ooxml``, ``safezip``), and PDF.
Parsers are pure functions of the bytes; they never touch a store, so a new format is one module
here and an entry in ``parse.KINDS`` (its extensions, which discovery reads) and ``parse._PARSERS``.

Exports: ``parse.parse_file`` (dispatch by kind), ``parse.kind_for``, ``parse.decode_text`` and
the block types in ``blocks``.
"""
