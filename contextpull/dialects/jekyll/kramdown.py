"""kramdown's extensions that a page never shows (issue 26, "Markup to meaning"; the kramdown
syntax reference, "Block IALs", "Extensions").

- A block attribute list (``{: .note .info}``) alone on a line styles the block it touches: the
  one right after it, else the one right before it. When a class names an admonition, the page
  shows a box, so the block becomes ``Note: ...``; any other list just goes.
- ``{:toc}`` (with the ``* TOC`` line it replaces), ``{::options .../}``, attribute list
  definitions (``{:name: .cls}``) and ``{::comment}...{:/comment}`` go; ``{::nomarkdown}``
  keeps its text. Span lists (``*word*{: .cls}``) and heading ids go too.

This is the Markdown-extension layer: fenced code is never edited.
"""

from __future__ import annotations

import re

from ..api import Context
from ..syntax.markup import strip_heading_attributes
from ..syntax.labels import class_label, labelled
from ..syntax import attributes
from ..syntax.fences import outside_code, outside_inline_code, split_code
from ..syntax.line_map import numbered

# The attributes are a run that starts and ends with a character that is not a blank, each inner
# blank run followed by one: the lazy ``([^}]*?)\s*`` took time cubic in a run of blanks.
_ALD = re.compile(r"^[ \t]{0,3}\{:[\w-]+:[^}]*\}[ \t]*$")
_OPTIONS = re.compile(r"^[ \t]*\{::options\b[^}]*/\}[ \t]*$")
_TOC_ITEM = re.compile(r"^[ \t]*(?:[*+-]|\d+\.)\s+[^\n]*$")


def prepare(text: str, ctx: Context, first_line: int = 1, fixed_line: bool = False) -> str:
    """``text`` with its kramdown extensions turned into what the page shows."""
    if "{" not in text:
        return text
    if "{:" not in text:
        return outside_code_headings(text)
    out: list[str] = []
    for line, is_code, chunk in numbered(split_code(text), first_line):
        out.append(chunk if is_code else _prose(chunk, ctx, first_line if fixed_line else line, fixed_line))
    return outside_code_headings("\n".join(out))


def outside_code_headings(text: str) -> str:
    """Heading attributes gone outside code. Asked of the whole text first, which visits only
    heading lines: when no heading anywhere ends in attributes, none outside code does, and the
    text need not be cut into code and prose (most pages of Jekyll's docs)."""
    if strip_heading_attributes(text) is text:
        return text
    return outside_code(text, strip_heading_attributes)


def _prose(chunk: str, ctx: Context, first_line: int, fixed: bool) -> str:
    if "{::" in chunk:
        chunk = _extension_blocks(chunk, "comment", keep=False)
        chunk = _extension_blocks(chunk, "nomarkdown", keep=True)
    lines = chunk.split("\n")
    out: list[str | None] = list(lines)
    for i, raw in enumerate(lines):
        if "{:" not in raw:
            continue  # every list below opens with it: most lines are passed at one test
        where = first_line if fixed else first_line + i
        if _OPTIONS.match(raw) or _ALD.match(raw):
            out[i] = ""
            ctx.note("kramdown extension", "converted", where)
            continue
        found = _block_attributes(raw)
        if found is None:
            continue
        out[i] = ""  # a blank line where the list stood keeps later lines where they were
        attrs = found.source
        if attrs.replace(" ", "") == "toc":
            if i > 0 and _TOC_ITEM.match(lines[i - 1]):
                out[i - 1] = ""
            ctx.note("kramdown toc", "converted", where)
            continue
        label = _label(attrs)
        ctx.note("kramdown attribute list", "converted", where, attrs)
        if label is None:
            continue
        if i + 1 < len(lines) and lines[i + 1].strip():
            _label_block(out, i + 1, 1, label)
        elif i > 0 and lines[i - 1].strip() and out[i - 1]:
            _label_block(out, i - 1, -1, label)
    kept = "\n".join(line for line in out if line is not None)
    return outside_inline_code(kept, _without_span_attributes) if "{:" in kept else kept


def _block_attributes(line: str) -> attributes.AttributeList | None:
    """A block attribute list alone on its line, indented up to three columns: ``{: .note}``,
    ``{:toc}`` (a reference to a definition, so bare words count)."""
    indent = len(line) - len(line.lstrip(" \t"))
    if indent > 3 or not line.startswith("{:", indent) or line.startswith("{::", indent):
        return None
    return attributes.whole_line(line, kramdown=True, words=True)


def _without_span_attributes(part: str) -> str:
    """Span attribute lists (``*word*{: .cls}``) go: a page never shows them."""
    kept: list[str] = []
    last = 0
    for found in attributes.find_all(part, kramdown=True):
        kept.append(part[last : found.start])
        last = found.end
    kept.append(part[last:])
    return "".join(kept)


def _extension_blocks(chunk: str, name: str, *, keep: bool) -> str:
    """``{::name}...{:/name}`` (or ``{:/}``) with its body kept or dropped (its lines left blank,
    so later lines keep their numbers). Found with ``str.find``: an unclosed opener is text, and
    the search stops there instead of trying every later opener."""
    opener = "{::" + name + "}"
    parts: list[str] = []
    pos = 0
    while (i := chunk.find(opener, pos)) != -1:
        body_start = i + len(opener)
        ends = [(j, closer) for closer in ("{:/" + name + "}", "{:/}") if (j := chunk.find(closer, body_start)) != -1]
        if not ends:
            break
        j, closer = min(ends)
        body = chunk[body_start:j]
        parts += [chunk[pos:i], body if keep else "\n" * body.count("\n")]
        pos = j + len(closer)
    parts.append(chunk[pos:])
    return "".join(parts)


def _label(attrs: str) -> str | None:
    classes = {c[1:].lower() for c in attrs.split() if c.startswith(".")}
    return class_label(classes)


# The heading's text is taken whole and its closing marks cut afterwards: a lazy group before
# ``[ \t#]*`` retried the run of blanks at every step (quadratic in "# a" and blanks).
_QUOTE_HEADING = re.compile(r"[ \t]*#{1,6}[ \t]+([^\n]*)(?:\n|\Z)")


def _unquoted(body: str) -> str:
    """A block quote's lines without their ``>`` marker: a callout class on a quote (Just the
    Docs' ``{: .warning }`` above ``> text``) makes the quote the callout's box."""
    lines = body.split("\n")
    if not all(line.lstrip(" ").startswith(">") and len(line) - len(line.lstrip(" ")) <= 3 for line in lines if line.strip()):
        return body
    out = []
    for line in lines:
        rest = line.lstrip(" ")[1:]
        out.append(rest[1:] if rest.startswith(" ") else rest)
    return "\n".join(out)


def _label_block(out: list[str | None], start: int, step: int, label: str) -> None:
    """The paragraph from ``start`` (going down, or up) becomes ``Label: paragraph``; a block
    quote there is the callout's box, its markers gone."""
    i = start
    while 0 <= i + step < len(out) and out[i + step] is not None and out[i + step].strip():
        i += step
    first, last = (start, i) if step > 0 else (i, start)
    body = "\n".join(line for line in out[first : last + 1] if line is not None)
    inner = _unquoted(body)
    if inner is not body:
        heading = _QUOTE_HEADING.match(inner)
        title = heading.group(1).rstrip(" \t#").strip() if heading is not None else ""
        if title:  # the quote's own heading is the box's title (Carpentries' lessons)
            label, inner = title, inner[heading.end():]
    labelled_lines = labelled(label, inner).split("\n")
    for k in range(first, last + 1):
        out[k] = None
    out[first] = "\n".join(labelled_lines)

