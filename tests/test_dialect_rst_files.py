"""rst directives that read files: only through the context's guarded include (issue 26).

``include``, ``literalinclude`` and ``csv-table :file:`` read through ``ctx.include``; docutils'
own file insertion, raw files and URLs stay shut whatever the repository's configuration says;
docutils' global registries are as they were after a parse.
"""

from __future__ import annotations

import textwrap

import pytest

from contextpull.dialects.sphinx.literal_include import LiteralIncludeError, select_lines
from contextpull.dialects.sphinx.rst.read import parse_rst
from contextpull.parsing.blocks import Code, Heading, Paragraph, ParseError, Table
from rst_context import FakeContext


def write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def parse(root, text, path="docs/index.rst"):
    ctx = FakeContext(root, path.removeprefix("docs/"), docs="docs", config_file="docs/conf.py")
    return parse_rst(textwrap.dedent(text).lstrip("\n"), ctx), ctx


def texts(doc):
    return [b.text if isinstance(b, (Heading, Paragraph)) else b.raw for b in doc.blocks]


def test_include_is_parsed_in_place_and_nested_paths_follow_the_document(tmp_path):
    write(tmp_path, "CHANGES.rst", """
        Changes
        -------

        Version 1 added beds.

        .. include:: docs/part.rst
        """)
    write(tmp_path, "docs/part.rst", "From the part.\n")
    doc, ctx = parse(tmp_path, """
        Log
        ===

        .. include:: ../CHANGES.rst

        After.
        """)
    assert texts(doc) == ["Log", "Changes", "Version 1 added beds.", "After."]
    assert [b.level for b in doc.blocks if isinstance(b, Heading)] == [1, 2]
    # Sphinx resolves a nested include against the document, not the included file: from
    # docs/index.rst, "docs/part.rst" is docs/docs/part.rst, which is missing.
    assert ("rst include", "resolved", 4, "CHANGES.rst") in ctx.notes
    assert ("rst include", "unresolved", 4, "target missing: docs/part.rst") in ctx.notes


def test_include_from_the_source_root_and_a_cycle(tmp_path):
    write(tmp_path, "docs/_shared/a.rst", "A text.\n\n.. include:: /_shared/b.rst\n")
    write(tmp_path, "docs/_shared/b.rst", "B text.\n\n.. include:: /_shared/a.rst\n")
    doc, ctx = parse(tmp_path, ".. include:: /_shared/a.rst\n")
    assert texts(doc) == ["A text.", "B text."]
    assert ("rst include", "unresolved", 1, "include cycle: _shared/a.rst") in ctx.notes


def test_include_outside_the_repository_is_refused_and_the_page_still_reads(tmp_path):
    root = tmp_path / "repo"
    write(tmp_path, "secret.txt", "password\n")
    doc, ctx = parse(root, """
        Before.

        .. include:: ../../secret.txt
           :literal:

        After.
        """)
    assert texts(doc) == ["Before.", "After."]
    assert ctx.notes == [("rst include", "unresolved", 3, "outside the repository: ../../secret.txt")]


def test_literal_include_options_select_the_code_sphinx_shows(tmp_path):
    write(tmp_path, "docs/garden.py", """
        import os


        class Bed:
            @property
            def size(self):
                return 3


        def sow(seed):
            # start here
            return seed
            # end here
        """)
    doc, ctx = parse(tmp_path, """
        .. literalinclude:: garden.py
           :pyobject: Bed.size

        .. literalinclude:: garden.py
           :language: python
           :start-after: # start here
           :end-before: # end here
           :dedent:
           :caption: Sowing

        .. literalinclude:: garden.py
           :lines: 1, 4-
           :end-before: def size
        """)
    codes = [b for b in doc.blocks if isinstance(b, Code)]
    assert codes[0].raw == "```\n@property\ndef size(self):\n    return 3\n```".replace(
        "\n@", "\n    @").replace("\ndef", "\n    def").replace("\n    return", "\n        return")
    assert codes[1].lang == "python"
    assert codes[1].raw == "```python\nreturn seed\n```"
    assert "Sowing" in texts(doc)
    assert codes[2].raw == "```\nimport os\nclass Bed:\n    @property\n```"
    assert [n[1] for n in ctx.notes] == ["resolved"] * 3


