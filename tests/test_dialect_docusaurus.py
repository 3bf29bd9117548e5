"""The Docusaurus dialect (contextpull/dialects/docusaurus/dialect.py): callouts, the title a page shows,
partials that are not pages."""

from __future__ import annotations

import pytest

from contextpull.dialects.api import Site
from contextpull.dialects.docusaurus import dialect as docusaurus
from contextpull.dialects.page_title import navigation_title
from contextpull.parsing.blocks import Heading, Paragraph, ParsedDocument
from mdx_helpers import FakeContext


def _doc(*blocks, title="stem"):
    return ParsedDocument(title, list(blocks))


@pytest.mark.parametrize(
    ("front_matter", "blocks", "title"),
    [
        ({"sidebar_label": "Quick start"}, [Heading(2, "Install"), Paragraph("x")], "Quick start"),
        ({"sidebar_label": "Short", "title": "The long title"}, [Paragraph("x")], "stem"),
        ({"sidebar_label": "Short"}, [Heading(1, "Shown H1"), Paragraph("x")], "stem"),
        ({}, [Heading(2, "Install")], "stem"),
        ({"sidebar_label": ["not", "text"]}, [Paragraph("x")], "stem"),
    ],
    ids=["label when nothing else", "title wins", "H1 wins", "no label", "structured label"],
)
def test_sidebar_label_is_the_title_only_of_a_page_that_shows_none(front_matter, blocks, title):
    doc = _doc(*blocks)
    reader = docusaurus.Reader(Site("docusaurus", None, "", ""))
    assert (navigation_title(reader, doc, FakeContext(front_matter=front_matter)) or doc.title) == title


def test_prepare_turns_callouts_into_labels():
    ctx = FakeContext()
    assert docusaurus.prepare("> [!TIP]\n> Use it.", ctx) == "Tip: Use it."
    assert ctx.outcomes() == [("callout", "converted", 1)]


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("intro.md", None),
        ("guide/setup.mdx", None),
        ("_partial.mdx", docusaurus.PARTIAL),
        ("guide/_shared/steps.md", docusaurus.PARTIAL),
        ("guide/_snippet.md", docusaurus.PARTIAL),
        ("guide/my_file.md", None),
    ],
)
def test_underscore_files_and_folders_are_partials(path, reason):
    assert docusaurus.skip(path) == reason
