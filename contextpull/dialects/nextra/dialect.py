"""The Nextra dialect (issue 36): a Next.js site built with Nextra 2-4, identified by
``next.config.*`` together with Nextra's own layout (``layout.is_nextra``). Every ``.md`` and
``.mdx`` page carries JSX (the row's ``markdown_is_mdx``), so the MDX rules read it first, with
Nextra's components read the way its theme draws them (``components``).

Nextra reads pages from one of three layouts: ``pages/`` (Nextra 2 and 3, the Pages Router),
``content/`` (Nextra 4's content folder) and ``app/`` (Nextra 4 and Next.js' own MDX, where only
``page.mdx`` is a page). The configuration is JavaScript and is never run.

- ``prepare``: GitHub-style ``> [!TIP]`` callouts as labelled text (``callouts``, the shared
  reading), which Nextra 3 and 4 draw as ``<Callout>``.
- ``nav_title``: a page that shows no H1 and has no front-matter ``title`` takes the title its
  folder's ``_meta`` file gives it (the shared rule, ``page_title``) (``meta``): the key is the file's stem (``index`` too, else
  the folder's own key one folder up), and for ``app/**/page.mdx`` the folder's name, one
  folder up; Nextra 2's translated ``name.en-US.mdx`` is ``name`` in ``_meta.en-US.json``. The ``_meta`` file is read as data, as a dependency of the page; one that gives no
  titles is named in the construct report (``nextra _meta``) and the page keeps its own title.
- ``skip``: a file or folder whose name starts with ``_`` (``_app.mdx``, ``_meta``, a private
  ``_components`` folder, a partial) is no page, and in ``app/`` only ``page.md``/``page.mdx`` is
  one; the others are read where a page imports them.
"""

from __future__ import annotations

import posixpath

from ..syntax.callouts import callouts
from ..site_reader import SiteReader
from . import meta
from .components import COMPONENTS

META_FILES = ("_meta.json", "_meta.js", "_meta.jsx", "_meta.ts", "_meta.tsx")
APP_FOLDERS = ("app", "src/app")
PRIVATE = "a name starting with _ (Nextra's _app, _meta, a private folder or partial): no page, read where imported"
APP_PART = "in app/ only page.mdx is a page: read where a page imports it"


class Reader(SiteReader):
    """Nextra's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    mdx_components = COMPONENTS

    def prepare(self, text: str, ctx) -> str:
        return callouts(text, ctx)

    def nav_title(self, ctx) -> str | None:
        for folder, key in self._meta_keys(ctx.repo_path):
            key, _, locale = key.partition(".")  # Nextra 2's i18n: page.en-US.mdx, _meta.en-US.json
            title = self._meta_title(folder, key, ctx, locale)
            if title:
                ctx.note("nextra _meta title", "resolved", 0)
                return title
        return None

    def _meta_keys(self, repo_path: str) -> list[tuple[str, str]]:
        """(folder, key) pairs whose ``_meta`` title names the page at ``repo_path``, in order."""
        folder, _, name = repo_path.rpartition("/")
        stem = name.rsplit(".", 1)[0]
        parent, _, folder_name = folder.rpartition("/")
        if stem == "page" and self._in_app(folder):
            return [(parent, folder_name)] if folder_name else []
        keys = [(folder, stem)]
        if stem == "index" and folder_name:
            keys.append((parent, folder_name))
        return keys

    def _in_app(self, folder: str) -> bool:
        site = self.site_folder
        return any(folder == (f"{site}/{app}" if site else app) or folder.startswith((f"{site}/{app}/" if site else f"{app}/"))
                   for app in APP_FOLDERS)

    def _meta_title(self, folder: str, key: str, ctx, locale: str = "") -> str | None:
        names = [n.replace("_meta.", f"_meta.{locale}.") for n in META_FILES] if locale else META_FILES
        for name in names:
            path = f"{folder}/{name}" if folder else name
            found = ctx.read_data_with_sha(path)
            if found is None:
                continue
            data, sha = found
            titles = self.once((__name__, "meta", sha, name), lambda: _titles(data, name))
            if isinstance(titles, str):
                ctx.note("nextra _meta", "unresolved", 0, f"{path}: {titles}; no titles read from it")
                return None
            return titles.get(key)
        return None

    def skip(self, path: str, data: bytes | None = None) -> str | None:
        parts = path.replace("\\", "/").split("/")
        if any(part.startswith("_") for part in parts):
            return PRIVATE
        rel = posixpath.relpath(posixpath.join(self.docs_folder, path) if self.docs_folder else path,
                                self.site_folder or ".")
        name = parts[-1]
        if name.endswith((".md", ".mdx")) and name.rsplit(".", 1)[0] != "page" and _under(rel, APP_FOLDERS):
            return APP_PART
        return None


def _under(rel: str, folders: tuple[str, ...]) -> bool:
    return any(rel.startswith(folder + "/") for folder in folders)


def _titles(data: bytes, name: str) -> dict[str, str] | str:
    """The titles of one ``_meta`` file, or why it gives none (kept per file version)."""
    try:
        return meta.titles(data.decode("utf-8-sig", "replace"), name)
    except meta.MetaError as exc:
        return str(exc)
    except RecursionError:
        return "nested too deeply"
