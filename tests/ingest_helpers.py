"""Helpers shared by the ingest tests: run an ingest, query the written store."""

from __future__ import annotations

import re
import sqlite3

from contextpull.ingest.engine import ingest
from contextpull.config import Settings
from contextpull.text import query_tokens

SETTINGS = Settings()

CACHE_DOC = """# Caching

uv keeps a cache of downloaded wheels.

## Cache directory

Set UV_CACHE_DIR to move the cache, or pass --no-cache to bypass it entirely for one run.
Requires Python 3.12 or newer.

## Sources

Declare alternative sources in tool.uv.sources for each dependency you override.

## Incidents

Incident tx-4419 was caused by a stale cache entry.
"""


def db(store, rows=False):
    conn = sqlite3.connect(store)
    if rows:
        conn.row_factory = sqlite3.Row
    return conn


def run(corpus, store, **kwargs):
    return ingest(corpus, store, kwargs.pop("settings", SETTINGS), **kwargs)


def fts_ids(store, text):
    tokens = query_tokens(text)
    query = " ".join('"' + t.replace('"', '""') + '"' for t in tokens)
    with db(store) as conn:
        return [
            row[0]
            for row in conn.execute(
                "SELECT id FROM sections_fts WHERE sections_fts MATCH ?"
                " ORDER BY bm25(sections_fts, 0.0, 2.0, 1.0), id",
                (query,),
            )
        ]


def section_text(store, sid):
    with db(store) as conn:
        return conn.execute("SELECT text FROM sections WHERE id = ?", (sid,)).fetchone()[0]


def dump(store, drop_times=True):
    conn = sqlite3.connect(store)
    try:
        lines = list(conn.iterdump())
    finally:
        conn.close()
    if drop_times:
        lines = [re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", "T", line) for line in lines]
    return lines
