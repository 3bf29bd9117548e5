"""The ingest pipeline: discover → hash → parse → section → classify → write → fts → summarize →
index (system-design.txt sections 2, 3 and 12; supplement.md "Failure modes").

Two entry points share one per-file path:

- ``collect`` streams ``DocumentRecord`` or ``Skipped`` in path order for builds that write a
  fresh store (``contextpull build``);
- ``ingest`` updates a store in place: an unchanged file (same sha256) is skipped whole, a
  changed one is replaced in one transaction, a file gone from the corpus is deleted with its
  sections and FTS rows, and a run that changes nothing writes nothing, so ``index_text`` stays
  byte-identical. The first ingest into a new store path writes a scratch file and renames it.

Both hold one file's bytes and one document's sections at a time (a small window of them when
parse workers run, see ``workers.py``), so memory does not grow with the corpus.

Bad input never stops a run: anything a parser cannot use becomes ``Skipped(path, reason)``.
"""

from __future__ import annotations

import hashlib
import itertools
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..config import Settings
from ..errors import InputError, StoreError
from ..schema import SCHEMA_VERSION
from . import trigram
from .blocks import ParseError
from .discover import SUPPORTED_EXTENSIONS, Candidate, discover
from .fingerprint import corpus_fingerprint
from .ingest_report import IngestReport, strict_failure
from .ingest_target import StoreTarget
from .parse import kind_for, parse_file
from .records import DocumentRecord, PreparedRecord, Skipped
from .section import section_document
from .summary import offline_summary
from .workers import ordered_map
from .write_thread import WriteThread
from .writer import (
    SECTION_SETTINGS_KEYS,
    DocumentBatch,
    delete_document,
    display_root,
    fts_normalize,
    index_meta,
    next_section_rowid,
    write_meta,
)

# Whole documents are written in batches of about this many rows: every document is replaced
# atomically (its delete and insert share a transaction), and a batch is long SQLite work for
# the writer thread. With one batch waiting and one being written, 2,000 rather than 5,000
# rows took peak RSS from 142 to 125 MB on the synthetic corpus at the same speed.
COMMIT_EVERY_SECTIONS = 2000

Reuse = Callable[[str, str], "DocumentRecord | None"]


def supported_list() -> str:
    return " ".join(SUPPORTED_EXTENSIONS)


def check_corpus(corpus: Path) -> None:
    """A missing path or a non-directory is an ``InputError`` naming it."""
    if not corpus.exists():
        raise InputError(
            f"corpus folder {corpus} does not exist",
            f"point at a folder of {supported_list()} files",
        )
    if not corpus.is_dir():
        raise InputError(
            f"corpus {corpus} is not a folder", f"point at a folder of {supported_list()} files"
        )


def empty_corpus_error(corpus: Path) -> InputError:
    return InputError(
        f"no documents found in {corpus}",
        f"supported extensions are {supported_list()}; hidden files and folders and"
        " .contextpullignore entries are not read",
    )


@dataclass(frozen=True)
class _Read:
    candidate: Candidate
    data: bytes
    sha256: str


