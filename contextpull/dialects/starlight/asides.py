"""Starlight's asides in a Markdown page (issue 36): ``:::note``, ``:::tip[Title]``,
``:::caution``, ``:::danger``, remark-directive containers read by the shared line rules
(``syntax/containers``: an opener's name and rest, a closing line of at least as many colons,
``MAX_NESTING``), shown as their title (or their type's word) before their body
(``syntax/labels.labelled``). An ``.mdx`` page's asides are the MDX rules' (``mdx/jsx``).

Fenced code is text: a ``:::`` in it opens nothing, and neither does a ``:::tip[T]`` line with
more text after its label (remark-directive reads that line as a paragraph, so the page shows it). An aside never closed ends where its parent
does (remark-directive's reading), named ``unresolved``; a closing line that closes nothing is
dropped and named; an aside nested deeper than ``MAX_NESTING`` is text. Each line is looked at
once and each body joined once per level, so a page costs a pass times at most the nesting bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...parsing.fence_rule import closes, open_fence
from ..syntax.containers import MAX_NESTING, Opener, colon_closer, colon_closes, colons
from ..syntax.labels import labelled, title
from .components import aside_problem
from .notes import Notes

CONSTRUCT = "starlight aside"


@dataclass
class _Open:
    opener: Opener | None
    line: int
    lines: list[str] = field(default_factory=list)


def bracket_title(rest: str) -> str | None:
    """The ``[Title]`` right after a directive's name (remark-directive's label; '' without
    one), or None when the line is no container opener: after the label and an optional
    ``{attributes}`` only blanks may follow (a line ``:::tip[T] text`` is a paragraph)."""
    rest, label = rest.strip(), ""
    if rest.startswith("["):
        end = rest.find("]")
        if end < 0:
            return None
        label, rest = rest[1:end].strip(), rest[end + 1 :]
    if rest.startswith("{"):
        end = rest.find("}")
        rest = "x" if end < 0 else rest[end + 1 :]
    return None if rest.strip() else label


def convert(text: str, ctx, first_line: int = 1) -> str:
    """``text`` with its asides shown as labelled blocks (module docstring)."""
    if ":::" not in text:
        return text
    notes = Notes(ctx, CONSTRUCT)
    stack = [_Open(None, 0)]
    fence = None
    for number, line in enumerate(text.split("\n"), first_line):
        top = stack[-1]
        if fence is not None:
            top.lines.append(line)
            if closes(line, fence):
                fence = None
            continue
        found = colons(line) if ":::" in line else None
        if found is None:
            fence = open_fence(line)
            top.lines.append(line)
            continue
        if found.name is None:
            if colon_closer(found) and len(stack) > 1 and colon_closes(found, top.opener):
                _close(stack, notes, closed=True)
            elif colon_closer(found):
                notes.note("unresolved", number, "a closing ::: line that closes no aside: dropped")
            else:
                top.lines.append(line)
            continue
        if bracket_title(found.title or "") is None:
            top.lines.append(line)  # text after the label: a paragraph, as the page shows it
            continue
        if len(stack) > MAX_NESTING:
            notes.note("unresolved", number, f":::{found.name} nested deeper than {MAX_NESTING}: kept as text")
            top.lines.append(line)
            continue
        problem = aside_problem(found.name)
        notes.note("unresolved" if problem else "converted", number, problem or "")
        stack.append(_Open(found, number))
    while len(stack) > 1:
        _close(stack, notes, closed=False)
    return "\n".join(stack[0].lines)


def _close(stack: list[_Open], notes: Notes, closed: bool) -> None:
    """The innermost aside, shown, into its parent's lines."""
    done = stack.pop()
    opener = done.opener
    if not closed:
        notes.note("unresolved", done.line, f":::{opener.name} never closed: read as if closed where its parent ends")
    label = bracket_title(opener.title or "") or title(opener.name)  # an opener's is never None
    indent = opener.indent
    if not indent:  # the common case: the body as one piece, no line looked at again
        stack[-1].lines.extend(["", labelled(label, "\n".join(done.lines)), ""])
        return
    body = "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip(" \t") for line in done.lines)
    shown = labelled(label, body).split("\n")
    stack[-1].lines.extend(["", *(indent + s if s else s for s in shown), ""])
