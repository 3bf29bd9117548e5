"""The three fingerprints of a build.

- corpus fingerprint (supplement.md, "Fingerprints and summaries"): what documents went in.
- content fingerprint: what a reader will serve, independent of which SQLite wrote the bytes.
  Two stores with the same content fingerprint answer every operation identically.
- file sha256: the exact bytes, for download verification (``store.sqlite.sha256``).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

CONTENT_FINGERPRINT_VERSION = "cp-content-1"


def corpus_fingerprint(documents: Iterable[tuple[str, str]]) -> str:
    """sha256 over ``path NUL sha256hex NUL`` for each document in path order; first 16 hex."""
    digest = hashlib.sha256()
    for path, sha in sorted(documents):
        digest.update(path.encode("utf-8") + b"\0" + sha.encode("ascii") + b"\0")
    return digest.hexdigest()[:16]


def _field(value: object) -> bytes:
    # Length-prefixed so no choice of text can make two different projections hash alike.
    data = b"\x00NULL" if value is None else str(value).encode("utf-8")
    return len(data).to_bytes(8, "big") + data


def content_fingerprint(conn: sqlite3.Connection) -> str:
    """sha256 of the canonical projection: schema version, documents, sections, index text.

    Sections contribute their text hash rather than the text: ``hash`` is itself sha256 of the
    text, and ``verify`` checks that separately, so the fingerprint stays cheap to compute.
    """
    digest = hashlib.sha256()
    digest.update(_field(CONTENT_FINGERPRINT_VERSION))
    meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('schema_version', 'index_text')"))
    digest.update(_field(meta.get("schema_version")))
    digest.update(_field(meta.get("index_text")))
    for row in conn.execute(
        "SELECT path, title, summary, summary_src, sha256, bytes, kind, n_sections"
        " FROM documents ORDER BY path"
    ):
        digest.update(b"D")
        for value in row:
            digest.update(_field(value))
    for row in conn.execute(
        "SELECT s.id, s.ordinal, s.heading_path, s.level, s.kind, s.hash, s.char_len,"
        " s.prev_id, s.next_id FROM sections s ORDER BY s.id"
    ):
        digest.update(b"S")
        for value in row:
            digest.update(_field(value))
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
