"""The ingest pipeline: discover → hash → parse → section → classify → write → fts → summarize →
index (system-design.txt sections 2, 3 and 12; supplement.md "Failure modes").

Two entry points share one document source (``documents.py``: each file passed over, kept or
parsed, in path order) and one per-file path:

- ``collect`` streams ``DocumentRecord`` or ``Skipped`` in path order for builds that write a
  fresh store (``contextpull build``);
- ``ingest`` updates a store in place (``ingest_update.apply_corpus``: an unchanged file is
  skipped whole, a changed one replaced in one transaction, a vanished one deleted, and a run
  that changes nothing writes nothing); the first ingest into a new store path writes a scratch
  file and renames it (``ingest_target``).

Both hold one file's bytes and one document's sections at a time (a small window of them when
parse workers run, see ``workers.py``), so memory does not grow with the corpus.

Bad input never stops a run: anything a parser cannot use becomes ``Skipped(path, reason)``.
"""

from __future__ import annotations

import hashlib
import itertools
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..system.bounded_read import FileTooLarge, NotRegularFile, read_regular
from ..settings import Settings
from ..settings.environment import Environment
from ..errors import InputError, ModelSettingError, StoreError
from ..parsing.blocks import ParsedDocument, ParseError
from ..writing.discover import SUPPORTED_EXTENSIONS, Candidate, discover, found_extensions
from .report import IngestReport, strict_failure, strict_problems
from .summaries import SummaryStage, wants_model
from .target import StoreTarget
from .documents import documents
from .update import apply_corpus
from .site import open_reader, with_site
from ..dialects.tracking.reads import expected_sha, guessed_mdx, reads_dialect
from ..parsing.parse import kind_for, parse_file
from ..writing.records import DocumentRecord, NotAPage, PreparedRecord, Skipped
from ..writing.section import section_document
from ..writing.summary import offline_summary
from ..writing.vectors import VectorCounts, known_vectors, write_vectors
from ..writing.writer import display_root, fts_normalize

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
    found = found_extensions(corpus)
    return InputError(
        f"no documents found in {corpus}" + (f" (it holds {found})" if found else " (it is empty)"),
        f"supported extensions are {supported_list()}; hidden files and folders and"
        " .contextpullignore entries are not read",
    )


@dataclass(frozen=True)
class _Read:
    candidate: Candidate
    data: bytes
    sha256: str


def _read(candidate: Candidate, max_bytes: int) -> _Read | Skipped:
    """The file's bytes, or why not. The size limit is checked on the open file before a byte is
    read, so a sparse 8 GiB file costs nothing; a pipe swapped in after discovery is refused."""
    try:
        data = read_regular(candidate.abspath, max_bytes)
    except FileNotFoundError:
        return Skipped(candidate.path, "file vanished during the run")
    except PermissionError:
        return Skipped(candidate.path, "file cannot be read (permission denied)")
    except IsADirectoryError:
        return Skipped(candidate.path, "not a regular file (a folder)")
    except FileTooLarge as exc:
        return Skipped(
            candidate.path, f"file is {exc.size} bytes, over max_file_bytes ({exc.limit}); not read"
        )
    except NotRegularFile as exc:
        return Skipped(candidate.path, str(exc))
    except OSError as exc:
        return Skipped(candidate.path, f"file cannot be read ({exc.strerror or exc})")
    return _Read(candidate, data, hashlib.sha256(data).hexdigest())


def _discovered(corpus: Path, exclude: Iterable[Path]) -> list:
    """Discovery listed in full before a file is read (paths only, cheap beside reading them):
    the total is what lets progress say how far a run is, and the document source how long the
    run can be (``workers.ordered_map``'s ``expected``)."""
    return list(discover(corpus, exclude=exclude))


def _scan(found: list, progress, max_bytes: int, reader=None) -> Iterator[_Read | Skipped | NotAPage]:
    """What discovery ``found``, read; a file the site's generator never renders as a page is a
    ``NotAPage`` entry, whose bytes go no further (``dialects.pages``). ``reader`` is the site
    opened for the build (``open_reader``); a plain site has no page rules."""
    not_a_page = None
    if reader is not None and reader.site.dialect != "plain":
        from ..dialects.pages.hook import not_a_page  # a plain build never loads the dialects' rules
    if progress is not None:
        progress.start(len(found))
    for item in found:
        if progress is not None:
            progress.advance(item.path)
        if isinstance(item, Skipped):
            yield item
            continue
        read = _read(item, max_bytes)
        if not_a_page is None:
            yield read
            continue
        # asked with the bytes just read, so a rule need not open the page again (dialects.pages)
        reason = not_a_page(item.path, reader, read.data if isinstance(read, _Read) else None)
        yield NotAPage(item.path, reason) if reason is not None else read


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[:dot] if dot > 0 else name


