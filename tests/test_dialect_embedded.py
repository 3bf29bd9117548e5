"""Blocks a hook has read are carried through the Markdown parse whole (issue 35): a MyST
``eval-rst`` body is docutils' blocks in the store, not Markdown written back and read again."""

from __future__ import annotations

from contextpull.dialects.api import Site
from contextpull.dialects.embedded import CLOSE, OPEN, Embedded, as_text
from contextpull.dialects.read import read_document
from contextpull.parsing.blocks import Code, Heading, ListBlock, Paragraph, ParsedDocument


def _site(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "conf.py").write_text("project = 'x'\nextensions = ['myst_parser']\n", encoding="utf-8")
    return Site("sphinx", "docs/conf.py", str(docs), str(tmp_path))


def _read(tmp_path, page: str, name: str = "page.md"):
    return read_document(page.encode(), "markdown", name[:-3], name, _site(tmp_path))


EVAL_RST = """\
# Page

Before.

```{eval-rst}
Kept whole
----------

A paragraph that names C#
# and goes on: not a heading.

.. code-block:: python

   x = 1
```

After.
"""


def test_eval_rst_blocks_arrive_as_docutils_read_them(tmp_path):
    result = _read(tmp_path, EVAL_RST)
    blocks = result.parsed.blocks
    assert [type(b) for b in blocks] == [Heading, Paragraph, Heading, Paragraph, Code, Paragraph]
    assert blocks[2].text == "Kept whole"
    # Written back as Markdown, the second line would have been read again as a heading.
    assert blocks[3].text == "A paragraph that names C#\n# and goes on: not a heading."
    assert "x = 1" in blocks[4].raw
    assert all(OPEN not in getattr(b, "text", getattr(b, "raw", "")) for b in blocks)
    assert ("myst eval-rst", "converted") in {(n.construct, n.outcome) for n in result.notes}


def test_eval_rst_as_the_page_title_when_it_holds_the_first_h1(tmp_path):
    page = "```{eval-rst}\nThe Title\n=========\n\nBody.\n```\n"
    assert _read(tmp_path, page).parsed.title == "The Title"


def _written_back(tmp_path, monkeypatch, page):
    """The reading before hooks could place blocks: the eval-rst body written back as Markdown."""
    import contextpull.dialects.read as read

    with monkeypatch.context() as patch:
        patch.setattr(read, "Embedded", lambda text: None)
        return _read(tmp_path, page).parsed


def test_the_two_readings_differ_only_where_markdown_read_the_rst_again(tmp_path, monkeypatch):
    old = _written_back(tmp_path, monkeypatch, EVAL_RST)
    assert [b.text for b in old.blocks if isinstance(b, Heading)] == ["Page", "Kept whole", "and goes on: not a heading."]
    new = _read(tmp_path, EVAL_RST).parsed
    assert [b.text for b in new.blocks if isinstance(b, Heading)] == ["Page", "Kept whole"]


def test_eval_rst_under_a_list_item_reads_as_the_markdown_written_back(tmp_path, monkeypatch):
    for page in ("- item\n\n  ```{eval-rst}\n  One *rst* paragraph.\n  ```\n",
                 "- item\n  ```{eval-rst}\n  Two\n\n  paragraphs.\n  ```\n- next\n"):
        new = _read(tmp_path, page).parsed
        assert new == _written_back(tmp_path, monkeypatch, page)
        assert not any(OPEN in (getattr(b, "text", None) or b.raw) for b in new.blocks)


def test_an_authors_private_use_characters_are_never_taken_for_a_placeholder(tmp_path):
    lookalike = f"{OPEN}0{CLOSE}"
    page = f"{lookalike}\n\n```{{eval-rst}}\nrst text.\n```\n"
    blocks = _read(tmp_path, page).parsed.blocks
    assert [b.text for b in blocks] == [lookalike, "rst text."]


def test_splice_expands_a_placeholder_inside_other_text_and_keeps_unknown_ones():
    embedded = Embedded("page")
    line = embedded.place([Heading(2, "H"), Paragraph("p")])
    other = f"{OPEN}{embedded.tag}.7{CLOSE}"  # a number nothing was placed under
    parsed = ParsedDocument("stem", [ListBlock(f"- a\n  {line}"), Paragraph(other), Paragraph(line)])
    out = embedded.splice(parsed, "stem")
    assert out.blocks[0].raw == "- a\n  ## H\n\n  p"
    assert out.blocks[1].text == other
    assert out.blocks[2:] == [Heading(2, "H"), Paragraph("p")]
    assert out.title == "stem"


def test_expanding_is_linear_in_unclosed_openers():
    embedded = Embedded("page")
    embedded.place([Paragraph("p")])
    text = OPEN * 200_000
    assert embedded.splice(ParsedDocument("t", [ListBlock(text)]), "t").blocks[0].raw == text


def test_as_text_is_the_markdown_a_context_without_a_place_gets():
    assert as_text([Heading(1, "T"), Paragraph("p"), Code("py", "```py\nx\n```")]) == "# T\n\np\n\n```py\nx\n```"