def _read(candidate: Candidate) -> _Read | Skipped:
    try:
        with open(candidate.abspath, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return Skipped(candidate.path, "file vanished during the run")
    except PermissionError:
        return Skipped(candidate.path, "file cannot be read (permission denied)")
    except IsADirectoryError:
        return Skipped(candidate.path, "not a regular file")
    except OSError as exc:
        return Skipped(candidate.path, f"file cannot be read ({exc.strerror or exc})")
    return _Read(candidate, data, hashlib.sha256(data).hexdigest())


def _scan(corpus: Path, exclude: Iterable[Path], progress) -> Iterator[_Read | Skipped]:
    for item in discover(corpus, exclude=exclude):
        if progress is not None:
            progress.advance(item.path)
        yield item if isinstance(item, Skipped) else _read(item)


@dataclass(frozen=True)
class _Unchanged:
    path: str


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[:dot] if dot > 0 else name


def build_record(path: str, data: bytes, sha256: str, settings: Settings) -> DocumentRecord | Skipped:
    """Parse, section, classify and summarise one file's bytes."""
    kind = kind_for(path)
    if kind is None:
        return Skipped(path, "unsupported file type")
    try:
        parsed = parse_file(data, kind, _stem(path))
        drafts = section_document(parsed, settings)
        summary = offline_summary(parsed)
    except ParseError as exc:
        return Skipped(path, str(exc) or "could not be parsed")
    except RecursionError:
        return Skipped(path, "could not be parsed (structure nested too deeply)")
    except Exception as exc:  # noqa: BLE001 - one bad file must never stop the run
        return Skipped(path, f"could not be parsed ({type(exc).__name__}: {exc})")
    if not drafts:
        return Skipped(path, "no text to index")
    sections = tuple(drafts)
    return PreparedRecord(
        path=path,
        title=parsed.title,
        summary=summary,
        summary_src="offline",
        sha256=sha256,
        bytes=len(data),
        kind=kind,
        sections=sections,
        fts=tuple((fts_normalize(s.heading_path), fts_normalize(s.text)) for s in sections),
    )


def collect(
    corpus: Path,
    settings: Settings,
    *,
    exclude: Iterable[Path] = (),
    reuse: Reuse | None = None,
    progress=None,
) -> Iterator[DocumentRecord | Skipped]:
    """Every supported file under ``corpus`` as a record or a skip, in path order, streamed.

    ``reuse(path, sha256)`` may return a record cached by an earlier build; it is used as is.
    """

    def jobs() -> Iterator[tuple[bool, object]]:
        for item in _scan(Path(corpus), exclude, progress):
            if isinstance(item, Skipped):
                yield False, item
                continue
            path = item.candidate.path
            cached = reuse(path, item.sha256) if reuse is not None else None
            if cached is not None:
                yield False, cached
            else:
                yield True, (path, item.data, item.sha256, settings)

    yield from ordered_map(build_record, jobs())


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _settings_changed(meta: dict[str, str], settings: Settings) -> bool:
    if not meta:
        return False
    wanted = {"section_max_chars": settings.section_max_chars}
    wanted.update({key: getattr(settings, key) for key in SECTION_SETTINGS_KEYS})
    return any(meta.get(key) not in (None, str(value)) for key, value in wanted.items())


def ingest(
    corpus: Path,
    store: Path,
    settings: Settings,
    *,
    strict: bool = False,
    progress=None,
    exclude: Iterable[Path] = (),
) -> IngestReport:
    """Bring ``store`` up to date with ``corpus``; see the module docstring for the rules.

    With ``strict``, any skipped file raises ``CheckFailed`` after the store is written.
    """
    started = time.perf_counter()
    corpus, store = Path(corpus), Path(store)
    check_corpus(corpus)
    if progress is not None:
        progress.start()
    scan = _scan(corpus, [*exclude, store], progress)
    first = next(scan, None)
    if first is None:
        raise empty_corpus_error(corpus)

    report = IngestReport(
        corpus_root=display_root(corpus),
        store=str(store),
        index_budget_tokens=settings.index_budget_tokens,
    )
    target = StoreTarget(store)
    try:
        _update(target.conn, itertools.chain([first], scan), settings, report)
        target.commit_and_close()
    except sqlite3.Error as exc:
        target.abandon()
        raise StoreError(
            f"cannot write store {store}: {exc}",
            "check the file is writable and not locked by another ingest",
        ) from None
    except BaseException:
        target.abandon()
        raise
    finally:
        if progress is not None:
            progress.finish()
    report.elapsed_s = round(time.perf_counter() - started, 3)
    if strict and report.skipped:
        raise strict_failure(report)
    return report


def _update(
    conn: sqlite3.Connection, items: Iterable[_Read | Skipped], settings: Settings, report: IngestReport
) -> None:
    """Apply the corpus to the store: write changed documents, delete vanished ones, re-index."""
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    existing = {
        path: (doc_id, sha)
        for doc_id, path, sha in conn.execute("SELECT doc_id, path, sha256 FROM documents")
    }
    reparse_all = _settings_changed(meta, settings)
    # An earlier ingest stopped after committing some batches (Ctrl-C, a kill, a full disk) left
    # documents the index and its fingerprint do not describe: this run re-indexes whatever it
    # finds, so the store cannot stay stale once its files stop changing.
    left_unfinished = meta.get("corpus_fingerprint") not in (
        None,
        corpus_fingerprint((path, sha) for path, (_, sha) in existing.items()),
    )
    present: set[str] = set()
    ingested_at = _now()

    def jobs() -> Iterator[tuple[bool, object]]:
        for item in items:
            if isinstance(item, Skipped):
                yield False, item
                continue
            path = item.candidate.path
            old = existing.get(path)
            if old is not None and old[1] == item.sha256 and not reparse_all:
                yield False, _Unchanged(path)
            else:
                yield True, (path, item.data, item.sha256, settings)

    # A new document takes the doc_id SQLite would give it (one above the largest, as vanished
    # documents are only deleted at the end); every written document's sections take rowids
    # above all stored ones.
    next_doc_id = max((doc_id for doc_id, _ in existing.values()), default=0) + 1
    next_rowid = next_section_rowid(conn)
    drop_trigram = trigram.any_present(conn)  # with the first change: it would go stale (trigram.py)
    batch = DocumentBatch()
    # Documents are parsed here and written on the writer thread, in batches, in order: SQLite's
    # work (FTS5 tokenising most of it) runs without the GIL, beside the parsing.
    writer = WriteThread()
    try:
        for record in ordered_map(build_record, jobs()):
            report.seen += 1
            if isinstance(record, _Unchanged):
                present.add(record.path)
                report.unchanged += 1
                continue
            if isinstance(record, Skipped):
                report.skipped.append(record)
                continue  # a stale stored copy is removed below with the deleted files
            old = existing.get(record.path)
            present.add(record.path)
            if old is None:
                doc_id, next_doc_id = next_doc_id, next_doc_id + 1
            else:
                doc_id = old[0]
            batch.add(record, doc_id=doc_id, base=next_rowid, ingested_at=ingested_at, replaces=old is not None)
            next_rowid += len(record.sections)
            if len(batch.sections) + len(batch.documents) >= COMMIT_EVERY_SECTIONS:
                writer.submit(_write_batch, conn, batch, drop_trigram)
                batch, drop_trigram = DocumentBatch(), False
            report.changed += 1
            report.sections_written += len(record.sections)
            if record.summary_src == "offline":
                report.summaries_offline += 1
        if batch.documents:
            writer.submit(_write_batch, conn, batch, drop_trigram)
            drop_trigram = False
        writer.close()
    except BaseException:
        writer.abort()  # nothing writes to the connection after this; the caller closes it
        raise
    for path in sorted(set(existing) - present):
        if drop_trigram:
            drop_trigram = not trigram.drop_if_present(conn)
        delete_document(conn, path)
        report.deleted += 1
    conn.commit()

    if not left_unfinished and _index_is_current(meta, settings, report):
        # system-design section 3: a no-change re-ingest performs only discover and hash.
        new_meta = meta
    else:
        new_meta = index_meta(conn, settings, corpus_root=meta.get("corpus_root", report.corpus_root))
    if meta.get("corpus_root") is None or report.changed or report.deleted:
        new_meta["corpus_root"] = report.corpus_root
    if any(meta.get(key) != value for key, value in new_meta.items()):
        new_meta["ingested_at"] = ingested_at
        write_meta(conn, new_meta)
        conn.commit()
        report.wrote = True
    if report.changed or report.deleted or left_unfinished:
        # A build artifact updated in place no longer is that artifact: drop the keys only
        # `contextpull build` maintains, so a server never advertises a stale content fingerprint.
        conn.execute(f"DELETE FROM meta WHERE key IN ({', '.join('?' * len(BUILD_ONLY_META))})", BUILD_ONLY_META)
        conn.commit()
    report.wrote = report.wrote or bool(report.changed or report.deleted or left_unfinished)
    report.index_mode = new_meta["index_mode"]
    report.index_tokens = int(new_meta["index_tokens"])
    report.corpus_fingerprint = new_meta["corpus_fingerprint"]
    report.documents = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    report.sections = conn.execute("SELECT count(*) FROM sections").fetchone()[0]


def _write_batch(conn: sqlite3.Connection, batch: DocumentBatch, drop_trigram: bool) -> None:
    """One batch of changed documents, in one transaction (on the writer thread)."""
    if drop_trigram:
        trigram.drop_if_present(conn)
    batch.write(conn)
    conn.commit()


BUILD_ONLY_META = ("content_fingerprint", "builder", "builder_sqlite", "build_settings")
# Meta keys that the settings decide; the index must be rebuilt when any of them differs.
_INDEX_SETTINGS = ("summarizer", "index_budget_tokens", "section_max_chars", *SECTION_SETTINGS_KEYS)


def _index_is_current(meta: dict[str, str], settings: Settings, report: IngestReport) -> bool:
    """No document changed, none vanished, and the settings that shape the index are the stored ones."""
    if report.changed or report.deleted or "index_text" not in meta or meta.get("corpus_root") is None:
        return False
    if any(meta.get(key) != str(getattr(settings, key)) for key in _INDEX_SETTINGS):
        return False
    return meta.get("schema_version") == SCHEMA_VERSION


def default_store(corpus: Path) -> Path:
    """``<corpus>/.contextpull/store.sqlite``: next to the docs it describes, hidden from discovery."""
    return Path(corpus) / ".contextpull" / "store.sqlite"


__all__ = [
    "IngestReport",
    "build_record",
    "check_corpus",
    "collect",
    "default_store",
    "ingest",
    "strict_failure",
]
