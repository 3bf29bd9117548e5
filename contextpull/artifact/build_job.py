"""One attempt at a build: collect and write the documents, finish the store, check the golden
files, publish (issue 4; the artifact's design is in ``artifact.py``'s docstring).

``artifact.build`` runs an attempt, and runs another without the cache (or without patching
its copy) when the cache turns out unusable part way; ``cleanup`` removes everything an attempt
wrote, so the next one starts clean and a failed build leaves OUT as it was.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from ..dialects.tracking.reads import store as store_reads
from ..dialects.tracking.report import ConstructTally
from ..errors import BuildError
from . import build_file
from . import manifest as manifest_mod
from .cache import CONTENT_FP_KEY, BuildCache, CachedRecord, CacheRejected, builder_meta
from .cache_copy import CacheCopy
from ..writing.fingerprint import content_fingerprint, corpus_fingerprint
from ..checks.golden import GoldenResult, check_golden
from ..writing.held_signals import held_signals
from .outdir import MANIFEST_FILE, SHA_FILE, STORE_FILE, TMP_PREFIX
from ..system.sqlite_files import remove_files as _remove
from .patch import Patch
from ..writing.records import DocumentRecord, NotAPage, Skipped
from .report import BuildReport, iso_time
from ..writing.writer import first_meta
from ..provenance import Provenance

# Used for ingested_at when SOURCE_DATE_EPOCH is not set: 1980-01-01, the earliest time a zip
# entry can hold, the same choice reproducible-build tools make for the same reason.
DEFAULT_EPOCH = 315532800


class BuildJob:
    """One attempt's state, so its steps read as a list."""

    def __init__(
        self, docs, out, settings, epoch, exclude, build_cache: BuildCache | None, progress, patch_ok=True,
        summaries=None, embedder=None, provenance: Provenance | None = None,
    ):
        self.docs, self.out, self.settings, self.epoch = docs, out, settings, epoch
        self.provenance = provenance or Provenance()  # meta keys of issue 27, beside the builder's
        self.embedder = embedder  # models.embed.Embedder when embed_model is set
        self.vectors: dict | None = None  # writing.vectors.VectorCounts.to_dict() of this build
        self.patch_ok = patch_ok  # may start from a copy of the cache (patch.py)
        self.exclude, self.cache, self.progress = exclude, build_cache, progress
        self.ingested_at = iso_time(DEFAULT_EPOCH if epoch is None else epoch)
        tag = f"{TMP_PREFIX}{os.getpid()}"
        self.tmp_build = out / f"{tag}.build.tmp"
        self.tmp_store = out / f"{tag}.tmp"
        self.tmp_sha = out / f"{tag}.sha256.tmp"
        self.tmp_manifest = out / f"{tag}.manifest.tmp"
        self.documents: list[tuple[str, str]] = []  # (path, sha256) of every document, in order
        self.skipped: list[Skipped] = []
        self.reuse = "none"
        self.reused = 0
        self.parsed = 0
        self.store_path: Path = self.tmp_store  # what golden and publish read
        self.in_place = False  # whole reuse of the cache that already is OUT/store.sqlite
        self.store_sha256 = ""
        self.content_fp = ""
        self.index = ("", "flat", 0)
        self.timings: dict[str, float] = {}
        self.tmp_index = out / f"{tag}.index.tmp"
        self.assembler = None
        self.indexer = None  # indexers.Indexers: both FTS5 tables, beside the writer
        self.index_failures: list[str] = []  # workers that failed and were redone (same rows)
        self.cache_copy: CacheCopy | None = None  # the build file, begun as the cache's copy
        self.summaries = summaries  # ingest.summaries.SummaryStage with a model summarizer, else None
        self.constructs = ConstructTally()  # what the documents' dialect read (dialects.report)

    # -- collecting and writing ---------------------------------------------------------------
    def _records(self) -> Iterable[DocumentRecord | Skipped]:
        from ..ingest.engine import collect

        reuse = self.cache.reuse if self.cache is not None and self.cache.compatible(self.settings) else None
        recorded = self.cache.reads if reuse is not None else None
        records = collect(
            self.docs, self.settings, exclude=self.exclude, reuse=reuse, recorded=recorded, progress=self.progress
        )
        return records if self.summaries is None else self.summaries.apply(records)

    def run(self) -> None:
        self._conn: sqlite3.Connection | None = None
        try:
            self._run()
        except BaseException:
            if self._conn is not None:
                self._conn.close()
            raise

    def _run(self) -> None:
        t0 = time.perf_counter()
        if self._may_patch() and not self._cache_in_place():
            # Whether nothing changed (the cache is copied to OUT) or something did (the copy is
            # patched), this build needs a copy of the cache: begin it while the corpus is hashed.
            # Its hash is the cache's checksum too.
            self.cache_copy = CacheCopy(self.cache.path, self.tmp_build)  # type: ignore[union-attr]
        if self.cache is not None:
            self.cache.begin_digest(self.cache_copy)
        records = iter(self._records())
        pending: list[DocumentRecord] = []
        held = 0  # parsed documents in pending, while the cache is copied
        conn = None
        for item in records:
            if isinstance(item, Skipped):
                self.skipped.append(item)
                continue
            if isinstance(item, NotAPage):
                self.constructs.not_page(item)
                continue
            self.documents.append((item.path, item.sha256))
            self.constructs.add(item)
            if conn is None and isinstance(item, CachedRecord):
                pending.append(item)  # still possibly a whole-file reuse: write nothing yet
                continue
            if conn is None and self._copying(held):
                # The first change: the build file is being copied from the cache; go on
                # hashing (and parsing a few changed documents) meanwhile.
                pending.append(item)
                held += 1
                continue
            if conn is None:
                conn = self._start_writer(pending)
                pending = []
            self._insert(conn, item)
        self.timings["collect_write_s"] = round(time.perf_counter() - t0, 3)
        if not self.documents:
            return
        corpus_fp = corpus_fingerprint(self.documents)
        if self.cache is not None:
            self.cache.confirm()  # nothing from the cache is used past this point unverified
        if conn is None and self.cache is not None and self.cache.whole_match(
            self.settings, corpus_fp, self.documents, self.ingested_at, self.provenance.to_meta()
        ):
            self._reuse_whole()
            return
        if conn is None:
            conn = self._start_writer(pending)
        self._finish(conn)
        self.timings["finish_s"] = round(time.perf_counter() - t0 - self.timings["collect_write_s"], 3)

    def _start_writer(self, pending: list[DocumentRecord]) -> sqlite3.Connection:
        """Open the build file and write the documents held back until now."""
        conn = self._open_build_file()
        for record in pending:
            self._insert(conn, record)
        return conn

    def _open_build_file(self) -> sqlite3.Connection:
        from .assemble import Assembler
        from ..indexing.indexers import Indexers

        patch = None
        if self._may_patch():
            patch = Patch(self.cache.plan(), self.cache.section_count)  # type: ignore[union-attr]
        if patch is not None and self.cache_copy is not None:
            self._check_copy()
        try:
            if patch is not None:
                conn = build_file.copy_of(self.cache.path, self.tmp_build, self.cache_copy)  # type: ignore[union-attr]
            else:
                self._drop_cache_copy()
                conn = build_file.create(self.tmp_build)
        except (OSError, sqlite3.Error) as exc:
            raise BuildError(f"cannot create the store in {self.out}: {exc}") from None
        self._conn = conn
        self.indexer = Indexers(self.tmp_index, self.tmp_build)
        self.assembler = Assembler(conn, self.indexer, self.cache, self.ingested_at, patch)
        if patch is not None:
            patch.begin(conn, first_meta)
        return conn

    def _insert(self, conn: sqlite3.Connection, record: DocumentRecord) -> None:
        if isinstance(record, CachedRecord):
            self.reused += 1
        else:
            self.parsed += 1
        self.assembler.add(record)

    def _finish(self, conn: sqlite3.Connection) -> None:
        """Index and meta, then VACUUM INTO the artifact file while the content fingerprint is
        computed beside it; the fingerprint then replaces a same-length placeholder in meta.

        The two overlap because VACUUM INTO runs in SQLite (no GIL) and the fingerprint in
        Python. Writing a 64-character value over a 64-character placeholder rewrites one cell
        in place, so the file stays compact and its bytes stay a function of the content.
        """
        from ..indexing import impacts, segments
        from ..writing.writer import finalize_index, write_meta, write_summary_cache

        if self.cache is not None:
            self.reuse = "documents" if self.reused else "none"
        lap = time.perf_counter()

        def _lap(name: str) -> None:
            nonlocal lap
            now = time.perf_counter()
            self.timings[name] = round(now - lap, 3)
            lap = now

        try:
            self.assembler.finish()
            if self.summaries is not None:
                # The cache's summaries and this build's, so the next build --cache asks for none of them.
                write_summary_cache(conn, self.summaries.cache_rows())
            self._embed(conn)
            _lap("embed_s")
            self.index = finalize_index(conn, self.settings, ingested_at=self.ingested_at, corpus_root=".")
            # a store large enough for search_impacts gets the table and its word index in one segment
            large = impacts.wanted(conn.execute("SELECT count(*) FROM sections").fetchone()[0])
            write_meta(conn, {**builder_meta(self.settings, large), **self.provenance.to_meta(), CONTENT_FP_KEY: "0" * 64})
            store_reads(conn, self.constructs.reads)  # none in a plain build, none left from a cache
            conn.commit()
            _lap("index_text_s")  # the last chunk, the index text and meta
            # Everything the content fingerprint reads is final now: it runs beside the rest, on
            # its own snapshot of the build file, which stays until the fingerprint is done.
            fingerprint = build_file.Background(content_fingerprint, self.tmp_build)
            try:
                # then: waiting for the index thread, copying its segments in, the FTS5 records
                self.timings["index_wait_s"] = round(self.indexer.waited, 3)  # type: ignore[union-attr]
                self.timings["index_fill"] = self.indexer.finish_into(conn, self.assembler.copied_totals)  # type: ignore[assignment,union-attr]
                self.index_failures = self.indexer.failures  # type: ignore[union-attr]
                _lap("index_s")
                if large:
                    segments.merge(conn, "main.sections_fts")
                    conn.commit()
                    _lap("merge_s")
                # search_impacts, for a store large enough to need it (docs/search-impacts.md):
                # written by child processes from the finished index while VACUUM INTO copies the
                # rest, then added to the store; dropped from a cache's copy either way
                pending = impacts.start(conn, build_file.schema_cookie(), self.tmp_build, large)
                _lap("impacts_start_s")
                try:
                    build_file.vacuum_into(conn, self.tmp_store)
                    _lap("vacuum_s")
                    if pending is not None:
                        self.timings["impacts"] = pending.finish(self.tmp_store)  # type: ignore[assignment]
                        _lap("impacts_s")
                finally:
                    if pending is not None:
                        pending.discard()  # stopped and removed on every path
            finally:
                fingerprint.join()  # on every path: the file it reads is removed only after this
            self.content_fp = fingerprint.result()
            _lap("fingerprint_wait_s")  # the content fingerprint's time beyond VACUUM INTO's
            build_file.discard(conn, self.tmp_build)
            self._conn = None
            build_file.set_meta(self.tmp_store, CONTENT_FP_KEY, self.content_fp)
            _lap("store_meta_s")  # the build file removed, the fingerprint written into the store
        except sqlite3.Error as exc:
            raise BuildError(f"writing the store failed: {exc}") from None
        _remove(self.tmp_build)
        build_file.check_shape(self.tmp_store)
        self.store_sha256 = build_file.hash_and_flush(self.tmp_store)
        _lap("sha256_s")

    def _embed(self, conn: sqlite3.Connection) -> None:
        """Every section's vector, taken from the cache where its heading path and text are the
        same (``writing.vectors``), computed otherwise. The build file's ``embeddings`` is empty
        here (a fresh file, or a cache's copy that ``patch`` emptied), so rows go in in section
        id order either way and the bytes do not depend on where a vector came from."""
        if self.embedder is None:
            return
        from ..writing.vectors import known_vectors, write_vectors

        known = known_vectors(self.cache.conn, self.embedder.setting) if self.cache is not None else {}
        self.vectors = write_vectors(conn, self.embedder, known).to_dict()
        conn.commit()

    def _reuse_whole(self) -> None:
        cache = self.cache
        assert cache is not None
        self.reuse = "whole"
        self.reused = len(self.documents)
        self.index = (cache.meta["index_text"], cache.meta["index_mode"], int(cache.meta["index_tokens"]))
        self.content_fp = cache.meta.get(CONTENT_FP_KEY, "") or content_fingerprint(cache.conn)
        if self.embedder is not None:  # the same embed_model (whole_match), so all vectors kept
            kept = cache.conn.execute("SELECT count(*) FROM embeddings").fetchone()[0]
            self.vectors = {"model": self.embedder.setting, "embedded": 0, "kept": kept}
        if self._cache_in_place():
            self.in_place = True
            self.store_path = self.out / STORE_FILE
            self.store_sha256 = cache.sha256
            return
        if self.cache_copy is None:  # not begun while the corpus was hashed (not patchable)
            self.cache_copy = CacheCopy(cache.path, self.tmp_build)
        # Published without a flush: see cache_copy.CacheCopy for what that risks and why.
        self._check_copy()
        try:
            os.replace(self.cache_copy.wait(), self.tmp_store)
        except OSError as exc:
            raise BuildError(f"cannot copy the cache {cache.path}: {exc}") from None
        self.store_sha256 = self.cache_copy.digest
        self.cache_copy = None
        try:
            build_file.check_shape(self.tmp_store)
        except BuildError as exc:  # not a file this builder wrote as it is: build without it
            raise CacheRejected(exc.message) from None

    def _check_copy(self) -> None:
        """The copied bytes are the ones the cache's checksum vouches for, if it has one
        (``CacheCopy``; a cache without one is published with the digest of its copy)."""
        try:
            self.cache_copy.wait()  # type: ignore[union-attr]
        except OSError as exc:
            raise CacheRejected(f"copying it failed: {exc}") from None
        expected = self.cache.sha256  # type: ignore[union-attr]
        if expected is not None and self.cache_copy.digest != expected:  # type: ignore[union-attr]
            raise CacheRejected(
                f"the sha256 of its copy {self.cache_copy.digest[:12]}... does not match the checksum"  # type: ignore[union-attr]
                " beside it (damaged, or changed while it was copied)"
            )

    def _cache_in_place(self) -> bool:
        """Whether the cache is this build's own OUT/store.sqlite, vouched for by its checksum."""
        target = self.out / STORE_FILE
        cache = self.cache
        return cache is not None and cache.sha256 is not None and target.exists() and target.resolve() == cache.path.resolve()

    # -- checks and publishing ----------------------------------------------------------------
    def check_golden(self, gdir: Path | None, update: bool) -> GoldenResult:
        if gdir is None:
            return GoldenResult("none")
        from ..checks.verify import open_readonly

        conn = open_readonly(self.store_path)
        try:
            return check_golden(conn, gdir, update=update)
        finally:
            conn.close()

    def publish(self, golden: GoldenResult, ci_sha: str = "") -> BuildReport:
        size = self.store_path.stat().st_size
        text, mode, tokens = self.index
        manifest = manifest_mod.make_manifest(
            store_file=STORE_FILE,
            store_bytes=size,
            store_sha256=self.store_sha256,
            corpus_fp=corpus_fingerprint(self.documents),
            content_fp=self.content_fp,
            documents=len(self.documents),
            sections=self._section_count(),
            skipped=[{"path": s.path, "reason": s.reason} for s in self.skipped],
            index_mode=mode,
            index_tokens=int(tokens),
            settings=self.settings,
            commit=manifest_mod.source_commit(self.docs, ci_sha, self.provenance.commit),
            epoch=self.epoch,
            provenance=self.provenance,
        )
        try:
            with open(self.tmp_sha, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(f"{self.store_sha256}  {STORE_FILE}\n")
            with open(self.tmp_manifest, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(manifest_mod.dumps(manifest))
            target = self.out / STORE_FILE
            with held_signals():
                if not self.in_place:
                    # A journal or WAL left beside the old file would be applied to the new one.
                    _remove(Path(str(target) + "-journal"), Path(str(target) + "-wal"), Path(str(target) + "-shm"))
                    os.replace(self.tmp_store, target)
                os.replace(self.tmp_sha, self.out / SHA_FILE)
                os.replace(self.tmp_manifest, self.out / MANIFEST_FILE)
        except OSError as exc:
            raise BuildError(f"cannot write the artifact in {self.out}: {exc.strerror or exc}") from None
        return BuildReport(
            out=self.out,
            manifest=manifest,
            golden=golden,
            exit_code=1 if golden.status == "drift" else 0,
            reuse=self.reuse,
            reused_documents=self.reused,
            parsed_documents=self.parsed,
            copied_chunks=self.assembler.copied_chunks if self.assembler is not None else 0,
            indexed_chunks=self.assembler.indexed_chunks if self.assembler is not None else 0,
            patched=self.assembler is not None and self.assembler.patch is not None,
            kept_documents=self.assembler.kept_documents if self.assembler is not None else 0,
            embeddings=self.vectors,
        )

    def _section_count(self) -> int:
        from ..checks.verify import open_readonly

        conn = open_readonly(self.store_path)
        try:
            return conn.execute("SELECT coalesce(sum(n_sections), 0) FROM documents").fetchone()[0]
        finally:
            conn.close()

    _HOLD_PARSED = 64  # parsed documents held in memory at most while the cache is copied

    def _copying(self, held: int) -> bool:
        """Whether the cache's copy (begun here, at the first changed document) is still under way."""
        if self.cache_copy is None:
            if not self._may_patch():
                return False
            self.cache_copy = CacheCopy(self.cache.path, self.tmp_build)  # type: ignore[union-attr]
        return held < self._HOLD_PARSED and not self.cache_copy.done()

    def _may_patch(self) -> bool:
        return self.patch_ok and self.cache is not None and self.cache.patchable()

    def _drop_cache_copy(self) -> None:
        if self.cache_copy is not None:
            self.cache_copy.cancel()
            if self.cache is not None:
                self.cache.copy_dropped(self.cache_copy)
            self.cache_copy = None

    def cleanup(self) -> None:
        self._drop_cache_copy()
        if self.indexer is not None:
            self.indexer.discard()
        _remove(self.tmp_build, self.tmp_store, self.tmp_sha, self.tmp_manifest, self.tmp_index)
