"""Check that a store file is what it claims to be (issue 4, item 8; store-format.txt, "Opening").

``verify`` is the gate before a store is trusted: after a build, before a cached artifact is
reused, after ``fetch`` downloads one. It opens the file read-only, never writes, and stops at the
first failure with a message naming it, because "section x#3 has prev_id y#1, expected x#2" is
actionable and "store invalid" is not.

Two kinds of failure: the file is not a usable store at all (not SQLite, no meta, a newer major,
no FTS5) raises ``StoreError`` (exit 3); a store that opens but does not hold together (checksum,
integrity, ordinals, links, hashes, fingerprints, manifest) raises ``CheckFailed`` (exit 1).

Standard library only: ``contextpull.serving.fetch`` imports this without click.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..system.bounded_read import CONFIG_FILE_LIMIT, open_regular, read_regular_text, why
from ..errors import CheckFailed, StoreError
from ..provenance import Provenance
from ..schema import INDEX_MODES, SCHEMA_VERSION, SUPPORTED_MAJOR
from ..text import QUERY_TOKEN, normalize_for_fts
from ..writing.fingerprint import content_fingerprint, file_sha256

SQLITE_HEADER = b"SQLite format 3\x00"
REQUIRED_TABLES = ("meta", "documents", "sections", "sections_fts")
# meta keys whose absence makes a store unreadable by any reader (store-format.txt, "Opening").
REQUIRED_META = ("schema_version", "index_text", "index_mode", "index_tokens", "corpus_fingerprint")
CONTENT_FP_KEY = "content_fingerprint"


@dataclass
class VerifyReport:
    """What was checked, for the CLI summary and ``--json``."""

    path: str
    sha256: str | None = None
    content_fingerprint: str | None = None
    documents: int = 0
    sections: int = 0
    checks: list[str] = field(default_factory=list)
    provenance: Provenance = field(default_factory=Provenance)  # issue 27; empty for a store built outside git

    def to_dict(self) -> dict:
        return {
            "ok": True,
            "path": self.path,
            "sha256": self.sha256,
            "content_fingerprint": self.content_fingerprint,
            "documents": self.documents,
            "sections": self.sections,
            "checks": list(self.checks),
            "provenance": self.provenance.to_dict(),
        }


def open_readonly(path: Path, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """Open ``path`` read-only; works in a directory we cannot write to (no journal needed)."""
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=check_same_thread)
    conn.execute("PRAGMA query_only = 1")
    return conn


def read_sha256_file(path: Path) -> str:
    """The hex digest from a ``sha256sum``-format file (``<hex>  <name>``)."""
    try:
        first = read_regular_text(path, CONFIG_FILE_LIMIT).split()
    except (OSError, UnicodeDecodeError) as exc:
        raise CheckFailed(f"cannot read checksum file {path}: {why(exc)}") from None
    if not first or not _is_hex(first[0], 64):
        raise CheckFailed(f"checksum file {path} does not start with a sha256 hex digest")
    return first[0].lower()


def load_manifest(path: Path) -> dict:
    try:
        data = json.loads(read_regular_text(path, CONFIG_FILE_LIMIT))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CheckFailed(f"cannot read manifest {path}: {why(exc)}") from None
    if not isinstance(data, dict):
        raise CheckFailed(f"manifest {path} is not a JSON object")
    for key in _MANIFEST_OBJECTS:
        if key in data and not isinstance(data[key], dict):
            raise CheckFailed(f"manifest {path}: {key} is not a JSON object")
    return data


# The manifest's members that are objects (manifest.schema.json); the checks read into them.
_MANIFEST_OBJECTS = ("builder", "store", "fingerprints", "counts", "index", "settings", "source")


def _is_hex(text: str, length: int) -> bool:
    return len(text) == length and all(c in "0123456789abcdefABCDEF" for c in text)


def check_file_header(path: Path) -> None:
    """Refuse what is not a SQLite file before handing it to SQLite."""
    path = Path(path)
    if not path.exists():
        raise StoreError(f"{path} does not exist")
    try:
        with open_regular(path) as handle:  # a pipe is refused, not waited on
            head = handle.read(100)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {why(exc)}") from None
    if not head.startswith(SQLITE_HEADER):
        raise StoreError(f"{path} is not a SQLite file", "point at a store.sqlite built by contextpull")


def verify_store(
    path: Path | str,
    *,
    manifest: Path | str | dict | None = None,
    sha256: str | None = None,
    sidecars: bool = True,
    deep: bool = True,
    fts_text: bool = True,
) -> VerifyReport:
    """Run every check on ``path``; return a report, or raise on the first failure.

    ``manifest`` is a path or an already-parsed dict; ``sha256`` the expected file digest. With
    ``sidecars`` (default) a ``<store>.sha256`` and a ``manifest.json`` beside the store are used
    when the caller gave none, so ``verify out/store.sqlite`` checks the whole artifact.
    ``deep=False`` skips the per-section text checks (hash, FTS text): the structure, links and
    fingerprints are still checked. ``fts_text=False`` keeps the text hash checks but skips
    re-normalising every section to compare with its FTS row, the costly part; the build uses it
    to vet a cache that has no checksum beside it.
    """
    path = Path(path)
    report = VerifyReport(path=str(path))
    check_file_header(path)

    manifest_data: dict | None = None
    if isinstance(manifest, dict):
        manifest_data = manifest
    elif manifest is not None:
        manifest_data = load_manifest(Path(manifest))
    elif sidecars and os.path.lexists(path.parent / "manifest.json"):  # a pipe is refused, not passed over
        candidate = load_manifest(path.parent / "manifest.json")
        if candidate.get("store", {}).get("file") == path.name:
            manifest_data = candidate
    if sha256 is None and sidecars and os.path.lexists(str(path) + ".sha256"):
        sha256 = read_sha256_file(Path(str(path) + ".sha256"))

    need_digest = sha256 is not None or manifest_data is not None
    if need_digest:
        report.sha256 = file_sha256(path)
    if sha256 is not None:
        if not _is_hex(sha256.strip(), 64):
            raise CheckFailed(f"--sha256 {sha256!r} is not a 64-digit hex digest")
        if report.sha256 != sha256.strip().lower():
            raise CheckFailed(
                f"checksum mismatch: {path.name} has sha256 {report.sha256}, expected {sha256.strip().lower()}",
                "the file changed after it was built, or the checksum belongs to another file",
            )
        report.checks.append("sha256")
    if manifest_data is not None:
        _check_manifest_file(path, manifest_data, report.sha256)
        report.checks.append("manifest file")

    if manifest_data is not None or sha256 is not None:
        # Before opening: SQLite would try to roll back a hot journal lying beside the file.
        _check_artifact_shape(path)
        report.checks.append("self-contained")
    conn = _open_store(path)
    try:
        meta = _check_schema(conn, path)
        report.provenance = Provenance.from_meta(meta)
        report.checks += ["schema_version", "fts5"]
        _check_integrity(conn)
        report.checks.append("integrity_check")
        report.documents, report.sections = _check_documents(conn)
        report.checks += ["ordinals", "links", "n_sections"]
        _check_fts(conn, deep=deep)
        report.checks.append("fts rows")
        if deep:
            _check_section_text(conn, fts_text=fts_text)
            report.checks.append("section hashes")
            if fts_text:
                report.checks.append("fts text")
        report.content_fingerprint = content_fingerprint(conn)
        recorded = meta.get(CONTENT_FP_KEY)
        if recorded is not None and recorded != report.content_fingerprint:
            raise CheckFailed(
                f"content fingerprint mismatch: meta records {recorded}, contents give "
                f"{report.content_fingerprint}",
                "the store was modified after it was built",
            )
        _check_corpus_fingerprint(conn, meta)
        report.checks.append("fingerprints")
        if manifest_data is not None:
            _check_manifest_contents(manifest_data, meta, report)
            report.checks.append("manifest contents")
    except sqlite3.DatabaseError as exc:
        # A damaged page can pass integrity_check and still fail to decode (a flipped byte
        # inside a text value): that is a failed check, not a crash.
        done = report.checks[-1] if report.checks else "opening"
        detail = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise CheckFailed(
            f"{path} cannot be read back after the {done} check: {detail}",
            "the file is damaged; rebuild it",
        ) from None
    finally:
        conn.close()
    return report


def _open_store(path: Path) -> sqlite3.Connection:
    try:
        conn = open_readonly(path)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} cannot be opened as SQLite: {exc}") from None
    return conn


def _check_schema(conn: sqlite3.Connection, path: Path) -> dict[str, str]:
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = [t for t in REQUIRED_TABLES if t not in tables]
    if missing:
        raise StoreError(f"{path} is not a ContextPull store: missing table(s) {', '.join(missing)}")
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    version = meta.get("schema_version")
    if version is None:
        raise StoreError(f"{path} is not a ContextPull store: meta.schema_version is missing")
    major = version.split(".", 1)[0]
    if major != str(SUPPORTED_MAJOR):
        raise StoreError(
            f"{path} has schema_version {version}; this verifier supports {SCHEMA_VERSION} (major {SUPPORTED_MAJOR})"
        )
    try:
        conn.execute("SELECT count(*) FROM sections_fts LIMIT 1").fetchone()
    except sqlite3.OperationalError as exc:
        raise StoreError(f"FTS5 is not usable on sections_fts: {exc}", "use a SQLite build with FTS5") from None
    for key in REQUIRED_META:
        if key not in meta:
            raise CheckFailed(f"meta.{key} is missing")
    if meta["index_mode"] not in INDEX_MODES:
        raise CheckFailed(f"meta.index_mode is {meta['index_mode']!r}, not one of {', '.join(INDEX_MODES)}")
    if not meta["index_tokens"].isdigit():
        raise CheckFailed(f"meta.index_tokens is {meta['index_tokens']!r}, not a whole number")
    return meta


def _check_integrity(conn: sqlite3.Connection) -> None:
    try:
        rows = [r[0] for r in conn.execute("PRAGMA integrity_check(5)")]
    except sqlite3.DatabaseError as exc:
        raise CheckFailed(f"integrity_check failed: {exc}") from None
    if rows != ["ok"]:
        raise CheckFailed(f"integrity_check failed: {'; '.join(rows)}")


def _check_artifact_shape(path: Path) -> None:
    """A published artifact is self-contained: rollback journal, no -wal/-shm beside it."""
    with open(path, "rb") as handle:
        header = handle.read(20)
    if header[18] == 2 or header[19] == 2:
        raise CheckFailed(f"{path.name} is in WAL mode; a built artifact uses journal_mode=DELETE")
    for suffix in ("-wal", "-shm", "-journal"):
        if Path(str(path) + suffix).exists():
            raise CheckFailed(f"{path.name}{suffix} exists beside the store; the artifact is not self-contained")


def _check_documents(conn: sqlite3.Connection) -> tuple[int, int]:
    """Ordinals 0..n-1, ids path#ordinal, prev/next links, n_sections, char_len, per document."""
    docs = conn.execute("SELECT doc_id, path, n_sections FROM documents ORDER BY doc_id").fetchall()
    seen = 0
    cursor = conn.execute(
        "SELECT doc_id, id, ordinal, prev_id, next_id FROM sections ORDER BY doc_id, ordinal"
    )
    rows = iter(cursor)
    pending = next(rows, None)
    for doc_id, doc_path, n_sections in docs:
        group = []
        while pending is not None and pending[0] == doc_id:
            group.append(pending)
            pending = next(rows, None)
        if pending is not None and pending[0] < doc_id:
            raise CheckFailed(f"section {pending[1]} belongs to doc_id {pending[0]}, which is not in documents")
        if len(group) != n_sections:
            raise CheckFailed(f"{doc_path}: n_sections is {n_sections} but {len(group)} sections are stored")
        ids = [f"{doc_path}#{i}" for i in range(len(group))]
        for i, (_, sid, ordinal, prev_id, next_id) in enumerate(group):
            if ordinal != i:
                raise CheckFailed(f"{doc_path}: ordinals are not contiguous from 0 (found {ordinal} at position {i})")
            if sid != ids[i]:
                raise CheckFailed(f"section id {sid!r} should be {ids[i]!r} (path#ordinal)")
            want_prev = ids[i - 1] if i > 0 else None
            want_next = ids[i + 1] if i + 1 < len(group) else None
            if prev_id != want_prev:
                raise CheckFailed(f"section {sid} has prev_id {prev_id!r}, expected {want_prev!r}")
            if next_id != want_next:
                raise CheckFailed(f"section {sid} has next_id {next_id!r}, expected {want_next!r}")
        seen += len(group)
    if pending is not None:
        raise CheckFailed(f"section {pending[1]} belongs to doc_id {pending[0]}, which is not in documents")
    total = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
    if total != seen:
        raise CheckFailed(f"{total - seen} section row(s) belong to no document")
    return len(docs), seen


