"""The one door through which a document reads another file (issue 26, "Includes, resolved
inside the repository").

Every dialect's include (mdBook ``{{#include}}``, pymdown snippets, Hugo ``readfile``, Jekyll
``{% include %}``, MDX partials, rst ``include``) and every data read (``_data/*.yml``) comes here,
so the guard is written once: a documentation repository is untrusted input, and a build in CI
must not be talked into reading ``/etc/passwd``, a pipe that never ends, or a file that includes
itself a million times. The refusals, each a reason the report shows beside the file and line:

- a URL or an absolute path (nothing is fetched; a leading ``/`` means something different to each
  generator, so the dialect maps it to a repository path before it asks);
- a path that leaves the repository root, lexically (``../../..``) or after ``realpath`` (a
  symbolic link out of it);
- anything but a regular file (a folder, a named pipe, a device), opened without blocking
  (``bounded_read``);
- a file over ``MAX_INCLUDE_BYTES``, or one that would take the document past its
  ``DOCUMENT_BUDGET`` (what stops a chain that multiplies: ten includes of ten includes of ...),
  or a read past the document's ``MAX_READS`` (a million includes of an empty file);
- a cycle (the target is already open along the chain) or a chain deeper than ``MAX_DEPTH``.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import stat
from dataclasses import dataclass, field

from ..system.bounded_read import FileTooLarge, NotRegularFile, read_regular, why
from ..parsing.blocks import ParseError
from ..parsing.parse import decode_bytes
from ..parsing.parse_markdown import normalize_newlines
from .api import Included

MAX_DEPTH = 10
MAX_INCLUDE_BYTES = 4 * 1024 * 1024
DOCUMENT_BUDGET = 8 * 1024 * 1024
# Reads one document may make: an empty file costs no bytes, so the budget alone would let a
# page of a million includes of it open a million files.
MAX_READS = 10_000
# What a dependency on a file that is not there records: its appearance must rebuild the document.
MISSING = "missing"

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://|//|(?:data|file|mailto|javascript):", re.IGNORECASE)
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")


class Refused(Exception):
    """An include that is not read; the message is the reason the report shows."""


class ReadMemo:
    """What one build in one process has already read through the door, kept by its site's
    reader (``DocumentContext``): a file's real path, and the bytes of a regular file with their
    sha256. Shared snippets and data files are asked for by page after page (hugoDocs reads its
    122 KB ``data/docs.yaml`` 43 times and its ``_common`` snippets 214 times), and each ask
    walked the path with ``lstat``, read the file and hashed it again. Every ask still passes the
    guard, spends the document's budget and records the dependency; only the work that gives the
    same answer within a build is done once. A refusal is never kept: it is worked out again.
    What is kept is each file read, once: at most what the repository's included files hold."""

    def __init__(self) -> None:
        self.real: dict[str, str] = {}  # repository-relative path -> absolute real path
        self.read: dict[str, tuple[bytes, str]] = {}  # real path -> (bytes, sha256)


