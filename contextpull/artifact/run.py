"""``contextpull build``: one reproducible, self-contained store artifact (issue 4).

A build writes ``OUT/store.sqlite``, ``OUT/store.sqlite.sha256`` and ``OUT/manifest.json``.
Why it is shaped the way it is:

- Bytes are a pure function of the inputs (issue 4, item 3). Documents are inserted in path
  order with ``doc_id`` 1..N; times come from ``SOURCE_DATE_EPOCH`` or a fixed epoch, never the
  clock; ``meta.corpus_root`` is ``"."``; and the final file is produced by ``VACUUM INTO`` a
  fresh file, so page layout, free pages and header counters do not depend on how the data got
  there (a cache-assisted build and a fresh one write the same file).
- Self-contained (item 2): rollback journal (``journal_mode=DELETE``), a fixed page size (the
  writer's), compacted, nothing beside it; it opens read-only from a read-only folder.
- Fingerprints (item 3): the content fingerprint is computed over the canonical projection
  (``fingerprint.content_fingerprint``, which reads no build meta keys) and then stored in meta;
  the file sha256 is over the final bytes, so it lives only in the manifest and ``.sha256``.
- Nothing is lost (item 1): everything is written under temporary names in OUT (same filesystem)
  and renamed only after success; a failure removes the temporaries and leaves the previous
  artifact untouched. A killed build can leave a hidden ``.store.sqlite.*.tmp``; the next build
  in that folder removes it.
- ``--cache`` (item 4): see ``cache.py``; rows are written chunk by chunk (``assemble.py``), each
  chunk one FTS5 segment (``segments.py``), so unchanged chunks are kept or copied, not
  re-indexed; with a trusted cache the build file starts as its copy (``patch.py``).
- The build file and how it becomes the artifact: ``build_file.py``; one attempt's steps:
  ``build_job.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..settings import Settings, resolve_settings
from ..settings.environment import Environment
from ..ingest.engine import load_embedder
from ..ingest.site import with_site
from ..ingest.workers import prestart as prestart_workers, workers_for
from ..errors import CheckFailed, ConfigError, NoUsableDocuments
from . import build_file
from .build_job import BuildJob
from .cache import CacheRejected, open_cache
from ..writing.discover import SUPPORTED_EXTENSIONS, found_extensions
from ..writing.records import name_skips
from .outdir import check_inputs, prepare_out
from .patch import PatchAborted
from .report import BuildReport
from .source import read_provenance
from . import guard
from ..ingest.summaries import SummaryStage, wants_model

PAGE_SIZE = build_file.PAGE_SIZE


def _stderr_warn(message: str) -> None:
    import sys

    print(f"warning: {message}", file=sys.stderr)


def build(
    docs: Path | str,
    out: Path | str,
    *,
    settings: Settings | None = None,
    flags: Mapping[str, Any] | None = None,
    golden: Path | str | None = None,
    update_golden: bool = False,
    cache: Path | str | None = None,
    strict: bool = False,
    progress=None,
    environment: Environment = Environment(),
    warn: Callable[[str], None] | None = None,
    embedder=None,
    base_store: Path | str | None = None,
) -> BuildReport:
    """Build DOCS into OUT; return the report (exit_code 1 on golden drift). ``embedder`` is a
    library caller's own (``embed_fn``), named by ``settings.embed_model``; else that setting's.
    ``environment`` is what the caller read from its environment (``cli.environment.read_environment``): the
    time, the CI checkout, the worker count, the settings variables under ``flags`` and model keys.

    Raises ``CheckFailed`` when ``strict`` and a file was skipped (nothing is published), and
    ``InputError``/``BuildError``/``ConfigError`` for everything that stops a build.
    """
    started = time.perf_counter()
    warnings: list[str] = []

    def _warn(message: str) -> None:
        warnings.append(message)
        (warn or _stderr_warn)(message)

    docs, out = Path(docs), Path(out)
    golden_dir = Path(golden) if golden is not None else None
    if update_golden and golden_dir is None:
        raise ConfigError("--update-golden needs --golden GDIR")
    exclude = check_inputs(docs, out, golden_dir, _warn)
    if settings is None:
        settings = resolve_settings(docs, flags or {}, environment.variables)
    settings = with_site(settings, docs, environment)  # the dialect, once, for every attempt and worker
    if workers_for(settings.site, settings.workers):
        prestart_workers()  # the fork server boots while provenance is read and the corpus hashed
    epoch = environment.epoch  # checked where the environment was read
    provenance = read_provenance(docs, environment.checkout, settings.docs_version, epoch)
    # A model summarizer or embedder with an unknown provider, no key or a missing extra fails
    # here, before OUT is touched.
    summaries = SummaryStage(settings, environ=environment.variables) if wants_model(settings) else None
    if embedder is None:
        embedder = load_embedder(settings.embed_model, environment.variables)
    out_is_new = not out.exists()
    prepare_out(out)
    build_cache = open_cache(Path(cache), settings, _warn, defer_digest=True) if cache is not None else None
    job = BuildJob(docs, out, settings, epoch, exclude, build_cache, progress, summaries=summaries, embedder=embedder, provenance=provenance)
    try:
        try:
            if summaries is not None and build_cache is not None:
                summaries.remember(build_cache.summary_rows())
            try:
                job.run()
            except PatchAborted:
                # The cache's chunks do not lie where this build's go: copy them chunk by chunk.
                job.cleanup()
                job = BuildJob(docs, out, settings, epoch, exclude, build_cache, progress, patch_ok=False, summaries=summaries, embedder=embedder, provenance=provenance)
                job.run()
        except CacheRejected as exc:
            # The cache's checksum (computed while the build ran) or a read from it failed:
            # drop everything that came from it and build from scratch.
            job.cleanup()
            _warn(f"ignoring cache {cache}: {exc}")
            build_cache.close()  # type: ignore[union-attr]
            build_cache = None
            if summaries is not None:
                summaries.forget_stored()
            job = BuildJob(docs, out, settings, epoch, exclude, None, progress, summaries=summaries, embedder=embedder, provenance=provenance)
            job.run()
        for message in job.index_failures:
            _warn(message)
        if not job.documents:
            found = found_extensions(docs)
            pages = job.constructs.not_pages
            entries = [(s.path, s.reason) for s in job.skipped] + [(path, f"not a page: {why}") for path, why in pages]
            counted = ", ".join(part for part in (
                f"{len(job.skipped)} file(s) skipped" if job.skipped else "",
                f"{len(pages)} not pages" if pages else "") if part)
            if entries:
                detail = f" ({counted}: {name_skips(entries)}" + (f"; it holds {found})" if found else ")")
            else:
                detail = f" (it holds {found})" if found else " (it is empty)"
            hint = ("fix the files named, or point DOCS at the right folder" if entries
                    else "DOCS must hold " + ", ".join(SUPPORTED_EXTENSIONS) + " files")
            raise NoUsableDocuments(f"no usable documents in {docs}{detail}", hint, entries)
        if strict and job.skipped:
            raise StrictSkips(job.skipped)
        if strict and summaries is not None and summaries.failed:
            raise StrictSummaries(summaries.failed)
        golden_result = job.check_golden(golden_dir, update_golden)
        guard_result = guard.check(
            settings, job.store_path, base_store=Path(base_store) if base_store is not None else None,
            cache=Path(cache) if cache is not None else None, warn=_warn,
        )
        report = job.publish(golden_result, environment.checkout.sha)
        if guard_result is not None:
            report.guard = guard_result
            if guard_result["status"] == "failed":
                report.exit_code = 1
    except BaseException:
        job.cleanup()
        if out_is_new:
            _remove_if_empty(out)  # a failed first build leaves no empty OUT behind
        raise
    finally:
        if build_cache is not None:
            build_cache.close()
    report.warnings = warnings
    report.dialect = job.constructs.to_dict(settings.site)
    if summaries is not None:
        report.summaries = summaries.to_dict()
    report.timings = {"total_s": round(time.perf_counter() - started, 3), **job.timings}
    return report


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:  # not empty (a file someone put there meanwhile), or already gone
        pass


class _Strict(CheckFailed):
    """``--strict`` refused to publish: nothing is, and ``--json`` lists every file with its
    reason under ``key`` (``to_dict``), so the Action can put each on its file; the message
    names five."""

    key = ""

    def __init__(self, items, what: str, suggestion: str):
        names = ", ".join(f"{s.path} ({s.reason})" for s in items[:5])
        super().__init__(f"--strict: {len(items)} {what}: {names}", suggestion)
        self.items = [{"path": s.path, "reason": s.reason} for s in items]

    def to_dict(self) -> dict:
        return {**super().to_dict(), self.key: self.items}


class StrictSkips(_Strict):
    """``--strict`` with skipped files."""

    key = "skipped"

    def __init__(self, skipped):
        super().__init__(skipped, "file(s) skipped",
                         "fix or remove them, or build without --strict; the previous artifact is untouched")


class StrictSummaries(_Strict):
    """``--strict`` with documents whose model summary failed."""

    key = "summary_failures"

    def __init__(self, failed):
        super().__init__(failed, "document(s) kept the offline summary",
                         "run again to retry them, or build without --strict; the previous artifact is untouched")