def _check_fts(conn: sqlite3.Connection, *, deep: bool) -> None:
    """The FTS table holds exactly one row per section with the same id."""
    n_sections = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
    n_fts = conn.execute("SELECT count(*) FROM sections_fts").fetchone()[0]
    if n_fts != n_sections:
        raise CheckFailed(f"sections_fts has {n_fts} rows but sections has {n_sections}")
    if not deep:
        return
    orphan = conn.execute(
        "SELECT f.id FROM sections_fts f LEFT JOIN sections s ON s.id = f.id WHERE s.id IS NULL LIMIT 1"
    ).fetchone()
    if orphan is not None:
        raise CheckFailed(f"sections_fts row {orphan[0]!r} has no section")


def _check_section_text(conn: sqlite3.Connection, *, fts_text: bool = True) -> None:
    """hash == sha256(text), char_len == len(text), and the FTS row holds the normalised text."""
    if not fts_text:
        for sid, text, char_len, digest in conn.execute("SELECT id, text, char_len, hash FROM sections"):
            if hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
                raise CheckFailed(f"section {sid}: hash does not match sha256 of its text")
            if len(text) != char_len:
                raise CheckFailed(f"section {sid}: char_len is {char_len} but the text has {len(text)} characters")
        return
    for sid, text, char_len, digest, heading, fts_heading, fts_body in conn.execute(
        "SELECT s.id, s.text, s.char_len, s.hash, s.heading_path, f.heading_path, f.text"
        " FROM sections s JOIN sections_fts f ON f.id = s.id"
    ):
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
            raise CheckFailed(f"section {sid}: hash does not match sha256 of its text")
        if len(text) != char_len:
            raise CheckFailed(f"section {sid}: char_len is {char_len} but the text has {len(text)} characters")
        # Compare the word tokens after normalising both sides: the rule is idempotent, so our
        # own rows pass as written, and so do stores from writers (earlier releases of this one)
        # that dropped punctuation-only tokens such as `--`, which no query can match.
        if _tokens(fts_body) != _tokens(text) or _tokens(fts_heading) != _tokens(heading):
            raise CheckFailed(f"section {sid}: sections_fts does not hold its normalised text")


