"""A previous artifact as a build cache (issue 4, item 4: ``build --cache FILE``).

The cache is a file a CI cache restored: it may be stale, truncated, from another builder, or
not a store at all. It is never trusted as given: it is used only after it has been verified,
either by the ``store.sqlite.sha256`` / ``manifest.json`` written beside it by the build that
made it (cheap: one hash of the file) or, without those, by a full ``verify``. Anything that
fails is ignored with a warning and the build goes on from scratch.

Two levels of reuse, both giving the bytes a fresh build gives:

- whole: the corpus fingerprint, the settings, the builder version and the SQLite version all
  match, so a fresh build would write exactly this file: copy it (or keep it in place);
- per document: a document whose path and sha256 are unchanged gets its parsed sections and
  summary from the cache instead of being parsed again (``collect(reuse=...)``).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..config import Settings
from ..errors import ContextPullError
from .records import DocumentRecord, PreparedRecord, SectionRecord
from .verify import load_manifest, open_readonly, read_sha256_file, verify_store

# meta keys the build adds beside the spec's META_KEYS; readers ignore them.
BUILDER_KEY = "builder"
SQLITE_KEY = "builder_sqlite"
SETTINGS_KEY = "build_settings"
CONTENT_FP_KEY = "content_fingerprint"


def builder_meta(settings: Settings) -> dict[str, str]:
    """What decides the bytes besides the corpus: recorded so a cache can be matched."""
    import sqlite3 as _sqlite3

    return {
        BUILDER_KEY: f"contextpull {__version__}",
        SQLITE_KEY: _sqlite3.sqlite_version,
        SETTINGS_KEY: json.dumps(settings.to_dict(), sort_keys=True, separators=(",", ":")),
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
        self.sha256 = digest  # known when verified through its sidecar (or pending, see confirm)
        self._pending = pending
        # Only bytes vouched for by their checksum are trusted for the FTS text (see ``insert``).
        self.trust_fts = digest is not None
        self._groups = None
        self._ahead = None
        self.documents = {
            row[1]: row
            for row in conn.execute(
                "SELECT doc_id, path, title, summary, summary_src, sha256, bytes, kind FROM documents"
            )
        }

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

        The index budget and the SQLite version change the index and the bytes, not the
        sections or summaries, so they matter only for whole reuse.
        """
        if self.meta.get(BUILDER_KEY) != f"contextpull {__version__}":
            return False
        try:
            cached = json.loads(self.meta.get(SETTINGS_KEY, ""))
        except ValueError:
            return False
        current = settings.to_dict()
        return isinstance(cached, dict) and all(
            cached.get(k) == v for k, v in current.items() if k != "index_budget_tokens"
        )

    def reuse(self, path: str, sha256: str) -> DocumentRecord | None:
        """``collect(reuse=...)``: the cached record for an unchanged document, else None."""
        row = self.documents.get(path)
        if row is None or row[5] != sha256:
            return None
        doc_id, path, title, summary, summary_src, digest, size, kind = row
        return CachedRecord(path, title, summary, summary_src, digest, size, kind, (), cache_doc_id=doc_id)

    def load(self, record: DocumentRecord) -> DocumentRecord:
        """A plain ``DocumentRecord`` with its sections, for the writer."""
        if not isinstance(record, CachedRecord):
            return record
        sections = tuple(
            SectionRecord(heading, level, kind, text)
            for heading, level, kind, text in self.conn.execute(
                "SELECT heading_path, level, kind, text FROM sections WHERE doc_id = ? ORDER BY ordinal",
                (record.cache_doc_id,),
            )
        )
        return DocumentRecord(
            record.path, record.title, record.summary, record.summary_src,
            record.sha256, record.bytes, record.kind, sections,
        )

    def insert(self, conn: sqlite3.Connection, record: CachedRecord, *, doc_id: int, ingested_at: str) -> None:
        """Write a cached document through ``writer.insert_document``, reusing its FTS text.

        Normalising every section for the FTS table is a large share of a build, and the cache
        already holds the normalised text of unchanged documents: handed over as a
        ``PreparedRecord``, the writer skips that work. Only a cache whose bytes were verified
        against the checksum its build wrote is trusted for the FTS text; otherwise, or if a
        row does not line up, the writer normalises as usual.
        """
        from .writer import insert_document

        try:
            cached = self._cached_rows(record) if self.trust_fts else None
            if cached is None:
                record = self.load(record)
        except sqlite3.DatabaseError as exc:  # a damaged cache shows itself here at the latest
            raise CacheRejected(f"reading it failed: {exc}") from None
        if cached is None:
            insert_document(conn, record, doc_id=doc_id, ingested_at=ingested_at)
            return
        sections, fts = cached
        prepared = PreparedRecord(
            record.path, record.title, record.summary, record.summary_src,
            record.sha256, record.bytes, record.kind, sections, fts=fts,
        )
        insert_document(conn, prepared, doc_id=doc_id, ingested_at=ingested_at)

    def _cached_rows(self, record: CachedRecord):
        """(sections, fts columns) of ``record`` from one sequential pass, or None.

        Documents are requested in path order, which is the cache's doc_id and rowid order (a
        build writes them so), so the tables are read front to back once instead of being
        looked up per document. Anything out of order or not lining up returns None.
        """
        if self._groups is None:
            self._groups = self._scan_groups()
            self._ahead = next(self._groups, None)
        while self._ahead is not None and self._ahead[0] < record.cache_doc_id:
            self._ahead = next(self._groups, None)
        if self._ahead is None or self._ahead[0] != record.cache_doc_id:
            return None
        _, ids, sections, fts = self._ahead
        self._ahead = next(self._groups, None)
        if ids != [f"{record.path}#{i}" for i in range(len(ids))]:
            return None
        return tuple(sections), tuple(fts)

    def _scan_groups(self):
        """(doc_id, ids, sections, fts columns) per document, in rowid order.

        The FTS columns come from FTS5's documented ``%_content`` shadow table (``id`` is the
        rowid, ``c0..c2`` the columns id, heading_path, text); the writer gives a section and its
        FTS row the same rowid, and a row whose FTS id differs marks its document unusable.
        """
        try:
            rows = self.conn.execute(
                "SELECT s.doc_id, s.id, s.heading_path, s.level, s.kind, s.text, f.c0, f.c1, f.c2"
                " FROM sections s LEFT JOIN sections_fts_content f ON f.id = s.rowid ORDER BY s.rowid"
            )
        except sqlite3.Error:
            return
        current, ids, sections, fts = None, [], [], []
        for doc, sid, heading, level, kind, text, fts_id, fts_heading, fts_text in rows:
            if doc != current:
                if current is not None:
                    yield current, ids, sections, fts
                current, ids, sections, fts = doc, [], [], []
            ids.append(sid if fts_id == sid else None)
            sections.append(SectionRecord(heading, level, kind, text))
            fts.append((fts_heading, fts_text))
        if current is not None:
            yield current, ids, sections, fts

    def whole_match(
        self, settings: Settings, corpus_fp: str, paths: list[tuple[str, str]], ingested_at: str
    ) -> bool:
        """Would a fresh build write exactly this file?"""
        if any(self.meta.get(k) != v for k, v in builder_meta(settings).items()):
            return False
        if self.meta.get("ingested_at") != ingested_at or self.meta.get("corpus_root") != ".":
            return False
        if self.meta.get("corpus_fingerprint") != corpus_fp:
            return False
        return sorted(paths) == sorted((row[1], row[5]) for row in self.documents.values())


