"""The server instructions: pull discipline plus the index, within the token budget.

system-design.txt section 7 and ADR 004. On ``initialize`` (and the 2026-07-28
``server/discover``) the MCP server returns the pull discipline paragraph and, when
``meta.index_tokens`` is within the budget (``meta.index_budget_tokens``, default 3000), the
whole index text. Past the budget it returns one line per top-level directory instead, with how
to expand it through ``index(prefix)``, kept in path order until the budget is reached. The same
text is the resource ``contextpull://index``.

Issue 27: the discipline paragraph ends with the store's provenance line (``Provenance.line()``:
repository, short commit, version, build date) when the store records one, so the model knows
what it reads and how old it is; a store without provenance gets the instructions it always had.
A server with several mounts says so in its own paragraph and lists the mounts instead.

Standard library only: the text does not depend on the MCP SDK, so it can be tested and reused
without it.
"""

from __future__ import annotations

import math
import sqlite3

from ..provenance import Provenance

DEFAULT_BUDGET_TOKENS = 3000

PULL_DISCIPLINE = (
    "ContextPull serves the documents listed below from one read-only store. Pull, do not guess: "
    "call search(query, in?) for pointers (ids and snippets, never bodies), read(id) for the exact "
    "text of the sections you need, grep(pattern) for codes, flags and identifiers, and "
    "neighbours(id) for the surrounding clause or a split table's header. Paths in the index are "
    "the values for the `in` filter. Answer from what you read and cite section ids like "
    "[path.md#3]."
)

_EXPAND_NOTE = (
    "Only directories fit the {budget}-token budget: call index(prefix), e.g. "
    "index(\"{example}\"), to list a directory's documents, or search directly."
)


def estimate_tokens(text: str) -> int:
    """Tokens as characters / 4, the spec's approximation (system-design.txt section 4)."""
    return math.ceil(len(text) / 4)


MOUNTS_DISCIPLINE = (
    "ContextPull serves the documents of several read-only stores, one per mount listed below. "
    "Pull, do not guess: call index(prefix) with a mount's name and a slash for that store's index, "
    "search(query, in?) for pointers (ids and snippets, never bodies), read(id) for the exact text "
    "of the sections you need, grep(pattern) for codes, flags and identifiers, and neighbours(id) "
    "for the surrounding clause or a split table's header. Every id and path begins with its "
    "mount's name, and so does every `in` entry. Each mount says its version and build date: "
    "answer for the version asked about, from what you read, and cite section ids like "
    "[NAME/path.md#3]."
)


def build_instructions(conn: sqlite3.Connection, meta: dict[str, str]) -> str:
    """Pull discipline plus the index, or plus the directory listing when the index is too big."""
    return with_discipline(index_body(conn, meta), provenance_line(meta))


def provenance_line(meta: dict[str, str]) -> str:
    """The store's provenance in one line, or ``""`` when it records none (an older build)."""
    return Provenance.from_meta(meta).line()


def with_discipline(body: str, provenance: str = "") -> str:
    """The instructions for ``body`` (what ``index_body`` returned): the discipline paragraph
    first, ending with the provenance line; still one paragraph, so the body after the first
    blank line is the resource exactly."""
    head = f"{PULL_DISCIPLINE}\n{provenance}" if provenance else PULL_DISCIPLINE
    return f"{head}\n\n{body}"


def multi_instructions(listing: str) -> str:
    """The instructions of a server with several mounts: their paragraph, then ``listing``."""
    return f"{MOUNTS_DISCIPLINE}\n\n{listing}"


def index_body(conn: sqlite3.Connection, meta: dict[str, str]) -> str:
    """The instructions after the discipline paragraph, which is also the resource
    ``contextpull://index``: the index text, or the directory listing when it is over budget.
    Its own function so the resource is never recovered by splitting the instructions, which
    would break the day the discipline paragraph holds a blank line."""
    index_text = meta.get("index_text", "")
    budget = _int(meta.get("index_budget_tokens"), DEFAULT_BUDGET_TOKENS)
    tokens = _int(meta.get("index_tokens"), estimate_tokens(index_text))
    return index_text if tokens <= budget else directory_listing(conn, meta, budget)


def _int(value: str | None, default: int) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


def directory_listing(conn: sqlite3.Connection, meta: dict[str, str], budget: int) -> str:
    """One line per top-level directory, kept in path order until the budget is reached."""
    groups: dict[str, list] = {}
    n_docs = n_sections = 0
    for path, title, count in conn.execute(
        "SELECT path, title, n_sections FROM documents ORDER BY path"
    ):
        top = path.split("/", 1)[0] + "/" if "/" in path else path
        entry = groups.setdefault(top, [0, 0, []])
        entry[0] += 1
        entry[1] += count
        if len(entry[2]) < 3:
            entry[2].append(title)
        n_docs += 1
        n_sections += count
    corpus = meta.get("corpus_fingerprint", "")[:8]
    header = (
        f"ContextPull index · {n_docs} documents · {n_sections} sections · corpus {corpus}"
        " · hierarchical; call index(prefix) to expand"
    )
    example = next((name for name in groups if name.endswith("/")), next(iter(groups), ""))
    lines = [header, _EXPAND_NOTE.format(budget=budget, example=example), ""]
    used = estimate_tokens("\n".join(lines))
    names = list(groups)
    for i, name in enumerate(names):
        docs, sections, titles = groups[name]
        line = f"{name:<30}  {docs} documents, {sections} sections · {', '.join(titles)}"[:160]
        left = len(names) - i - 1
        reserve = estimate_tokens(f"… {left} more directories not shown") if left else 0
        if used + estimate_tokens(line) + 1 + reserve > budget:
            lines.append(f"… {len(names) - i} more directories not shown")
            break
        lines.append(line)
        used += estimate_tokens(line) + 1
    return "\n".join(lines)
