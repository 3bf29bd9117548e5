"""Starlight's asides in a Markdown page (issue 36): ``:::note``, ``:::tip[Title]``,
``:::caution``, ``:::danger``, remark-directive containers read by the shared tree reading
(``syntax/container_tree.scan_marked``, the line rules of ``syntax/containers``: an opener's name and
rest, a closing line of at least as many colons ends the innermost aside, ``MAX_NESTING``) over
the page with its fenced code blanked (``syntax/fences.code_blanked``), shown as their title (or their type's word) before their body
(``syntax/labels.labelled``). An ``.mdx`` page's asides are the MDX rules' (``mdx/jsx``).

Fenced code is text: a ``:::`` in it opens nothing, and neither does a ``:::tip[T]`` line with
more text after its label (remark-directive reads that line as a paragraph, so the page shows it). An aside never closed ends where its parent
does (remark-directive's reading), named ``unresolved``; a closing line that closes nothing is
dropped and named; an aside nested deeper than ``MAX_NESTING`` is text. Each line is looked at
once and each body joined once per level, so a page costs a pass times at most the nesting bound.
"""

from __future__ import annotations

from ..syntax.container_tree import Container, Syntax, scan_marked
from ..syntax.containers import MAX_NESTING, colon_closer, colons
from ..syntax.fences import code_blanked
from ..syntax.labels import labelled, title
from .components import aside_problem
from .notes import Notes

CONSTRUCT = "starlight aside"


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


def _opens(line: str):
    """An aside's opening line: a remark-directive ``:::name`` whose label ends the line."""
    found = colons(line) if ":::" in line else None
    if found is None or found.name is None or bracket_title(found.title or "") is None:
        return None
    return found


# remark-directive's containers as Starlight reads them: a closing line ends the innermost aside.
ASIDES = Syntax("starlight asides", _opens, "closing")


def convert(text: str, ctx, first_line: int = 1) -> str:
    """``text`` with its asides shown as labelled blocks (module docstring)."""
    if ":::" not in text:
        return text
    lines = text.split("\n")
    masked = code_blanked(lines)  # a ``:::`` in fenced code opens and closes nothing
    reading = _Reading(lines, masked, Notes(ctx, CONSTRUCT), first_line)
    out = reading.render(0, len(lines), scan_marked(masked, ASIDES, ":::"))
    for opened in reversed(reading.unclosed):  # noted last, innermost first, as the page ends them
        reading.notes.note("unresolved", first_line + opened.line,
                           f":::{opened.opener.name} never closed: read as if closed where its parent ends")
    return "\n".join(out)


class _Reading:
    """One page's aside tree turned into its lines (an aside's shown block is one item, split
    only when its opener is indented, so the text joins as it did line by line)."""

    def __init__(self, lines: list[str], masked: list[str], notes: Notes, first_line: int) -> None:
        self.lines, self.masked, self.notes, self.first = lines, masked, notes, first_line
        self.unclosed: list[Container] = []

    def render(self, lo: int, hi: int, children: list[Container]) -> list[str]:
        out: list[str] = []
        at = lo
        for child in children:
            out.extend(self.gap(at, child.line))
            out.extend(self.aside(child))
            at = child.after
        out.extend(self.gap(at, hi))
        return out

    def gap(self, lo: int, hi: int) -> list[str]:
        """Lines outside any aside at this level: a closing line here closes nothing (dropped), an
        opener here is past the nesting bound (text); both noted."""
        out: list[str] = []
        for i in range(lo, hi):
            text = self.masked[i]
            found = colons(text) if ":::" in text else None
            if found is not None and colon_closer(found):
                self.notes.note("unresolved", self.first + i, "a closing ::: line that closes no aside: dropped")
                continue
            if found is not None and found.name is not None and bracket_title(found.title or "") is not None:
                self.notes.note("unresolved", self.first + i, f":::{found.name} nested deeper than {MAX_NESTING}: kept as text")
            out.append(self.lines[i])
        return out

    def aside(self, c: Container) -> list[str]:
        opener = c.opener
        problem = aside_problem(opener.name)
        self.notes.note("unresolved" if problem else "converted", self.first + c.line, problem or "")
        if not c.closed:
            self.unclosed.append(c)
        body = self.render(c.body, c.end, c.children)
        label = bracket_title(opener.title or "") or title(opener.name)  # an opener's is never None
        indent = opener.indent
        if not indent:  # the common case: the body as one piece, no line looked at again
            return ["", labelled(label, "\n".join(body)), ""]
        text = "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip(" \t") for line in body)
        return ["", *(indent + s if s else s for s in labelled(label, text).split("\n")), ""]
