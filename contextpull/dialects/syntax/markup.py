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
