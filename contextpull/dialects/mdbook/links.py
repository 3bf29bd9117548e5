"""mdBook's links preprocessor: ``{{#include}}`` and its kin, on raw text (issue 26, "Includes").

As mdBook does (``links.rs`` in rust-lang/mdBook; shared/style/dialects.md, section 5): every
``{{#...}}`` is first parsed into a value, then resolved; paths are relative to the including
file and nested ones to the included file; the ``\\{{#`` escape shows the directive itself; a
target that cannot be read leaves the directive's text on the page (and the report names it).

- ``{{#include file}}``, ``file:anchor``, ``file:2`` (line 2), ``file:2:10``, ``file::10``,
  ``file:2:``; anchors between ``ANCHOR:``/``ANCHOR_END:`` lines, which never reach the page;
- ``{{#rustdoc_include file:anchor}}``: mdBook includes the whole file with the lines outside the
  selection marked hidden, which the page does not show, so the reader sees the selection;
- ``{{#playground file attrs}}``: the file as a ``rust`` block (``rust,editable`` and the like);
- ``{{#title text}}``: the browser tab's title, no text on the page.

Includes run inside fenced code too (they usually stand in one). The include depth is bounded by
the resolver through ``within``, as mdBook's own limit of 10 does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..api import Context, Included
from ..selection import SelectionError, lines_between, region, whole
from ..syntax.line_map import LineMap

# The arguments hold no brace: a scan for the closing braces stops at the next directive, so a
# line of unclosed "{{#include " costs what it weighs (mdBook's paths never hold one). The
# pattern starts at the literal "{{", and a backslash just before it (the escape) is looked at
# by ``_replace``: a literal first gives the regex engine a string to skip to, where the escape
# as an alternative (``(\\\{\{|\{\{)``, itself five times faster than an optional backslash)
# left it two characters to test at every "{" and "\" of the Rust book's code; its 1.5 MB are
# scanned three times faster (issue 26's 1.5x budget).
# The arguments start and end with a character that is not a blank (the lazy ``[^{}\n]*?``
# before ``[ \t]*`` took time cubic in a run of blanks: 24 s for 4,000 after ``{{#include``).
_LINK = re.compile(r"\{\{[ \t]*#(include|rustdoc_include|playground|title)"
                   r"(?:[ \t]+(?![ \t])((?:[^{}\n \t]|[ \t]+(?=[^{}\n \t]))*))?[ \t]*\}\}")
_RANGE = re.compile(r"^(\d*)(?:(:)(\d*))?$")

CONSTRUCTS = {
    "include": "mdbook include",
    "rustdoc_include": "mdbook rustdoc_include",
    "playground": "mdbook playground",
}


@dataclass(frozen=True)
class Link:
    """One directive, parsed before anything is read (mdBook's ``LinkType``)."""

    kind: str  # include, rustdoc_include, playground
    path: str
    start: int | None = None
    end: int | None = None
    anchor: str | None = None
    attrs: tuple[str, ...] = ()


def parse_link(kind: str, args: str) -> Link | None:
    """``include`` + ``listings/x.rs:here`` -> Link('include', 'listings/x.rs', anchor='here')."""
    words = args.split()
    if not words:
        return None
    target = words[0]
    if kind == "playground":
        return Link(kind, target, attrs=tuple(words[1:]))
    path, colon, rest = target.partition(":")
    if not colon:
        return Link(kind, path)
    m = _RANGE.match(rest)
    if m is None:
        return Link(kind, path, anchor=rest)
    start = int(m.group(1)) if m.group(1) else None
    end = int(m.group(3)) if m.group(3) else None
    if m.group(2) is None:  # file:2 is line 2 alone
        end = start
    return Link(kind, path, start, end)


def _selected(ctx: Context, link: Link, inc: Included, line: int) -> str:
    if link.anchor is not None:
        try:
            return region(inc.text, link.anchor)
        except SelectionError as exc:  # mdBook renders nothing for an anchor the file lacks
            ctx.note(f"{CONSTRUCTS[link.kind]} anchor", "unresolved", line, f"{exc} in {inc.path}")
            return ""
    if link.start is None and link.end is None:
        return whole(inc.text)
    return lines_between(inc.text, link.start, link.end)


def _replace(text: str, ctx: Context, base: str, line_of, within: Included | None) -> str:
    """Every link in ``text`` replaced; ``line_of(offset)`` is the document line it stands on."""
    if "{{" not in text:
        return text

    def one(m: re.Match) -> str:
        kind, args = m.group(1), m.group(2) or ""
        if not args.strip():
            return m.group(0)  # "{{#include}}" with nothing to include is prose to mdBook too
        line = line_of(m.start())
        if kind == "title":
            ctx.note("mdbook title", "converted", line)
            return ""
        link = parse_link(kind, args)
        inc = ctx.include(link.path, base=base, line=line, construct=CONSTRUCTS[kind], within=within)
        if inc is None:
            return m.group(0)
        if kind == "playground":
            body = whole(inc.text)
            info = ",".join(("rust",) + link.attrs)
            return f"```{info}\n{_replace(body, ctx, inc.folder, lambda _: line, inc)}\n```"
        return _replace(_selected(ctx, link, inc, line), ctx, inc.folder, lambda _: line, inc)

    out: list[str] = []
    last = 0
    for m in _LINK.finditer(text):
        escaped = text[m.start() - 1 : m.start()] == "\\"  # "\{{#include x}}" shows "{{#include x}}"
        out.append(text[last : m.start() - escaped])
        out.append(m.group(0) if escaped else one(m))
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def expand_links(text: str, ctx: Context, base: str) -> str:
    """The document's links resolved against ``base``, its folder relative to the repository."""
    if "{{" not in text:
        return text
    return _replace(text, ctx, base, LineMap(text).line, None)
