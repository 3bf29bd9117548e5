"""Link reference definitions, which no renderer shows (CommonMark 4.7; Python-Markdown, kramdown,
markdown-it, remark, goldmark and pulldown-cmark alike): ``[label]: https://... "Title"`` gives
``[text][label]`` its target and is not on the page. Sites keep whole blocks of them (the Cargo
book ends most pages with a dozen), so a section could be nothing but URLs.

A definition starts a paragraph: it cannot interrupt one, so only the definitions a paragraph
opens with are read, each on a line of its own (its destination, or its title, may take the
next line); what follows them stays the paragraph, and a paragraph of definitions alone goes. A
footnote (``[^1]: ...``) is shown at the end of the page, so it is not a definition here. The
shared parser reads no indented code block, so a definition-shaped line indented four spaces is
read as one.

The links that use them keep their targets: ``[text][label]``, ``[label][]`` and ``[label]``
whose label the page defines are written as the inline links ``[text](target)`` the store keeps
everywhere else, outside code spans, labels matched as CommonMark matches them (case and runs of
white space aside). A label no definition gives stays as written, as the page shows it.

Every line is matched by patterns whose parts are bounded and cannot overlap: linear in the page.
"""

from __future__ import annotations

import re

from ...parsing.blocks import Heading, ListBlock, Paragraph, Table
from .fences import code_spans

CONSTRUCT = "link reference definition"
# A label holds no bracket (an escaped one, ``\]``, rare in labels, ends it: the reference then
# stays as written); one character class, not an alternation per character, which cost the
# regex engine a step each on every paragraph with links.
_LABEL = r"[^\[\]\n]{1,999}"
_TITLE = r"""(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))"""
_DESTINATION = r"(<[^<>\n]*>|[^\s<][^\s]*)"
_DEFINITION = re.compile(r" {0,3}\[(?!\^)(" + _LABEL + r")\]:[ \t]*" + _DESTINATION + r"(?:[ \t]+" + _TITLE + r")?[ \t]*")
_TITLE_LINE = re.compile(r"[ \t]+" + _TITLE + r"[ \t]*")
# A label alone, its destination on the next line (``[a]:`` then ``  /path "T"``).
_LABEL_ALONE = re.compile(r" {0,3}\[(?!\^)(" + _LABEL + r")\]:[ \t]*")
_DESTINATION_LINE = re.compile(r"[ \t]*" + _DESTINATION + r"(?:[ \t]+" + _TITLE + r")?[ \t]*")
# ``[text][label]`` and ``[label][]`` (the text may run over lines); then ``[label]`` alone: not
# followed by ``(``, ``[`` or ``:``, nor right after a ``]`` (the label of a reference whose text
# this reading cannot take, one holding brackets, stays as written rather than half read). Both
# start with their literal "[" (an image's "!" before it stays in the text, and the link written
# inline after it is an image's again), so the regex engine skips from one "[" to the next: an
# optional "!" in front, or a look-behind, made it try every character (the links of hugoDocs'
# pages took three times as long).
_FULL = re.compile(r"\[([^\[\]]{1,999})\]\[(" + _LABEL + r")?\]")
_SHORTCUT = re.compile(r"\[(?<!\]\[)(?!\^)(" + _LABEL + r")\](?![\[(:])")


def _key(label: str) -> str:
    return " ".join(label.split()).casefold()


def _target(destination: str) -> str:
    return destination[1:-1] if destination.startswith("<") else destination


def _opening_definitions(lines: list[str], found: dict[str, str]) -> int:
    """How many of ``lines`` the paragraph's opening definitions take; ``found`` gets each label's
    target (the first definition of a label wins, as in CommonMark)."""
    i = 0
    while i < len(lines):
        one = _DEFINITION.fullmatch(lines[i])
        if one is None:
            alone = _LABEL_ALONE.fullmatch(lines[i]) if i + 1 < len(lines) else None
            below = _DESTINATION_LINE.fullmatch(lines[i + 1]) if alone is not None else None
            if below is None:
                break
            found.setdefault(_key(alone.group(1)), _target(below.group(1)))
            i += 2
            continue
        found.setdefault(_key(one.group(1)), _target(one.group(2)))
        i += 1
        if i < len(lines) and not one.group(0).rstrip().endswith(("\"", "'", ")")) and _TITLE_LINE.fullmatch(lines[i]):
            i += 1  # its title, on the next line
    return i


def _inline(text: str, targets: dict[str, str]) -> str:
    """``text`` with its reference links to defined labels written inline. A link's text may
    hold a code span (``[`net.retry`]``); a bracket inside one opens or closes nothing."""
    if "[" not in text:
        return text
    # Most text names no defined label. Without "][" only a shortcut ``[label]`` can change it,
    # so one scan of its shortcuts, each label looked up, says whether any does: asking the text
    # for every defined label instead cost definitions x text (20,000 of each took 19 s).
    if "][" not in text and not any(_key(m.group(1)) in targets for m in _SHORTCUT.finditer(text)):
        return text
    for pattern, label_group in ((_FULL, 2), (_SHORTCUT, 1)):
        inside = None  # the code spans, found only once a defined label is met: most links are not

        def one(m: re.Match) -> str:
            nonlocal inside
            label = m.group(label_group) if m.group(label_group) is not None else m.group(1)
            target = targets.get(_key(label))
            if target is None:
                return m.group(0)
            if inside is None:
                inside = _Inside(code_spans(text) if "`" in text else [])
            if inside(m.start()) or inside(m.end() - 1):
                return m.group(0)
            return f"[{m.group(1)}]({target})"

        text = pattern.sub(one, text)
    return text


class _Inside:
    """Whether an offset falls in one of ``spans`` (sorted, disjoint), asked in rising order as
    ``re.sub`` asks: one walk over the spans for the whole text."""

    def __init__(self, spans: list[tuple[int, int]]):
        self.spans, self.k = spans, 0

    def __call__(self, at: int) -> bool:
        while self.k < len(self.spans) and self.spans[self.k][1] <= at:
            self.k += 1
        return self.k < len(self.spans) and self.spans[self.k][0] <= at


def drop(blocks: list, note=None) -> list:
    """``blocks`` without the link reference definitions their paragraphs open with, and their
    links to those definitions inline (module docstring); ``note`` (a ``Context.note``) is told
    of each paragraph's definitions, with their count."""
    targets: dict[str, str] = {}
    out = []
    for block in blocks:
        if isinstance(block, Paragraph) and "]:" in block.text:
            lines = block.text.split("\n")
            taken = _opening_definitions(lines, targets)
            if taken and note is not None:
                note(CONSTRUCT, "converted", 0, f"{taken} lines")
            if taken == len(lines):
                continue
            if taken:
                block = Paragraph("\n".join(lines[taken:]))
        out.append(block)
    if not targets:
        return out
    return [_with_inline_links(block, targets) for block in out]


def _with_inline_links(block, targets: dict[str, str]):
    if isinstance(block, Paragraph):
        text = _inline(block.text, targets)
        return block if text is block.text else Paragraph(text)
    if isinstance(block, ListBlock):
        raw = _inline(block.raw, targets)
        return block if raw is block.raw else ListBlock(raw)
    if isinstance(block, Heading):
        text = _inline(block.text, targets)
        return block if text is block.text else Heading(block.level, text, block.label)
    if isinstance(block, Table):
        rows = tuple(_inline(row, targets) for row in block.rows)
        return Table(_inline(block.header_row, targets), block.separator, rows,
                     "\n".join([_inline(line, targets) for line in block.raw.split("\n")]))
    return block
