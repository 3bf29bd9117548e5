"""Offsets to line numbers, one way (issue 35): what a dialect reports a construct at is the line
it stands on in the file, so every scanner that finds things by offset asks the same map.

Built with one pass over the text's line lengths and answered by bisection, so a page of thousands
of constructs costs a pass and a logarithm each, never a count from the top per construct.

The line-based dialects (mkdocs, VitePress) pass a page as ``Lines``, each line with the line of
the file it came from, and ``joined`` gives their text back.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from itertools import accumulate
from operator import add, itemgetter

Lines = list[tuple[int, str]]  # (the 1-based line of the file it came from, the text)
_TEXT = itemgetter(1)


def joined(lines: Lines) -> str:
    """The texts of ``lines`` joined by newlines, made in C (``map``): a line-based dialect's
    passes each ask for the page's text, and a generator was a Python step per line."""
    return "\n".join(map(_TEXT, lines))


class LineMap:
    """The lines of one text: ``line(offset)`` is the number of the line holding ``offset``,
    counted from ``first`` (a fragment's own first line in its file)."""

    def __init__(self, text: str, first: int = 1) -> None:
        # line k starts after the k lines before it and their k newlines: sums made in C
        # (``accumulate``, ``map``), where a ``str.find`` per line was a Python step each
        lengths = list(accumulate(map(len, text.split("\n")), initial=0))
        lengths.pop()
        self.starts = list(map(add, lengths, range(len(lengths))))
        self.first = first

    def index(self, offset: int) -> int:
        """The 0-based index of the line holding ``offset``."""
        return bisect.bisect_right(self.starts, offset) - 1

    def line(self, offset: int) -> int:
        return self.first + self.index(offset)

    def lines(self, offsets: list[int]) -> list[int]:
        """``line`` of each offset: a page's 166,000 problems get their lines in one pass, where a
        call each was a tenth of the page's reading."""
        starts, first = self.starts, self.first - 1
        return [first + bisect.bisect_right(starts, offset) for offset in offsets]


def numbered(chunks: Iterable[tuple[bool, str]], first: int = 1) -> Iterator[tuple[int, bool, str]]:
    """(first line, is_code, chunk) for chunks that joined with newlines make the text
    (``fences.split_code``'s): each chunk's line is counted on from the one before."""
    line = first
    for is_code, chunk in chunks:
        yield line, is_code, chunk
        line += chunk.count("\n") + 1
