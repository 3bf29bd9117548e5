"""Blocks to size-bounded sections: sectioning rules 1-5 and classify (system-design.txt section 3).

A section's text is its blocks joined by a blank line, headings written back as ``#`` lines. The
work happens on *units*: a heading, a prose run (paragraph or list, or a piece of one), a code
block, a whole table, or one row-split part of a table. Packing units into parts is one greedy pass
(``_pack``); merging small fragments (rule 4) re-runs the same pass over the two parts involved, so
the size limit holds after a merge exactly as before it.

Sizes: a part's size is the sum of ``len(unit) + 2`` over its units, so its text is at most
``section_max_chars - 2`` characters; a row-split table part is at most ``section_max_chars - 1``,
a heading with a table's first rows at most ``section_max_chars``, and a table of exactly
``section_max_chars`` is not split. These offsets, and the smallest room worth filling with a prose piece (``max(80, limit // 5)``;
a smaller room starts a new part instead), are the published implementation's, kept so that stores
agree section for section; the spec fixes the rules, not these constants.

Everything is linear in the document: a prose block is cut with a moving offset, never re-sliced,
and a merge only re-packs the two parts it joins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..parsing.blocks import Code, Heading, ListBlock, Paragraph, ParsedDocument, Table
from .records import SectionRecord as SectionDraft  # one shape from sectioner to writer

if TYPE_CHECKING:  # the settings are read, never imported: writing sits below the settings room
    from ..settings import Settings

_JOIN = "\n\n"
# unit kinds
_HEADING, _PROSE, _CODE, _TABLE, _TABLE_PART = "heading", "prose", "code", "table", "table-part"
_MIN_ROOM = 80  # smallest room (characters) a prose piece is cut to fill, or limit // 5 if larger


@dataclass(slots=True)  # not frozen: one per block, see blocks.py
class _Unit:
    kind: str
    text: str
    table: Table | None = None
    # prose whose first / last word is a piece of a word cut for being longer than the limit
    long_head: bool = False
    long_tail: bool = False


@dataclass
class _Part:
    heading_path: str
    level: int
    units: list[_Unit]
    size: int = -1  # sum of len(text) + 2 over the units, the packing measure

    def __post_init__(self) -> None:
        if self.size < 0:
            self.size = sum(len(u.text) + 2 for u in self.units)

    def text(self) -> str:
        """The section text: units joined by a blank line, outer whitespace dropped."""
        return _JOIN.join(u.text for u in self.units).strip()

    def text_len(self) -> int:
        """``len(self.text())`` without building the text."""
        first, last = self.units[0].text, self.units[-1].text
        if len(self.units) == 1:
            return len(first.strip())
        return self.size - 2 - (len(first) - len(first.lstrip())) - (len(last) - len(last.rstrip()))


def section_document(doc: ParsedDocument, settings: Settings) -> list[SectionDraft]:
    """Sections of ``doc`` in ordinal order (the list index is the ordinal)."""
    limit = settings.section_max_chars
    parts: list[_Part] = []
    for path, level, units in _raw_sections(doc, settings.section_heading_depth, limit):
        parts.extend(_Part(path, level, chunk) for chunk in _pack(units, limit))
    parts = _merge_fragments(parts, settings.section_min_chars, limit)
    return [
        SectionDraft(p.heading_path, p.level, _classify(p.units), p.text())
        for p in parts
    ]


# -- rule 1 and 5: where sections start, and their heading paths --------------------------------


def _raw_sections(doc: ParsedDocument, depth: int, limit: int):
    """Yield (heading_path, level, units): the preamble (level 0, path = title), then one per
    heading of level <= depth. Deeper headings stay inside the section as units.

    An empty heading still starts a section but adds nothing to the path ("A > " names nothing);
    a heading longer than ``limit`` enters the path cut to ``limit`` characters, since every
    section under it repeats the path (issue 22). A heading the page's table of contents names
    otherwise (``Heading.label``) enters the path by that name.
    """
    stack: list[tuple[int, str]] = []
    path, level = doc.title, 0
    units: list[_Unit] = []
    for block in doc.blocks:
        if isinstance(block, Heading) and block.level <= depth:
            if units:
                yield path, level, units
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, _path_text(block.text if block.label is None else block.label, limit)))
            path = " > ".join(text for _, text in stack if text) or doc.title
            level = block.level
            units = [_unit(block, limit)]
        else:
            unit = _unit(block, limit)
            if unit.text:
                units.append(unit)
    if units:
        yield path, level, units


def _path_text(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _unit(block, limit: int) -> _Unit:
    if isinstance(block, Heading):
        line = "#" * block.level + " " + block.text
        # A heading line longer than a section is cut like prose (never lost, never oversized).
        return _Unit(_PROSE if len(line) + 2 > limit else _HEADING, line)
    if isinstance(block, Paragraph):
        return _Unit(_PROSE, block.text.strip())
    if isinstance(block, ListBlock):
        return _Unit(_PROSE, block.raw.strip())
    if isinstance(block, Code):
        return _Unit(_CODE, block.raw)
    if isinstance(block, Table):
        return _Unit(_TABLE, block.raw, block)
    raise TypeError(f"not a block: {block!r}")


# -- rules 2 and 3: packing units into parts of at most `limit` ---------------------------------


def _pack(units: list[_Unit], limit: int) -> list[list[_Unit]]:
    """Greedy packing of units into parts (rules 2 and 3)."""
    parts: list[list[_Unit]] = []
    cur: list[_Unit] = []
    size = 0  # sum of len(text) + 2 over cur
    min_room = max(_MIN_ROOM, limit // 5)

    def flush() -> None:
        nonlocal cur, size
        if cur:
            parts.append(cur)
        cur, size = [], 0

    for unit in units:
        need = len(unit.text) + 2
        if size + need <= limit:
            cur.append(unit)
            size += need
            continue
        heading_only = bool(cur) and all(u.kind == _HEADING for u in cur)
        if unit.kind == _PROSE:
            text, start, end, long_head = unit.text, 0, len(unit.text), unit.long_head
            long_tail = unit.long_tail
            while True:
                if size + (end - start) + 2 <= limit:
                    rest = _Unit(_PROSE, text[start:], None, long_head, long_tail)
                    cur.append(unit if start == 0 else rest)
                    size += end - start + 2
                    break
                room = limit - size - 2
                if cur and not heading_only and room < min_room:
                    flush()
                    continue
                cut = _cut(text, start, room, limit, long_head, long_tail)
                if cut is None and not cur:  # cannot happen for stripped text; never loop
                    cut = (start + room, start + room)
                if cut is None:  # not even one word fits the room: start a fresh part
                    flush()
                    heading_only = False
                    continue
                piece_end, next_start = cut
                inside_word = next_start == piece_end  # a word longer than the limit was cut
                cur.append(_Unit(_PROSE, text[start:piece_end], None, long_head, inside_word))
                flush()
                heading_only = False
                long_head = inside_word
                start = next_start
        elif unit.kind == _HEADING:
            flush()
            cur, size = [unit], need
        elif unit.kind == _TABLE and (len(unit.text) > limit or heading_only):
            # Rule 3 splits a table *longer than* the limit: one of exactly ``limit`` characters
            # stays whole, as the published writer keeps it; the parts of a split one stay at
            # most ``limit - 1``.
            # After a heading, the first rows fill the room the heading leaves (issue 22: heading
            # plus table was one oversized section), up to a section of exactly ``limit``
            # characters: where the published writer's heading and first part are within the
            # limit, this is its cut too. With no room even for one row, the heading stands alone.
            chunks = _table_parts(unit.table, limit, limit - size if heading_only else None)
            if chunks is None:
                flush()
                heading_only = False
                if len(unit.text) <= limit:
                    cur.append(unit)
                    size += need
                    continue
                chunks = _table_parts(unit.table, limit)
            for chunk in chunks:  # each part at most limit - 1
                need = len(chunk) + 2
                if size + need > limit and not heading_only:
                    flush()
                heading_only = False
                cur.append(_Unit(_TABLE_PART, chunk))
                size += need
        else:  # code, a table that fits an empty part, a table part: never split
            if cur and (not heading_only or unit.kind == _TABLE_PART):
                flush()
            cur.append(unit)
            size += need
    flush()
    return parts


# ``\s`` is ``str.isspace`` (both are Py_UNICODE_ISSPACE), so these find what the character
# loops they replace found, in C: a 1 MB run of short words was cut 500 times at 0.5 ms a cut.
_SPACE = re.compile(r"\s")
_LAST_SPACE = re.compile(r"\s\S*\Z")  # searched up to an endpos: the last whitespace before it


def _cut(
    text: str, start: int, room: int, limit: int, long_head: bool, long_tail: bool
) -> tuple[int, int] | None:
    """Where to cut ``text[start:]`` so the piece fits ``room``: (piece end, next start).

    The cut is at the last space that fits. With no space in the room, the cut is at the room's
    end when that falls in whitespace or inside a word longer than the limit (the only word ever
    cut), else before the word it would cut, at a line break. None when even that leaves nothing:
    the caller starts a new part. ``long_head`` (``long_tail``) says the first (last) word is a
    piece of a word already cut for being longer than the limit. Spaces first, line breaks second,
    is the published implementation's order (it splits on spaces only); keeping it keeps the
    stores identical, and the line-break fallback keeps short words whole, as the spec asks.
    """
    if room <= 0:
        return None
    end = start + room  # the piece is text[start:end] at most; end < len(text) here
    space = text.rfind(" ", start + 1, end + 1)
    found = _break_at(text, start, space) if space > start else None
    if found is not None:
        return found
    if text[end].isspace():
        return _break_at(text, start, end)
    last = _LAST_SPACE.search(text, start, end)
    word_start = last.start() + 1 if last else start
    if (
        (word_start == start and long_head)
        or (long_tail and _SPACE.search(text, end) is None)
        or _word_longer_than(text, word_start, limit - 2)
    ):
        return end, end
    return _break_at(text, start, word_start - 1) if word_start > start else None


def _word_longer_than(text: str, word_start: int, size: int) -> bool:
    stop = min(len(text), word_start + size + 1)
    space = _SPACE.search(text, word_start, stop)
    return (space.start() if space else stop) - word_start > size


def _break_at(text: str, start: int, i: int) -> tuple[int, int] | None:
    """(piece end, next start) around the whitespace at ``i``; None when no word precedes it."""
    piece_end = i
    while piece_end > start and text[piece_end - 1].isspace():
        piece_end -= 1
    if piece_end == start:
        return None
    nxt, n = i + 1, len(text)
    while nxt < n and text[nxt].isspace():
        nxt += 1
    return piece_end, nxt


def _table_parts(table: Table, limit: int, first_max: int | None = None) -> list[str] | None:
    """Split a table by rows; every part begins with the header row and the separator.

    Parts are at most ``limit - 1`` characters, the first at most ``first_max`` when given (the
    room after a heading); None when not even the header and one row fit that room.
    """
    head = table.header_row + "\n" + table.separator
    if first_max is not None:
        smallest = table.raw if not table.rows else head + "\n" + table.rows[0]
        if len(smallest) > first_max:
            return None
    if not table.rows:
        return [table.raw]
    parts: list[str] = []
    lines: list[str] = []
    size = len(head)
    cap = limit - 1 if first_max is None else first_max
    for row in table.rows:
        if lines and size + 1 + len(row) > cap:
            parts.append(head + "\n" + "\n".join(lines))
            lines, size = [], len(head)
            cap = limit - 1
        lines.append(row)
        size += 1 + len(row)
    parts.append(head + "\n" + "\n".join(lines))
    return parts


# -- rule 4: merging fragments ------------------------------------------------------------------


def _merge_fragments(parts: list[_Part], min_chars: int, limit: int) -> list[_Part]:
    """Merge parts shorter than ``min_chars`` (rule 4).

    A heading-only fragment merges forward into the next part. Any other fragment merges backward,
    or forward when it is first or the previous part cannot absorb it. A merge re-packs the two
    parts' units under the receiving part's heading path; when the re-pack gives back the same two
    parts nothing could absorb the fragment, and it stays a small section of its own. After a
    merge the walk steps back one part, since the part before may now be absorbable.

    The walk is a cursor over the part list, held as two stacks so that every step is constant
    work besides the re-pack: ``done`` is the list before the cursor, ``todo`` the rest reversed
    (``todo[-1]`` is the part at the cursor). Replacing two parts in one list was a copy of the
    list's tail per merge, quadratic on a file of bare headings (issue 22: 4 MB took 20 s).
    """
    done: list[_Part] = []
    todo = parts[::-1]
    budget = 4 * len(parts) + 16  # a guard only: every accepted merge moves text towards the front
    while todo and budget > 0:
        part = todo[-1]
        if part.text_len() >= min_chars:
            done.append(todo.pop())
            continue
        budget -= 1
        if all(u.kind == _HEADING for u in part.units):
            merged = len(todo) > 1 and _absorb_next(todo, limit)
        elif done and _absorb_previous(done, todo, limit):
            continue  # the cursor is on the merged part, one step back already
        else:
            merged = len(todo) > 1 and _absorb_next(todo, limit)
        if not merged:
            done.append(todo.pop())
        elif done:
            todo.append(done.pop())  # one step back
    done.extend(reversed(todo))
    return done


def _absorb_next(todo: list[_Part], limit: int) -> bool:
    """The part at the cursor and the next one re-packed under the next one's heading path."""
    packed = _absorb(todo[-1], todo[-2], todo[-2], limit)
    if packed is None:
        return False
    del todo[-2:]
    todo.extend(reversed(packed))
    return True


