"""Markup every dialect shares, turned into what a reader of the rendered page sees (issue 26).

Two rules hold for all of it. Code keeps its text exactly: a rewrite of Markdown-extension syntax
never edits inside a fenced block or an inline code span (``syntax.fences``; the
same masking docusaurus-plugin-llms does before its regexes). And what a page does not show goes
(HTML comments, heading ids, tag names) while what it shows stays (the text between tags, the body
of a callout behind its label).
"""

from __future__ import annotations

import html
import re

from . import attributes
from .fences import outside_inline_code

# A tag a browser would treat as one: a letter after < (so "a < b" and "<https://x>" are not).
# Written so that no white space can be read two ways: the form with ``\s+[^<>]*?`` then
# ``\s*/?>`` took time cubic in a run of blanks after ``<a`` (60 s for 4,000 of them).
_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s[^<>]*|/)?>")


def strip_html_comments(text: str) -> str:
    """HTML comments go (a page never shows them); an unclosed one runs to the end, as in HTML:
    closed ones first, left to right, then from the first opener left in what remains. Found
    with ``str.find``: the pattern ``<!--.*?-->`` searched again from every later opener once
    one had no closer (and then none has), quadratic in a page of openers (6 s for 16,000)."""
    if "<!--" not in text:
        return text
    kept: list[str] = []
    at = 0
    while True:
        start = text.find("<!--", at)
        end = -1 if start < 0 else text.find("-->", start + 4)
        if end < 0:
            break
        kept.append(text[at:start])
        at = end + 3
    kept.append(text[at:])
    rest = "".join(kept)
    unclosed = rest.find("<!--")
    return rest if unclosed < 0 else rest[:unclosed]


def strip_heading_attributes(text: str) -> str:
    """``## Title { #custom-id }`` -> ``## Title``: the id is an anchor, not text (attr_list,
    kramdown, Docusaurus and Hugo write it alike)."""
    if "{" not in text or (not text.startswith("#") and "\n#" not in text):
        return text  # no heading line, or none that could end in attributes
    # Only the lines that start with ``#`` are visited (found by ``str.find``): a page of code
    # lines held one per line was otherwise a generator step per line for a few headings.
    starts = [0] if text.startswith("#") else []
    at = text.find("\n#")
    while at != -1:
        starts.append(at + 1)
        at = text.find("\n#", at + 1)
    parts: list[str] = []
    done = 0
    for start in starts:
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end]
        bare = _without_heading_attributes(line)
        if bare != line:
            parts += (text[done:start], bare)
            done = end
    return "".join(parts) + text[done:] if parts else text


def shown_as_written(text: str) -> bool:
    """Whether ``strip_html_comments``, ``html_to_text`` and ``strip_heading_attributes`` give
    every run of whole lines of ``text`` back as it is: comments and tags need a "<", entities a
    "&", heading attributes a line that starts with "#" and ends with "}". A caller that would
    cut the text into code and prose first (a search of every line) can skip that: most pages
    of Hugo's docs have none of them."""
    if "<" in text or "&" in text:
        return False
    if "}" not in text:
        return True
    at = 0 if text.startswith("#") else text.find("\n#")
    while at >= 0:
        end = text.find("\n", at + 1)
        if text.find("}", at, len(text) if end < 0 else end) >= 0:
            return False
        at = text.find("\n#", at + 1)
    return True


def _without_heading_attributes(line: str) -> str:
    """An ATX heading line without the attribute list that ends it ({ #id }, {: #id}), and
    without the blanks before the list."""
    hashes = len(line) - len(line.lstrip("#"))
    if hashes > 6 or not line[hashes : hashes + 1].isspace() or not line.rstrip().endswith("}"):
        return line
    found = attributes.trailing(line)
    if found is None or found.start <= hashes:
        return line
    return line[: hashes + 1] + line[hashes + 1 : found.start].rstrip()


def html_to_text(text: str) -> str:
    """Inline and block HTML tags go, the text between them stays; entities become characters.
    Inline code spans are kept as written (``<div>`` in backticks is code)."""
    if "<" not in text and "&" not in text:
        return text

    def plain(part: str) -> str:
        if "<" in part:
            part = _TAG.sub("", part)
        if "&" in part:
            part = html.unescape(part)
        return part

    return outside_inline_code(text, plain)


# An element no reader sees the text of: a stylesheet, a script, a drawing (MDX's reading drops
# ``svg`` for the same reason). Searched for by name; whether it opens a line is checked after.
_UNSHOWN = re.compile(r"<(script|style|svg)(?=[\s/>])", re.IGNORECASE)
# The indentation an opener may stand after and still open its line (an element nested in a
# tab or an admonition is indented by their 4 columns a level); beyond it, it is inside a line,
# and no opener's check reads back further than this.
_MAX_LEAD = 32


