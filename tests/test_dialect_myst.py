"""MyST Markdown, the Markdown of a Sphinx site, as plain Markdown (issue 26).

The fixture files in ``tests/dialects/myst`` hold MyST in, then the Markdown out and the notes
for the construct report (``note:`` lines).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from contextpull.dialects.sphinx import dialect as sphinx
from rst_context import FakeContext, fixture_cases

FIXTURES = Path(__file__).parent / "dialects" / "myst"
CONFIG = {"myst_substitutions": {"version": "2.0"}}


def render(text, notes) -> str:
    parts = [text.strip("\n")]
    parts.extend(f"note: {c} {o} {line} {d}".rstrip() for c, o, line, d in notes)
    return "\n\n".join(parts)


@pytest.mark.parametrize(("source", "expected"), list(fixture_cases(FIXTURES)))
def test_fixture(tmp_path, source, expected):
    ctx = FakeContext(tmp_path, "page.md", config=CONFIG, config_file="conf.py")
    assert render(sphinx.prepare(source, ctx), ctx.notes) == expected


def write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def prepare(root, text, path="page.md"):
    ctx = FakeContext(root, path, docs="docs", config_file="docs/conf.py")
    return sphinx.prepare(textwrap.dedent(text).lstrip("\n"), ctx), ctx


def test_include_and_literalinclude_go_through_the_context(tmp_path):
    write(tmp_path, "docs/_snippets/intro.md", """
        Shared intro with {ref}`a role <x>`.

        ```{include} /_snippets/intro.md
        ```
        """)
    write(tmp_path, "docs/garden.py", "import os\n\n\ndef sow(seed):\n    return seed\n")
    write(tmp_path, "CHANGES.rst", "Changes\n=======\n\n.. note:: Beds added.\n")
    text, ctx = prepare(tmp_path, """
        ```{include} _snippets/intro.md
        ```

        ```{literalinclude} garden.py
        :language: python
        :pyobject: sow
        ```

        ```{include} ../CHANGES.rst
        ```

        ```{include} ../../outside.md
        ```
        """)
    assert text == (
        "Shared intro with a role.\n\n"
        "```python\ndef sow(seed):\n    return seed\n```\n\n"
        "# Changes\n\nNote: Beds added.\n"
    )
    assert [n for n in ctx.notes if n[0].startswith("myst include") or n[0] == "myst literalinclude"] == [
        ("myst include", "resolved", 1, "docs/_snippets/intro.md"),
        ("myst include", "unresolved", 1, "include cycle: _snippets/intro.md"),
        ("myst literalinclude", "resolved", 4, "docs/garden.py"),
        ("myst include", "resolved", 9, "CHANGES.rst"),
        ("myst include", "unresolved", 12, "outside the repository: ../../outside.md"),
    ]


def test_an_unclosed_fence_runs_to_the_end_and_nothing_is_lost(tmp_path):
    text, ctx = prepare(tmp_path, """
        Before.

        ```{note}
        Never closed.
        """)
    assert text == "Before.\n\nNote: Never closed.\n"
    assert ctx.notes == [("myst admonition", "converted", 3, "")]


def test_substitutions_from_the_page_front_matter_win_over_conf_py(tmp_path):
    ctx = FakeContext(tmp_path, "page.md", config={"myst_substitutions": {"crop": "beans", "soil": "clay"}})
    ctx.front_matter = {"myst": {"substitutions": {"crop": "leeks"}}}
    assert sphinx.prepare("Grow {{ crop }} in {{soil}}.", ctx) == "Grow leeks in clay."
    assert [n[1] for n in ctx.notes] == ["resolved", "resolved"]


def test_a_doc_role_shows_the_title_of_the_page_it_names(tmp_path):
    write(tmp_path, "docs/guide/soil.rst", "Soil care\n=========\n")
    text, ctx = prepare(tmp_path, "See {doc}`guide/soil` and {doc}`/nowhere`.\n")
    assert text == "See Soil care and /nowhere.\n"
    assert ctx.data_read == ["docs/guide/soil.rst"]


def test_directives_nested_past_the_limit_stay_as_written(tmp_path):
    ctx = FakeContext(tmp_path, "page.md")
    deep = "".join("`" * (40 - i) + "{note}\n" for i in range(25)) + "Deep text.\n"
    text = sphinx.prepare(deep, ctx)
    assert "Deep text." in text
    assert text.startswith("Note:")
    assert ctx.notes[-1] == ("myst directive", "unresolved", 21,
                             "directives nested deeper than 20: 'note' kept as written")


