"""The GitBook dialect: a space synced from Git (issue 36), identified by ``.gitbook.yaml``.

``.gitbook.yaml`` is read as data (never run): ``root`` is the folder the space's pages are read
from, relative to the file's own folder (default ``./``), and ``structure.readme`` and
``structure.summary`` name the first page and the navigation (default ``README.md`` and
``SUMMARY.md``), relative to ``root``. A value that is not a string is ignored, and a ``root``
that leaves the repository is the file's own folder.

``prepare`` reads the content blocks (``blocks``), then the HTML GitBook writes (``html``). ``nav_title`` gives a page that shows no H1
and no front-matter title (the shared rule, ``page_title``) the name ``SUMMARY.md`` shows for it: the navigation is mdBook's format,
read by mdBook's parser (``mdbook.dialect.parse_summary``). ``skip`` leaves out ``SUMMARY.md``
itself and Markdown outside ``root``, which GitBook syncs no page from.
"""

from __future__ import annotations

import posixpath

from ..mdbook.dialect import parse_summary
from ..pages.site_files import pages_folder, relative
from ..site_reader import SiteReader
from . import html
from .blocks import convert


def _text_setting(value: object, default: str) -> str:
    return value.strip() if isinstance(value, str) and value.strip() else default


class Reader(SiteReader):
    """GitBook's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    # ---- the space, from .gitbook.yaml --------------------------------------------------
    @property
    def root_setting(self) -> str:
        """``root`` as written (relative to the folder of ``.gitbook.yaml``), ``.`` by default."""
        root = posixpath.normpath(_text_setting(self.config.get("root"), "."))
        return "." if root.startswith(("..", "/")) else root

    def structure(self, key: str, default: str) -> str:
        structure = self.config.get("structure")
        value = structure.get(key) if isinstance(structure, dict) else None
        return posixpath.normpath(_text_setting(value, default))

    @property
    def space_folder(self) -> str:
        """The space's root relative to the repository root ("" at the root): ``root`` in the
        site folder; DOCS itself without ``.gitbook.yaml`` (``detect.site_folder``)."""
        if not self.site.config_file:
            return self.docs_folder
        folder = posixpath.normpath(posixpath.join(self.site_folder or ".", self.root_setting))
        return "" if folder == "." else folder

    @property
    def summary_path(self) -> str:
        """``SUMMARY.md`` (or what ``structure.summary`` names), relative to the repository root."""
        summary = self.structure("summary", "SUMMARY.md")
        return posixpath.join(self.space_folder, summary) if self.space_folder else summary

    # ---- the hooks ---------------------------------------------------------------------
    def prepare(self, text: str, ctx) -> str:
        return html.read(convert(text, ctx), ctx)

    def nav_title(self, ctx) -> str | None:
        summary = self.summary_path
        found = ctx.read_data_with_sha(summary)
        if found is None:
            return None
        data, sha = found
        # parsed once per build and version of SUMMARY.md, which every page still reads (a dependency)
        titles = self.once((__name__, "summary", sha), lambda: parse_summary(data.decode("utf-8", "replace")))
        folder = posixpath.dirname(summary)
        rel = posixpath.relpath(ctx.repo_path, folder) if folder else ctx.repo_path
        name = titles.get(rel)
        if name:
            ctx.note("summary title", "resolved", 0)
        return name

    def config_notes(self, ctx) -> None:
        """On the space's first page (``structure.readme``), one ``unresolved`` note per setting
        of ``.gitbook.yaml`` that was not read: a key GitBook does not know (one written with an
        invisible character, as a real repository has it, reads as another key), a value of the
        wrong kind, a ``root`` that leaves the repository. The space is read with the defaults."""
        if not self.site.config_file:
            return
        readme = self.structure("readme", "README.md")
        first = posixpath.join(self.space_folder, readme) if self.space_folder else readme
        if ctx.repo_path != first:
            return
        for problem in self.once((__name__, "config problems"), self._config_problems):
            ctx.note("gitbook configuration", "unresolved", 0, f"{self.site.config_file}: {problem}")

    def _config_problems(self) -> list[str]:
        config, out = self.config, []
        out += [f"key {k!r} is not one GitBook reads (root, structure, redirects): ignored"
                for k in config if k not in ("root", "structure", "redirects")]
        root = config.get("root")
        if root is not None and not isinstance(root, str):
            out.append("root is not a folder name: ./ is read")
        elif isinstance(root, str) and posixpath.normpath(root.strip() or ".").startswith(("..", "/")):
            out.append(f"root {root!r} leaves the space's folder: ./ is read")
        structure = config.get("structure")
        if structure is not None and not isinstance(structure, dict):
            out.append("structure is not a mapping: README.md and SUMMARY.md are read")
        elif isinstance(structure, dict):
            out += [f"structure key {k!r} is not one GitBook reads (readme, summary): ignored"
                    for k in structure if k not in ("readme", "summary")]
            out += [f"structure.{k} is not a file name: the default is read"
                    for k in ("readme", "summary") if k in structure and not isinstance(structure[k], str)]
        return out

    def skip(self, path: str, data: bytes | None = None) -> str | None:
        if not path.lower().endswith(".md"):
            return None
        root = self.root_setting
        rel = relative(self.site, path, pages_folder(self, root))
        if rel is None:
            return f"outside the space's root folder {root}/: GitBook syncs no page from it"
        if rel == self.structure("summary", "SUMMARY.md"):
            return "the space's table of contents, read for the pages' titles"
        return None
