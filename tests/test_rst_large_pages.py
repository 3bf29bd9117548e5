"""The size rule for reStructuredText (issue 34): a page over ``DOCUTILS_LIMIT`` is read line
by line, named in the construct report, and still shows its titles, code and admonitions."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.sphinx.rst import lines as rst_lines
from contextpull.dialects.sphinx.rst.read import parse_rst
from contextpull.parsing.blocks import Code, Heading, Paragraph
from rst_context import FakeContext

PAGE = """\
=====
Guide
=====

Intro with ``code`` and a `link <https://x.test>`_ and :ref:`a label <lbl>`.

Install
-------

.. note::

   Keep the lock file.

.. code-block:: python
   :linenos:

   import os

Example::

    run --fast

Details
~~~~~~~

.. _target:

.. toctree::

   hidden/page

Back
----

Done.
"""


def read_large(tmp_path, monkeypatch, text=PAGE):
    monkeypatch.setattr(rst_lines, "DOCUTILS_LIMIT", 100)
    ctx = FakeContext(tmp_path)
    return parse_rst(text, ctx), ctx.notes


def test_a_page_over_the_limit_is_named_and_keeps_its_outline(tmp_path, monkeypatch):
    doc, notes = read_large(tmp_path, monkeypatch)
    assert [(b.level, b.text) for b in doc.blocks if isinstance(b, Heading)] == [
        (1, "Guide"), (2, "Install"), (3, "Details"), (2, "Back")]
    assert [(c, o, line) for c, o, line, _ in notes] == [("rst page", "unresolved", 0)]
    assert "read line by line" in notes[0][3] and f"{len(PAGE):,} characters" in notes[0][3]


def test_a_page_over_the_limit_shows_code_admonitions_and_inline_text(tmp_path, monkeypatch):
    doc, _ = read_large(tmp_path, monkeypatch)
    code = [(b.lang, b.raw) for b in doc.blocks if isinstance(b, Code)]
    assert [lang for lang, _ in code] == ["python", ""]
    assert "import os" in code[0][1] and ":linenos:" not in code[0][1]
    assert "run --fast" in code[1][1]
    text = "\n".join(b.text for b in doc.blocks if isinstance(b, Paragraph))
    assert "Note: Keep the lock file." in text
    assert "Intro with `code` and a link and a label." in text
    assert "Example:" in text and "hidden/page" not in text and "target" not in text


def test_a_page_under_the_limit_is_read_by_docutils(tmp_path):
    ctx = FakeContext(tmp_path)
    parse_rst(PAGE, ctx)
    assert all(c != "rst page" for c, *_ in ctx.notes)


RUNS = st.sampled_from(["`", "``", ":", "::", "<", ">", "_", "..", "=", "-", " ", "\n", "a", ":x:`", "`_", ":a", "` "])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(RUNS, st.integers(1, 3000)), min_size=1, max_size=6))
def test_long_runs_of_markup_characters_are_read_whole(runs):
    """Long runs of the characters the reader's patterns look for: every word of the page is
    still in what it hands on and nothing is multiplied (one pass: the run finishes)."""
    text = "".join(token * count for token, count in runs) + "\nlastword\n"
    out = rst_lines.to_markdown(text)
    assert "lastword" in out
    assert len(out) <= 2 * len(text) + 100


@pytest.mark.parametrize(("unit", "why", "piece", "count"), [
    # docutils' URI pattern would take minutes on runs of "{%" (each line: 4,999 and a "{")
    ("{%", "address characters", "{%", 100 * 4999),
    # docutils finds an e-mail address in each "!--@include" and recursed once per address until
    # Python's limit (a named skip after a second of work)
    ("<!--@include:", "more than 400 addresses", "@include", 100 * (9999 // 13)),
])
def test_a_page_docutils_would_not_finish_is_read_line_by_line(tmp_path, unit, why, piece, count):
    # 100 lines of 9,999 characters, under both size limits: the page is read the simpler way,
    # named, and keeps its title and text.
    run = "\n".join((unit * 5000)[:9999] for _ in range(100))
    ctx = FakeContext(tmp_path)
    doc = parse_rst(f"Hostile\n=======\n\n{run}\n\nAfter.\n", ctx)
    assert [b.text for b in doc.blocks if isinstance(b, Heading)] == ["Hostile"]
    assert [(c, o, line) for c, o, line, _ in ctx.notes] == [("rst page", "unresolved", 0)]
    assert why in ctx.notes[0][3]
    text = "\n".join(b.text for b in doc.blocks if isinstance(b, Paragraph))
    assert text.count(piece) == count and text.endswith("After.")


def test_a_paragraph_of_a_few_hundred_addresses_stays_with_docutils(tmp_path):
    page = "Title\n=====\n\n" + " ".join(f"dev{k}@example.org" for k in range(400)) + "\n"
    ctx = FakeContext(tmp_path)
    doc = parse_rst(page, ctx)
    assert ctx.notes == [] and "dev399@example.org" in doc.blocks[-1].text


def test_prose_and_addresses_stay_with_docutils(tmp_path):
    page = "Title\n=====\n\n" + "Read https://example.com/a/b-c/d.html or ask me@example.org today.\n\n" * 2000
    ctx = FakeContext(tmp_path)
    doc = parse_rst(page, ctx)
    assert ctx.notes == [] and len(doc.blocks) > 1


def test_a_list_of_hundreds_of_links_stays_with_docutils(tmp_path):
    # Each list item is a paragraph of its own to docutils: 450 items of one link each are
    # nowhere near its recursion, so the page keeps its tables and emphasis.
    items = "\n".join(f"* Person {k} <p{k}@example.org>, https://example.org/pull/{k}" for k in range(450))
    page = f"Title\n=====\n\n{items}\n\n.. list-table::\n\n   * - a\n     - b\n\n**bold** text.\n"
    ctx = FakeContext(tmp_path)
    doc = parse_rst(page, ctx)
    assert ctx.notes == []
    assert any(type(b).__name__ == "Table" for b in doc.blocks)
    assert doc.blocks[-1].text == "bold text."


def test_roles_read_line_by_line_show_what_docutils_shows():
    """One rule for what a role shows (``role_text``), whichever reader meets it: the line
    reader, which also reads autodoc's docstrings, shows ``~a.b.C`` as ``C`` in code type and a
    method with its parentheses, as the docutils reading of the same role does."""
    out = rst_lines.to_markdown("See :class:`~pkg.mod.Thing`, :py:meth:`run` and :doc:`Guide <guide>`.\n")
    assert out.strip() == "See `Thing`, `run()` and Guide."
    # a role over two lines, as requests' docstrings write ``:ref:`(connect timeout, read timeout) <timeouts>```
    assert rst_lines.to_markdown("a :ref:`(connect timeout,\n  read timeout) <timeouts>` tuple\n").strip() == \
        "a (connect timeout, read timeout) tuple"
    # an admonition's argument is read as its body is (Sphinx's docstrings: ".. seealso:: :event:`x`")
    assert rst_lines.to_markdown(".. seealso:: :event:`env-purge-doc`\n").strip() == "See also: `env-purge-doc`"
    config = {"add_function_parentheses": False, "extlinks": {"issue": ("https://x/%s", "#%s")}}
    assert rst_lines.to_markdown(":meth:`run` fixes :issue:`12`\n", config).strip() == "`run` fixes #12"


def test_a_directive_body_read_line_by_line_is_read_as_a_page_is():
    """pytest's hook docstrings: ``.. tab:: toml`` holding a ``.. code-block:: toml``, a note
    holding a ``::`` block. The body's lines were each stripped: the nested directive stayed as
    written and the code lost its indentation. The body is read by the same pass (a tab behind
    its label, as the docutils reading has it), and a version note with no body ends in a
    period, as the page shows it."""
    doc = ("Enable it:\n\n.. tab:: toml\n\n    .. code-block:: toml\n\n        [pytest]\n        hook = true\n\n"
           ".. note::\n\n    Use it so:\n\n    .. code-block:: python\n\n        if x:\n            y = 2\n\n"
           "    And done.\n\n.. versionadded:: 5.0\n")
    out = re.sub(r"\n{3,}", "\n\n", rst_lines.to_markdown(doc))  # blank runs are one to Markdown
    assert "toml:\n\n```toml\n[pytest]\nhook = true\n```" in out
    assert "Note: Use it so:\n\n```python\nif x:\n    y = 2\n```\n\nAnd done." in out
    assert ".. code-block" not in out and "Added in version 5.0." in out
    # --dialect plain reads a large page as this reader always did: each body line as its text
    plain = rst_lines.to_markdown(doc, plain=True)
    assert ".. code-block:: toml" in plain and "Added in version 5.0:" in plain and "toml:" not in plain


def test_nested_directive_bodies_are_read_in_time_linear_in_the_page(monkeypatch):
    """Each level of a nested body is read once more; past ``MAX_NESTING`` levels lines are
    text, so a page of notes nested a thousand deep is read a bounded number of times over
    (one more blank a level: the page grows as the square of its depth, the reading with it, not
    with its cube). Counted in characters read, never timed."""
    from contextpull.dialects.syntax.containers import MAX_NESTING

    def page(levels):
        return "".join(" " * k + ".. note::\n\n" for k in range(levels)) + " " * levels + "deep\n"

    read: list[int] = []
    original = rst_lines.to_markdown

    def counting(text, *args, **kwargs):
        read.append(len(text))
        return original(text, *args, **kwargs)

    monkeypatch.setattr(rst_lines, "to_markdown", counting)
    assert "deep" in rst_lines.to_markdown(page(30))
    for levels in (500, 2000):
        read.clear()
        text = page(levels)
        assert "deep" in rst_lines.to_markdown(text)
        # the page, then at most MAX_NESTING bodies each no longer than it: a pass per level
        # would read about ``levels`` times the page
        assert len(read) <= MAX_NESTING + 1 and sum(read) <= (MAX_NESTING + 1) * len(text)


def test_a_literal_block_read_line_by_line_starts_with_its_first_line_of_code():
    """pytest's ``importorskip`` docstring: ``Example::``, a blank line, then the code. The
    blank line that separates them was the code's first line."""
    out = rst_lines.to_markdown("Example::\n\n    docutils = pytest.importorskip('docutils')\n\nAfter.\n")
    assert "Example:\n\n```\ndocutils = pytest.importorskip('docutils')\n```" in out
    assert "```\n\ndocutils" in rst_lines.to_markdown("Example::\n\n    docutils = 1\n", plain=True)  # as before
