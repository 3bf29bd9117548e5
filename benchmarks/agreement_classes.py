"""Which known difference explains each document whose sections differ from the published store.

``benchmarks/agreement.py`` counts differing rows; on a large real corpus that number alone does
not say whether a difference is one on record (docs/differences.md, docs/agreement.md) or a new
one. This module compares the two stores document by document, cuts each differing document
into hunks (runs of sections that differ, found by ``difflib`` over the section sequences) and
names each hunk by what the two writers did:

- ``table-row-trailing-space``: a table row kept its trailing whitespace on one side only.
- ``bare-heading-merged-backward``: a run of headings ends the section before it on one side
  and begins a section on the other (alone, at the end of a document or before a table row
  longer than the limit, or with the first rows of the table that follows it).
- ``heading-and-table-over-limit``: one side wrote a heading and a table (or its first rows) as one
  section longer than ``section_max_chars``; the other cut the table at a row within the limit.
- ``heading-alone-before-long-block``: one side wrote headings as a section of their own before a
  table or code block that does not fit with them; the other wrote them with the block (a code
  block) or with the table's first rows.
- ``prose-cut-inside-word``: a paragraph with no space in the room left was cut inside a word
  on one side and at a line break on the other.
- ``heading-closing-hash``: a heading ending in ``#`` with no space before the run (``C#``,
  ``C\\#``) kept whole on one side, the run dropped on the other (``C``, ``C\\``).
- ``office-document``: a docx, xlsx, pptx or PDF document whose sections differ (the table of
  docs/differences.md, "Office and PDF documents").
- ``unexplained``: any other hunk, or a hunk whose words are not the same on both sides (a hunk
  whose words agree and that shows no class counts under the class found before it in the
  document: its sections are cut elsewhere because of that difference).

A document is counted once per class it shows. The classifier reads only the stores; it knows
nothing of either writer's code, so a new kind of difference lands in ``unexplained``.
"""

from __future__ import annotations

import difflib
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

CLASSES = {
    "table-row-trailing-space": "a table row's trailing whitespace kept on one side only",
    "bare-heading-merged-backward": "a run of headings ends the section before it on one side, "
    "begins a section on the other",
    "heading-and-table-over-limit": "a heading and a table's first rows over section_max_chars "
    "on one side, cut at a row within it on the other",
    "heading-alone-before-long-block": "headings alone before a table or code block that does "
    "not fit with them on one side, with it (or its first rows) on the other",
    "heading-closing-hash": "a heading's last word ending in # kept whole on one side, "
    "the # dropped on the other",
    "prose-cut-inside-word": "prose with no space in the room left cut inside a word on one "
    "side, at a line break on the other",
    "office-document": "a docx, xlsx, pptx or PDF document read differently",
    "unexplained": "none of the above",
}

Section = tuple[str, int, str, str]  # heading_path, level, kind, text


def document_sections(store: Path) -> dict[str, list[Section]]:
    """path -> its sections in ordinal order."""
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        out: dict[str, list[Section]] = {}
        rows = conn.execute(
            "SELECT d.path, s.heading_path, s.level, s.kind, s.text FROM sections s "
            "JOIN documents d USING (doc_id) ORDER BY d.path, s.ordinal"
        )
        for path, *section in rows:
            out.setdefault(path, []).append(tuple(section))
        return out
    finally:
        conn.close()


def _table_line(line: str) -> bool:
    return "|" in line


def _trailing_in_table_lines(sections: list[Section]) -> int:
    return sum(
        1
        for *_, text in sections
        for line in text.split("\n")
        if _table_line(line) and line != line.rstrip()
    )


def _without_table_trailing(sections: list[Section]) -> list[Section]:
    def clean(text: str) -> str:
        return "\n".join(line.rstrip() if _table_line(line) else line for line in text.split("\n"))

    return [(path, level, kind, clean(text)) for path, level, kind, text in sections]


def _blocks(text: str) -> list[str]:
    return text.split("\n\n")


def _is_heading_line(block: str) -> bool:
    return "\n" not in block and block.startswith("#") and block.lstrip("#")[:1] in (" ", "")


def _headings_only(text: str) -> bool:
    return all(_is_heading_line(b) for b in _blocks(text))


def _trailing_headings(text: str) -> str:
    """The run of heading blocks that ends ``text`` after other content, or ""."""
    blocks = _blocks(text)
    k = len(blocks)
    while k > 0 and _is_heading_line(blocks[k - 1]):
        k -= 1
    return "\n\n".join(blocks[k:]) if 0 < k < len(blocks) else ""


def _without_closing_hashes(sections: list[Section]) -> list[Section]:
    """Heading lines and heading-path entries with a final run of ``#`` dropped."""
    def line(text: str) -> str:
        return text.rstrip().rstrip("#").rstrip() if _is_heading_line(text) else text

    def path(heading_path: str) -> str:
        return " > ".join(p.rstrip().rstrip("#").rstrip() for p in heading_path.split(" > "))

    return [
        (path(hp), level, kind, "\n".join(line(x) for x in text.split("\n")))
        for hp, level, kind, text in sections
    ]


def _differing(a: list[Section], b: list[Section]) -> list[tuple[int, int, int, int]]:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _starts_with_table(text: str) -> bool:
    first = text.split("\n", 2)
    return len(first) >= 2 and "|" in first[0] and "-" in first[1] and "|" in first[1]


