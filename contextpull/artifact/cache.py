"""A previous artifact as a build cache (issue 4, item 4: ``build --cache FILE``).

The cache is a file a CI cache restored: it may be stale, truncated, from another builder, or
not a store at all. It is never trusted as given: it is used only after it has been verified,
either by the ``store.sqlite.sha256`` / ``manifest.json`` written beside it by the build that
made it (cheap: one hash of the file) or, without those, by a full ``verify``. Anything that
fails is ignored with a warning and the build goes on from scratch.

Two levels of reuse, both giving the bytes a fresh build gives:

- whole: the corpus fingerprint, the settings, the builder version and the SQLite version all
  match, so a fresh build would write exactly this file: copy it (or keep it in place);
- per chunk: a chunk of documents (``chunks.py``) that is unchanged, in a cache whose bytes
  its checksum vouched for and that this builder wrote with this SQLite, keeps its rows and FTS5
  segments: the build file starts as a copy of the cache and is rewritten only where the corpus
  changed (``patch.py``), or, when chunks moved, the chunk is copied into a new build file with
  SQL (``assemble.py``);
- per document: a document whose path and sha256 are unchanged gets its parsed sections and
  summary from the cache instead of being parsed again (``collect(reuse=...)``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..system.bounded_read import require_regular
from .. import __version__
from ..settings import Settings
from ..provenance import PROVENANCE_KEYS
from ..errors import ContextPullError
from . import chunks
from ..indexing import trigram
from ..writing.records import DocumentRecord, PreparedRecord, SectionRecord
from ..dialects.tracking.reads import READS_KEY, deps_of, notes_of
from ..dialects.tracking.reads import loads as loads_reads
from ..checks.verify import load_manifest, open_readonly, read_sha256_file, verify_store
from ..ingest.summaries import wants_model

# meta keys the build adds beside the spec's META_KEYS; readers ignore them.
BUILDER_KEY = "builder"
SQLITE_KEY = "builder_sqlite"
SETTINGS_KEY = "build_settings"
CONTENT_FP_KEY = "content_fingerprint"
LAYOUT_KEY = "build_layout"
LAYOUT = "chunks-5"  # chunks.py, segments.py, trigram.py: a chunk's rowids and segments (5: NUL splits words)
# The same rowids, the word index merged into one segment (``segments.merge``): a store large
# enough for ``search_impacts``. Its chunks' segments are gone, so a build using it as a cache
# reuses its documents and indexes them again.
MERGED_LAYOUT = "chunks-5-merged"


def builder_meta(settings: Settings, merged: bool = False) -> dict[str, str]:
    """What decides the bytes besides the corpus: recorded so a cache can be matched."""
    import sqlite3 as _sqlite3

    return {
        BUILDER_KEY: f"contextpull {__version__}",
        SQLITE_KEY: _sqlite3.sqlite_version,
        SETTINGS_KEY: json.dumps(settings.to_dict(), sort_keys=True, separators=(",", ":")),
        LAYOUT_KEY: MERGED_LAYOUT if merged else LAYOUT,
    }


@dataclass(frozen=True)
class CachedRecord(DocumentRecord):
    """A cache hit whose sections are read only when the document is written.

    Deciding whether the whole cached file can be reused needs every document's path and sha256
    but none of their sections; loading sections lazily keeps a no-change build to one hash pass.
    """

    cache_doc_id: int = 0


class BuildCache:
    """An opened, verified cache; ``None`` from ``open_cache`` when it cannot be used."""

    def __init__(
        self, path: Path, conn: sqlite3.Connection, meta: dict[str, str], digest: str | None,
        pending: _DigestJob | None = None,
    ):
        self.path = path
        self.conn = conn
        self.meta = meta
        self.merged = meta.get(LAYOUT_KEY) == MERGED_LAYOUT  # no chunk segments to copy (``_pages_trusted``)
        self.sha256 = digest  # known when verified through its sidecar (or pending, see confirm)
        self._pending = pending
        # With a model summarizer, a document whose summary is the offline one (its request
        # failed) is parsed again rather than reused, so this build makes its request.
        self.retry_offline_summaries = False
        # Only bytes vouched for by their checksum are trusted for the FTS text (see ``insert``).
        self.trust_fts = digest is not None
        self._chunks: dict[int, tuple[int, list[tuple[str, str]], int]] | None = None
        # What its documents read (dialects.reads): the dependencies rehashed to tell whether a
        # document changed, and the notes its reused documents bring to this build's report.
        self.reads = loads_reads(meta.get(READS_KEY))
        self.documents = {
            row[1]: row
            for row in conn.execute(
                "SELECT doc_id, path, title, summary, summary_src, sha256, bytes, kind, n_sections FROM documents"
            )
        }

    def begin_digest(self, copy=None) -> None:
        """Begin the deferred checksum; with ``copy`` (a ``CacheCopy`` begun before the checksum)
        let its hash be the checksum, so the file is read and hashed once."""
        if isinstance(self._pending, _DigestJob):
            if copy is not None and self._pending._thread.ident is None:
                self._pending = _CopyDigest(copy)
            else:
                self._pending.start()

    def copy_dropped(self, copy) -> None:
        """``copy`` was cancelled: unless it had copied the whole file, the checksum reads the
        file itself after all."""
        if isinstance(self._pending, _CopyDigest) and self._pending.copy is copy and not copy.complete:
            self._pending = _DigestJob(self.path)
            self._pending.start()

    def confirm(self) -> None:
        """Wait for a deferred checksum; ``CacheRejected`` when the bytes are not the ones vouched for."""
        if self._pending is None:
            return
        computed, self._pending = self._pending.result(), None
        if computed != self.sha256:
            self.sha256, self.trust_fts = None, False
            raise CacheRejected(f"its sha256 {computed[:12]}... does not match the checksum beside it")

    def close(self) -> None:
        self.conn.close()

    def compatible(self, settings: Settings) -> bool:
        """Same builder and parse settings: its parsed documents are what we would parse.

        The index budget, the embedding model and the SQLite version change the index, the
        vectors and the bytes, not the sections or summaries, so they matter only for whole
        reuse (vectors are taken from a cache by content, ``writing.vectors``).
        """
        if self.meta.get(BUILDER_KEY) != f"contextpull {__version__}":
            return False
        try:
            cached = json.loads(self.meta.get(SETTINGS_KEY, ""))
        except ValueError:
            return False
        current = settings.to_dict()
        return isinstance(cached, dict) and all(
            cached.get(k) == v for k, v in current.items() if k not in ("index_budget_tokens", "embed_model")
        )

    def reuse(self, path: str, sha256: str) -> DocumentRecord | None:
        """``collect(reuse=...)``: the cached record for an unchanged document, else None."""
        row = self.documents.get(path)
        if row is None or row[5] != sha256:
            return None
        if self.retry_offline_summaries and row[4] != "llm":
            return None
        doc_id, path, title, summary, summary_src, digest, size, kind, _ = row
        return CachedRecord(
            path, title, summary, summary_src, digest, size, kind, (),
            deps_of(self.reads, path), notes_of(self.reads, path), cache_doc_id=doc_id,
        )

    def load(self, record: DocumentRecord) -> DocumentRecord:
        """The record with its sections, for the writer; a cached one also brings its
        normalised FTS text when the cache's bytes were vouched for by their checksum
        (normalising is a large share of indexing)."""
        if not isinstance(record, CachedRecord):
            return record
        try:
            rows = self.conn.execute(
                "SELECT s.heading_path, s.level, s.kind, s.text, f.c1, f.c2 FROM sections s"
                " LEFT JOIN sections_fts_content f ON f.id = s.rowid AND f.c0 = s.id"
                " WHERE s.doc_id = ? ORDER BY s.ordinal",
                (record.cache_doc_id,),
            ).fetchall()
        except sqlite3.DatabaseError as exc:  # a damaged cache shows itself here at the latest
            raise CacheRejected(f"reading it failed: {exc}") from None
        sections = tuple(SectionRecord(h, level, kind, text) for h, level, kind, text, _, _ in rows)
        fts = tuple((fh, ft) for *_, fh, ft in rows)
        if not self.trust_fts or any(value is None for pair in fts for value in pair):
            fts = ()
        return PreparedRecord(
            record.path, record.title, record.summary, record.summary_src,
            record.sha256, record.bytes, record.kind, sections, record.deps, record.notes, fts=fts,
        )

    def summary_rows(self) -> list[tuple[str, str, str]]:
        """Its ``summary_cache`` rows (sha256, model, summary), which a model build carries."""
        try:
            return self.conn.execute("SELECT sha256, model, summary FROM summary_cache ORDER BY sha256").fetchall()
        except sqlite3.DatabaseError as exc:
            raise CacheRejected(f"reading it failed: {exc}") from None

    def section_count(self, path: str) -> int:
        """Sections of a document in the cache."""
        return self.documents[path][8]

    def chunk_source(self, key: int, records: list[DocumentRecord]) -> tuple[int, int] | None:
        """(position, first doc_id) of this exact chunk in the cache, if its rows can be copied.

        Copying moves FTS5 pages verbatim, so it needs bytes vouched for by their checksum and
        the same builder and SQLite (a fresh build here would write those very pages).
        """
        if not self._pages_trusted():
            return None
        if not all(isinstance(record, CachedRecord) for record in records):
            return None
        found = self.plan().get(key)
        if found is None or found[1] != [(r.path, r.sha256) for r in records]:
            return None
        if [r.cache_doc_id for r in records] != list(range(found[2], found[2] + len(records))):  # type: ignore[attr-defined]
            return None
        return found[0], found[2]

    def _pages_trusted(self) -> bool:
        """Bytes vouched for by their checksum, laid out by this builder's chunks on this SQLite:
        its rows and FTS5 pages are what a fresh build here would write."""
        return (
            self.trust_fts
            and self.meta.get(SQLITE_KEY) == sqlite3.sqlite_version
            and self.meta.get(LAYOUT_KEY) == LAYOUT
        )

    def patchable(self) -> bool:
        """Whether a copy of it may become the build file (``patch.py``)."""
        return self._pages_trusted() and bool(self.plan())

    def plan(self) -> dict[int, tuple[int, list[tuple[str, str]], int]]:
        """The cache's chunks as its build made them: key -> (position, [(path, sha256)], first doc_id)."""
        if self._chunks is None:
            self._chunks = self._plan()
        return self._chunks

    def _plan(self) -> dict[int, tuple[int, list[tuple[str, str]], int]]:
        by_path = sorted(self.documents.values(), key=lambda row: row[0])  # a build's doc_ids follow its path order
        if [row[0] for row in by_path] != list(range(1, len(by_path) + 1)):
            return {}  # not doc_ids 1..N: not laid out by this builder
        if not trigram.present(self.conn):
            return {}
        plan = {}
        first = 1
        for position, (key, paths) in enumerate(chunks.plan((row[1], row[6]) for row in by_path), start=1):
            plan[key] = (position, [(p, self.documents[p][5]) for p in paths], first)
            first += len(paths)
        return plan

    def whole_match(
        self, settings: Settings, corpus_fp: str, paths: list[tuple[str, str]], ingested_at: str,
        provenance: Mapping[str, str] | None = None,
    ) -> bool:
        """Would a fresh build write exactly this file? Only a cache whose bytes its checksum
        vouches for is published as it is: without one, ``open_cache`` checked its rows but not
        its FTS text, and its meta could have been edited, so its documents are reused instead
        and the file is written anew."""
        if self.sha256 is None:
            return False
        # The layout follows from the sections (merged or not), which the corpus decides.
        if any(self.meta.get(k) != v for k, v in builder_meta(settings, self.merged).items()):
            return False
        # Another commit or version of the same files: the documents are reused, the meta is new.
        provenance = provenance or {}
        if any(self.meta.get(k) != provenance.get(k) for k in PROVENANCE_KEYS):
            return False
        if self.meta.get("ingested_at") != ingested_at or self.meta.get("corpus_root") != ".":
            return False
        if self.meta.get("corpus_fingerprint") != corpus_fp:
            return False
        return sorted(paths) == sorted((row[1], row[5]) for row in self.documents.values())


