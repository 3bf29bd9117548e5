"""reStructuredText through docutils: each construct as the rendered page shows it (issue 26).

The fixture files in ``tests/dialects/rst`` hold one case per construct: rst in, then the blocks
out (headings as ``#`` lines) and the notes for the construct report (``note:`` lines).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from contextpull.dialects.sphinx.rst.read import parse_rst
from contextpull.parsing.blocks import Code, Heading, ListBlock, Paragraph, Table
from rst_context import FakeContext, fixture_cases

FIXTURES = Path(__file__).parent / "dialects" / "rst"


def render(doc, notes) -> str:
    out = [f"title: {doc.title}"]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, (Code, ListBlock, Table)):
            out.append(block.raw)
    out.extend(f"note: {c} {o} {line} {d}".rstrip() for c, o, line, d in notes)
    return "\n\n".join(out)


@pytest.mark.parametrize(("source", "expected"), list(fixture_cases(FIXTURES)))
def test_fixture(tmp_path, source, expected):
    ctx = FakeContext(tmp_path, config={"default_role": "code"}, config_file="conf.py")
    doc = parse_rst(source, ctx)
    assert render(doc, ctx.notes) == expected


@pytest.mark.parametrize(
    ("extensions", "outcome", "detail"),
    [
        (["sphinx_tabs.tabs", "sphinxcontrib.programoutput"], "converted", "unknown directive 'command-output'"),
        (["some_house_extension"], "converted", "unknown directive 'command-output'"),  # it may define it
        (["sphinx.ext.autodoc"], "unresolved", "unknown directive 'command-output': not defined by docutils,"
                                              " Sphinx or a configured extension, its body kept"),
    ],
)
def test_a_directive_a_configured_extension_defines_is_not_called_unknown(tmp_path, extensions, outcome, detail):
    ctx = FakeContext(tmp_path, config={"extensions": extensions}, config_file="conf.py")
    doc = parse_rst(".. command-output:: make seeds\n\n   Seeds made.\n", ctx)
    assert [b.text for b in doc.blocks if isinstance(b, Paragraph)] == ["Seeds made."]
    assert [(c, o, line, d) for c, o, line, d in ctx.notes] == [("rst directive", outcome, 1, detail)]


def test_a_directive_of_sphinx_or_a_domain_is_not_called_unknown(tmp_path):
    ctx = FakeContext(tmp_path, config={}, config_file="conf.py")
    parse_rst(".. acks::\n\n   Thanks.\n\n.. js:function:: sow()\n\n   Sows.\n", ctx)
    assert all(o == "converted" for _, o, _, _ in ctx.notes)


@pytest.mark.parametrize(
    ("setup", "outcome"),
    [
        ('def setup(app):\n    app.add_directive("sprout", Sprout)\n', "converted"),
        ('def setup(app):\n    app.add_directive_to_domain("py", "sprout", Sprout)\n', "converted"),
        ('def setup(app):\n    for name in NAMES:\n        app.add_directive(name, Sprout)\n', "converted"),
        ('def setup(app):\n    app.add_directive("seed", Seed)\n', "unresolved"),
    ],
)
def test_a_directive_conf_py_registers_itself_is_not_called_unknown(tmp_path, setup, outcome):
    from dialect_context import context

    (tmp_path / "conf.py").write_text('extensions = []\n\n' + setup)
    ctx = context(tmp_path, "index.rst", dialect="sphinx", config_file="conf.py", config={"extensions": []})
    parse_rst(".. sprout::\n\n   Seeds.\n\n.. sprout::\n\n   More.\n", ctx)
    assert [(n.construct, n.outcome) for n in ctx.notes] == [("rst directive", outcome)] * 2
    # found in the one read of conf.py its build's reader makes: the page spends none of its
    # read budget on it, however many uses (read_document records conf.py as a dependency of
    # every page: test_dialect_read.test_the_configuration_file_is_a_dependency)
    assert ctx._resolver.reads == 0 and ctx.reader.get(("contextpull.dialects.sphinx.directive_names", "conf")) is not None


@pytest.mark.parametrize(("name", "label"), [("versionadded", "Added in version 7.3"), ("version-added", "Added in version 7.3"),
                                              ("version-deprecated", "Deprecated since version 7.3")])
def test_version_notes_under_sphinx_7_3_names_read_as_the_old_ones(tmp_path, name, label):
    """Sphinx 7.3 renamed the version notes (``version-added``); its own documentation writes the
    new names."""
    ctx = FakeContext(tmp_path, config={}, config_file="conf.py")
    doc = parse_rst(f".. {name}:: 7.3\n   The option.\n", ctx)
    assert [b.text for b in doc.blocks if isinstance(b, Paragraph)] == [f"{label}: The option."]


def test_a_confval_shows_its_type_and_default_in_both_syntaxes(tmp_path):
    """Sphinx's own docs describe 335 settings with ``:type:`` and ``:default:``, which the page
    shows under the name."""
    from contextpull.dialects.sphinx import dialect as sphinx

    ctx = FakeContext(tmp_path, config={}, config_file="conf.py")
    doc = parse_rst(".. confval:: autodoc_class_signature\n   :type: str\n   :default: ``'mixed'``\n\n"
                    "   This value selects how the signature is shown.\n", ctx)
    texts = [b.text for b in doc.blocks if isinstance(b, Paragraph)]
    assert [b.text for b in doc.blocks if isinstance(b, Heading)] == ["autodoc_class_signature"]
    assert texts == ["Type: str", "Default: `'mixed'`", "This value selects how the signature is shown."]
    md = sphinx.prepare("```{confval} myst_heading_anchors\n:type: int\n:default: `0`\n\nDepth of anchors.\n```\n",
                        FakeContext(tmp_path, config={}, config_file="conf.py", path="page.md"))
    assert "## myst_heading_anchors\n\nType: int\n\nDefault: `0`\n\nDepth of anchors." in md


def test_a_collapsible_admonition_keeps_its_body(tmp_path):
    """Sphinx 8.2's ``:collapsible:`` option (its own docs use it): docutils alone refused the
    option, and the admonition, body and all, was lost."""
    ctx = FakeContext(tmp_path, config={}, config_file="conf.py")
    doc = parse_rst(".. note::\n   :collapsible:\n\n   Hidden text.\n\n.. admonition:: Title\n   :collapsible: open\n\n"
                    "   Body.\n", ctx)
    assert [b.text for b in doc.blocks if isinstance(b, Paragraph)] == ["Note: Hidden text.", "Title: Body."]
    assert all(outcome == "converted" for _, outcome, _, _ in ctx.notes)


def test_object_headings_follow_toc_object_entries_and_no_contents_entry(tmp_path):
    """``toc_object_entries = False`` in conf.py (CPython's docs) and a directive's
    ``:no-contents-entry:`` leave the object without an entry in the table of contents, so
    without a heading; a C signature, which does not start with its name, is never headed."""
    source = (".. py:data:: SEED\n\n   A seed.\n\n.. py:data:: LEAF\n   :no-contents-entry:\n\n   A leaf.\n\n"
              ".. c:function:: int area(int w)\n\n   An area.\n")
    headed = parse_rst(source, FakeContext(tmp_path, config={}, config_file="conf.py"))
    assert [(b.level, b.text) for b in headed.blocks if isinstance(b, Heading)] == [(2, "SEED")]
    off = parse_rst(source, FakeContext(tmp_path, config={"toc_object_entries": False}, config_file="conf.py"))
    assert not [b for b in off.blocks if isinstance(b, Heading)]
    assert [b.text for b in off.blocks if isinstance(b, Paragraph)][:2] == ["`SEED`", "A seed."]
