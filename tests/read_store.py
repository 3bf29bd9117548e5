"""Tiny hand-made stores for the read-side tests (issue 3).

Written straight from ``contextpull.schema.DDL`` so the reader is tested against the format itself,
independently of the writer; the FTS columns are normalised with the shared tokeniser rule, as
store-format "Tokenisation" requires of a writer.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from contextpull.schema import DDL, SCHEMA_VERSION
from contextpull.text import normalize_for_fts

# (path, title, summary, [(heading_path, kind, text), ...])
CORPUS = [
    (
        "errors.md",
        "Error codes",
        "Error codes · Codes returned by the gateway.",
        [
            ("Error codes", "prose", "# Error codes\n\nCodes returned by the gateway."),
            (
                "Error codes > TX-44xx",
                "table",
                "## TX-44xx\n\n| Code | Meaning |\n|---|---|\n| TX-4401 | Insufficient funds |\n| TX-4419 | Declined by issuer |",
            ),
            ("Error codes > TX-45xx", "prose", "## TX-45xx\n\n- TX-4501: gateway timeout.\n- Retry with the same key."),
        ],
    ),
    (
        "guides/deep/more.md",
        "More",
        None,
        [("More", "prose", "# More\n\nThe --no-cache flag skips the cache.")],
    ),
    (
        "guides/setup.md",
        "Setup",
        "Setup · Install and configure the client on any machine you like to use for builds today.",
        [
            ("Setup", "prose", "# Setup\n\nInstall the client."),
            ("Setup > Cache", "prose", "## Cache\n\nSet UV_CACHE_DIR to move the cache."),
            ("Setup > Later", "prose", "## Later\n\nNothing else."),
        ],
    ),
    ("guidesextra.md", "Guides extra", None, [("Guides extra", "prose", "# Guides extra\n\nA refund note.")]),
    (
        "policies/a.md",
        "Policy A",
        None,
        [
            ("Policy A", "prose", "# Policy A\n\nRefund window is 30 days."),
            ("Support", "prose", "Contact support by email."),
        ],
    ),
    (
        "policies/b.md",
        "Policy B",
        None,
        [
            ("Policy B", "prose", "# Policy B\n\nThe window for a refund is short."),
            ("Support", "prose", "Contact support by email."),
            ("Fees", "table", "## Fees\n\n| Item | Fee |\n|---|---|\n| Card | 1 |"),
            ("Fees", "table", "| Cash | 2 |\n| Wire | 3 |"),
            ("Fees", "table", "| Item | Fee |\n|---|---|\n| Gold | 4 |"),
            ("Notes", "prose", "Plain notes after the table."),
        ],
    ),
]


def make_store(
    path: Path, corpus=CORPUS, *, meta: dict | None = None, journal: str = "DELETE", fts_reversed: bool = False
) -> Path:
    """A store of ``corpus``; ``fts_reversed`` writes the FTS rows in reverse order, so FTS rowids
    differ from section rowids (legal: the format does not tie them together)."""
    conn = sqlite3.connect(path)
    conn.executescript(DDL)
    fts_rows = []
    for doc_id, (doc_path, title, summary, sections) in enumerate(corpus, start=1):
        conn.execute(
            "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (doc_id, doc_path, title, summary, "offline" if summary else None, "0" * 64, 10, "markdown",
             len(sections), "2026-01-01T00:00:00Z"),
        )
        for ordinal, (heading, kind, text) in enumerate(sections):
            sid = f"{doc_path}#{ordinal}"
            prev_id = f"{doc_path}#{ordinal - 1}" if ordinal else None
            next_id = f"{doc_path}#{ordinal + 1}" if ordinal + 1 < len(sections) else None
            conn.execute(
                "INSERT INTO sections VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (sid, doc_id, ordinal, heading, 1, kind, text, len(text),
                 hashlib.sha256(text.encode()).hexdigest(), prev_id, next_id),
            )
            fts_rows.append((sid, normalize_for_fts(heading), normalize_for_fts(text)))
    if fts_reversed:
        fts_rows.reverse()
    conn.executemany("INSERT INTO sections_fts (id, heading_path, text) VALUES (?, ?, ?)", fts_rows)
    values = {
        "schema_version": SCHEMA_VERSION,
        "index_text": "ContextPull index · test",
        "index_mode": "flat",
        "index_tokens": "6",
        "corpus_fingerprint": "0123456789abcdef",
    }
    values.update(meta or {})
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [(k, v) for k, v in values.items() if v is not None])
    conn.commit()
    conn.execute(f"PRAGMA journal_mode={journal}")
    conn.close()
    return path
