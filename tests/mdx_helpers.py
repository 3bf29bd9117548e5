"""A fake dialect Context over a dict of files, and the fixture-file reader of the MDX and callout
tests (mdit-py-plugins' layout: a title line, then input and expected text, each closed by a line
holding one ``.``)."""

from __future__ import annotations

import hashlib
import posixpath
from pathlib import Path

from contextpull.dialects.api import Included, Note, Site
from memory_context import MemoryReader

FIXTURES = Path(__file__).parent / "mdx_fixtures"


def read_fixtures(name: str) -> list[tuple[str, str, str]]:
    """(title, input, expected) for every case in ``mdx_fixtures/<name>``."""
    lines = (FIXTURES / name).read_text(encoding="utf-8").split("\n")
    cases = []
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        title = lines[i]
        assert lines[i + 1] == ".", f"{name}: {title!r} lacks its opening '.'"
        parts, j = [], i + 2
        for _ in range(2):
            start = j
            while lines[j] != ".":
                j += 1
            parts.append("\n".join(lines[start:j]))
            j += 1
        cases.append((title, parts[0], parts[1]))
        i = j
    return cases


class FakeContext:
    """The ``Context`` protocol over in-memory files, relative to a repository root: the guard
    is modelled only as far as the MDX rules depend on it (missing targets, cycles, depth)."""

    def __init__(self, files=None, *, path="docs/page.mdx", dialect="docusaurus",
                 config_file="docusaurus.config.js", docs="docs", front_matter=None):
        self.files = dict(files or {})
        self.site = Site(dialect, config_file, f"/repo/{docs}", "/repo")
        self.path = path[len(docs) + 1 :] if path.startswith(docs + "/") else path
        self.repo_path = f"{docs}/{self.path}" if docs else self.path
        self.folder = posixpath.dirname(self.repo_path)
        self.config = {}
        self.front_matter = front_matter or {}
        self.embedded = None
        self.notes: list[Note] = []
        self.depended: dict[str, str] = {}
        self.included: list[str] = []
        self.reader = MemoryReader(self)

    def include(self, target, *, base, line, construct, within=None):
        path = posixpath.normpath(posixpath.join(base, target))
        chain = (within.chain if within else ()) + (path,)
        if path.startswith("../") or path not in self.files:
            self.notes.append(Note(construct, "unresolved", line, f"target missing: {target}"))
            return None
        if within is not None and path in within.chain:
            self.notes.append(Note(construct, "unresolved", line, f"include cycle: {path}"))
            return None
        if len(chain) > 10:
            self.notes.append(Note(construct, "unresolved", line, "too deep"))
            return None
        self.included.append(path)
        self.notes.append(Note(construct, "resolved", line))
        return Included(self.files[path], path, chain)

    def read_data_with_sha(self, target):
        data = self.read_data(target)
        return None if data is None else (data, hashlib.sha256(data).hexdigest())

    def read_data(self, target):
        data = self.files.get(target)
        return None if data is None else data.encode()

    def depend(self, key, sha):
        """A dependency that is not a file (a Sphinx label's entry): kept for the tests to see."""
        self.depended[key] = sha

    def note(self, construct, outcome, line, detail=""):
        self.notes.append(Note(construct, outcome, line, detail))

    def outcomes(self):
        """(construct, outcome, line) for every note, in order."""
        return [(n.construct, n.outcome, n.line) for n in self.notes]
