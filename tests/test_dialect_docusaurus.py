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


def test_mdx_code_block_fences_are_unwrapped_other_fences_kept():
    from contextpull.dialects.mdx.code_blocks import unwrap

    page = ("Intro.\n\n```mdx-code-block\nimport Tabs from '@theme/Tabs';\n\n<Tabs>\n```\n\nBody.\n\n"
            "````md\n```mdx-code-block\nshown as written\n```\n````\n\n```mdx-code-block\nnever closed\n")
    out = unwrap(page)
    assert out.split("\n") == [
        "Intro.", "", "", "import Tabs from '@theme/Tabs';", "", "<Tabs>", "", "", "Body.", "",
        "````md", "```mdx-code-block", "shown as written", "```", "````", "", "", "never closed", ""]
    assert len(out.split("\n")) == len(page.split("\n"))  # notes keep their lines
    assert unwrap("```js\nconst x = 1;\n```\n") == "```js\nconst x = 1;\n```\n"


def test_a_docusaurus_page_reads_the_mdx_inside_an_mdx_code_block(tmp_path):
    """Docusaurus's own docs wrap imports and ``<Tabs>`` in ``mdx-code-block`` fences: the
    import goes and each tab is labelled, as on the site; elsewhere the fence is code."""
    from site_build import SECTIONS, build_json, store_rows, write_site

    page = ("# Install\n\n```mdx-code-block\nimport Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n"
            "<Tabs>\n<TabItem value=\"npm\">\n```\n\n```bash\nnpm i harbour\n```\n\n```mdx-code-block\n</TabItem>\n"
            "<TabItem value=\"yarn\">\n```\n\n```bash\nyarn add harbour\n```\n\n```mdx-code-block\n</TabItem>\n</Tabs>\n```\n")
    for config, wrapped in (("docusaurus.config.js", False), ("mkdocs.yml", True)):
        root = write_site(tmp_path / config, {config: "module.exports = {};\n" if config.endswith(".js") else "site_name: H\n",
                                              "docs/install.md": page})
        build_json(root / "docs", tmp_path / f"out-{config}")
        text = "\n".join(t for _, _, t in store_rows(tmp_path / f"out-{config}" / "store.sqlite", SECTIONS))
        assert ("```mdx-code-block" in text) is wrapped
        assert ("import Tabs" in text) is wrapped
        if not wrapped:
            assert text.endswith("npm:\n\n```bash\nnpm i harbour\n```\n\nyarn:\n\n```bash\nyarn add harbour\n```")


@pytest.mark.parametrize(("raw", "language", "kept"), [
    ("```js\n// highlight-next-line\nconst a = 1;\n```", "js", "```js\nconst a = 1;\n```"),
    ("```jsx\n{/* highlight-start */}\n<A />\n{/* highlight-end */}\n```", "jsx", "```jsx\n<A />\n```"),
    ("```py\n# highlight-next-line\nx = 1\n```", "py", "```py\nx = 1\n```"),
    ("```py\n// highlight-next-line\nx = 1\n```", "py", None),  # not a comment in Python
    ("```js {2}\n// highlight-next-line\nconst a = 1;\n```", "js", None),  # a range in the meta: kept
    ("```js\nconst a = 1; // highlight-next-line\n```", "js", None),  # not alone on its line
    ("```\n<!-- highlight-next-line -->\ntext\n```", "", "```\ntext\n```"),  # no language: every style
    ("```bash\n# highlight-next-line\nnever closed", "bash", "```bash\nnever closed"),
])
def test_magic_comment_lines_go_as_docusaurus_reads_them(raw, language, kept):
    from contextpull.dialects.docusaurus import magic_comments

    assert magic_comments.strip(raw, language, magic_comments.DEFAULT) == kept


def test_magic_comments_the_configuration_names_replace_the_defaults():
    from contextpull.dialects.docusaurus import magic_comments

    config = ("module.exports = { themeConfig: { prism: { magicComments: [\n"
              "  {className: 'x', line: 'highlight-next-line', block: {start: 'highlight-start', end: 'highlight-end'}},\n"
              "  {className: 'code-block-error-line', line: 'This will error'},\n] } } };\n")
    names = magic_comments.directives(config)
    assert names == ("highlight-next-line", "highlight-start", "highlight-end", "This will error")
    assert magic_comments.strip("```js\n// This will error\nf();\n```", "js", names) == "```js\nf();\n```"
    assert magic_comments.directives("module.exports = {};") == magic_comments.DEFAULT
    assert magic_comments.directives("magicComments: makeThem(),") == magic_comments.DEFAULT


def test_a_docusaurus_build_stores_code_without_its_magic_comments(tmp_path):
    from site_build import SECTIONS, build_json, store_rows, write_site

    page = "# Store\n\n```js\nconst store = configureStore({\n  // highlight-next-line\n  reducer,\n})\n```\n"
    root = write_site(tmp_path / "site", {"docusaurus.config.js": "module.exports = {};\n", "docs/store.md": page})
    report = build_json(root / "docs", tmp_path / "out")
    (text,) = [t for _, _, t in store_rows(tmp_path / "out" / "store.sqlite", SECTIONS)]
    assert text.endswith("```js\nconst store = configureStore({\n  reducer,\n})\n```")
    assert report["dialect"]["constructs"]["magic comment"]["converted"] == 1
