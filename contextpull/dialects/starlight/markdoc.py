"""Markdoc tags in a Starlight ``.mdoc`` page (issue 36), lexed by the one template-tag lexer
(``syntax/template_tags``) with ``{% %}`` delimiters. Markdoc closes a block with
``{% /name %}`` and writes a tag that holds nothing as ``{% name /%}``.

- Starlight's tags (``aside``, ``tabs``/``tabitem``, ``card``, ``linkcard``, ``cardgrid``,
  ``steps``, ``filetree``, ``badge``, ``icon``, ``code``): as the MDX components are shown
  (``components``);
- ``{% partial file="…" /%}``: the file's text, front matter off, read the same way, through the
  guarded resolver (``ctx.include``: the repository guard, depth and cycle limits), relative to
  the page that holds it, as Astro's Markdoc integration resolves it;
- ``if``/``else``: the conditions are not evaluated, so every branch's text is kept (noted);
  ``{% $variable %}`` and any other tag: dropped with their text kept, noted ``unresolved``.

Tags inside fenced code or an inline code span are text. The blocks are read by the shared
paired-tag walk (``syntax/tag_blocks``, Markdoc's ``/`` closers): a block never closed is read as if
closed where its parent ends, a closer that closes nothing is dropped, each named
``unresolved`` (at most ``context.MAX_LISTED`` of a construct listed); blocks nest at most ``MAX_NESTING``
deep. Each tag is read once, so a page costs a pass over its tags whatever it holds.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..data.front_matter import split_front_matter
from ..mdx.provided import Shown
from ..syntax.containers import MAX_NESTING
from ..syntax.fences import fenced
from ..syntax.labels import labelled
from ..syntax.options import arguments
from ..syntax.tag_blocks import MARKDOC, TagWalk, tags_of
from . import components
from .notes import Notes

CONSTRUCT = "markdoc tag"
_NAME = re.compile(r"[ \t\n]*(/?)([A-Za-z$][\w.-]*)")
_CONDITIONS = frozenset(("if", "else"))


class _Tag(NamedTuple):
    name: str  # a closer's with its ``/``
    args: dict
    alone: bool  # ``/%}``: holds nothing
    start: int
    end: int
    line: int


def convert(text: str, ctx, within=None, at_line: int | None = None) -> str:
    """``text`` with its Markdoc tags read (module docstring). ``within``: the partial the text
    is (nested partials start from its folder); ``at_line``: the line every note names."""
    if "{%" not in text:
        return text
    tags = _tags(text, at_line)
    if not tags:
        return text
    reading = _Reading(ctx, within)
    walk = TagWalk(text, tags, MARKDOC, MAX_NESTING, lambda frame, body: reading.render(frame.tag, body),
                   lambda line, detail: reading.notes.note("unresolved", line, detail))
    for tag in walk:
        if tag.name.startswith("$"):
            reading.notes.note("unresolved", tag.line, f"{{% {tag.name} %}} is a variable, not text: dropped")
        elif tag.name == "partial":
            walk.add(reading.partial(tag))
        elif tag.alone:
            walk.add(reading.render(tag, ""))
        else:
            walk.open(tag)
    return walk.result()


def _tags(text: str, at_line: int | None) -> list[_Tag]:
    """The tags of ``text`` outside code, left to right."""

    def read(found, line: int) -> _Tag | None:
        named = _NAME.match(found.body)
        if named is None:
            return None
        rest = found.body[named.end():].rstrip()
        alone = rest.endswith("/")
        args = {}
        for arg in arguments(rest[:-1] if alone else rest, spaced=True):
            if arg.name is not None:
                args.setdefault(arg.name, arg.value)
        return _Tag(named.group(1) + named.group(2).lower(), args, alone, found.start, found.end, line)

    return tags_of(text, read, at_line)


class _Reading:
    """One text's tags turned into what the page shows."""

    def __init__(self, ctx, within) -> None:
        self.ctx, self.within = ctx, within
        self.notes = Notes(ctx, CONSTRUCT)

    def partial(self, tag: _Tag) -> str:
        target = tag.args.get("file", "")
        construct = "markdoc partial"
        if not target:
            self.notes.note("unresolved", tag.line, "{% partial %} names no file: dropped", construct)
            return ""
        within = self.within
        base = within.folder if within is not None else self.ctx.folder
        found = self.ctx.include(target, base=base, line=tag.line, construct=construct, within=within)
        if found is None:
            return ""
        body = split_front_matter(found.text).body.strip("\n")
        return _block(convert(body, self.ctx, within=found, at_line=tag.line))

    def render(self, tag: _Tag, body: str) -> str:
        name = tag.name
        shown = components.shown(name, tag.args)
        if shown is None:
            if name in _CONDITIONS:
                self.notes.note("converted", tag.line, "condition not evaluated: every branch's text kept")
            else:
                self.notes.note("unresolved", tag.line, f"unknown tag {{% {name} %}}: dropped, its text kept")
            return _block(body.strip("\n")) if body.strip() else ""
        code = tag.args.get(shown.code_from) if shown.code_from else None
        if shown.code_from and not code:
            self.notes.note("unresolved", tag.line, f"{{% {name} %}}: no {shown.code_from} given as a string: nothing kept")
            return ""
        self.notes.note("converted", tag.line)
        if code is not None:
            return _block(fenced(code.strip("\n"), shown.language))
        return _shown(name, shown, body)


def _shown(name: str, shown: Shown, body: str) -> str:
    text = "\n\n".join(p for p in (shown.text, body.strip("\n")) if p.strip())
    if name in components.INLINE:
        return " ".join(p for p in (shown.label, " ".join(text.split())) if p)
    if shown.label:
        return _block(labelled(shown.label, text))
    return _block(text)


def _block(shown: str) -> str:
    """A block set apart by blank lines, as the page shows each block on its own."""
    return f"\n\n{shown}\n\n" if shown.strip() else ""