def test_a_todo_is_not_on_the_page_in_myst_as_in_rst(tmp_path):
    """Sphinx shows todos only with todo_include_todos, which is off by default."""
    ctx = FakeContext(tmp_path, "page.md", config=CONFIG, config_file="conf.py")
    out = sphinx.prepare("Before.\n\n```{todo}\nWrite the upgrade guide.\n```\n\nAfter.\n", ctx)
    assert "upgrade guide" not in out and "Todo" not in out
    assert "Before." in out and "After." in out


@pytest.mark.parametrize(
    ("extensions", "outcome"),
    [(["sphinx_design"], "converted"), (["house_extension"], "converted"), ([], "unresolved")],
)
def test_a_myst_directive_a_configured_extension_defines_is_not_called_unknown(tmp_path, extensions, outcome):
    ctx = FakeContext(tmp_path, "page.md", config={"extensions": extensions}, config_file="conf.py")
    out = sphinx.prepare("```{button-link} https://example.org\nSow now\n```\n", ctx)
    assert out.strip() == "Sow now"
    assert [(c, o, line) for c, o, line, _ in ctx.notes] == [("myst directive", outcome, 1)]


def test_a_block_option_value_spans_its_lines_and_the_code_keeps_only_the_code(tmp_path):
    """``:caption: |`` then ``:    text`` lines (or an indented value in a ``---`` block) is one
    option, as MyST reads it as YAML: the caption shows above the code, nothing of it in it."""
    text, _ctx = prepare(tmp_path, """
        ```{code-block} python
        :caption: |
        :     Sowing the
        :     first row
        :emphasize-lines: 1

        sow(1)
        ```

        ```{code-block} python
        ---
        caption: >
            Folded into
            one line
        ---
        sow(2)
        ```
        """)
    assert text == ("Sowing the\nfirst row\n\n```python\nsow(1)\n```\n\n"
                    "Folded into one line\n\n```python\nsow(2)\n```\n")


def test_a_table_directive_shows_its_title_and_a_csv_header_row(tmp_path):
    text, _ctx = prepare(tmp_path, """
        ```{csv-table} Seed prices
        :header: >
        :    "Seed", "Price"

        "Bean", 2
        ```
        """)
    assert text == 'Seed prices\n\n"Seed", "Price"\n"Bean", 2\n'


def test_a_link_without_text_shows_its_targets_title(tmp_path):
    """MyST fills ``[](page.md)`` and ``[](#label)`` with the target's title; a URL shows
    itself; code keeps the syntax."""
    write(tmp_path, "docs/docutils.md", "# Single Page Builds\n\nText.\n")
    text, ctx = prepare(tmp_path, """
        See the [](docutils.md) section, [](https://example.com) and `[](x.md)`.
        """)
    assert text.strip() == ("See the [Single Page Builds](docutils.md) section, [https://example.com](https://example.com) "
                            "and `[](x.md)`.")


def test_raw_html_shows_its_text_and_autolinks_code_and_roles_stay(tmp_path):
    """pip's UX guide writes lists as ``<ol><li><strong>``, which MyST passes to the page: the
    store held the tags (21 sections -> 0). A CommonMark autolink (``<gh-user:name>``, MyST's
    ``<project:page.md>``), a code span, a role's ``<label>`` and a span running over lines
    are not HTML and stay as written, as is a line such a span starts or ends on."""
    source = ("# Survey\n\n<ol>\n  <li>\n    <strong>Introduce your survey</strong><br>\n  </li>\n</ol>\n\n"
              "By <gh-user:chrisjsewell>, see `<div>` and {ref}`beds <survey>`.\n\n"
              "A span `that runs\nover <two> lines` ends.\n\n"
              "<b>Kept</b> by `code`, then a span `that runs\non.`\n")
    ctx = FakeContext(tmp_path, "page.md", config=CONFIG, config_file="conf.py")
    out = sphinx.prepare(source, ctx)
    assert "<ol>" not in out and "<strong>" not in out and "Introduce your survey" in out
    assert "By <gh-user:chrisjsewell>, see `<div>` and beds." in out
    assert "over <two> lines` ends." in out
    # HTML before a closed span is kept too when a later backtick opens one: the whole line is.
    assert "<b>Kept</b> by `code`, then a span `that runs" in out
    assert ("myst html", "converted", 3) in [(c, o, line) for c, o, line, _ in ctx.notes]
