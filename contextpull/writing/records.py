"""What the pipeline hands from parsing to writing (system-design.txt section 3).

A ``DocumentRecord`` is one document ready to write: its sections are final (ordinal = position)
and carry everything the ``sections`` table needs except what the writer derives (id, hash,
char_len, prev/next). ``Skipped`` is a supported file that could not be used, with the reason the
user sees. Keeping these as plain frozen dataclasses lets ``build --cache`` store and reuse them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SectionRecord:
    heading_path: str
    level: int
    kind: str  # prose | table | code | mixed
    text: str


@dataclass(frozen=True)
class DocumentRecord:
    path: str  # POSIX, relative to the corpus root
    title: str
    summary: str | None
    summary_src: str | None  # 'offline' | 'llm' | None
    sha256: str
    bytes: int
    kind: str  # markdown | mdx | rst | ipynb | text | docx | xlsx | pptx | pdf
    sections: tuple[SectionRecord, ...]
    # What a dialect read for the document (issue 26): (repository path, sha256) of each file it
    # included or read, and its construct notes (contextpull.dialects.api.Note) for the report.
    # Empty for a document read as plain, which is then exactly what it was before dialects.
    deps: tuple[tuple[str, str], ...] = ()
    notes: tuple = ()


@dataclass(frozen=True)
class PreparedRecord(DocumentRecord):
    """A ``DocumentRecord`` whose FTS columns (heading path, text) are already normalised, one
    pair per section, so that work can happen in a worker process instead of the writer."""

    fts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Skipped:
    """A supported file that did not become a document, and why (supplement.md, failure modes)."""

    path: str
    reason: str


# Files a "no usable documents" error names one by one, at most, and the characters they may
# take (the CLI prints errors as one line of at most 500); the rest are counted, and listed
# whole under "skipped" in --json.
NAMED_SKIPS = 20
NAMED_WIDTH = 280


def name_skips(entries: list[tuple[str, str]], limit: int = NAMED_SKIPS, width: int = NAMED_WIDTH) -> str:
    """``path: reason`` for each of the first (path, reason) entries that fit ``limit`` and
    ``width`` (the first always), then "and N more": the error of a build with no usable
    documents says why of every file it can, so the user fixes them in one go, and stays one
    line however large the folder."""
    named: list[str] = []
    used = 0
    for path, reason in entries[:limit]:
        piece = f"{path}: {reason}"
        if named and used + len(piece) + 2 > width:
            break
        named.append(piece)
        used += len(piece) + 2
    rest = len(entries) - len(named)
    return "; ".join(named) + (f"; and {rest:,} more" if rest > 0 else "")


@dataclass(frozen=True)
class NotAPage:
    """A file the site's generator never renders as a page of its own (a partial, a headless
    bundle, a chapter missing from the navigation), and why (``dialects.pages``). Not a defect,
    so not ``Skipped``: ``--strict`` does not fail on it. It is not a document; where a page
    includes it, it is read there, as a dependency of that page."""

    path: str
    reason: str
