"""Link reference definitions are not on any rendered page (dialects/syntax/link_definitions.py):
the definitions a paragraph opens with go, the rest of the paragraph stays, and a footnote, a
definition after text and code are kept."""

from __future__ import annotations

import pytest

from contextpull.dialects.syntax.link_definitions import drop
from contextpull.parsing.blocks import Code, Paragraph
from contextpull.parsing.parse_markdown import parse_markdown


def _texts(markdown: str) -> list[str]:
    return [getattr(b, "text", getattr(b, "raw", "")) for b in drop(parse_markdown(markdown, "page").blocks)]


@pytest.mark.parametrize(("markdown", "kept"), [
    ("Text [cfg][c].\n\n[c]: config.md#build\n[d]: <https://x.y/a b> \"Title\"\n", ["Text [cfg](config.md#build)."]),
    ("[a]: https://a.example\n[b]: https://b.example 'B'\nStill a paragraph.\n", ["Still a paragraph."]),
    ("[a]: https://a.example\n   (A title on its own line)\n", []),
    ("[a]:\n  /docs/install/#postcss\n[b]: https://b.example\n", []),  # Docsy's: the destination below
    ("Some text\n[a]: https://a.example\n", ["Some text\n[a]: https://a.example"]),  # cannot interrupt
    ("[^1]: A footnote, shown at the end of the page.\n", ["[^1]: A footnote, shown at the end of the page."]),
    ("[a]: two words\n", ["[a]: two words"]),  # not a destination and a title
])
def test_the_definitions_a_paragraph_opens_with_go(markdown, kept):
    assert [t for t in _texts(markdown) if t.strip()] == kept


def test_links_to_the_definitions_are_written_inline_as_the_store_keeps_links():
    page = ("See [the guide][Guide Page], [Guide  page][], [guide page], ![logo][img] and [nothing][none].\n\n"
            "- A list [guide page].\n\n| a | b |\n|---|---|\n| [x][img] | `[guide page]` |\n\n"
            "[guide page]: /docs/guide.md\n[img]: <logo one.png> 'Logo'\n")
    texts = _texts(page)
    assert texts[0] == ("See [the guide](/docs/guide.md), [Guide  page](/docs/guide.md), [guide page](/docs/guide.md), "
                        "![logo](logo one.png) and [nothing][none].")
    assert texts[1] == "- A list [guide page](/docs/guide.md)."
    assert "| [x](logo one.png) | `[guide page]` |" in texts[2]  # code spans as written
    assert len(texts) == 3


def test_code_blocks_keep_what_looks_like_a_definition():
    blocks = drop(parse_markdown("```md\n[a]: https://a.example\n```\n", "page").blocks)
    assert isinstance(blocks[0], Code) and "[a]: https://a.example" in blocks[0].raw


def test_each_definition_is_noted():
    notes = []
    drop([Paragraph("[a]: https://a.example\n[b]: https://b.example")], lambda *n: notes.append(n))
    assert notes == [("link reference definition", "converted", 0, "2 lines")]


@pytest.mark.parametrize("run", ["[", "]", "\\", " ", "[a]: <", "[a]: x \"", "[a]: x (y"])
def test_long_runs_of_the_patterns_openers_are_read_whole(run):
    """A paragraph of a long run of what a definition opens with (each line read once by a
    pattern of bounded, non-overlapping parts) comes back whole unless it is definitions."""
    line = run * (200_000 // len(run))
    block = Paragraph(line + "\nlast words")
    assert drop([block]) == [block]
    # "[a]:[a]:..." is one definition whose destination is the rest of the line (CommonMark).
    assert drop([Paragraph("[a]:" * 50_000 + "\nlast words")]) == [Paragraph("last words")]


def test_long_runs_of_references_are_read_once():
    """``[a][a]`` is a full reference: a run of ``[a]`` pairs off, each pair one inline link."""
    run = "[a]" * 100_000
    blocks = drop([Paragraph(run), Paragraph("[a]: /x")])
    assert blocks == [Paragraph("[a](/x)" * 50_000)]
    assert drop([Paragraph("[" * 200_000), Paragraph("[a]: /x")]) == [Paragraph("[" * 200_000)]


def test_a_link_text_may_hold_a_code_span_and_a_code_span_holds_no_link():
    blocks = drop([Paragraph("Set [`net.git-fetch-with-cli`] or `[net]` and [`a`][net]."),
                   Paragraph("[`net.git-fetch-with-cli`]: config.md#net\n[net]: config.md")])
    assert blocks == [Paragraph("Set [`net.git-fetch-with-cli`](config.md#net) or `[net]` and [`a`](config.md).")]


def test_a_link_text_over_lines_is_read_and_one_holding_brackets_stays_whole():
    """The Rust books' ``[`crate_name`\nattribute][crate-name]`` and ``[`#[allow(...)]`][allow]``:
    the first is a reference over two lines, the second is left as written, never half read."""
    blocks = drop([Paragraph("The [`crate_name`\nattribute][crate-name] and [`#[allow(...)]`][allow] and [x]."),
                   Paragraph("[crate-name]: ../attribute/crate.md\n[allow]: unused.md\n[x]: x.md")])
    assert blocks == [Paragraph("The [`crate_name`\nattribute](../attribute/crate.md) and [`#[allow(...)]`][allow] and [x](x.md).")]


def test_many_definitions_and_many_paragraphs_are_read_in_one_pass_each():
    """Each paragraph's shortcuts are looked up, not the paragraph searched for every label: a
    page of 20,000 definitions and 20,000 paragraphs naming none was quadratic (19 s)."""
    n = 20_000
    blocks = [Paragraph("\n".join(f"[ref-{i:05d}]: /docs/{i}.md" for i in range(n)))]
    blocks += [Paragraph(f"Paragraph {i} names [an unknown thing] and [see {i}] once.") for i in range(n)]
    blocks += [Paragraph("The last one names [REF-00007] and [ref-19999][].")]
    out = drop(blocks)
    assert len(out) == n + 1 and out[:n] == blocks[1 : n + 1]
    assert out[-1].text == "The last one names [REF-00007](/docs/7.md) and [ref-19999](/docs/19999.md)."
