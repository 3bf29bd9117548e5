"""The Mintlify dialect (issue 36): a site identified by ``docs.json`` (or the older
``mint.json``), read as JSON data, whose ``.md`` and ``.mdx`` pages both carry JSX (the
``registry`` row's ``markdown_is_mdx``), so every page goes through the MDX rules first.

- MDX rendering: the components Mintlify draws with a label (callouts, API fields, frames) are
  labelled blocks (``components``, asked through ``mdx_components``); snippets imported by a
  path from the site's root (``import Install from '/snippets/install.mdx'``) are read through
  the shared resolver (``mdx.import_paths.site_absolute``), their props by name (``{word}``); so
  is the older ``<Snippet file="x.mdx" />``.
- ``prepare``: code block titles as labels (``code_titles``); a page generated from an OpenAPI
  operation (front matter ``openapi: GET /users``) gets the operation's text, read from the
  OpenAPI file where simple (``openapi``), or an ``unresolved`` note naming it.
- the title (the shared rule, ``page_title``). Front matter ``title`` is the page's H1; a page
  without one is named by ``sidebarTitle`` (``label_title``), else by its own H1, else by the
  group whose ``root`` it is in the navigation, else, for an OpenAPI page, by the operation's
  summary or the operation as written (``nav_title``).
- ``skip``: ``.mintignore`` and Mintlify's default exclusions, the ``snippets/`` partials
  (``pages``); a page of front matter alone whose operation no OpenAPI file read holds is
  named as such.
- ``config_notes``: a navigation of the wrong shape is a ``mintlify configuration`` note on
  every page (as the shared ``configuration`` note of a file that is not JSON is); what could be
  read is read.
"""

from __future__ import annotations

import os
import posixpath

from ...parsing.parse_markdown import normalize_newlines
from ..data.front_matter import scalar, split_front_matter
from ..site_reader import SiteReader
from . import components, navigation, openapi, pages
from .code_titles import label_code

GENERATED_LIMIT = 64 * 1024  # a page of front matter alone is small; a larger one is read


class Reader(SiteReader):
    """Mintlify's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    @property
    def mdx_components(self) -> dict:
        """The components Mintlify draws its own way, for the MDX rules (``components``)."""
        return self.once((__name__, "components"), lambda: components.readers(self))

    def snippet_path(self, file: str) -> str:
        """Where ``<Snippet file="x.mdx" />`` reads from, relative to the site folder: the site's
        ``snippets/`` folder, or ``_snippets/`` where the site keeps them there (the older
        layout); ``snippets/x.mdx`` when neither holds it, so the note names the usual place."""
        file = file.lstrip("/")
        for folder in pages.SNIPPET_FOLDERS:
            target = posixpath.join(self.site_folder, folder, file) if self.site_folder else f"{folder}/{file}"
            if self.files.is_file(os.path.join(self.site.repo_root, *target.split("/"))):
                return posixpath.join(folder, file)
        return posixpath.join(pages.SNIPPET_FOLDERS[0], file)

    @property
    def navigation(self) -> navigation.Navigation:
        """What the navigation says, read once per build."""
        return self.once((__name__, "navigation"), lambda: navigation.walk(self.config))

    def operation(self, value, read) -> tuple[str, dict, dict] | None:
        """(file, OpenAPI document, operation) for a front-matter ``openapi`` value, or None when
        no file looked in holds it (``openapi``). ``read(path) -> (bytes, key) | None`` reads a
        file from the repository root: through the page's context (a dependency, keyed by its
        sha256) or the site's door (the page rule); each version is parsed once per build."""
        where = openapi.split(value) if isinstance(value, str) else None
        if where is None:
            return None
        named, method, path = where
        for rel in openapi.candidates(named, self.config, self.navigation.openapi_files):
            target = posixpath.join(self.site_folder, rel) if self.site_folder else rel
            found = read(target)
            if found is None:
                continue
            data, key = found
            spec = self.once((__name__, "openapi", target, key), lambda: openapi.parse_spec(data, target))
            op = openapi.operation(spec, method, path) if spec else None
            if op is not None:
                return target, spec, op
        return None

    def _door_read(self, target: str) -> tuple[bytes, str] | None:
        try:
            return self.files.read(os.path.join(self.site.repo_root, *target.split("/")), openapi.MAX_BYTES), "door"
        except OSError:
            return None

    def prepare(self, text: str, ctx) -> str:
        text = label_code(text)
        value = scalar((ctx.front_matter or {}).get("openapi"))
        if value is None:
            return text
        found = self.operation(value, ctx.read_data_with_sha)
        if found is None:
            ctx.note("mintlify openapi", "unresolved", 0,
                     f"generated from an OpenAPI operation ({value}) found in no OpenAPI file read: not shown")
            return text
        target, spec, op = found
        ctx.note("mintlify openapi", "resolved", 0)
        shown = openapi.render(spec, op)
        return f"{text.rstrip()}\n\n{shown}\n" if text.strip() else shown + "\n"

    def label_title(self, ctx) -> str | None:
        return scalar((ctx.front_matter or {}).get("sidebarTitle"))

    def nav_title(self, ctx) -> str | None:
        group = self.navigation.roots.get(self._page_key(ctx.repo_path))
        if group:
            ctx.note("navigation title", "resolved", 0)
            return group
        operation = scalar((ctx.front_matter or {}).get("openapi"))
        if operation:
            found = self.operation(operation, ctx.read_data_with_sha)
            summary = scalar(found[2].get("summary")) if found else None
            return summary or operation
        return None

    def _page_key(self, repo_path: str) -> str:
        """A page's path as the navigation writes it: from the site folder, no extension."""
        folder = self.site_folder
        rel = posixpath.relpath(repo_path, folder) if folder else repo_path
        return rel.rsplit(".", 1)[0]

    def config_notes(self, ctx) -> None:
        for problem in self.navigation.problems:
            ctx.note("mintlify configuration", "unresolved", 0, f"{self.site.config_file}: {problem}")

    def skip(self, path: str, data: bytes | None = None) -> str | None:
        reason = pages.skip(path, self)
        if reason is not None:
            return reason
        operation = _generated(data)
        if operation is None or self.operation(operation, self._door_read) is not None:
            return None
        return f"generated by Mintlify from the OpenAPI operation {operation!r}, found in no OpenAPI file read"


def _generated(data: bytes | None) -> str | None:
    """The ``openapi`` operation of a page of front matter alone, which has no text but what
    Mintlify generates from the operation; None for any other page."""
    if data is None or len(data) > GENERATED_LIMIT or not data.startswith(b"---"):
        return None
    fm = split_front_matter(normalize_newlines(data.decode("utf-8", "replace")))
    operation = scalar(fm.data.get("openapi")) if isinstance(fm.data, dict) else None
    return None if operation is None or fm.body.strip() else operation
