"""Link reference definitions, which no renderer shows (CommonMark 4.7; Python-Markdown, kramdown,
markdown-it, remark, goldmark and pulldown-cmark alike): ``[label]: https://... "Title"`` gives
``[text][label]`` its target and is not on the page. Sites keep whole blocks of them (the Cargo
book ends most pages with a dozen), so a section could be nothing but URLs.

A definition starts a paragraph: it cannot interrupt one, so only the definitions a paragraph
opens with are read, each on a line of its own (its destination, or its title, may take the
next line); what follows
them stays the paragraph, and a paragraph of definitions alone goes. A footnote (``[^1]: ...``)
is shown at the end of the page, so it is not a definition here. The shared parser reads no
indented code block, so a definition-shaped line indented four spaces is read as one. Every line is matched once,
by a pattern whose parts are bounded and cannot overlap: linear in the paragraph.
"""

from __future__ import annotations

import re

from ...parsing.blocks import Paragraph

_TITLE = r"""(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))"""
_DEFINITION = re.compile(
    r" {0,3}\[(?!\^)(?:[^\[\]\\\n]|\\.){1,999}\]:[ \t]*(?:<[^<>\n]*>|[^\s<][^\s]*)(?:[ \t]+" + _TITLE + r")?[ \t]*"
)
_TITLE_LINE = re.compile(r"[ \t]+" + _TITLE + r"[ \t]*")
# A label alone, its destination on the next line (``[a]:`` then ``  /path "T"``).
_LABEL_ALONE = re.compile(r" {0,3}\[(?!\^)(?:[^\[\]\\\n]|\\.){1,999}\]:[ \t]*")
_DESTINATION_LINE = re.compile(r"[ \t]*(?:<[^<>\n]*>|[^\s<][^\s]*)(?:[ \t]+" + _TITLE + r")?[ \t]*")


def _opening_definitions(lines: list[str]) -> int:
    """How many of ``lines`` the paragraph's opening definitions take."""
    i = 0
    while i < len(lines):
        found = _DEFINITION.fullmatch(lines[i])
        if found is None:
            if i + 1 < len(lines) and _LABEL_ALONE.fullmatch(lines[i]) and _DESTINATION_LINE.fullmatch(lines[i + 1]):
                i += 2
                continue
            break
        i += 1
        if i < len(lines) and not found.group(0).rstrip().endswith(("\"", "'", ")")) and _TITLE_LINE.fullmatch(lines[i]):
            i += 1  # its title, on the next line
    return i


CONSTRUCT = "link reference definition"


def drop(blocks: list, note=None) -> list:
    """``blocks`` without the link reference definitions their paragraphs open with; ``note``
    (a ``Context.note``) is told of each paragraph's, with their count."""
    out = []
    for block in blocks:
        if isinstance(block, Paragraph) and "]:" in block.text:
            lines = block.text.split("\n")
            taken = _opening_definitions(lines)
            if taken and note is not None:
                note(CONSTRUCT, "converted", 0, f"{taken} lines")
            if taken == len(lines):
                continue
            if taken:
                block = Paragraph("\n".join(lines[taken:]))
        out.append(block)
    return out
