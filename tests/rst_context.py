"""A small stand-in for the build's dialect ``Context``, for testing dialect readers on strings.

It keeps the contract's rules that a reader depends on (targets relative to ``base``, inside the
repository root after realpath, regular files only, a depth bound, cycles refused, a note for
every include) and records notes in a list the tests compare.
"""

from __future__ import annotations

import hashlib
import os
import posixpath

from contextpull.dialects.api import Included, Site
from memory_context import MemoryReader


class FakeContext:
    def __init__(self, root, path="index.rst", *, docs="", config=None, config_file=None,
                 dialect="sphinx"):
        root = os.path.realpath(str(root))
        self.site = Site(dialect, config_file, os.path.join(root, docs) if docs else root, root)
        self.path = path
        self.repo_path = posixpath.join(docs, path) if docs else path
        self.folder = posixpath.dirname(self.repo_path)
        self.config = config if config is not None else {}
        self.front_matter = {}
        self.embedded = None  # blocks written back as Markdown, as a context without a place
        self.notes: list[tuple[str, str, int, str]] = []
        self.depended: dict[str, str] = {}
        self.data_read: list[str] = []
        self.reader = MemoryReader(self)

    def include(self, target, *, base, line, construct, within=None):
        rel = posixpath.normpath(posixpath.join(base, target))
        full = os.path.realpath(os.path.join(self.site.repo_root, rel))
        chain = (within.chain if within else ()) + (rel,)
        inside = full.startswith(self.site.repo_root + os.sep)
        if not inside:
            return self._refuse(construct, line, f"outside the repository: {target}")
        if within is not None and rel in within.chain:
            return self._refuse(construct, line, f"include cycle: {target}")
        if len(chain) > 10:
            return self._refuse(construct, line, f"includes nested too deeply: {target}")
        if not os.path.isfile(full):
            return self._refuse(construct, line, f"target missing: {target}")
        self.notes.append((construct, "resolved", line, rel))
        with open(full, encoding="utf-8") as f:
            return Included(f.read(), rel, chain)

    def _refuse(self, construct, line, detail):
        self.notes.append((construct, "unresolved", line, detail))
        return None

    def read_data_with_sha(self, target):
        data = self.read_data(target)
        return None if data is None else (data, hashlib.sha256(data).hexdigest())

    def read_data(self, target):
        full = os.path.realpath(os.path.join(self.site.repo_root, target))
        if not full.startswith(self.site.repo_root + os.sep) or not os.path.isfile(full):
            return None
        self.data_read.append(target)
        with open(full, "rb") as f:
            return f.read()

    def depend(self, key, sha):
        """A dependency that is not a file (a Sphinx label's entry): kept for the tests to see."""
        self.depended[key] = sha

    def note(self, construct, outcome, line, detail=""):
        self.notes.append((construct, outcome, line, detail))


def read_fixtures(path):
    """mdit-py-plugins' fixture layout: a title line, then input and expected text, each closed
    by a line holding a single dot. Yields (line number, title, input, expected)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start, title = i + 1, lines[i]
        parts, i = [], i + 2  # skip the title and its dot
        for _ in range(2):
            end = lines.index(".", i)
            parts.append("\n".join(lines[i:end]))
            i = end + 1
        yield start, title, parts[0], parts[1]


def fixture_cases(folder):
    """One ``pytest.param(source, expected)`` per case of every fixture file in ``folder``."""
    import pytest
    from pathlib import Path

    for path in sorted(Path(folder).glob("*.txt")):
        for line, title, source, expected in read_fixtures(path):
            yield pytest.param(source, expected, id=f"{path.stem}:{line}:{title}")
