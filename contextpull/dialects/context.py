"""The real ``Context`` a dialect reads one document through (issue 26; the protocol is in
``api.py``).

It is the only state a document's reading has of its own (what is kept per site is its
``reader``'s): the notes for the construct report and the files
read through the guarded resolver (``includes.py``), which become the document's dependencies and
so part of its fingerprint. One is made per document, in the worker that reads it.
"""

from __future__ import annotations

from .api import OUTCOMES, Included, Note, Site
from .includes import ReadMemo, Refused, Resolver
from .site_reader import SiteReader

# Unresolved notes of one construct listed for one document; past it they are counted in one more
# note, so a page of a hundred thousand broken openers gives a report of a hundred lines, and
# its report costs what a page of a hundred broken openers costs, whichever dialect reads it.
MAX_LISTED = 100


class NoteList:
    """One document's notes, at most ``MAX_LISTED`` unresolved ones of a construct listed."""

    def __init__(self) -> None:
        self.notes: list[Note] = []
        self._unresolved: dict[str, int] = {}  # construct -> unresolved notes made
        self._unlisted_from: dict[str, int] = {}  # construct -> the line of its first unlisted one

    def add(self, construct: str, outcome: str, line: int, detail: str = "") -> None:
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, got {outcome!r}")
        if outcome == "unresolved":
            count = self._unresolved[construct] = self._unresolved.get(construct, 0) + 1
            if count > MAX_LISTED:
                self._unlisted_from.setdefault(construct, int(line))
                return
        self.notes.append(Note(construct, outcome, int(line), detail))

    def listed(self) -> tuple[Note, ...]:
        """The notes, and for each construct with more than ``MAX_LISTED`` unresolved ones, one
        more that counts the rest from the line of the first left out."""
        more = [
            Note(construct, "unresolved", self._unlisted_from[construct],
                 f"{count - MAX_LISTED} more on this page, from here on, not listed")
            for construct, count in self._unresolved.items() if count > MAX_LISTED
        ]
        return (*self.notes, *more)


class DocumentContext:
    """One document's view of its site (``api.Context``), collecting notes and dependencies."""

    def __init__(
        self, site: Site, path: str, config: dict | None = None, front_matter: dict | None = None,
        reader=None,
    ):
        self.site = site
        # The site opened for the build (``site_reader``): what the dialect works out once per
        # site is kept there. A context made on its own (a test, a library caller) opens a
        # plain one, which keeps state for this document alone.
        self.reader = reader if reader is not None else SiteReader(site)
        self.path = path  # relative to DOCS, as stored
        self.config = config if config is not None else {}
        self.front_matter = front_matter if front_matter is not None else {}
        # The document's own repository path and folder (api.Context), where its relative
        # includes start from; DOCS relative to repo_root is "" when DOCS is the root.
        docs = self.reader.docs_folder
        self.repo_path = f"{docs}/{path}" if docs else path
        self.folder = self.repo_path.rpartition("/")[0]
        self._listing = NoteList()
        self.notes = self._listing.notes
        # Where a hook places blocks it has read (``embedded``); set for a page read as Markdown
        # under a dialect, None elsewhere, when a hook writes its blocks back as Markdown.
        self.embedded = None
        self._resolver = Resolver(site.repo_root, self.repo_path, memo=self.reader.once((__name__, "reads"), ReadMemo))

    @property
    def deps(self) -> dict[str, str]:
        """Repository path -> sha256 of every file read (``includes.MISSING`` for one absent)."""
        return self._resolver.deps

    def include(
        self, target: str, *, base: str, line: int, construct: str, within: Included | None = None
    ) -> Included | None:
        try:
            found = self._resolver.read(target, base, within)
        except Refused as exc:
            self.note(construct, "unresolved", line, str(exc))
            return None
        self.note(construct, "resolved", line, found.path)
        return found

    def read_data(self, target: str) -> bytes | None:
        found = self.read_data_with_sha(target)
        return None if found is None else found[0]

    def read_data_with_sha(self, target: str) -> tuple[bytes, str] | None:
        try:
            key, real = self._resolver.locate(target, "")
            data = self._resolver.read_bytes(key, real, target)
        except Refused:
            return None
        return data, self._resolver.deps[key]

    def depend(self, key: str, sha: str) -> None:
        if "://" not in key:
            raise ValueError(f"a dependency that is not a file is scheme://..., got {key!r}")
        self._resolver.deps[key] = sha

    def note(self, construct: str, outcome: str, line: int, detail: str = "") -> None:
        self._listing.add(construct, outcome, line, detail)

    def listed_notes(self) -> tuple[Note, ...]:
        return self._listing.listed()
