"""Blocks a hook has already read, carried through the Markdown parse whole (issue 35: hooks that
return blocks, so ``eval-rst`` is not text to parse again).

A MyST ``eval-rst`` body is read by docutils into blocks. Written back as Markdown and parsed a
second time, those blocks were read twice and could be read differently the second time (a rst
paragraph holding ``# `` at a line start, a heading whose text ends in ``#``). Instead the hook
places the blocks here and leaves one placeholder line in the page's text, in a paragraph of its
own; after the Markdown parse, ``splice`` puts the blocks where that paragraph is.

The placeholder is a private-use character, a tag made from the page's text, a number and a
second private-use character. No author writes that tag by accident, in the page or in a file it
includes, so no author's text is taken for a placeholder. One that did not end up a paragraph of
its own (a directive indented under a list item) is replaced by the blocks' text, indented as
the hook's caller indents a directive's lines: the text the Markdown written back read as there.
"""

from __future__ import annotations

import hashlib

from ..parsing.blocks import Block, Heading, Paragraph, ParsedDocument

# Not the pair `syntax.template_tags` holds literals with: a step that restores those never
# touches these.
OPEN, CLOSE = "\ue002", "\ue003"


class Embedded:
    """The runs of blocks one document's hooks placed, in order."""

    def __init__(self, text: str):
        self._text = text
        self.tag = ""  # made when a first run is placed: most pages place none
        self.runs: list[list[Block]] = []

    def place(self, blocks: list[Block]) -> str:
        """The placeholder line for ``blocks``."""
        if not self.tag:
            self.tag = hashlib.sha256(self._text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        self.runs.append(list(blocks))
        return f"{OPEN}{self.tag}.{len(self.runs) - 1}{CLOSE}"

    def splice(self, parsed: ParsedDocument, stem: str) -> ParsedDocument:
        """``parsed`` with each placeholder paragraph replaced by its blocks, and the title the
        parser's rule (the first H1, when empty the stem) gives over the spliced blocks when
        the parser's title came from that rule."""
        if not self.runs:
            return parsed
        blocks: list[Block] = []
        for block in parsed.blocks:
            run = self._run(block.text) if isinstance(block, Paragraph) else None
            if run is not None:
                blocks.extend(run)
            else:
                blocks.append(self._inline(block))
        title = parsed.title
        if title == _first_h1(parsed.blocks, stem):
            title = _first_h1(blocks, stem)
        return ParsedDocument(title, blocks)

    def _run(self, text: str) -> list[Block] | None:
        text = text.strip()
        if len(text) < 3 or text[0] != OPEN or text[-1] != CLOSE:
            return None
        return self._number(text[1:-1])

    def _number(self, inner: str) -> list[Block] | None:
        tag, dot, number = inner.partition(".")
        if tag != self.tag or not dot or not number.isdigit() or int(number) >= len(self.runs):
            return None
        return self.runs[int(number)]

    def _inline(self, block: Block) -> Block:
        """``block`` with any placeholder in its text replaced by the run's text."""
        for name in ("text", "raw", "header_row"):
            value = getattr(block, name, None)
            if isinstance(value, str) and OPEN in value:
                setattr(block, name, self._expand(value))
        if getattr(block, "rows", None) and any(OPEN in row for row in block.rows):
            block.rows = tuple(self._expand(row) for row in block.rows)
        return block

    def _expand(self, value: str) -> str:
        out, i = [], 0
        while True:
            start = value.find(OPEN, i)
            end = value.find(CLOSE, start + 1) if start >= 0 else -1
            if start < 0 or end < 0:
                out.append(value[i:])
                return "".join(out)
            run = self._number(value[start + 1 : end])
            out.append(value[i:start])
            if run is not None:
                # indented as the hook's caller indents a directive's lines under its opener
                lead = start - (value.rfind("\n", 0, start) + 1)
                lines = as_text(run).split("\n")
                out.append("\n".join([lines[0], *(" " * lead + s if s else s for s in lines[1:])]))
            else:
                out.append(value[start : end + 1])
            i = end + 1


def as_text(blocks: list[Block]) -> str:
    """``blocks`` written as Markdown: what the blocks' text reads as inside another block."""
    out = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        else:
            out.append(block.raw)
    return "\n\n".join(out)


def _first_h1(blocks: list[Block], stem: str) -> str:
    for block in blocks:
        if isinstance(block, Heading) and block.level == 1:
            return block.text or stem
    return stem