def _starts_with_long_block(text: str) -> bool:
    """A table or a fenced code block: the blocks a heading is packed with whatever their size."""
    return _starts_with_table(text) or text.lstrip(" ").startswith(("```", "~~~"))


def _after_headings(text: str) -> str:
    """``text`` without the heading blocks it starts with ("" when it is only headings)."""
    blocks = _blocks(text)
    k = 0
    while k < len(blocks) and _is_heading_line(blocks[k]):
        k += 1
    return "\n\n".join(blocks[k:]) if k else ""


def _words(side: list[Section]) -> set[str]:
    return {word for *_, text in side for word in text.split()}


def _cut_words(pieces: set[str], cut: set[str], words: set[str]) -> bool:
    """Words of one side found only there (``pieces``) are parts of the other side's ``words``,
    and each word found only on the other side (``cut``) holds one of them: a word was cut."""
    return (
        bool(pieces)
        and all(any(p in w for w in words) for p in pieces)
        and all(any(p in w for p in pieces) for w in cut)
    )


def _hunk_classes(mine: list[Section], theirs: list[Section], limit: int) -> set[str]:
    """The classes one differing run of sections shows (both sides given); "" stands for a
    hunk whose words agree but that shows none of the classes (sections cut elsewhere because
    of a difference before them in the document)."""
    found: set[str] = set()
    words_mine, words_theirs = _words(mine), _words(theirs)
    only_mine, only_theirs = words_mine - words_theirs, words_theirs - words_mine
    if only_mine or only_theirs:
        if not (
            _cut_words(only_theirs, only_mine, words_mine)
            or _cut_words(only_mine, only_theirs, words_theirs)
        ):
            return {"unexplained"}
        found.add("prose-cut-inside-word")
    for one, other in ((mine, theirs), (theirs, mine)):
        other_texts = {text for *_, text in other}
        for k, (*_, text) in enumerate(one):
            if text in other_texts:
                continue
            tail = _trailing_headings(text)
            if tail and any(t == tail or t.startswith(tail + "\n\n") for t in other_texts):
                found.add("bare-heading-merged-backward")
            elif _headings_only(text):
                if k + 1 < len(one) and _starts_with_long_block(one[k + 1][3]) and any(
                    t.startswith(text + "\n\n") and _starts_with_long_block(_after_headings(t))
                    for t in other_texts
                ):
                    found.add("heading-alone-before-long-block")
            elif len(text) > limit and _starts_with_table(_after_headings(text)):
                found.add("heading-and-table-over-limit")
    return found or {""}


def document_classes(mine: list[Section] | None, theirs: list[Section] | None, limit: int,
                     markdown: bool = True) -> set[str]:
    """The classes of difference one document shows; empty when its sections agree."""
    if mine == theirs:
        return set()
    if mine is None or theirs is None:
        return {"unexplained"}
    if not markdown:
        return {"office-document"}
    found: set[str] = set()
    if _trailing_in_table_lines(mine) != _trailing_in_table_lines(theirs):
        found.add("table-row-trailing-space")
    a, b = _without_table_trailing(mine), _without_table_trailing(theirs)
    if a == b:
        return found or {"unexplained"}
    hunks = _differing(a, b)
    a2, b2 = _without_closing_hashes(a), _without_closing_hashes(b)
    if (a2, b2) != (a, b):
        hunks2 = _differing(a2, b2)
        if sum(i2 - i1 + j2 - j1 for i1, i2, j1, j2 in hunks2) < sum(
            i2 - i1 + j2 - j1 for i1, i2, j1, j2 in hunks
        ):
            found.add("heading-closing-hash")
            a, b, hunks = a2, b2, hunks2
    for i1, i2, j1, j2 in hunks:
        found |= _hunk_classes(a[i1:i2], b[j1:j2], limit)
    if "" in found:  # a hunk cut elsewhere only: explained by a class found before it, if any
        found.discard("")
        found = found or {"unexplained"}
    return found


_MARKDOWN = (".md", ".markdown", ".mdown", ".txt")


def classify(ours: Path, peer: Path, limit: int = 2000) -> Iterator[tuple[str, set[str]]]:
    """(path, classes) for every document whose sections differ between the two stores."""
    mine, theirs = document_sections(ours), document_sections(peer)
    for path in sorted(set(mine) | set(theirs)):
        found = document_classes(mine.get(path), theirs.get(path), limit, path.lower().endswith(_MARKDOWN))
        if found:
            yield path, found


def report(ours: Path, peer: Path, examples: int, limit: int = 2000) -> tuple[int, dict[str, list[str]]]:
    """Prints documents per class; returns (differing documents, class -> paths)."""
    by_class: dict[str, list[str]] = {name: [] for name in CLASSES}
    combos: Counter[tuple[str, ...]] = Counter()
    differing = 0
    for path, found in classify(ours, peer, limit):
        differing += 1
        combos[tuple(sorted(found))] += 1
        for name in found:
            by_class[name].append(path)
    print(f"documents with differing sections: {differing}")
    for name, paths in by_class.items():
        print(f"  {name:<32} {len(paths):>6}  {CLASSES[name]}")
        for path in paths[:examples]:
            print(f"      {path}")
    if len(combos) > 1:
        print("  documents by combination of classes:")
        for combo, n in combos.most_common():
            print(f"      {n:>6}  {' + '.join(combo)}")
    return differing, by_class
