"""The one guarded door for what a build reads beside its pages without a document asking
(issue 35, "one guarded file door"): a generator's configuration, the files a page rule looks at
(front matter of a section index, ``SUMMARY.md``, a bundle's ``index.md``), the folders a label
table or a template list walks, and every existence probe.

A document's own reads (includes, data files) go through ``includes.Resolver``, which also
records them as the document's dependencies and spends its byte budget; this door applies the
same repository-root guard (``includes.locate_real``: lexically inside the root, and inside it
after following any symbolic link below it) to the reads that belong to the site rather than to
one document. A path may be given relative to the root (POSIX) or absolute; one that leaves the
root is treated as absent (``OutsideRepository``, an ``OSError``, so the callers' ``except
OSError`` holds), as is everything when no root is known. Reads are of regular files only and
bounded (``bounded_read``).
"""

from __future__ import annotations

import hashlib
import os
import stat

from ..system.bounded_read import read_regular
from ..system.bounded_read import CONFIG_FILE_LIMIT
from .includes import MISSING, locate_real


class OutsideRepository(OSError):
    """A path outside the repository root (or any path when no root is known)."""


class SiteDoor:
    """The guarded reads of one site (module docstring). Holds nothing but its root."""

    def __init__(self, repo_root: str):
        self.repo_root = repo_root

    def real(self, path: str) -> str:
        """The absolute real path of ``path`` (repository-relative or absolute), or
        ``OutsideRepository`` when it is not inside the root."""
        if not self.repo_root:
            raise OutsideRepository(f"no repository root is known: {path}")
        if os.path.isabs(path):
            rel = os.path.relpath(path, self.repo_root).replace(os.sep, "/")
        else:
            rel = path
        found = locate_real(self.repo_root, rel)
        if found is None:
            raise OutsideRepository(f"outside the repository: {path}")
        return found

    def read(self, path: str, limit: int) -> bytes:
        """The bytes of a regular file of at most ``limit`` bytes (``OSError`` otherwise)."""
        return read_regular(self.real(path), limit)

    def read_text(self, path: str, limit: int, encoding: str = "utf-8", errors: str = "strict") -> str:
        return self.read(path, limit).decode(encoding, errors)

    def head(self, path: str, size: int) -> bytes:
        """At most the first ``size`` bytes of a file, opened without blocking (a file swapped
        for a pipe must not hang the build); ``OSError`` when it cannot be read."""
        real = self.real(path)
        with open(real, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as fh:
            return fh.read(size)

    def sha256(self, path: str | None, limit: int = CONFIG_FILE_LIMIT) -> str:
        """The sha256 of a file's bytes, ``includes.MISSING`` when it cannot be read."""
        if path is None:
            return MISSING
        try:
            data = self.read(path, limit)
        except OSError:
            return MISSING
        return hashlib.sha256(data).hexdigest()

    def exists(self, path: str) -> bool:
        try:
            os.stat(self.real(path))
        except OSError:
            return False
        return True

    def is_file(self, path: str) -> bool:
        try:
            return stat.S_ISREG(os.stat(self.real(path)).st_mode)
        except OSError:
            return False

    def is_dir(self, path: str) -> bool:
        try:
            return stat.S_ISDIR(os.stat(self.real(path)).st_mode)
        except OSError:
            return False

    def walk(self, path: str):
        """``os.walk`` of a folder inside the root, as (folder relative to ``path`` with "." for
        itself, its folder names, its file names); the caller may sort or prune the folder names.
        Nothing when ``path`` is not a folder inside the root; symbolic links to folders are not
        followed, so the walk never leaves the folder."""
        try:
            real = self.real(path)
        except OSError:
            return
        if not os.path.isdir(real):
            return
        full = path if os.path.isabs(path) else os.path.join(self.repo_root, *[p for p in path.split("/") if p])
        for top, dirs, files in os.walk(full):
            yield os.path.relpath(top, full).replace(os.sep, "/"), dirs, files

    def scandir(self, path: str) -> list[os.DirEntry]:
        """The entries of a folder inside the root ([] when it is not one). An entry that is a
        symbolic link is the caller's to refuse or follow through ``real``."""
        try:
            with os.scandir(self.real(path)) as entries:
                return list(entries)
        except OSError:
            return []
