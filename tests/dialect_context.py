"""A document's real ``Context`` (``dialects.context.DocumentContext``) for a fixture site, so a
dialect's ``prepare`` is tested through the build's own guarded resolver without a build."""

from __future__ import annotations

import os

from contextpull.dialects.api import Site
from contextpull.dialects.context import DocumentContext


def context(root, doc: str, *, dialect: str, config_file: str | None, docs: str = "",
            config: dict | None = None, front_matter: dict | None = None) -> DocumentContext:
    """A context for document ``doc`` (relative to ``docs``, itself relative to ``root``)."""
    root = os.path.realpath(str(root))
    site = Site(dialect, config_file, os.path.join(root, docs) if docs else root, root)
    return DocumentContext(site, doc, config or {}, front_matter or {})


def outcomes(ctx: DocumentContext) -> list[tuple[str, str, int]]:
    return [(n.construct, n.outcome, n.line) for n in ctx.notes]


def read(ctx: DocumentContext) -> set[str]:
    """The files the document read (its dependencies), missing ones left out."""
    return {path for path, sha in ctx.deps.items() if sha != "missing"}