@dataclass
class Resolver:
    """One document's reads: the guard, the byte budget, and what was read (the dependencies)."""

    repo_root: str  # absolute and real
    document: str  # the document's own path relative to repo_root: the first link of every chain
    budget: int = field(default_factory=lambda: DOCUMENT_BUDGET)
    deps: dict[str, str] = field(default_factory=dict)  # repo-relative path -> sha256 or MISSING
    reads: int = 0
    memo: ReadMemo = field(default_factory=ReadMemo)  # the build's, when a reader gives one

    def locate(self, target: str, base: str) -> tuple[str, str]:
        """(repo-relative POSIX path, absolute real path) of ``target`` read from folder ``base``,
        or ``Refused`` when it names something outside the repository or not a path at all."""
        target = target.strip()
        if not target:
            raise Refused("empty include target")
        if not self.repo_root:
            raise Refused(f"no repository root is known, so nothing is included: {target}")
        if _URL.match(target):
            raise Refused(f"a URL, never fetched: {target}")
        if target.startswith(("/", "\\")) or _DRIVE.match(target):
            raise Refused(f"an absolute path: {target}")
        if "\x00" in target:
            raise Refused("a path with a NUL byte")
        rel = posixpath.normpath(posixpath.join(base.replace("\\", "/"), target.replace("\\", "/")))
        if rel == ".." or rel.startswith("../") or rel.startswith("/"):
            raise Refused(f"outside the repository: {target}")
        lexical = os.path.join(self.repo_root, *rel.split("/"))
        real = self.memo.real.get(rel)
        if real is None:
            real = self.memo.real[rel] = _real_below(self.repo_root, rel, lexical)
        if not _inside(real, self.repo_root):
            raise Refused(f"through a symbolic link out of the repository: {target}")
        key = rel if real == lexical else os.path.relpath(real, self.repo_root).replace(os.sep, "/")
        return key, real

    def read(self, target: str, base: str, within: Included | None) -> Included:
        """The included file, decoded, with its chain; ``Refused`` with the reason otherwise."""
        key, real = self.locate(target, base)
        chain = within.chain if within is not None else (self.document,)
        if key in chain:
            raise Refused("include cycle: " + " -> ".join((*chain[chain.index(key):], key)))
        if len(chain) > MAX_DEPTH:
            raise Refused(f"includes nested deeper than {MAX_DEPTH}: {' -> '.join((*chain, key))}")
        data = self.read_bytes(key, real, target)
        text = _decode(data)
        if text is None:
            raise Refused(f"a binary file: {target}")
        return Included(text, key, (*chain, key))

    def read_bytes(self, key: str, real: str, target: str) -> bytes:
        """The bytes of a located file under the per-file bound and what is left of the budget,
        recorded as a dependency (a missing one too: creating it must rebuild the document). A
        file read again counts again: the budget bounds the text a document expands to, and a
        chain of includes that repeat one file multiplies exactly that."""
        if self.budget <= 0:
            raise Refused(f"the document's include budget of {DOCUMENT_BUDGET} bytes is spent: {target}")
        self.reads += 1
        if self.reads > MAX_READS:
            raise Refused(f"the document's limit of {MAX_READS} includes is reached: {target}")
        limit = min(MAX_INCLUDE_BYTES, self.budget)
        kept = self.memo.read.get(real)
        if kept is not None and len(kept[0]) <= limit:
            data, self.deps[key] = kept
            self.budget -= len(data)
            return data
        try:
            data = read_regular(real, limit)
        except FileNotFoundError:
            self.deps.setdefault(key, MISSING)
            raise Refused(f"target missing: {target}") from None
        except FileTooLarge as exc:
            if exc.limit < MAX_INCLUDE_BYTES:
                raise Refused(
                    f"the document's include budget of {DOCUMENT_BUDGET} bytes is spent: {target}"
                ) from None
            raise Refused(f"{target} is {exc.size} bytes, over the include limit of {MAX_INCLUDE_BYTES}") from None
        except NotRegularFile as exc:
            raise Refused(f"{target} is {exc.kind}, not a regular file") from None
        except OSError as exc:
            raise Refused(f"cannot read {target}: {why(exc)}") from None
        self.budget -= len(data)
        self.deps[key] = sha = hashlib.sha256(data).hexdigest()
        self.memo.read[real] = (data, sha)
        return data


def locate_real(root: str, rel: str) -> str | None:
    """The absolute real path of ``rel`` (POSIX, relative to ``root``, which is real), or None when
    it leaves the root lexically or through a symbolic link: the guard ``Resolver.locate`` applies,
    for the site's own reads (``door.SiteDoor``)."""
    rel = posixpath.normpath(rel)
    if rel == ".." or rel.startswith("../") or rel.startswith("/"):
        return None
    lexical = root if rel == "." else os.path.join(root, *rel.split("/"))
    real = _real_below(root, rel, lexical)
    return real if _inside(real, root) else None


def _real_below(root: str, rel: str, lexical: str) -> str:
    """``os.path.realpath(lexical)`` for ``lexical``, which is ``rel`` (normalised, no ``..``) under
    ``root`` (real already): only the components below the root can be links, so only they are
    looked at, and the full resolution runs only when one of them is a link. A component that
    does not exist ends the walk, as it ends realpath's: nothing below it can be a link."""
    if rel == ".":
        return os.path.realpath(lexical)
    path = root
    for part in rel.split("/"):
        path = path + os.sep + part if path != os.sep else os.sep + part
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            return lexical
        if stat.S_ISLNK(mode):
            return os.path.realpath(lexical)
    return lexical


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _decode(data: bytes) -> str | None:
    """The document rule (``parse.decode_bytes``), newlines normalised; None for a binary file."""
    try:
        return normalize_newlines(decode_bytes(data))
    except ParseError:
        return None