def _tokens(text: str) -> list[str]:
    return QUERY_TOKEN.findall(normalize_for_fts(text))


def _check_corpus_fingerprint(conn: sqlite3.Connection, meta: dict[str, str]) -> None:
    from ..writing.fingerprint import corpus_fingerprint

    expected = corpus_fingerprint(conn.execute("SELECT path, sha256 FROM documents"))
    if meta["corpus_fingerprint"] != expected:
        raise CheckFailed(
            f"meta.corpus_fingerprint is {meta['corpus_fingerprint']} but the documents give {expected}"
        )


def _check_manifest_file(path: Path, manifest: dict, digest: str | None) -> None:
    store = manifest.get("store")
    if not isinstance(store, dict):
        raise CheckFailed("manifest has no 'store' object")
    size = os.path.getsize(path)
    if store.get("bytes") != size:
        raise CheckFailed(
            f"manifest says the store has {store.get('bytes')} bytes, {path.name} has {size}",
            "the manifest belongs to another store",
        )
    if store.get("sha256") != digest:
        raise CheckFailed(
            f"manifest sha256 {store.get('sha256')} does not match {path.name} ({digest})",
            "the manifest belongs to another store, or the file changed",
        )
    fps = manifest.get("fingerprints") or {}
    if fps.get("file") not in (None, digest):
        raise CheckFailed(f"manifest fingerprints.file {fps.get('file')} does not match {path.name} ({digest})")