def test_literal_include_that_cannot_be_cut_is_reported(tmp_path):
    write(tmp_path, "docs/a.txt", "one\ntwo\n")
    doc, ctx = parse(tmp_path, """
        .. literalinclude:: a.txt
           :start-after: nowhere

        .. literalinclude:: a.txt
           :pyobject: Bed

        .. literalinclude:: a.txt
           :start-after: one
           :start-at: two

        .. literalinclude:: missing.py
        """)
    assert doc.blocks == []
    assert [n for n in ctx.notes if n[1] == "unresolved"] == [
        ("rst literalinclude", "unresolved", 1, "docs/a.txt: :start-after: 'nowhere' not found"),
        ("rst literalinclude", "unresolved", 4, "docs/a.txt: :pyobject: Bed not found"),
        ("rst literalinclude", "unresolved", 7, "docs/a.txt: cannot use both :start-after: and :start-at:"),
        ("rst literalinclude", "unresolved", 11, "target missing: missing.py"),
    ]


def test_csv_table_file_goes_through_the_context(tmp_path):
    write(tmp_path, "docs/beds.csv", "Bed,Plant\nnorth,beans\n")
    doc, ctx = parse(tmp_path, """
        .. csv-table::
           :file: beds.csv
           :header-rows: 1
        """)
    (table,) = doc.blocks
    assert isinstance(table, Table)
    assert table.raw == "| Bed | Plant |\n|---|---|\n| north | beans |"
    assert ctx.notes == [("rst csv-table", "resolved", 1, "docs/beds.csv")]


def test_a_repository_docutils_conf_cannot_open_the_doors(tmp_path, monkeypatch):
    write(tmp_path, "docutils.conf", "[general]\nfile_insertion_enabled: yes\nraw_enabled: yes\n")
    write(tmp_path, "outside.txt", "outside text\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DOCUTILSCONFIG", str(tmp_path / "docutils.conf"))
    root = tmp_path / "repo"
    doc, ctx = parse(root, """
        .. raw:: html
           :file: ../../outside.txt

        .. csv-table::
           :file: ../../outside.txt
        """)
    assert "outside text" not in "".join(texts(doc))
    assert [n[1] for n in ctx.notes] == ["unresolved", "unresolved"]


def test_registries_are_restored_after_a_parse(tmp_path):
    from docutils.parsers.rst import directives, roles

    from docutils.core import publish_doctree

    publish_doctree(".. note:: x\n", settings_overrides={"_disable_config": True,
                    "report_level": 5})  # docutils' own use fills its caches first
    before = (dict(directives._directives), dict(roles._roles), directives.directive, roles.role)
    parse(tmp_path, ".. role:: custom\n\n.. default-role:: custom\n\n.. note:: x\n\n:ref:`y`\n")
    after = (dict(directives._directives), dict(roles._roles), directives.directive, roles.role)
    assert after == before


def test_a_line_over_the_limit_and_deep_nesting_are_named(tmp_path):
    with pytest.raises(ParseError, match="line 3 is longer than 10,000 characters"):
        parse(tmp_path, "Start.\n\n" + "word " * 3000 + "\n")
    write(tmp_path, "docs/blob.rst", "x" * 20_000 + "\n")
    doc, ctx = parse(tmp_path, "Start.\n\n.. include:: blob.rst\n")
    assert texts(doc) == ["Start."]
    assert ctx.notes[-1] == ("rst include", "unresolved", 3,
                             "docs/blob.rst: a line is longer than 10,000 characters")
    nested = "".join(" " * i + "- x\n\n" for i in range(0, 1000, 2))
    with pytest.raises(ParseError, match="nested too deeply"):
        parse(tmp_path, nested)


def test_select_lines_on_strings():
    text = "a\nb\nc\nd\ne\n"
    assert select_lines(text, {"lines": "2-3,5"}) == "b\nc\ne"
    assert select_lines(text, {"start-at": "c", "end-at": "d"}) == "c\nd"
    assert select_lines(text, {"lines": "4-", "prepend": "# top", "append": "# end"}) == (
        "# top\nd\ne\n# end")
    with pytest.raises(LiteralIncludeError, match="invalid :lines:"):
        select_lines(text, {"lines": "x-2"})
    with pytest.raises(LiteralIncludeError, match="selects nothing"):
        select_lines(text, {"lines": "9-12"})


