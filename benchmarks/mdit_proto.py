"""A prototype mkdocs reading whose intermediate form is markdown-it-py's block tokens (issue 35).

What it replaces and what it keeps, so its sections can be compared with the stores':

- kept (text-level, before any parse, as today): front matter off, mkdocs-macros, snippets and
  FastAPI's ``{* file *}`` includes (``mkdocs.macros``, ``mkdocs.snippets``);
- replaced: ``mkdocs.blocks.convert_blocks``, the dialect's line pass and the shared line-based
  parser. The page is parsed once by markdown-it-py (CommonMark, tables, ``admon`` for
  ``!!!``/``???``, ``container`` with marker ``/`` for pymdown ``///`` blocks, ``attrs``,
  ``deflist``, ``tasklists``, ``footnote``); sections come from its tokens: a heading token is a
  heading, every other block is its source lines by the token's line map (verbatim, the
  container's indentation taken off), lists, tables, quotes and definition lists whole;
- hooks over tokens for what no plugin reads: heading attributes ``{ #id }`` (the ``attrs``
  plugin reads them after a span, image or code span only), the inline markup the page never
  shows (the dialect's own ``_inline``, line by line, on prose only), mkdocstrings ``:::`` stubs.

Not a design for the project: a measurement of what block structure markdown-it-py gives these
pages against what today's reading gives them.
"""

from __future__ import annotations

import re
import textwrap

from mdit_py_plugins.container import container_plugin
from mdit_sites import markdown_it

from contextpull.dialects.syntax.markup import labelled, strip_heading_attributes, strip_html_comments, title_case
from contextpull.dialects.mkdocs import dialect as mkdocs
from contextpull.dialects.mkdocs.config import site_config
from contextpull.dialects.mkdocs.macros import render as render_macros
from contextpull.dialects.mkdocs.snippets import expand_snippets, expand_variants
from contextpull.parsing.blocks import Code, Heading, ListBlock, Paragraph, ParsedDocument, Table

_MKDOCSTRINGS = re.compile(r"[ \t]*:::[ \t]+[\w.:-]+[ \t]*$")
_UNLABELLED = {"html", "caption", "define"}
# Tokens whose source lines are taken whole (their inner tokens skipped): the line-based reading
# keeps these as one block of text too.
_WHOLE = {"bullet_list_open": ListBlock, "ordered_list_open": ListBlock, "blockquote_open": Paragraph,
          "dl_open": Paragraph, "footnote_open": Paragraph}


def parser():
    md = markdown_it("mkdocs", inline=False)
    container_plugin(md, "block", marker="/", validate=lambda params, markup: bool(params.strip()))
    return md


_MD = None


def read(text: str, ctx, stem: str) -> ParsedDocument:
    """``text`` (front matter already off) to a parsed document, through markdown-it-py."""
    global _MD
    if _MD is None:
        _MD = parser()
    lines = list(enumerate(text.split("\n"), start=1))
    config = site_config(ctx)
    lines = render_macros(lines, ctx, config)
    lines = expand_snippets(lines, ctx, config)
    lines = expand_variants(lines, ctx)
    src_lines = [t for _, t in lines]
    tokens = _MD.parse("\n".join(src_lines))
    blocks = _blocks(tokens, src_lines, ctx)
    h1 = next((b.text for b in blocks if isinstance(b, Heading) and b.level == 1), None)
    return ParsedDocument(h1 or stem, blocks)


def _source(src: list[str], token, indent: int) -> str:
    start, end = token.map
    body = src[start:end]
    if indent:
        body = textwrap.dedent("\n".join(body)).split("\n")
    return "\n".join(body)


def _prose(text: str, ctx) -> str:
    """Prose lines through the dialect's inline hook, HTML comments first (today's reading
    takes comments off the whole page outside code, after its line pass)."""
    if "<!--" in text:
        text = strip_html_comments(text)
    return "\n".join(mkdocs._inline(line, 0, ctx) for line in text.split("\n")).strip()


def _label(token) -> str | None:
    """The label a container shows before its body ('' for none), as today's reading gives it."""
    if token.type == "admonition_open":
        tag = token.meta.get("tag", "")
        title = token.content  # "" for !!! note "" (no title)
        raw = token.info.strip()
        return title if '"' in raw else title_case(tag)
    name, _, title = token.info.strip().partition("|")
    name, title = name.strip().lower(), title.strip()
    if name in _UNLABELLED:
        return ""
    if name == "tab":
        return "\0" + title if title else ""  # a tab's label stands on its own line
    if name == "admonition":
        return title
    return title or title_case(name)