class CacheRejected(ContextPullError):
    """The cache turned out unusable after the build began using it; build again without it."""


class _DigestJob:
    """sha256 of a file in a thread (hashlib releases the GIL), while the build goes on."""

    def __init__(self, path: Path):
        import threading

        self._value: str | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(path,), daemon=True)
        self._thread.start()

    def _run(self, path: Path) -> None:
        from .fingerprint import file_sha256

        try:
            self._value = file_sha256(path)
        except BaseException as exc:  # handed over in result()
            self._error = exc

    def result(self) -> str:
        self._thread.join()
        if self._error is not None:
            raise CacheRejected(f"cannot read it: {self._error}")
        return self._value or ""


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
    from .fingerprint import file_sha256

    path = Path(path)
    if not path.exists():
        warn(f"cache {path} does not exist; building from scratch")
        return None
    pending = None
    try:
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
    return cache


def copy_verified(src: Path, dst: Path, expected: str | None) -> str:
    """Copy ``src`` to ``dst`` hashing on the way; the digest must equal ``expected`` if given.

    No fsync, like the fresh build's ``VACUUM INTO``: the file is renamed into place afterwards
    and a crash before that loses only a temporary file.
    """
    import hashlib

    digest = hashlib.sha256()
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        for chunk in iter(lambda: fin.read(1 << 20), b""):
            digest.update(chunk)
            fout.write(chunk)
    hexdigest = digest.hexdigest()
    if expected is not None and hexdigest != expected:
        raise ContextPullError("the cache changed while it was copied")
    return hexdigest
