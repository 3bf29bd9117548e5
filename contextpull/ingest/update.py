"""Applying a corpus to an open store: the in-place half of ``ingest`` (system-design.txt
sections 3 and 9; supplement.md "Failure modes").

An unchanged file (same sha256) is skipped whole; a changed one is replaced in one transaction;
a file gone from the corpus is deleted with its sections and FTS rows; a run that changes nothing
writes nothing, not even the journal mode, so a built artifact stays byte for byte what it was.

Changed documents are committed in batches as they are parsed, so a run can stop part way (Ctrl-C,
a kill, a full disk) with some of its documents written and the index not yet redone. The first
batch therefore records ``ingest_pending`` in meta (``reparse`` when new section settings are
being applied to every document), and the deletions, the index, the meta and the removal of that
key are one last transaction. A run that finds the key, or a corpus fingerprint in meta that its
documents do not give (another writer stopped the same way), re-indexes, and re-parses
everything when the stopped run was applying new settings: whatever the user runs next, with the
new settings or the old ones, the store ends as a fresh ingest would write it. Readers ignore
the extra key (store-format.txt lists the keys they read).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone

from ..settings import Settings
from ..dialects.tracking.reads import READS_KEY, expected_sha, notes_of
from ..dialects.tracking.reads import dumps as dumps_reads
from ..dialects.tracking.reads import entry as read_entry
from ..dialects.tracking.reads import loads as loads_reads
from ..dialects.tracking.report import ConstructTally
from ..errors import NoUsableDocuments
from ..schema import SCHEMA_VERSION
from ..indexing import trigram
from ..writing.fingerprint import corpus_fingerprint
from .report import IngestReport
from .summaries import SummaryStage
from ..writing.records import NotAPage, Skipped, name_skips
from .documents import documents
from .write_thread import WriteThread
from ..writing.writer import SECTION_SETTINGS_KEYS, DocumentBatch, delete_document, index_meta, next_section_rowid, write_meta

# Whole documents are written in batches of about this many rows: every document is replaced
# atomically (its delete and insert share a transaction), and a batch is long SQLite work for
# the writer thread. With one batch waiting and one being written, 2,000 rather than 5,000
# rows took peak RSS from 142 to 125 MB on the synthetic corpus at the same speed.
COMMIT_EVERY_SECTIONS = 2000

PENDING_KEY = "ingest_pending"
BUILD_ONLY_META = ("content_fingerprint", "builder", "builder_sqlite", "build_settings")
# Meta keys that the settings decide; the index must be rebuilt when any of them differs.
_INDEX_SETTINGS = ("summarizer", "index_budget_tokens", "section_max_chars", *SECTION_SETTINGS_KEYS)
_DEFAULTS = Settings()


@dataclass(frozen=True)
class Unchanged:
    path: str


def apply_corpus(
    conn: sqlite3.Connection,
    items: Iterable,
    settings: Settings,
    report: IngestReport,
    *,
    parse: Callable,
    before_write: Callable[[], None],
    corpus_label: str,
    summaries: SummaryStage | None = None,
    expected: int | None = None,
) -> None:
    """Bring the store behind ``conn`` up to date with ``items`` (file reads or skips, in path
    order; ``expected`` of them, when known, as a build's ``documents`` takes it). ``parse`` turns
    a file's bytes into a record or a skip; ``before_write`` is called before each first write of
    a transaction and must be idempotent (the target switches an existing store to WAL there,
    once). ``summaries`` gives changed documents model summaries (``summaries.py``); with it, an
    unchanged document whose summary is still the offline one (its request failed last time) is
    parsed again, so it gets its request now."""
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    existing = {
        path: (doc_id, sha, src)
        for doc_id, path, sha, src in conn.execute("SELECT doc_id, path, sha256, summary_src FROM documents")
    }
    if summaries is not None:
        summaries.remember(conn.execute("SELECT sha256, model, summary FROM summary_cache"))
    # What documents read (dialects.reads): rehashed to tell whether one changed, kept current
    # below for every document written, skipped or gone.
    reads = loads_reads(meta.get(READS_KEY))
    memo: dict[str, str] = {}
    tally = ConstructTally()
    pending = meta.get(PENDING_KEY)
    reparse_all = pending == "reparse" or _settings_changed(meta, settings)
    left_unfinished = pending is not None or meta.get("corpus_fingerprint") not in (
        None,
        corpus_fingerprint((path, sha) for path, (_, sha, _) in existing.items()),
    )
    present: set[str] = set()
    # Unchanged documents parsed again only so their failed summary request is retried: if it
    # fails again the record is what the store holds, and writing it would break "a run that
    # changes nothing writes nothing".
    retrying: set[str] = set()
    ingested_at = _now()

    def keep(path: str, sha256: str) -> Unchanged | None:
        """The stored copy stands when the file and all it read are as stored, under the same
        section settings, and its summary needs no new request."""
        old = existing.get(path)
        if old is None or reparse_all or old[1] != expected_sha(path, sha256, settings.site, reads, memo):
            return None
        if summaries is None or old[2] == "llm":
            return Unchanged(path)
        retrying.add(path)
        return None

    # A new document takes the doc_id SQLite would give it (one above the largest, as vanished
    # documents are only deleted at the end); every written document's sections take rowids
    # above all stored ones.
    next_doc_id = max((old[0] for old in existing.values()), default=0) + 1
    next_rowid = next_section_rowid(conn)
    had_trigram = trigram.any_present(conn)  # dropped with the first change: it would go stale (trigram.py)
    batches = 0
    batch = DocumentBatch()
    # Documents are parsed here and written on the writer thread, in batches, in order: SQLite's
    # work (FTS5 tokenising most of it) runs without the GIL, beside the parsing.
    writer = WriteThread()

    def submit(batch: DocumentBatch) -> None:
        nonlocal batches
        first = batches == 0
        if first:
            before_write()
        mark = ("reparse" if reparse_all else "update") if first else None
        if summaries is not None:
            batch.summaries += summaries.take_new_rows()
        writer.submit(write_batch, conn, batch, had_trigram and first, mark)
        batches += 1

    records = documents(items, settings, parse=parse, keep=keep, expected=expected)
    if summaries is not None:
        records = summaries.apply(records)
    try:
        for record in records:
            if isinstance(record, NotAPage):  # not a document: counted in none of the report's figures
                tally.not_page(record)
                reads.pop(record.path, None)
                continue  # a copy stored while it was a page is removed with the deleted files
            report.seen += 1
            if not isinstance(record, (Unchanged, Skipped)) and record.path in retrying and record.summary_src != "llm":
                record = Unchanged(record.path)  # the retry failed again: keep the stored copy
            if isinstance(record, Unchanged):
                present.add(record.path)
                report.unchanged += 1
                tally.add_notes(record.path, notes_of(reads, record.path))  # as read last time
                continue
            if isinstance(record, Skipped):
                report.skipped.append(record)
                reads.pop(record.path, None)
                continue  # a stale stored copy is removed below with the deleted files
            tally.add(record)
            found = read_entry(record.deps, record.notes)
            if found is None:
                reads.pop(record.path, None)
            else:
                reads[record.path] = found
            old = existing.get(record.path)
            present.add(record.path)
            if old is None:
                doc_id, next_doc_id = next_doc_id, next_doc_id + 1
            else:
                doc_id = old[0]
            batch.add(record, doc_id=doc_id, base=next_rowid, ingested_at=ingested_at, replaces=old is not None)
            next_rowid += len(record.sections)
            if len(batch.sections) + len(batch.documents) >= COMMIT_EVERY_SECTIONS:
                submit(batch)
                batch = DocumentBatch()
            report.changed += 1
            report.sections_written += len(record.sections)
            if record.summary_src == "offline":
                report.summaries_offline += 1
            else:
                report.summaries_llm += 1
        if batch.documents:
            submit(batch)
        writer.close()
    except BaseException:
        writer.abort()  # nothing writes to the connection after this; the caller closes it
        raise
    if not report.changed and not report.unchanged:
        # Every file was skipped: emptying the store would look like success (build refuses too).
        entries = ([(s.path, s.reason) for s in report.skipped]
                   + [(path, f"not a page: {why}") for path, why in tally.not_pages])
        names = name_skips(entries)
        counted = f"{len(report.skipped)} file(s) skipped" + (
            f", {len(tally.not_pages)} not pages" if tally.not_pages else "")
        raise NoUsableDocuments(
            f"no usable documents in {corpus_label} ({counted}: {names})",
            "the store is left as it was; fix the files or point at the right folder",
            entries,
        )
    vanished = sorted(set(existing) - present)
    for path in vanished:
        reads.pop(path, None)
    report.dialect = tally.to_dict(settings.site)
    _finish(conn, meta, vanished, settings, report, ingested_at, left_unfinished,
            had_trigram and not batches, before_write, reads)


def _finish(conn, meta, vanished, settings, report, ingested_at, left_unfinished, drop_trigram, before_write, reads) -> None:
    """Deletions, the index and the meta, in one transaction (or none, when nothing changed)."""
    if vanished:
        before_write()
        if drop_trigram:
            trigram.drop_if_present(conn)
    for path in vanished:
        delete_document(conn, path)
        report.deleted += 1
    changed = bool(report.changed or report.deleted or left_unfinished)
    if not changed and _index_is_current(meta, settings):
        new_meta = dict(meta)  # system-design section 3: a no-change re-ingest only discovers and hashes
    else:
        new_meta = index_meta(conn, settings, corpus_root=meta.get("corpus_root", report.corpus_root))
    if meta.get("corpus_root") is None or report.changed or report.deleted:
        new_meta["corpus_root"] = report.corpus_root
    new_meta.pop(PENDING_KEY, None)
    new_meta.pop(READS_KEY, None)
    if reads:
        new_meta[READS_KEY] = dumps_reads(reads)
    if changed or any(meta.get(key) != value for key, value in new_meta.items()):
        before_write()
        new_meta["ingested_at"] = ingested_at
        write_meta(conn, new_meta)
        # A build artifact updated in place no longer is that artifact: drop the keys only
        # `contextpull build` maintains, so a server never advertises a stale content fingerprint.
        gone = (*BUILD_ONLY_META, PENDING_KEY) if changed else (PENDING_KEY,)
        if not reads:
            gone = (*gone, READS_KEY)
        conn.execute(f"DELETE FROM meta WHERE key IN ({', '.join('?' * len(gone))})", gone)
        conn.commit()
        report.wrote = True
    report.index_mode = new_meta["index_mode"]
    report.index_tokens = int(new_meta["index_tokens"])
    report.corpus_fingerprint = new_meta["corpus_fingerprint"]
    report.documents = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    report.sections = conn.execute("SELECT count(*) FROM sections").fetchone()[0]


def write_batch(conn: sqlite3.Connection, batch: DocumentBatch, drop_trigram: bool, mark: str | None) -> None:
    """One batch of changed documents, in one transaction (on the writer thread); the first
    batch also records that this run has not finished (``PENDING_KEY``)."""
    if mark is not None:
        write_meta(conn, {PENDING_KEY: mark})
    if drop_trigram:
        trigram.drop_if_present(conn)
    batch.write(conn)
    conn.commit()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _settings_changed(meta: dict[str, str], settings: Settings) -> bool:
    """Whether stored sections were cut, or summaries made, with other settings. A store from a
    writer that does not record a setting was written with its default."""
    if not meta:
        return False
    keys = ("section_max_chars", "summarizer", *SECTION_SETTINGS_KEYS)
    return any(meta.get(key, str(getattr(_DEFAULTS, key))) != str(getattr(settings, key)) for key in keys)


def _index_is_current(meta: dict[str, str], settings: Settings) -> bool:
    """The settings that shape the index are the stored ones (the caller knows nothing changed)."""
    if "index_text" not in meta or meta.get("corpus_root") is None:
        return False
    if any(meta.get(key) != str(getattr(settings, key)) for key in _INDEX_SETTINGS):
        return False
    return meta.get("schema_version") == SCHEMA_VERSION