def without_unshown_elements(text: str) -> str:
    """``<style>``, ``<script>`` and ``<svg>`` elements that open a line (an HTML block, as
    CommonMark's rule 1 reads the first two) gone, their newlines kept so every later line keeps
    its number: a page shows a stylesheet's effect and a drawing's picture, never their source,
    and an SVG pasted in by an include (Textual's terminal screenshots) is kilobytes of CSS and
    path data. An ``svg`` holds nested ones to its matching close. One left open stays as
    written (its tags go with the rest). Linear: a search that found nothing is remembered, and
    the ``svg`` tags are paired in one pass."""
    if "<" not in text:
        return text
    lower = text.lower()
    missing: dict[str, int] = {}  # what was searched for and not found, from where
    angle = _NextAngle(lower)
    drawings: dict[int, int] | None = None
    kept: list[str] = []
    done = line_start = seen = 0
    for m in _UNSHOWN.finditer(text):
        start = m.start()
        newline = text.rfind("\n", seen, start)  # only the text since the last match is new
        line_start, seen = (newline + 1 if newline >= 0 else line_start), start
        if start < done:
            continue
        if start - line_start > _MAX_LEAD or text[line_start:start].strip(" \t"):
            continue  # inside a line: the per-line tag rules read it
        name = m.group(1).lower()
        if name == "svg":
            drawings = _svg_pairs(lower) if drawings is None else drawings
            close = drawings.get(start, -1)
        else:  # raw text: the first closer ends it
            tag_end = angle.after(m.end())
            self_closed = tag_end > 0 and lower[tag_end - 1] == "/"
            close = tag_end if self_closed else _find(lower, f"</{name}", m.end(), missing)
        if close < 0:
            continue
        end = angle.after(close)
        end = len(lower) if end < 0 else end + 1
        kept += (text[done:start], "\n" * text.count("\n", start, end))
        done = end
    if not kept:
        return text
    kept.append(text[done:])
    return "".join(kept)


def _find(lower: str, what: str, at: int, missing: dict[str, int]) -> int:
    """``lower.find(what, at)``, answered at once past a point a search already failed from."""
    if at >= missing.get(what, len(lower) + 1):
        return -1
    found = lower.find(what, at)
    if found < 0:
        missing[what] = at
    return found


class _NextAngle:
    """The first ``>`` at or after a position, asked for at positions that mostly grow: the last
    answer is reused while it still lies ahead, so openers never closed before one far ``>``
    cost a search between them, not one each to it."""

    def __init__(self, lower: str) -> None:
        self.lower = lower
        self.asked: int | None = None
        self.found = -1

    def after(self, at: int) -> int:
        # The last answer holds when it was asked at or before ``at`` and lies at or after it
        # (or said none follows): no ``>`` stands between the two positions.
        if self.asked is None or self.asked > at or (self.found != -1 and self.found < at):
            self.found = self.lower.find(">", at)
        self.asked = at
        return self.found


def _svg_pairs(lower: str) -> dict[int, int]:
    """For each ``<svg`` that closes, where its closing tag starts (a self-closing one: where
    its ``/>`` stands): every opening and closing tag read once, in order, with a stack."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    angle = _NextAngle(lower)
    at = lower.find("svg")
    while at != -1:
        if at >= 2 and lower[at - 2 : at] == "</":
            if stack:
                pairs[stack.pop()] = at - 2
        elif at >= 1 and lower[at - 1] == "<" and lower[at + 3 : at + 4] in (" ", "\t", "\n", "\r", "/", ">"):
            tag_end = angle.after(at)
            if tag_end < 0:
                break
            if lower[tag_end - 1] == "/":
                pairs[at - 1] = tag_end - 1
            else:
                stack.append(at - 1)
        at = lower.find("svg", at + 3)
    return pairs


def dedent_block(text: str, width: int | None = None) -> str:
    """Lines of ``text`` with ``width`` leading columns removed (tabs count as four), or the
    common indentation of its non-blank lines when ``width`` is None."""
    lines = [line.replace("\t", "    ") for line in text.split("\n")]
    if width is None:
        indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
        width = min(indents, default=0)
    out = []
    for line in lines:
        lead = len(line) - len(line.lstrip(" "))
        out.append(line[min(lead, width) :])
    return "\n".join(out)


# A line that ends in an odd number of backslashes: CommonMark's hard line break, whose backslash
# the page does not show (GitBook writes one at the end of most lines it breaks, and a line of
# one backslash alone for an empty one).
_HARD_BREAK = re.compile(r"(?<!\\)((?:\\\\)*)\\[ \t]*$", re.M)


def hard_breaks(blocks: list) -> list:
    """``blocks`` with the backslash of each hard line break gone from paragraphs and lists (a
    line of it alone becomes empty); code and tables keep theirs."""
    from ...parsing.blocks import ListBlock, Paragraph

    out = []
    for block in blocks:
        if isinstance(block, Paragraph) and "\\" in block.text:
            text = _HARD_BREAK.sub(r"\1", block.text)
            block = block if text == block.text else Paragraph(text)
        elif isinstance(block, ListBlock) and "\\" in block.raw:
            raw = _HARD_BREAK.sub(r"\1", block.raw)
            block = block if raw == block.raw else ListBlock(raw)
        out.append(block)
    return out