def build_record(
    path: str, data: bytes, sha256: str, settings: Settings, reader=None
) -> DocumentRecord | Skipped:
    """Parse, section, classify and summarise one file's bytes: ``finish_record`` of
    ``read_record``, the two halves a parse worker and the main process share between them
    (``workers.ordered_map``).

    A plain site's Markdown and every other format take the path they always took, so their
    records are byte for byte what they were; a generator's dialect and the kinds it brought
    (``.mdx``, ``.rst``, ``.ipynb``) are read through ``dialects.read``."""
    return finish_record(read_record(path, data, sha256, settings, reader), settings)


@dataclass(frozen=True)
class Read:
    """One file parsed, not yet sectioned: what ``read_record`` hands ``finish_record``."""

    path: str
    kind: str
    size: int
    parsed: ParsedDocument
    description: str | None
    sha256: str  # what the document is stored under (its fingerprint when a dialect read it)
    extra: dict  # a dialect's dependencies and notes


def read_record(path: str, data: bytes, sha256: str, settings: Settings, reader=None) -> Read | Skipped:
    """The file read: the half of ``build_record`` that a dialect makes Python-heavy (includes,
    shortcodes, data files, markup to text), so the half a parse worker takes."""
    kind = kind_for(path)
    if kind is None:
        return Skipped(path, "unsupported file type")
    try:
        guessed = None if reads_dialect(path, settings.site) else guessed_mdx(path, data, settings.site)
        if reads_dialect(path, settings.site) or guessed:
            parsed, description, sha, extra = _read_dialect(path, data, sha256, settings, kind, reader, guessed)
        else:
            parsed, description, sha, extra = parse_file(data, kind, _stem(path)), None, sha256, {}
    except Exception as exc:  # noqa: BLE001 - one bad file must never stop the run
        return _failed(path, exc)
    return Read(path, kind, len(data), parsed, description, sha, extra)


def _read_dialect(path: str, data: bytes, sha256: str, settings: Settings, kind: str, reader=None, guessed=None):
    """(parsed, description, the document's sha256, its dependencies and notes) by its dialect;
    a ``.md`` page with MDX ``guessed`` from its content (``reads.guessed_mdx``) by the MDX
    rules, its evidence kept as notes for the report."""
    from ..dialects.api import Site
    from ..dialects.tracking.fingerprint import document_sha
    from ..dialects.read import read_document

    site = settings.site
    if site is None:  # a caller that resolved no site (a library user): no root, so no includes
        site = Site("plain", None, "", "")
    result = read_document(data, "mdx" if guessed else kind, _stem(path), path, site, reader)
    notes = result.notes
    if guessed:
        from ..dialects.api import Note
        from ..dialects.tracking.report import GUESS

        notes = (*(Note(GUESS, "converted", 0, k) for k in sorted(guessed)), *notes)
    sha = document_sha(site.reading, sha256, result.deps)
    return result.parsed, result.description, sha, {"deps": result.deps, "notes": notes}


def finish_record(read: Read | Skipped, settings: Settings) -> PreparedRecord | Skipped:
    """Section, classify and summarise what ``read_record`` gave; any failure is a skip naming it."""
    if isinstance(read, Skipped):
        return read
    try:
        drafts = section_document(read.parsed, settings)
        summary = offline_summary(read.parsed.title, drafts, read.description)
    except Exception as exc:  # noqa: BLE001 - one bad file must never stop the run
        return _failed(read.path, exc)
    if not drafts:
        return Skipped(read.path, "no text to index")
    sections = tuple(drafts)
    return PreparedRecord(
        path=read.path,
        title=read.parsed.title,
        summary=summary,
        summary_src="offline",
        sha256=read.sha256,
        bytes=read.size,
        kind=read.kind,
        sections=sections,
        fts=tuple((fts_normalize(s.heading_path), fts_normalize(s.text)) for s in sections),
        **read.extra,
    )


def _failed(path: str, exc: Exception) -> Skipped:
    """The skip a file's failure to parse or section becomes, its reason named."""
    if isinstance(exc, ParseError):
        return Skipped(path, str(exc) or "could not be parsed")
    if isinstance(exc, RecursionError):
        return Skipped(path, "could not be parsed (structure nested too deeply)")
    return Skipped(path, f"could not be parsed ({type(exc).__name__}: {exc})")


