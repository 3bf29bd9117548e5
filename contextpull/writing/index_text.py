"""The index text: what a model sees before it pulls anything (system-design.txt section 4;
supplement.md "Fingerprints and summaries").

Three modes, chosen by the token budget (tokens are estimated as characters / 4, rounded up):

- flat: one line per document, path padded to column 30, two spaces, summary (or title)
  truncated to 60 characters, two spaces, ``(n)`` sections;
- compact: the same lines without the summary, when flat does not fit;
- hierarchical: one line per top-level directory with document and section counts and the first
  few summaries, when compact does not fit either; directory lines are kept in path order until
  the budget is reached and a final line says how many were left out.

The budget is always honoured. When even the hierarchical header and the left-out line do not
fit (budgets far below anything useful), the pull-discipline lines go first, then the left-out
line, and as a last resort the header itself is cut: a text over budget is never produced.

Every count in the index text is a plain number (``2067 sections``), as the published writer
prints it, though the example in system-design section 4 shows ``1,017 sections``: golden index
files made with the published release must not drift on a corpus past 1,000 sections
(docs/agreement.md, "Counts in the index text").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

PATH_COLUMN = 30
LINE_SUMMARY_MAX = 60
DIR_TITLE_MAX = 40
DIR_TITLES = 3
DISCIPLINE = (
    "Call search(query, in?) to find sections by words or identifiers, read(id) for exact text,"
    " grep(pattern) for codes and flags, neighbours(id) for the header or next clause.",
    "Search returns ids and snippets only; read what you need, then answer with [ids].",
)
COMPACT_NOTE = "compact; call index(prefix) for summaries"
HIERARCHICAL_NOTE = "hierarchical; call index(prefix) to expand a directory"
ROOT_GROUP = "(root)"

DocRow = tuple[str, str, "str | None", int]  # path, title, summary, n_sections


def estimate_tokens(text: str) -> int:
    """Characters / 4, rounded up (system-design section 4: an approximation, not a tokenizer)."""
    return math.ceil(len(text) / 4)


def truncate(text: str, limit: int) -> str:
    """At most ``limit`` characters, ending in an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def header_line(
    n_docs: int, n_sections: int, corpus_fp: str, summaries: str = "offline", note: str | None = None
) -> str:
    line = (
        f"ContextPull index · {n_docs} documents · {n_sections} sections"
        f" · corpus {corpus_fp[:8]} · summaries: {summaries}"
    )
    return f"{line} · {note}" if note else line


def document_line(path: str, title: str, summary: str | None, n_sections: int) -> str:
    label = truncate(" ".join((summary or title).split()), LINE_SUMMARY_MAX)
    return f"{path:<{PATH_COLUMN}}  {label}  ({n_sections})"


def compact_line(path: str, n_sections: int) -> str:
    return f"{path:<{PATH_COLUMN}}  ({n_sections})"


def _assemble(header: str, lines: Sequence[str], discipline: bool = True) -> str:
    head = [header, *DISCIPLINE] if discipline else [header]
    return "\n".join([*head, "", *lines]) if lines else "\n".join(head)


def directory_groups(docs: Sequence[DocRow]) -> list[tuple[str, list[DocRow]]]:
    """Top-level directories (``name/``) and root files (``(root)``) in first-appearance order."""
    groups: dict[str, list[DocRow]] = {}
    for row in docs:
        path = row[0]
        key = path.split("/", 1)[0] + "/" if "/" in path else ROOT_GROUP
        groups.setdefault(key, []).append(row)
    return list(groups.items())


def directory_line(key: str, rows: Sequence[DocRow]) -> str:
    n_sections = sum(row[3] for row in rows)
    titles = [" ".join((s or t).split())[:DIR_TITLE_MAX] for _, t, s, _ in rows[:DIR_TITLES]]
    if len(rows) > DIR_TITLES:
        titles.append(f"+{len(rows) - DIR_TITLES} more")
    return f"{key:<{PATH_COLUMN - 2}}  {len(rows)} docs · {n_sections} sections · " + ", ".join(titles)


def left_out_line(count: int) -> str:
    return f"… and {count} more directories; call index(prefix) or search first"


def build_index(
    docs: Sequence[DocRow],
    total_sections: int,
    budget_tokens: int,
    corpus_fp: str,
    *,
    summaries: str = "offline",
) -> tuple[str, str, int]:
    """The index text for ``docs`` (sorted by path), its mode and its estimated tokens."""
    docs = sorted(docs)
    n = len(docs)

    flat = _assemble(
        header_line(n, total_sections, corpus_fp, summaries),
        [document_line(*row) for row in docs],
    )
    if estimate_tokens(flat) <= budget_tokens:
        return flat, "flat", estimate_tokens(flat)

    compact = _assemble(
        header_line(n, total_sections, corpus_fp, summaries, COMPACT_NOTE),
        [compact_line(path, count) for path, _, _, count in docs],
    )
    if estimate_tokens(compact) <= budget_tokens:
        return compact, "compact", estimate_tokens(compact)

    text = _hierarchical(docs, total_sections, budget_tokens, corpus_fp, summaries)
    return text, "hierarchical", estimate_tokens(text)


def _hierarchical(
    docs: Sequence[DocRow], total_sections: int, budget_tokens: int, corpus_fp: str, summaries: str
) -> str:
    header = header_line(len(docs), total_sections, corpus_fp, summaries, HIERARCHICAL_NOTE)
    max_chars = budget_tokens * 4
    groups = directory_groups(docs)
    lines = [directory_line(key, rows) for key, rows in groups]
    full = _assemble(header, lines)
    if len(full) <= max_chars:
        return full
    # Keep directory lines in order while they and the left-out line still fit.
    kept: list[str] = []
    for line in lines:
        candidate = _assemble(header, [*kept, line, left_out_line(len(lines) - len(kept) - 1)])
        if len(candidate) > max_chars:
            break
        kept.append(line)
    tail = left_out_line(len(lines) - len(kept))
    for text in (
        _assemble(header, [*kept, tail]),
        _assemble(header, [tail], discipline=False),
        header,
    ):
        if len(text) <= max_chars:
            return text
    return truncate(header, max_chars)
