"""One meaning per Sphinx construct in both of a site's syntaxes (issue 26, "Markup to meaning").

Each case is the same construct written in rst (a ``.rst`` page) and in MyST (a ``.md`` page) of
one small Sphinx site, built once with ``contextpull build``: both pages must hold the same text
and report the same notes (the construct's name less its ``rst``/``myst`` prefix, outcome and
detail). What each construct reads as is a regression fixture, so a change to either reader that
moves both alike still shows.
"""

from __future__ import annotations

import json

import pytest

from contextpull.dialects.sphinx import directive_names as names
from contextpull.dialects.syntax.labels import VERSION_LABELS
from contextpull.dialects.sphinx.role_text import display, escaped, explicit
from site_build import SECTIONS, build_json, store_rows, write_site
from griffe_needed import needs_griffe

# name -> (rst body, MyST body); each page is "Garden" with the construct under it.
CASES = {
    "autodoc": (".. autoclass:: garden.Bed\n   :members:\n",
                "```{autoclass} garden.Bed\n:members:\n```\n"),
    "autoflask": (".. autoflask:: garden.app:app\n   :undoc-static:\n",
                  "```{autoflask} garden.app:app\n:undoc-static:\n```\n"),
    "click": (".. click:: garden.cli:main\n   :prog: garden\n",
              "```{click} garden.cli:main\n:prog: garden\n```\n"),
    "py autodoc": (".. py:autofunction:: garden.sow\n", "```{py:autofunction} garden.sow\n```\n"),
    "py:function": (".. py:function:: sow(seed, depth=2)\n\n   Sow one seed deep enough to sprout.\n",
                    "```{py:function} sow(seed, depth=2)\n\nSow one seed deep enough to sprout.\n```\n"),
    "py:function fields": (".. py:function:: sow(seed, depth=2)\n\n   Sow one seed.\n\n"
                           "   :param seed: The seed, ``Seed``\n      or its name.\n   :type seed: str or ~garden.Seed\n"
                           "   :param int depth: How deep.\n   :returns: The sprout.\n   :rtype: ~garden.Sprout\n"
                           "   :raises ~garden.Frost: When frozen.\n   :meta private:\n   :note: Mind the frost.\n",
                           "```{py:function} sow(seed, depth=2)\n\nSow one seed.\n\n"
                           ":param seed: The seed, `Seed`\n  or its name.\n:type seed: str or ~garden.Seed\n"
                           ":param int depth: How deep.\n:returns: The sprout.\n:rtype: ~garden.Sprout\n"
                           ":raises ~garden.Frost: When frozen.\n:meta private:\n:note: Mind the frost.\n```\n"),
    "conf.py object type": (".. globalvar:: pytestmark\n\n   Marks every test of the module.\n",
                            "```{globalvar} pytestmark\nMarks every test of the module.\n```\n"),
    "conf.py crossref type": (".. hook:: pytest_runtest_setup\n\nAfter the target.\n",
                              "```{hook} pytest_runtest_setup\n```\n\nAfter the target.\n"),
    "confval": (".. confval:: SEED_DEPTH\n\n   How deep a seed is sown, in centimetres.\n",
                ":::{confval} SEED_DEPTH\nHow deep a seed is sown, in centimetres.\n:::\n"),
    "setting": (".. setting:: WATER_HOURS\n\n   When the sprinklers run each morning.\n",
                "```{setting} WATER_HOURS\nWhen the sprinklers run each morning.\n```\n"),
    "c:function": (".. c:function:: int sow(void)\n\n   Sows from C, returning the seed count.\n",
                   "```{c:function} int sow(void)\nSows from C, returning the seed count.\n```\n"),
    "only latex": (".. only:: latex\n\n   Printed manual only.\n\nAfter the block.\n",
                   "```{only} latex\nPrinted manual only.\n```\n\nAfter the block.\n"),
    "only html": (".. only:: html\n\n   Shown on the web site.\n", "```{only} html\nShown on the web site.\n```\n"),
    "only not latex": (".. only:: not latex\n\n   Everywhere but print.\n",
                       "```{only} not latex\nEverywhere but print.\n```\n"),
    "only format_html": (".. only:: format_html and draft\n\n   Web drafts.\n",
                         "```{only} format_html and draft\nWeb drafts.\n```\n"),
    "ref explicit": ("See :ref:`the raised beds <beds>` first.\n",
                     "See {ref}`the raised beds <beds>` first.\n"),
    "ref bare": ("See :ref:`beds` first.\n", "See {ref}`beds` first.\n"),
    "ref unclosed": ("See :ref:`beds<soil` first.\n", "See {ref}`beds<soil` first.\n"),
    "ref escaped": ("See :ref:`beds \\<soil>` first.\n", "See {ref}`beds \\<soil>` first.\n"),
    "ref target only": ("See :ref:`<beds>` first.\n", "See {ref}`<beds>` first.\n"),
    "ref mid": ("See :ref:`a <beds> b` first.\n", "See {ref}`a <beds> b` first.\n"),
    "doc explicit": ("See :doc:`the labels page <labels>`.\n", "See {doc}`the labels page <labels>`.\n"),
    "doc bare": ("See :doc:`labels`.\n", "See {doc}`labels`.\n"),
    "tabularcolumns": (".. tabularcolumns:: |l|r|\n\nAfter the columns.\n",
                       "```{tabularcolumns} |l|r|\n```\n\nAfter the columns.\n"),
    "testsetup": (".. testsetup::\n\n   import garden\n\nAfter the set-up.\n",
                  "```{testsetup}\nimport garden\n```\n\nAfter the set-up.\n"),
    "doctest": (".. doctest::\n\n   >>> sow(1)\n   1\n", "```{doctest}\n>>> sow(1)\n1\n```\n"),
    "testcode": (".. testcode::\n\n   print(sow(2))\n", "```{testcode}\nprint(sow(2))\n```\n"),
    "testoutput hidden": (".. testoutput::\n   :hide:\n\n   2\n\nAfter the output.\n",
                          "```{testoutput}\n:hide:\n\n2\n```\n\nAfter the output.\n"),
    "code-tab": (".. code-tab:: python Python\n\n   import garden\n",
                 "```{code-tab} python Python\nimport garden\n```\n"),
    "card": (".. card:: Compost\n\n   Turn it weekly.\n", "```{card} Compost\nTurn it weekly.\n```\n"),
    "centered": (".. centered:: The whole garden\n", "```{centered} The whole garden\n```\n"),
    "rubric": (".. rubric:: Footnotes\n", "```{rubric} Footnotes\n```\n"),
    "productionlist": (".. productionlist::\n   bed: row+\n   row: seed*\n",
                       "```{productionlist}\nbed: row+\nrow: seed*\n```\n"),
    "glossary": (".. glossary::\n   :sorted:\n\n   mulch\n   bark\n      A layer on the soil\n"
                 "      that keeps it damp.\n\n   compost\n      Rotted matter.\n",
                 "```{glossary}\n:sorted:\n\nmulch\nbark\n   A layer on the soil\n"
                 "   that keeps it damp.\n\ncompost\n   Rotted matter.\n```\n"),
    "code-block caption": (".. code-block:: python\n   :caption: Sowing ``seeds``\n\n   sow(1)\n",
                           "```{code-block} python\n:caption: Sowing `seeds`\n\nsow(1)\n```\n"),
    "tabs kept": (".. tabs::\n\n   .. tab:: Spring\n\n      Sow.\n", "````{tabs}\n```{tab} Spring\nSow.\n```\n````\n"),
}
# rubric is docutils' own in rst, which notes nothing of it; its text is all that is compared.
TEXT_ONLY = {"rubric"}
SLUG = {name: "c" + "".join(ch if ch.isalnum() else "_" for ch in name) for name in CASES}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The site built once: every case as an rst page and a MyST page."""
    root = tmp_path_factory.mktemp("shared")
    files = {
        "docs/conf.py": "project = 'Garden'\nextensions = ['myst_parser', 'sphinx.ext.autodoc',"
                        " 'sphinx.ext.doctest', 'sphinx_design', 'sphinx_tabs.tabs']\n"
                        "myst_enable_extensions = ['fieldlist']\n\n\ndef setup(app):\n"
                        "    app.add_object_type('globalvar', 'globalvar', objname='global variable')\n"
                        "    app.add_crossref_type(directivename='hook', rolename='hook')\n",
        "docs/labels.rst": "Labels\n======\n\n.. _beds:\n\nRaised beds\n-----------\n\nWood.\n",
    }
    for name, (rst, myst) in CASES.items():
        files[f"docs/{SLUG[name]}.rst"] = f"Garden\n======\n\n{rst}"
        files[f"docs/{SLUG[name]}.md"] = f"# Garden\n\n{myst}"
    write_site(root, files)
    out = root / "out"
    build_json(root / "docs", out)
    store = out / "store.sqlite"
    texts: dict[str, list[str]] = {}
    for path, _heading, text in store_rows(store, SECTIONS):
        texts.setdefault(path, []).append(text)
    (reads,) = store_rows(store, "SELECT value FROM meta WHERE key = 'dialect_reads'")
    return texts, json.loads(reads[0])


def _notes(reads: dict, path: str) -> list[tuple[str, str, str]]:
    return [(construct.split(" ", 1)[1], outcome, detail)
            for construct, outcome, _line, detail in reads.get(path, {}).get("notes", [])]


@pytest.mark.parametrize("name", list(CASES))
def test_a_construct_reads_the_same_in_rst_and_in_myst(built, name):
    texts, reads = built
    rst, md = f"{SLUG[name]}.rst", f"{SLUG[name]}.md"
    assert texts.get(rst, []) == texts.get(md, [])
    if name not in TEXT_ONLY:
        assert _notes(reads, rst) == _notes(reads, md)


@needs_griffe
def test_what_each_construct_reads_as(built, data_regression):
    texts, reads = built
    data_regression.check({
        name: {"text": "\n\n".join(texts.get(f"{SLUG[name]}.md", [])),
               "notes": [" ".join(n).strip() for n in _notes(reads, f"{SLUG[name]}.md")]}
        for name in CASES
    })


# ---- the shared rules, directly -----------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("Title <label>", ("Title", "label")),
    ("Title<label>", ("Title", "label")),
    ("a <b<c>", ("a", "b<c")),
    ("<label>", None),           # no title before the target
    ("a <b> c", None),            # the target must end the text
    ("a<b", None),
    ("a \x00<b>", None),          # docutils' escaped "<"
])
def test_an_explicit_title_is_text_ending_in_a_target_with_a_title_before_it(text, expected):
    assert explicit(text) == expected


def test_myst_role_text_escapes_only_the_angle_bracket():
    assert escaped("a \\<b>") == "a \x00<b>"
    assert escaped("C:\\seeds\\<x>") == "C:\\seeds\x00<x>"
    assert display("ref", escaped("beds \\<soil>"), {}) == ("beds <soil>", False)
    assert display("file", escaped("C:\\seeds"), {}) == ("C:\\seeds", True)


@pytest.mark.parametrize(("expression", "hidden"), [
    ("latex", True), ("latex or epub", True), ("html", False), ("format_html", False),
    ("builder_html and draft", False), ("not latex", False), ("not(latex)", False),
    ("notebook", True), ("", False),
])
def test_only_leaves_out_a_body_whose_expression_names_no_html_tag(expression, hidden):
    assert (names.only_hidden(expression) is not None) == hidden


def test_every_shared_name_has_one_meaning():
    groups = [names.DROPPED, names.AUTODOC, names.OBJECTS, names.KEPT, set(names.CODE),
              names.ARGUMENT_TEXT, set(VERSION_LABELS)]
    for i, group in enumerate(groups):
        for other in groups[i + 1:]:
            assert not set(group) & set(other)
    assert names.is_object("py:function") and names.is_object("rst:directive:option")
    assert not names.is_object("py:automodule") and names.is_autodoc("py:automodule")


def test_a_glossary_entry_is_its_terms_then_its_indented_definition():
    body = ["rake", "hoe", "   Tools for", "   the soil.", "", ".. a comment", "", "mulch",
            "   Bark.", "", "   More bark.", ""]
    assert names.glossary_entries(body) == [
        (["rake", "hoe"], ["Tools for", "the soil."]),
        (["mulch"], ["Bark.", "", "More bark."]),
    ]
    assert [t for t, _ in names.glossary_entries(["b", "  x", "A", "  y"], sort=True)] == [["A"], ["b"]]


def test_a_python_objects_fields_are_grouped_under_sphinx_and_kept_as_written_under_plain(tmp_path):
    """aiohttp's and scrapy's hand-written references (``:param bool auto_decompress:`` in a
    ``.. method::``): the page shows "Parameters: auto_decompress (bool) – ...", never the field
    names; a build under ``--dialect plain`` reads the rst as it did before Sphinx's rules."""
    page = ("Client\n======\n\n.. method:: get(url)\n\n   Fetch it.\n\n   :param str url: Where.\n"
            "   :return: The response.\n")
    root = write_site(tmp_path / "site", {"docs/conf.py": "project = 'Client'\n", "docs/client.rst": page})
    for dialect, shown, absent in (("auto", "**Parameters:**\n\n- `url` (`str`): Where.", "- param"),
                                   ("plain", "- param str url: Where.", "**Parameters:**")):
        out = tmp_path / dialect
        build_json(root / "docs", out, "--dialect", dialect)
        text = "\n\n".join(t for _p, _h, t in store_rows(out / "store.sqlite", SECTIONS))
        assert shown in text and absent not in text
        if dialect == "auto":
            assert "**Returns:** The response." in text
