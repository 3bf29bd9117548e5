"""Blocks written as paired template tags (``{% x %}`` … ``{% /x %}`` in Markdoc, ``{% x %}`` …
``{% endx %}`` in GitBook's Liquid-like tags), read into a tree once (issue 35): the generators
that write blocks this way differ in what a tag means, not in how the blocks nest, so the nesting
is read here and each generator keeps only its tags' meanings.

A generator lexes its tags (``template_tags`` through ``fences.tags_outside_code``) and walks
them with a ``TagWalk``, which puts the text between tags where it belongs and reads closers
itself; the generator is handed every other tag and says what it is: text to put (``add``), a
block to open (``open``), or a raw run up to a later tag (``verbatim_to``). A closer closes the
innermost open block of its name, and the blocks opened inside it that were never closed are
read as if closed there (as where their parent ends); a closer that closes nothing is dropped;
a block never closed is read as if closed where the page ends; each is named ``unresolved``.
Blocks nest at most ``max_depth`` deep, so a page costs a pass over its tags times at most that
bound whatever it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .fences import tags_outside_code
from .line_map import LineMap
from .template_tags import Syntax, Tag

# ``{% %}`` tags as Markdoc and GitBook write them; one longer than 10,000 characters is text.
PERCENT = Syntax((("%", "{%", "%}"),), max_chars=10_000)
T = TypeVar("T")


class Located(Protocol):
    """What the walk reads of a tag: its name as written after the opener (a closer's with its
    prefix), where it stands in the text, and the line its notes name."""

    name: str
    start: int
    end: int
    line: int


def tags_of(text: str, read: Callable[[Tag, int], T | None], at_line: int | None = None,
            syntax: Syntax = PERCENT) -> list[T]:
    """``read(tag, line)`` of each tag of ``text`` outside code (``fences.tags_outside_code``),
    left to right; ``line`` is ``at_line`` when given (an included file's tags are noted at the
    include), else the line the tag stands on. ``read`` gives None for a tag it does not accept."""
    if at_line is not None:
        return list(tags_outside_code(text, syntax, lambda found: read(found, at_line)))
    lines = LineMap(text)
    return list(tags_outside_code(text, syntax, lambda found: read(found, lines.line(found.start))))


@dataclass(frozen=True)
class Closers:
    """How a generator names a block's closer: its name after ``prefix`` (``/`` in Markdoc,
    ``end`` in Liquid)."""

    prefix: str

    def closes(self, name: str) -> str | None:
        """The block a tag named ``name`` closes; None when it is no closer."""
        p = self.prefix
        return name[len(p):] if name.startswith(p) and len(name) > len(p) else None

    def closer(self, name: str) -> str:
        """The closer of a block named ``name``, as a note shows it."""
        return f"{{% {self.prefix}{name} %}}"


MARKDOC = Closers("/")
LIQUID = Closers("end")


@dataclass
class Frame:
    """One open block: its tag, the text read into it so far, and a count its generator keeps
    of numbered children (GitBook's steps) and this block's own number among its parent's."""

    tag: Any
    parts: list[str] = field(default_factory=list)
    children: int = 0
    number: int = 0


class TagWalk:
    """One text's tags read into blocks. ``render(frame, body)``: the text a closed block
    stands for; ``note(line, detail)``: an ``unresolved`` note on the document."""

    def __init__(self, text: str, tags: Sequence[Located], closers: Closers, max_depth: int,
                 render: Callable[[Frame, str], str], note: Callable[[int, str], None]) -> None:
        self.text, self.tags, self.closers, self.max_depth = text, tags, closers, max_depth
        self.render, self.note = render, note
        self.stack = [Frame(None)]
        self._i = 0
        self._last = 0

    def __iter__(self) -> Iterator[Any]:
        """Each tag that is not a closer, left to right, the text before it already put."""
        text, tags, stack = self.text, self.tags, self.stack
        while self._i < len(tags):
            tag = tags[self._i]
            stack[-1].parts.append(text[self._last:tag.start])
            self._last = tag.end
            target = self.closers.closes(tag.name)
            if target is not None:
                self._close(tag, target)
            else:
                yield tag
            self._i += 1

    @property
    def at(self) -> int:
        """The index in ``tags`` of the tag just handed out."""
        return self._i

    def following(self) -> Any | None:
        """The tag after the one just handed out, if any (a block that may stand alone is one
        when its closer comes next)."""
        i = self._i + 1
        return self.tags[i] if i < len(self.tags) else None

    def add(self, shown: str) -> None:
        """Text put where the tag just handed out stood."""
        self.stack[-1].parts.append(shown)

    def open(self, tag) -> Frame | None:
        """A block opened by ``tag``; None (noted, the tag dropped) past the nesting bound."""
        if len(self.stack) > self.max_depth:
            self.note(tag.line, f"{{% {tag.name} %}} nested deeper than {self.max_depth}: dropped")
            return None
        frame = Frame(tag)
        self.stack.append(frame)
        return frame

    @property
    def parent(self) -> Frame:
        """The innermost open block (the page's own frame when none is)."""
        return self.stack[-1]

    def verbatim_to(self, j: int) -> None:
        """The text between the tag just handed out and tag ``j`` put as written; the walk reads
        on after tag ``j`` (a raw block)."""
        tag = self.tags[self._i]
        self.stack[-1].parts.append(self.text[tag.end:self.tags[j].start])
        self._last, self._i = self.tags[j].end, j

    def result(self) -> str:
        """The text with every block read; blocks still open are closed where the page ends."""
        stack = self.stack
        stack[-1].parts.append(self.text[self._last:])
        self._last = len(self.text)
        while len(stack) > 1:
            self._unclosed("the page ends")
        return "".join(stack[0].parts)

    def _close(self, tag, target: str) -> None:
        stack = self.stack
        depth = next((d for d in range(len(stack) - 1, 0, -1) if stack[d].tag.name == target), None)
        closer = self.closers.closer(target)
        if depth is None:
            self.note(tag.line, f"{closer} closes no {{% {target} %}}: dropped")
            return
        while len(stack) - 1 > depth:
            self._unclosed(closer)
        frame = stack.pop()
        stack[-1].parts.append(self.render(frame, "".join(frame.parts)))

    def _unclosed(self, where: str) -> None:
        frame = self.stack.pop()
        name = frame.tag.name
        self.note(frame.tag.line, f"{{% {name} %}} never closed by {self.closers.closer(name)} before {where}: "
                  "read as if closed there")
        self.stack[-1].parts.append(self.render(frame, "".join(frame.parts)))