class CacheRejected(ContextPullError):
    """The cache turned out unusable after the build began using it; build again without it."""


class _DigestJob:
    """sha256 of a file in a thread (hashlib releases the GIL), while the build goes on; begun
    by ``BuildCache.begin_digest`` unless a copy of the file hashes the same bytes instead."""

    def __init__(self, path: Path):
        import threading

        self._value: str | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(path,), daemon=True)

    def start(self) -> None:
        if self._thread.ident is None:
            self._thread.start()

    def _run(self, path: Path) -> None:
        from ..writing.fingerprint import file_sha256

        try:
            self._value = file_sha256(path)
        except BaseException as exc:  # handed over in result()
            self._error = exc

    def result(self) -> str:
        self.start()
        self._thread.join()
        if self._error is not None:
            raise CacheRejected(f"cannot read it: {self._error}")
        return self._value or ""


class _CopyDigest:
    """The digest of a ``cache_copy.CacheCopy``, which hashes the cache's bytes as it copies them."""

    def __init__(self, copy):
        self.copy = copy

    def result(self) -> str:
        try:
            self.copy.wait()
        except OSError as exc:  # reading it or writing the copy (a full disk)
            raise CacheRejected(f"cannot copy it: {exc}") from None
        return self.copy.digest


def _sidecar_digest(path: Path) -> str | None:
    """The sha256 the build that wrote ``path`` recorded beside it, if any."""
    sidecar = Path(str(path) + ".sha256")
    if sidecar.is_file():
        return read_sha256_file(sidecar)
    manifest = path.parent / "manifest.json"
    if manifest.is_file():
        data = load_manifest(manifest)
        store = data.get("store") or {}
        if store.get("file") == path.name and isinstance(store.get("sha256"), str):
            return store["sha256"]
    return None