def _absorb_previous(done: list[_Part], todo: list[_Part], limit: int) -> bool:
    """The part before the cursor and the one at it re-packed under the first one's heading
    path; the cursor then stands on the first part of the result."""
    packed = _absorb(done[-1], todo[-1], done[-1], limit)
    if packed is None:
        return False
    done.pop()
    todo.pop()
    todo.extend(reversed(packed))
    return True


def _absorb(a: _Part, b: _Part, host: _Part, limit: int) -> list[_Part] | None:
    """Parts ``a`` and ``b`` re-packed together under ``host``'s heading path, or None when the
    re-pack gives back the same two parts (nothing could be absorbed)."""
    first, second = a.units, b.units
    size = a.size + b.size
    if size <= limit:  # everything fits one part: what _pack would say, without the work
        return [_Part(host.heading_path, host.level, first + second, size)]
    packed = _pack(first + second, limit)
    if len(packed) == 2 and packed[0] == first and packed[1] == second:
        return None
    return [_Part(host.heading_path, host.level, units) for units in packed]


# -- classify -------------------------------------------------------------------------------------


def _classify(units: list[_Unit]) -> str:
    """table or code when every non-heading unit is one kind of those, mixed when one of them sits
    with prose or with the other, else prose."""
    has_prose = has_code = has_table = False
    for u in units:
        if u.kind == _PROSE:
            has_prose = True
        elif u.kind == _CODE:
            has_code = True
        elif u.kind in (_TABLE, _TABLE_PART):
            has_table = True
    if has_code or has_table:
        if has_prose or (has_code and has_table):
            return "mixed"
        return "code" if has_code else "table"
    return "prose"
