"""A small stand-in for the build's include resolver, so a dialect's ``prepare`` is tested on
strings and a folder of fixture files alone. It keeps the guard's outline (inside the root after
realpath, regular files, depth 10, cycles) but none of its limits' details."""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field

from contextpull.dialects.api import Included, Note, Site


@dataclass
class FakeContext:
    site: Site
    path: str
    config: dict = field(default_factory=dict)
    front_matter: dict = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    read: list[str] = field(default_factory=list)

    def note(self, construct: str, outcome: str, line: int, detail: str = "") -> None:
        self.notes.append(Note(construct, outcome, line, detail))

    def _guarded(self, rel: str) -> str | None:
        root = os.path.realpath(self.site.repo_root)
        full = os.path.realpath(os.path.join(root, rel))
        if os.path.commonpath([root, full]) != root or not os.path.isfile(full):
            return None
        return full

    def include(self, target, *, base, line, construct, within=None):
        rel = posixpath.normpath(posixpath.join(base, target))
        chain = (within.chain if within else ()) + (rel,)
        full = self._guarded(rel)
        if full is None or rel in chain[:-1] or len(chain) > 10:
            why = "missing or outside the repository" if full is None else "cycle or too deep"
            self.note(construct, "unresolved", line, f"{why}: {target}")
            return None
        self.read.append(rel)
        self.note(construct, "resolved", line, target)
        with open(full, encoding="utf-8") as f:
            return Included(f.read(), rel, chain)

    def read_data(self, target):
        full = self._guarded(target)
        if full is None:
            return None
        self.read.append(target)
        with open(full, "rb") as f:
            return f.read()

    def outcomes(self) -> list[tuple[str, str, int]]:
        return [(n.construct, n.outcome, n.line) for n in self.notes]


def context(root, doc: str, *, dialect: str, config_file: str | None, docs: str = "",
            config: dict | None = None, front_matter: dict | None = None) -> FakeContext:
    """A context for document ``doc`` (relative to ``docs``, itself relative to ``root``)."""
    root = os.path.realpath(str(root))
    site = Site(dialect, config_file, os.path.join(root, docs) if docs else root, root)
    return FakeContext(site, doc, config or {}, front_matter or {})
