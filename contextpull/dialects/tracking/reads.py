"""Where a store keeps what its documents read (issue 26; docs/dialects.md, "Fingerprints").

One meta key, ``dialect_reads``, written only when some document has an entry, so a plain store
has exactly the published writer's keys (readers read the keys store-format.txt names and ignore
the rest). Its value is compact JSON with sorted keys (deterministic bytes):
``{"path": {"deps": [[repo path, sha256], ...], "notes": [[construct, outcome, line, detail], ...]}}``.
The dependencies are what an incremental build rehashes to decide whether a document changed
(``expected_sha``); the notes let a build that reuses a document from its cache still report
its constructs, so a ``--cache`` build reports what a fresh one does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from ...parsing.parse import DIALECT_KINDS, PLAIN_KINDS, kind_for
from ..api import Note
from .fingerprint import current_sha

READS_KEY = "dialect_reads"


def entry(deps: Iterable[tuple[str, str]], notes: Iterable[Note]) -> dict | None:
    deps, notes = list(deps), list(notes)
    if not deps and not notes:
        return None
    return {
        "deps": [[path, sha] for path, sha in deps],
        "notes": [[n.construct, n.outcome, n.line, n.detail] for n in notes],
    }


def dumps(reads: dict[str, dict]) -> str:
    return json.dumps(reads, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def store(conn, reads: dict[str, dict]) -> None:
    """Write ``reads`` into the store's meta, or take the key out when there are none (a build
    that started from a cache's copy must not keep the cache's)."""
    if reads:
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (READS_KEY, dumps(reads)),
        )
    else:
        conn.execute("DELETE FROM meta WHERE key = ?", (READS_KEY,))


def loads(text: str | None) -> dict[str, dict]:
    """The stored map; an unreadable value is an empty map (every document is then read again)."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def deps_of(reads: dict, path: str) -> tuple[tuple[str, str], ...]:
    found = reads.get(path)
    try:
        return tuple((str(p), str(s)) for p, s in found["deps"]) if found else ()
    except (KeyError, TypeError, ValueError):
        return ()


def notes_of(reads: dict, path: str) -> tuple[Note, ...]:
    found = reads.get(path)
    try:
        return tuple(Note(str(c), str(o), int(line), str(d)) for c, o, line, d in found["notes"]) if found else ()
    except (KeyError, TypeError, ValueError):
        return ()


def reads_dialect(path: str, site) -> bool:
    """Whether ``build_record`` reads this file through the dialect (``engine.build_record``)."""
    kind = kind_for(path)
    if kind not in DIALECT_KINDS:
        return False
    return kind not in PLAIN_KINDS or (site is not None and site.dialect != "plain")


def guessed_mdx(path: str, data: bytes, site) -> dict[str, int] | None:
    """The MDX evidence of a ``.md`` page a build reads as MDX by its content (``Site.guess_mdx``,
    ``mdx.evidence``), or None when it is read as plain Markdown."""
    if site is None or not site.guess_mdx or kind_for(path) != "markdown":
        return None
    from ..mdx.evidence import evidence

    return evidence(data) or None


def expected_sha(path: str, file_sha: str, site, reads: dict, memo: dict | None = None) -> str:
    """The ``documents.sha256`` this document would get now, computed from its file's sha256
    and the dependencies recorded the last time it was read, rehashed: equal to the stored one
    exactly when neither the file, a dependency nor the dialect changed. A page read as MDX by
    its content has its reading recorded (its evidence notes), so it is fingerprinted alike."""
    guessed = site is not None and site.guess_mdx and path in reads and kind_for(path) == "markdown"
    if not reads_dialect(path, site) and not guessed:
        return file_sha
    deps = [p for p, _ in deps_of(reads, path)]
    return current_sha(site.reading if site is not None else "plain", file_sha, deps, site.repo_root if site else "/", memo)