def _check_manifest_contents(manifest: dict, meta: dict[str, str], report: VerifyReport) -> None:
    fps = manifest.get("fingerprints") or {}
    if fps.get("content") != report.content_fingerprint:
        raise CheckFailed(
            f"manifest content fingerprint {fps.get('content')} does not match the store ({report.content_fingerprint})"
        )
    if fps.get("corpus") != meta.get("corpus_fingerprint"):
        raise CheckFailed(
            f"manifest corpus fingerprint {fps.get('corpus')} does not match the store ({meta.get('corpus_fingerprint')})"
        )
    counts = manifest.get("counts") or {}
    if counts.get("documents") != report.documents or counts.get("sections") != report.sections:
        raise CheckFailed(
            f"manifest counts {counts.get('documents')} documents / {counts.get('sections')} sections, "
            f"the store has {report.documents} / {report.sections}"
        )
    if manifest.get("schema_version") not in (None, meta.get("schema_version")):
        raise CheckFailed(
            f"manifest schema_version {manifest.get('schema_version')} differs from the store's {meta.get('schema_version')}"
        )
    # The manifest's source beside the commit is the store's provenance meta (issue 27); the
    # commit may be GITHUB_SHA there, so it is not compared.
    source = manifest.get("source") or {}
    listed = {k: source[k] for k in ("repository", "ref", "dirty", "version", "built_at") if k in source}
    recorded = {k: v for k, v in report.provenance.to_dict().items() if k in listed or (k != "commit" and v is not None)}
    if listed != recorded:
        raise CheckFailed(f"manifest source {listed} does not match the store's provenance meta {recorded}")
