"""What a VitePress page's Vue and inline markup shows (issue 36).

A VitePress page is a Vue single-file component written in Markdown:

- ``<script setup>``, ``<script>`` and ``<style>`` blocks starting a line are the component's code
  and styles, never shown: they go with their lines. One never closed is noted (Vue would fail
  to compile the page) and only its opening line goes;
- components and HTML tags show what is between them: the tags go, their text stays
  (``<Badge type="danger">advanced</Badge>`` reads ``advanced``); a ``<Badge text="beta" />``
  shows its ``text``;
- ``## Title {#anchor}`` shows ``Title``; ``[[toc]]`` is a table of contents of the page's own
  headings, which the store holds as headings already: it goes; HTML comments go.

Fenced code and inline code spans are never edited (``syntax/fences``). Each line is read once;
the search for a block's closing tag remembers where it found none, so a page of a million
unclosed ``<script>`` lines is read in one pass.
"""

from __future__ import annotations

import re

from ..api import Context
from ..markup import html_to_text, strip_heading_attributes, strip_html_comments
from ..syntax.fences import closes, open_fence, outside_code, outside_inline_code

SCRIPT = "vue block"
COMPONENT = "vue component"
ANCHOR = "heading anchor"
TOC = "table of contents"
_BLOCK_OPEN = re.compile(r" {0,3}<(script|style)(?=[\s>]|$)", re.IGNORECASE)
_BADGE = re.compile(r"<Badge\b([^<>]*)>")
_TEXT_ATTRIBUTE = re.compile(r"""(?:^|\s):?text=(?:"([^"]*)"|'([^']*)')""")
_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?=[\s/>]|$)")

Lines = list[tuple[int, str]]


def drop_blocks(lines: Lines, ctx: Context) -> Lines:
    """The lines without the component's ``<script>`` and ``<style>`` blocks (outside code)."""
    if not any("<s" in text.lower() for _, text in lines):
        return lines
    out: Lines = []
    no_closer_after: dict[str, int] = {}  # tag -> index past which no closing tag was found
    fence = None
    i, n = 0, len(lines)
    while i < n:
        origin, text = lines[i]
        if fence is not None:
            out.append(lines[i])
            if closes(text, fence):
                fence = None
            i += 1
            continue
        fence = open_fence(text) if ("`" in text or "~" in text) else None
        m = _BLOCK_OPEN.match(text) if fence is None and "<" in text else None
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        tag = m.group(1).lower()
        end = _closing(lines, i, tag, no_closer_after)
        if end is None:
            ctx.note(SCRIPT, "unresolved", origin, f"<{tag}> never closed by </{tag}>: its opening line dropped")
            i += 1
            continue
        ctx.note(SCRIPT, "converted", origin, tag)
        i = end + 1
    return out


def _closing(lines: Lines, i: int, tag: str, no_closer_after: dict[str, int]) -> int | None:
    """The index of the line holding ``</tag>`` from line ``i`` on (the opening line's own end
    included), or None."""
    closer = f"</{tag}"
    if i >= no_closer_after.get(tag, len(lines) + 1):
        return None
    for j in range(i, len(lines)):
        if closer in lines[j][1].lower():
            return j
    no_closer_after[tag] = i
    return None


def inline(lines: Lines, ctx: Context) -> Lines:
    """Heading anchors, ``[[toc]]`` and badges, line by line, outside fenced code; what each
    changed is noted."""
    out: Lines = []
    fence = None
    for origin, text in lines:
        if fence is not None:
            out.append((origin, text))
            if closes(text, fence):
                fence = None
            continue
        fence = open_fence(text) if ("`" in text or "~" in text) else None
        if fence is not None:
            out.append((origin, text))
            continue
        if text.strip() == "[[toc]]":
            ctx.note(TOC, "converted", origin)
            out.append((origin, ""))
            continue
        if text.startswith("#") and "{" in text:
            bare = strip_heading_attributes(text)
            if bare != text:
                ctx.note(ANCHOR, "converted", origin)
                text = bare
        if "<" in text:
            if "<Badge" in text:
                text = outside_inline_code(text, _badges)
            if _TAG.search(text):
                ctx.note(COMPONENT, "converted", origin)
        out.append((origin, text))
    return out


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
