"""Where a store's text came from, as its meta table records it (issue 27, "Provenance in every store").

A store that does not say which repository, commit and docs version it was built from cannot
tell an agent how old its answers are, and a server mounting several stores cannot name them.
The build records six optional meta keys (below); every reader, in any language, may show them
and must not require them: a store built outside a git checkout, or by an older writer, has none,
and unknown meta keys are ignored by readers (store-format.txt, "Opening"). None of them enters
``index_text``, so the index, the golden files and the agreement with the published writer do not
move when a build records them.

The keys and their values:

``source_repository``
    the repository's URL without credentials (``https://github.com/owner/name``)
``source_commit``
    the full commit id the docs were read at
``source_ref``
    the tag or branch that commit was checked out as (a tag pointing at it wins)
``source_dirty``
    ``"true"`` when files under the docs folder differed from that commit, else ``"false"``
``docs_version``
    the docs version the build was told, or the tag at the commit
``built_at``
    ISO 8601 UTC date-time, ``YYYY-MM-DDTHH:MM:SSZ``: ``SOURCE_DATE_EPOCH`` or the commit's date,
    never the clock, so a rebuild is byte-identical

Standard library only: the reader core, the MCP instructions and ``verify`` import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Callable, Mapping, Union

SOURCE_REPOSITORY = "source_repository"
SOURCE_COMMIT = "source_commit"
SOURCE_REF = "source_ref"
SOURCE_DIRTY = "source_dirty"
DOCS_VERSION = "docs_version"
BUILT_AT = "built_at"

# In the order every rendering (meta, manifest, reports) lists them.
PROVENANCE_KEYS = (SOURCE_REPOSITORY, SOURCE_COMMIT, SOURCE_REF, SOURCE_DIRTY, DOCS_VERSION, BUILT_AT)

# Git's own default abbreviation and GitHub's display width: a label a person reads beside the
# repository name, not an id to resolve (the full commit is in the meta and the manifest).
SHORT_COMMIT = 7

# A mount name becomes the prefix of section ids (``NAME/<id>``), so it may not contain ``/``
# and keeps to characters that need no quoting in a tool argument.
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9._+@-]+")

MetaSource = Union[Mapping[str, str], Callable[[str], "str | None"]]


def _text(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


@dataclass(frozen=True)
class Provenance:
    """The six provenance values of one store; each is ``None`` when the store does not record it."""

    repository: str | None = None
    commit: str | None = None
    ref: str | None = None
    dirty: bool | None = None
    version: str | None = None
    built_at: str | None = None

    # -- reading -------------------------------------------------------------------------------
    @classmethod
    def from_meta(cls, meta: MetaSource) -> "Provenance":
        """Read from a meta mapping or a ``meta_get(key)`` callable (``Store.meta_get``).

        A ``source_dirty`` other than ``"true"``/``"false"`` reads as unknown rather than failing:
        provenance describes a store, it never decides whether the store can be read.
        """
        get = meta.get if isinstance(meta, Mapping) else meta
        dirty = _text(get(SOURCE_DIRTY))
        return cls(
            repository=_text(get(SOURCE_REPOSITORY)),
            commit=_text(get(SOURCE_COMMIT)),
            ref=_text(get(SOURCE_REF)),
            dirty={"true": True, "false": False}.get(dirty or ""),
            version=_text(get(DOCS_VERSION)),
            built_at=_text(get(BUILT_AT)),
        )

    @classmethod
    def from_store(cls, store) -> "Provenance":
        """From an open ``contextpull.store.Store`` (anything with ``meta_get``)."""
        return cls.from_meta(store.meta_get)

    # -- writing -------------------------------------------------------------------------------
    def to_meta(self) -> dict[str, str]:
        """The meta rows to write: only the keys that have a value, in ``PROVENANCE_KEYS`` order."""
        values = {
            SOURCE_REPOSITORY: self.repository,
            SOURCE_COMMIT: self.commit,
            SOURCE_REF: self.ref,
            SOURCE_DIRTY: None if self.dirty is None else ("true" if self.dirty else "false"),
            DOCS_VERSION: self.version,
            BUILT_AT: self.built_at,
        }
        return {key: values[key] for key in PROVENANCE_KEYS if values[key] is not None}

    def to_dict(self) -> dict:
        """JSON form (manifest, ``--json`` reports): the field names, ``None`` where unknown."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    # -- showing -------------------------------------------------------------------------------
    @property
    def empty(self) -> bool:
        return all(getattr(self, f.name) is None for f in fields(self))

    @property
    def short_commit(self) -> str | None:
        return self.commit[:SHORT_COMMIT] if self.commit else None

    @property
    def build_date(self) -> str | None:
        """The date part of ``built_at`` (``YYYY-MM-DD``): how old the docs are, to the day."""
        return self.built_at[:10] if self.built_at else None

    @property
    def repository_label(self) -> str | None:
        """The repository as a person reads it: the URL without scheme or ``.git``
        (``github.com/owner/name``)."""
        if not self.repository:
            return None
        label = re.sub(r"^[A-Za-z][A-Za-z0-9+.-]*://", "", self.repository).rstrip("/")
        return label[:-4] if label.endswith(".git") else label

    @property
    def repository_name(self) -> str | None:
        """The repository's last path part (``name`` of ``owner/name``)."""
        label = self.repository_label
        if not label:
            return None
        return label.rsplit("/", 1)[-1].rsplit(":", 1)[-1] or None

    def name(self) -> str | None:
        """A mount name: ``name@version``, else ``name@<short commit>``, else ``name``; ``None``
        without a repository.

        The repository's last path part, not ``owner/name``: the name prefixes section ids as
        ``NAME/<id>`` and routing by that prefix needs a name without ``/``. Characters outside
        ``[A-Za-z0-9._+@-]`` (a ``/`` in a ref such as ``release/2.0``) become ``-``. Two stores of
        one repository at two versions get two names; owners that share a repository name
        collide, and are then named explicitly (``NAME=SOURCE``).
        """
        base = self.repository_name
        if not base:
            return None
        tag = self.version or self.short_commit
        name = f"{base}@{tag}" if tag else base
        return _NAME_UNSAFE.sub("-", name).strip("-") or None

    def line(self) -> str:
        """One line for the MCP instructions and reports: repository, short commit, version,
        build date; ``""`` when the store records none of them.

        ``Docs from github.com/pallets/flask at 2ac8898 (version 3.0.0, uncommitted changes),
        built 2026-11-30.``
        """
        if self.empty:
            return ""
        head = f"Docs from {self.repository_label}" if self.repository_label else "Docs"
        if self.short_commit:
            head += f" at {self.short_commit}"
        notes = []
        if self.version:
            notes.append(f"version {self.version}")
        elif self.ref and self.ref != self.commit:
            notes.append(f"ref {self.ref}")
        if self.dirty:
            notes.append("uncommitted changes")
        if notes:
            head += f" ({', '.join(notes)})"
        if self.build_date:
            head += f"{',' if head != 'Docs' else ''} built {self.build_date}"
        return head + "."
