"""A Context over an in-memory repository, for dialect tests that need no files on disk.

It keeps the contract of ``contextpull.dialects.api.Context``: includes are relative to a base
folder inside the repository, a path that leaves it, a missing file, a cycle or a chain deeper
than ten is refused with an ``unresolved`` note, and a read records a ``resolved`` note and a
dependency. The real resolver adds the filesystem guards; the dialects only see this surface.
"""

from __future__ import annotations

import hashlib
import posixpath

from contextpull.dialects.api import Included, Note, Site
from contextpull.dialects.context import NoteList
from contextpull.dialects.site_reader import SiteReader

MAX_DEPTH = 10


class MemoryReader(SiteReader):
    """The site reader of a context over in-memory files: its configuration is the context's,
    its text the in-memory file's; everything else is the real reader's (kept per context)."""

    def __init__(self, ctx):
        super().__init__(ctx.site)
        self._ctx = ctx

    @property
    def configuration(self):
        return self._ctx.config, None

    @property
    def config_text(self) -> str:
        files = getattr(self._ctx, "files", None)
        if files is None:  # a context over files on disk
            return super().config_text
        return files.get(self.site.config_file, "") if self.site.config_file else ""


class FakeContext:
    def __init__(
        self,
        files: dict[str, str] | None = None,
        *,
        path: str = "page.md",
        docs: str = "docs",
        dialect: str = "mkdocs",
        config: dict | None = None,
        config_file: str | None = "mkdocs.yml",
        front_matter: dict | None = None,
        repo_root: str = "/repo",
    ) -> None:
        self.files = dict(files or {})
        self.site = Site(dialect, config_file, f"{repo_root}/{docs}".rstrip("/"), repo_root)
        self.path = path
        self.repo_path = posixpath.join(docs, path) if docs else path
        self.folder = posixpath.dirname(self.repo_path)
        self.config = config or {}
        self.front_matter = front_matter or {}
        self.embedded = None
        self._listing = NoteList()  # the real context's listing: unresolved notes capped per construct
        self.notes: list[Note] = self._listing.notes
        self.depended: dict[str, str] = {}
        self.dependencies: list[str] = []
        self.reader = MemoryReader(self)

    def include(self, target, *, base, line, construct, within=None):
        rel = posixpath.normpath(posixpath.join(base, target)) if target else ""
        chain = within.chain if within is not None else ()
        reason = None
        if not target or rel.startswith("../") or rel == ".." or posixpath.isabs(rel):
            reason = f"outside the repository: {target}"
        elif rel in chain:
            reason = f"include cycle: {' -> '.join(chain + (rel,))}"
        elif len(chain) >= MAX_DEPTH:
            reason = f"includes nested deeper than {MAX_DEPTH}: {target}"
        elif rel not in self.files:
            reason = f"target missing: {target}"
        if reason is not None:
            self.note(construct, "unresolved", line, reason)
            return None
        self.dependencies.append(rel)
        self.note(construct, "resolved", line)
        return Included(self.files[rel], rel, chain + (rel,))

    def read_data_with_sha(self, target):
        data = self.read_data(target)
        return None if data is None else (data, hashlib.sha256(data).hexdigest())

    def read_data(self, target):
        if target not in self.files:
            return None
        self.dependencies.append(target)
        return self.files[target].encode("utf-8")

    def depend(self, key, sha):
        """A dependency that is not a file (a Sphinx label's entry): kept for the tests to see."""
        self.depended[key] = sha

    def note(self, construct, outcome, line, detail=""):
        self._listing.add(construct, outcome, line, detail)

    def listed_notes(self):
        return self._listing.listed()

    def outcomes(self) -> list[tuple[str, str, int]]:
        """The notes as (construct, outcome, line), the shape most assertions want."""
        return [(n.construct, n.outcome, n.line) for n in self.notes]


def read_fixture_file(path) -> list[tuple[str, str, str]]:
    """(name, input, expected) cases of a fixture file in mdit-py-plugins' layout: a name line,
    then input and expected text each closed by a line holding a single ``.``."""
    cases = []
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        name = lines[i]
        assert lines[i + 1] == ".", f"{path.name}: case {name!r} needs a '.' line"
        j = lines.index(".", i + 2)
        k = lines.index(".", j + 1)
        cases.append((name, "\n".join(lines[i + 2 : j]), "\n".join(lines[j + 1 : k])))
        i = k + 1
    return cases