def _blocks(tokens, src: list[str], ctx) -> list:
    out: list = []
    labels: list[list[str]] = []  # labels waiting for the first block of their container
    opened: list[list[str] | None] = []  # each open container's label entry
    indents: list[int] = [0]
    i, n = 0, len(tokens)
    while i < n:
        t = tokens[i]
        kind = t.type
        if kind in ("admonition_open", "container_block_open"):
            label = _label(t)
            entry = [label] if label else None
            if entry is not None:
                labels.append(entry)
            opened.append(entry)
            # the body's indentation: 4 for an admonition, none for a /// block
            indents.append(indents[-1] + (4 if kind == "admonition_open" else 0))
            i += 1
            continue
        if kind in ("admonition_close", "container_block_close"):
            indents.pop()
            entry = opened.pop() if opened else None
            if entry is not None and any(e is entry for e in labels):
                # a container with nothing in it shows its label alone
                labels[:] = [e for e in labels if e is not entry]
                label = entry[0]
                out.append(Paragraph(label[1:] if label.startswith("\0") else labelled(label, "")))
            i += 1
            continue
        if kind == "admonition_title_open":
            i += 3  # title_open, inline, title_close: the title is the label
            continue
        if kind == "heading_open":
            level = int(t.tag[1])
            line = strip_heading_attributes("#" * level + " " + tokens[i + 1].content)
            line = mkdocs._inline(line, 0, ctx)
            heading = Heading(level, line[level:].strip())
            if labels:  # a container whose first block is a heading: its label goes above it
                out.extend(_with_labels([e[0] for e in labels], heading))
                labels.clear()
            else:
                out.append(heading)
            i += 3
            continue
        block = None
        if kind in ("fence", "code_block"):
            info = t.info.split()
            block = Code(info[0] if info else "", _source(src, t, indents[-1]))
        elif kind == "table_open":
            rows = [mkdocs._inline(r, 0, ctx).rstrip() for r in _source(src, t, indents[-1]).split("\n")]
            block = Table(rows[0], rows[1], tuple(rows[2:]), "\n".join(rows))
            i = _close(tokens, i)
        elif kind in _WHOLE:
            text = _prose(_source(src, t, indents[-1]), ctx)
            block = _WHOLE[kind](text) if text else None
            i = _close(tokens, i)
        elif kind in ("paragraph_open", "html_block"):
            text = _source(src, t, indents[-1])
            text = _without_stubs(text)
            text = _prose(text, ctx)
            block = Paragraph(text) if text else None
            if kind == "paragraph_open":
                i = _close(tokens, i)
        if block is not None:
            if labels:
                out.extend(_with_labels([e[0] for e in labels], block))
                labels.clear()
            else:
                out.append(block)
        i += 1
    return out


def _without_stubs(text: str) -> str:
    """A paragraph without its mkdocstrings ``::: name`` lines and the indented options under
    each (CommonMark reads them as the paragraph's continuation lines)."""
    kept, stub = [], False
    for line in text.split("\n"):
        if _MKDOCSTRINGS.match(line):
            stub = True
            continue
        if stub and line[:1] in (" ", "\t"):
            continue
        stub = False
        kept.append(line)
    return "\n".join(kept)


def _with_labels(pending: list[str], block) -> list:
    """Today's ``labelled``, outermost label first: a paragraph takes the labels in front;
    another block gets them on a line above it."""
    parts = [label[1:] for label in pending if label.startswith("\0")]
    pending = [label for label in pending if not label.startswith("\0")]
    head = [Paragraph(p) for p in parts]
    if not pending:
        return head + [block]
    text = block.text if isinstance(block, Paragraph) else ""
    for label in reversed(pending):
        text = labelled(label, text)
    return head + ([Paragraph(text)] if isinstance(block, Paragraph) else [Paragraph(text), block])


def _close(tokens, i: int) -> int:
    """The index of the token closing the one at ``i`` (same nesting)."""
    close = tokens[i].type.removesuffix("_open") + "_close"
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].type == tokens[i].type:
            depth += 1
        elif tokens[j].type == close:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens) - 1
