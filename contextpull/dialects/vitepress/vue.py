"""What a VitePress page's Vue and inline markup shows (issue 36).

A VitePress page is a Vue single-file component written in Markdown:

- ``<script setup>``, ``<script>`` and ``<style>`` blocks starting a line are the component's code
  and styles, never shown: they go with their lines. One never closed is noted (Vue would fail
  to compile the page) and only its opening line goes;
- components and HTML tags show what is between them: the tags go, their text stays
  (``<Badge type="danger">advanced</Badge>`` reads ``advanced``); a ``<Badge text="beta" />``
  shows its ``text``;
- ``## Title {#anchor}`` shows ``Title``, indented into a list item too; ``[[toc]]`` (any case)
  is a table of contents of the page's own headings, which the store holds as headings already:
  it goes; HTML comments go.

Fenced code and inline code spans are never edited (``syntax/fences``): the page's line pass
(``page_lines``) asks here only for lines outside fenced code. The search for a block's closing
tag remembers where it found none, so a page of a million unclosed ``<script>`` lines is read in
one pass.
"""

from __future__ import annotations

import re

from ..api import Context
from ..syntax.markup import html_to_text, strip_heading_attributes, strip_html_comments
from ..syntax.fences import outside_code, outside_inline_code
from ..syntax.line_map import Lines

SCRIPT = "vue block"
COMPONENT = "vue component"
ANCHOR = "heading anchor"
TOC = "table of contents"
_BLOCK_OPEN = re.compile(r" {0,3}<(script|style)(?=[\s>]|$)", re.IGNORECASE)
_BADGE = re.compile(r"<Badge\b([^<>]*)>")
_TEXT_ATTRIBUTE = re.compile(r"""(?:^|\s):?text=(?:"([^"]*)"|'([^']*)')""")
_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?=[\s/>]|$)")


def block_open(text: str) -> str | None:
    """``script`` or ``style`` when the line opens one of the component's blocks, else None."""
    m = _BLOCK_OPEN.match(text) if "<" in text else None
    return None if m is None else m.group(1).lower()


class BlockEnds:
    """Where each ``</script>`` or ``</style>`` is, searched for from an opening line on; a
    search that finds none is remembered, so a later opener past it is answered at once."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines
        self.none_after: dict[str, int] = {}

    def closing(self, i: int, tag: str) -> int | None:
        """The index of the line holding ``</tag>`` from line ``i`` on (its own end included)."""
        closer = f"</{tag}"
        if i >= self.none_after.get(tag, len(self.lines) + 1):
            return None
        for j in range(i, len(self.lines)):
            if closer in self.lines[j][1].lower():
                return j
        self.none_after[tag] = i
        return None


def inline(text: str, origin: int, ctx: Context, delimiters: tuple[str, str] = ("{", "}")) -> str | None:
    """One prose line with its heading anchor and badges read (None: the line goes, a
    ``[[toc]]``); what changed is noted. A site that gives markdown-it-attrs other
    ``delimiters`` (``%{#id}%``) has its heading attributes read with them."""
    if "[[" in text and text.strip().lower() == "[[toc]]":  # @mdit-vue/plugin-toc's pattern is /i
        ctx.note(TOC, "converted", origin)
        return None
    # A heading indented into a list item (Vue's API pages: ``  ### Function Signature {#sig}``)
    # takes its anchor as one at the margin does: markdown-it-attrs reads every heading.
    body = text.lstrip(" ")
    lead = text[: len(text) - len(body)]
    if delimiters != ("{", "}") and body.startswith("#"):
        body = _braced(body, *delimiters)
        text = lead + body
    if body.startswith("#") and "{" in body:
        bare = strip_heading_attributes(body)
        if bare != body:
            ctx.note(ANCHOR, "converted", origin)
            text = lead + bare
    if "<" in text:
        if "<Badge" in text:
            text = outside_inline_code(text, _badges)
        if _TAG.search(text):
            ctx.note(COMPONENT, "converted", origin)
    return text


def _braced(heading: str, left: str, right: str) -> str:
    """A heading line whose attributes close it in the site's own delimiters, written with
    braces (``## T %{#t}%`` -> ``## T {#t}``), so the one attribute-list grammar reads it."""
    end = len(heading.rstrip())
    if not heading[:end].endswith(right):
        return heading
    at = heading.rfind(left, 0, end - len(right))
    if at < 0:
        return heading
    return heading[:at] + "{" + heading[at + len(left) : end - len(right)] + "}" + heading[end:]


def _badges(part: str) -> str:
    """A self-closing ``<Badge text="x" />`` as ``x``; an opening one as nothing (its content
    stays between the tags, which go later)."""
    def one(m: re.Match) -> str:
        attrs = m.group(1)
        if not attrs.rstrip().endswith("/"):
            return m.group(0)
        found = _TEXT_ATTRIBUTE.search(attrs)
        return "" if found is None else (found.group(1) if found.group(1) is not None else found.group(2))

    return _BADGE.sub(one, part)


def to_text(text: str) -> str:
    """Tags and comments off the prose, code untouched (the last step, on the whole page: a tag
    or a comment may run over lines)."""
    return outside_code(text, lambda chunk: html_to_text(strip_html_comments(chunk)))