def test_a_doc_reference_shows_the_title_of_the_page_it_names(tmp_path):
    write(tmp_path, "docs/guide/soil.rst", ":orphan:\n\n.. _soil:\n\n=========\nSoil care\n=========\n\nText.\n")
    write(tmp_path, "docs/seeds.md", "---\ntitle: Seed saving\n---\n\n# Other\n")
    write(tmp_path, "docs/beds.md", "```\n# not a title\n```\n\n# Raised beds\n")
    write(tmp_path, "docs/tools.rst", "Using ``hoe`` and :class:`~garden.Rake`\n=====\n")
    doc, ctx = parse(tmp_path, """
        Read :doc:`guide/soil`, :doc:`/seeds`, :doc:`beds`, :doc:`tools`, :doc:`the tools <tools>` and
        :doc:`missing`.
        """)
    # The link shows the title as plain text (Sphinx's clean_astext): no code type.
    assert texts(doc) == ["Read Soil care, Seed saving, Raised beds, Using hoe and Rake, the tools and\nmissing."]
    assert ctx.data_read == ["docs/guide/soil.rst", "docs/seeds.md", "docs/beds.md", "docs/tools.rst"]


def test_version_and_release_come_from_conf_py_and_today_never_from_the_clock(tmp_path):
    ctx = FakeContext(tmp_path, config={"version": "2.1", "release": "2.1.3"})
    doc = parse_rst("Version |version| (|release|), built |today|.\n", ctx)
    assert texts(doc) == ["Version 2.1 (2.1.3), built |today|."]
    assert [n[:2] for n in ctx.notes] == [("rst markup error", "unresolved")]
    assert "today" in ctx.notes[0][3]


def test_an_included_markdown_file_is_read_as_markdown(tmp_path):
    write(tmp_path, "README.md", """
        # Garden tools

        Oil the hinges.

        ## Install

        Run `pip install garden`.
        """)
    doc, ctx = parse(tmp_path, """
        Handbook
        ========

        .. include:: ../README.md
           :parser: myst_parser.sphinx_

        After.
        """)
    assert [(type(b).__name__, getattr(b, "level", None)) for b in doc.blocks][:4] == [
        ("Heading", 1), ("Heading", 2), ("Paragraph", None), ("Heading", 3)]
    assert texts(doc) == ["Handbook", "Garden tools", "Oil the hinges.", "Install",
                          "Run `pip install garden`.", "After."]
    assert ("rst include", "resolved", 4, "README.md") in ctx.notes


def test_an_included_markdown_file_hides_what_every_markdown_renderer_hides(tmp_path):
    """The one path a dialect's Markdown becomes blocks by (``markdown_blocks``): an included
    README's link reference definitions and hard-break backslashes are not on the page."""
    write(tmp_path, "README.md", """
        See [the guide][g] first.\\
        Then run it.

        [g]: https://garden.example/guide
        """)
    doc, ctx = parse(tmp_path, """
        Handbook
        ========

        .. include:: ../README.md
           :parser: myst_parser.sphinx_
        """)
    assert texts(doc) == ["Handbook", "See [the guide](https://garden.example/guide) first.\nThen run it."]
    assert ("link reference definition", "converted", 0, "1 lines") in ctx.notes


def test_pyobject_and_lines_select_lines_within_the_object():
    """aiohttp's ``client_middleware_cookbook.rst``: ``:pyobject: token_refresh_preemptively_example``
    with ``:lines: 2-``, the object less its ``def`` line, as Sphinx's own test
    (``test_LiteralIncludeReader_pyobject_and_lines``) reads it; it was refused as a conflict and
    the code was lost."""
    text = "import os\n\n\nclass Bar:\n    def baz():\n        pass\n\n\ndef after():\n    pass\n"
    assert select_lines(text, {"pyobject": "Bar", "lines": "2-"}) == "    def baz():\n        pass"
    with pytest.raises(LiteralIncludeError, match="cannot use both"):  # --dialect plain, as before
        select_lines(text, {"pyobject": "Bar", "lines": "2-"}, plain=True)