def collect(
    corpus: Path,
    settings: Settings,
    *,
    exclude: Iterable[Path] = (),
    reuse: Reuse | None = None,
    recorded: dict | None = None,
    progress=None,
) -> Iterator[DocumentRecord | Skipped]:
    """Every supported file under ``corpus`` as a record or a skip, in path order, streamed.

    ``reuse(path, sha256)`` may return a record cached by an earlier build; it is used as is.
    The sha256 it is asked with is the one the document would be stored under now: for a
    document a dialect reads, its fingerprint over the dependencies ``recorded`` (the cache's
    ``dialect_reads``) as they are on disk now (``dialects.tracking.reads.expected_sha``).
    """
    settings = with_site(settings, corpus)
    reader = open_reader(settings)
    memo: dict[str, str] = {}

    def cached(path: str, sha256: str) -> DocumentRecord | None:
        return reuse(path, expected_sha(path, sha256, settings.site, recorded or {}, memo))  # type: ignore[misc]

    found = _discovered(Path(corpus), exclude)
    yield from documents(
        _scan(found, progress, settings.max_file_bytes, reader), settings, expected=len(found),
        parse=partial(build_record, reader=reader), keep=cached if reuse is not None else None,
        halves=(partial(read_record, reader=reader), partial(finish_record, settings=settings)),
    )


def ingest(
    corpus: Path,
    store: Path,
    settings: Settings,
    *,
    strict: bool = False,
    progress=None,
    exclude: Iterable[Path] = (),
    environment: Environment = Environment(),
    embedder=None,
) -> IngestReport:
    """Bring ``store`` up to date with ``corpus``; see the module docstring for the rules.

    With ``strict``, any skipped file, or any document whose model summary failed, raises
    ``CheckFailed`` after the store is written. A model summarizer whose provider is unknown or
    whose key is not set in ``environment.variables`` fails here, before anything is read or
    written. ``environment`` is what the caller read from its environment
    (``cli.environment.read_environment``); ``Environment()`` is a run with none of it.
    """
    started = time.perf_counter()
    corpus, store = Path(corpus), Path(store)
    summaries = SummaryStage(settings, environ=environment.variables) if wants_model(settings) else None
    check_corpus(corpus)
    settings = with_site(settings, corpus, environment)
    reader = open_reader(settings)
    found = _discovered(corpus, [*exclude, store])
    scan = _scan(found, progress, settings.max_file_bytes, reader)
    first = next(scan, None)
    if first is None:
        raise empty_corpus_error(corpus)

    report = IngestReport(
        corpus_root=display_root(corpus),
        store=str(store),
        index_budget_tokens=settings.index_budget_tokens,
    )
    if embedder is None:  # a library caller may bring its own (ingest.api, embed_fn)
        embedder = load_embedder(settings.embed_model, environment.variables)
    target = StoreTarget(store)
    try:
        known = known_vectors(target.conn, embedder.setting) if embedder is not None else {}
        # build_record is looked up here, at call time, so tests can stand in for it
        apply_corpus(
            target.conn, itertools.chain([first], scan), settings, report,
            parse=partial(build_record, reader=reader), before_write=target.before_write, corpus_label=str(corpus),
            summaries=summaries, expected=len(found),
        )
        if embedder is not None:
            report.embeddings = _vectors(target, embedder, known)
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
    if summaries is not None:
        report.summaries = summaries.to_dict()
    report.elapsed_s = round(time.perf_counter() - started, 3)
    if strict and strict_problems(report):
        raise strict_failure(report)
    return report


def load_embedder(setting: str | None, environ: Mapping[str, str]):
    """The embedder of ``embed_model`` (its key and URL looked up in ``environ``), loaded before any work starts, or None when unset. A
    build asked for vectors that cannot compute them fails here, in one line naming what is
    missing (the extra, the key), rather than after the documents were written. Exit 3, as for
    a summarizer: the setting is well formed, what is missing lies outside the command line."""
    if setting is None:
        return None
    from ..models.embed import EmbedUnavailable
    from ..models.embedders import load

    try:
        return load(setting, environ)
    except EmbedUnavailable as exc:
        raise ModelSettingError(exc.message, exc.suggestion) from None


def _vectors(target: StoreTarget, embedder, known: dict) -> dict:
    """Vectors for the sections this run wrote (``writing.vectors``); the first write of a run
    that changed no document puts the store into WAL mode, as a document write would."""
    missing = target.conn.execute(
        "SELECT 1 FROM sections s LEFT JOIN embeddings e ON e.section_id = s.id WHERE e.section_id IS NULL LIMIT 1"
    ).fetchone()
    stale = target.conn.execute(
        "SELECT 1 FROM embeddings WHERE model != ? LIMIT 1", (embedder.setting,)
    ).fetchone()
    if missing is None and stale is None:
        total = target.conn.execute("SELECT count(*) FROM embeddings").fetchone()[0]
        return VectorCounts(embedder.setting, 0, total).to_dict()
    target.before_write()
    counts = write_vectors(target.conn, embedder, known)
    target.conn.commit()
    return counts.to_dict()


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
    "strict_problems",
]