def open_cache(path: Path, settings: Settings, warn, *, defer_digest: bool = False) -> BuildCache | None:
    """Open and verify ``path``; on any problem call ``warn(message)`` and return None.

    With ``defer_digest`` the checksum is computed in a thread while the build starts; the
    caller must call ``confirm()`` before publishing anything that came from the cache, and
    rebuild without it on ``CacheRejected``.
    """
    from ..writing.fingerprint import file_sha256

    path = Path(path)
    if not path.exists():
        warn(f"cache {path} does not exist; building from scratch")
        return None
    pending = None
    try:
        require_regular(path)  # SQLite would open a pipe and wait on it
        expected = _sidecar_digest(path)
        digest = None
        if expected is not None and defer_digest:
            digest, pending = expected, _DigestJob(path)
        elif expected is not None:
            digest = file_sha256(path)
            if digest != expected:
                raise ContextPullError(f"its sha256 {digest[:12]}... does not match the checksum beside it")
        else:
            verify_store(path, sidecars=False, fts_text=False)
        conn = open_readonly(path)
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        if digest is not None:
            # The sidecar vouches for the bytes, not for the structure: check the cheap parts.
            for table in ("documents", "sections"):
                conn.execute(f"SELECT count(*) FROM {table}").fetchone()
        cache = BuildCache(path, conn, meta, digest, pending)
    except (ContextPullError, sqlite3.DatabaseError, OSError) as exc:
        warn(f"ignoring cache {path}: {exc}")
        return None
    if not cache.compatible(settings):
        if BUILDER_KEY not in meta:
            warn(f"ignoring cache {path}: it was not written by `contextpull build`")
        else:
            warn(
                f"ignoring cache {path}: built by {meta.get(BUILDER_KEY)} / SQLite {meta.get(SQLITE_KEY)}"
                " with other settings or versions"
            )
        cache.close()
        return None
    cache.retry_offline_summaries = wants_model(settings)
    return cache
