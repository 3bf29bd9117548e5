"""A document's fingerprint when what it shows depends on more than its own bytes (issue 26,
"Incremental and deterministic"; docs/dialects.md, "Fingerprints").

``documents.sha256`` is the file's sha256 exactly when the document was read as ``plain`` and read
no other file: then the store is byte-identical to the published writer's. Otherwise it is
``fingerprint(dialect, file_sha, deps)``: the dialect that read it, the file's own sha256 and each
file it read (repository path and sha256, ``includes.MISSING`` for a target that was not there) and
each entry of a site-wide table it shows (``Context.depend``: a ``scheme://`` key and the entry's
sha256, recomputed through ``VIRTUAL``), so the same comparison every incremental path already makes
(stored sha256 against the one computed now) rebuilds a document exactly when its file, one of its
dependencies or the dialect changed. The dependency list itself is kept in the store
(``meta.dialect_reads``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from ..door import SiteDoor
from ..includes import MAX_INCLUDE_BYTES, MISSING

FINGERPRINT_VERSION = "cp-deps-1"


def fingerprint(dialect: str, file_sha: str, deps: Iterable[tuple[str, str]]) -> str:
    digest = hashlib.sha256()
    digest.update(f"{FINGERPRINT_VERSION}\0{dialect}\0{file_sha}\0".encode())
    for path, sha in sorted(deps):
        digest.update(path.encode("utf-8") + b"\0" + sha.encode("ascii") + b"\0")
    return digest.hexdigest()


def document_sha(dialect: str, file_sha: str, deps: Iterable[tuple[str, str]]) -> str:
    """What ``documents.sha256`` holds: the file's sha256 for a plain document that read
    nothing else, its fingerprint otherwise."""
    deps = tuple(deps)
    if dialect == "plain" and not deps:
        return file_sha
    return fingerprint(dialect, file_sha, deps)


# Dependencies that are not files (``Context.depend``): scheme -> the module, in this package,
# whose ``current(repo_root, key, memo)`` gives the sha256 such a key has now.
VIRTUAL = {"sphinx-label": "sphinx.xrefs.labels"}


def dependency_sha(repo_root: str, path: str, memo: dict | None = None) -> str:
    """The sha256 a dependency has now (``MISSING`` when it cannot be read as an include would):
    what an incremental build compares with the one recorded."""
    scheme, sep, _ = path.partition("://")
    if sep:
        if scheme not in VIRTUAL:
            return "unknown"  # a key this version cannot recompute: the document is read again
        import importlib

        dialects = __package__.rpartition(".")[0]  # VIRTUAL names modules of the dialects room
        return importlib.import_module(f"{dialects}.{VIRTUAL[scheme]}").current(repo_root, path, memo)
    # through the site's door: a recorded path is read under the guard its first read had
    return SiteDoor(repo_root).sha256(path, MAX_INCLUDE_BYTES)


def current_sha(dialect: str, file_sha: str, deps: Iterable[str], repo_root: str, memo: dict | None = None) -> str:
    """``document_sha`` with each recorded dependency's sha256 as it is on disk now; ``memo``
    (path -> sha256) spares rehashing a file many documents include."""
    now = []
    for path in deps:
        if memo is not None and path in memo:
            sha = memo[path]
        else:
            sha = dependency_sha(repo_root, path, memo)
            if memo is not None:
                memo[path] = sha
        now.append((path, sha))
    return document_sha(dialect, file_sha, now)
