"""A site opened for one build (issue 35, "A dialect is a value"): the one object through which
a dialect's hooks are called and in which everything it works out once per site is kept.

``open_site(site)`` gives the ``SiteReader`` of the site's dialect: the class its reading module
names ``Reader`` (the module is the ``registry`` row's), or this base class for ``plain``. The
base holds what every dialect shares (the configuration read as data, its sha256, the site and
DOCS folders) and hooks that change nothing; a dialect overrides the hooks it has:

- ``prepare(text, ctx) -> str``: the Markdown the shared parser reads (``api`` says what);
- ``finish(parsed, ctx) -> ParsedDocument``: what the generator's renderer changes on the parsed
  page (a fence's language written with its options);
- ``label_title(ctx)``, ``nav_title(ctx) -> str | None``: the name a page's navigation entry
  gives it, over its H1 and for a page without one; the rule that asks them is ``page_title``;
- ``skip(path, data=None) -> str | None``: why its generator renders no page for a file;
- ``config_notes(ctx)``: notes on configuration not read as data, on the one document it picks.

What a dialect works out from the site (mkdocs' page rules over its merged ``INHERIT`` chain and
the parsed parents, Hugo's templates, content folders and bundles, mdBook's chapters, Sphinx's
exclusion rules, label table and registered directives, parsed data files)
is kept with ``once(key, compute)``: computed the first time a document asks, then shared by
every later document of the build in this process. Nothing is kept at module level, so two
builds in one process (a server, a test run, ``ingest --update`` after ``build``) never see each
other's state, and a file edited between them is read again without stamps.

Keeping state never changes what a document depends on: a value computed from a file the
document reads through its ``Context`` is keyed by that file's sha256 after the document has read
it (so the read, and the dependency, happen for every document as before), and a value from a
site-wide table is recorded by the caller with ``Context.depend``.

A reader crosses to a worker process as its ``Site`` alone (``__getstate__``): a forked worker
inherits the parent's reader with what it had kept; a worker started by a fork server builds its
own state once, from the site, as its documents ask. When workers start, the parent has built
only what its page rules needed, a kept value need not pickle, and rebuilding cost at most
0.08 s of CPU per worker on the six sites of issue 26 (hugoDocs; the others 0.04 s or less).
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Callable, Hashable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from .api import Site
from ..system.bounded_read import CONFIG_FILE_LIMIT
from .door import SiteDoor
from .includes import MISSING
from .registry import dialect

T = TypeVar("T")
# The key ``api_reference`` keeps the build's ``ApiReference`` under (a test may put its own there).
API_REFERENCE = ("apiref",)


class SiteReader:
    """One site's reading for one build (module docstring). The base is ``plain``'s reader and
    what every dialect's ``Reader`` extends."""

    def __init__(self, site: Site):
        self.site = site
        self.files = SiteDoor(site.repo_root)
        self._kept: dict[Hashable, Any] = {}

    # ---- pickling: the site alone crosses to a worker -------------------------------------
    def __getstate__(self) -> dict:
        return {"site": self.site}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["site"])

    # ---- what is kept per build ----------------------------------------------------------
    def once(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()`` the first time ``key`` is asked for in this build, the same value after.
        Keys are tuples starting with the module's own name, so two dialect modules never meet."""
        try:
            return self._kept[key]
        except KeyError:
            value = self._kept[key] = compute()
            return value

    def api_reference(self):
        """The build's model of the repository's Python source (``apiref.sources.ApiReference``,
        issue 37), made the first time a page names an API object; None when the build reads no
        API reference. Kept like any other per-build value, so a worker parses a module once
        for all the pages it reads."""
        if not self.site.api_reference:
            return None
        from .includes import MAX_INCLUDE_BYTES

        def model():
            # griffe was only looked for, not imported, where the configuration names no API
            # plugin (``apiref.preload``); one that is there but cannot be imported reads the
            # page as when the setting is off, as a missing one does.
            try:
                from ..apiref.sources import ApiReference

                return ApiReference(self.site.repo_root, include_limit=MAX_INCLUDE_BYTES)
            except ImportError:
                return None

        return self.once(API_REFERENCE, model)

    def get(self, key: Hashable, default: Any = None) -> Any:
        """What ``once`` keeps under ``key``, or ``default`` when nothing was computed yet."""
        return self._kept.get(key, default)

    @property
    def config(self) -> dict:
        """The generator's configuration as data ({} when there is none or it is unreadable)."""
        return self.configuration[0]

    # The configuration file is read once per build, as bytes, and every reading of it (as data,
    # as its sha256, as text a dialect searches: Docusaurus's JavaScript, Sphinx's ``conf.py``
    # for its list settings and its own directives) is made from that one read. Every document
    # depends on the file (``read.read_document``), so a dialect that reads it here rather than
    # through its page's ``Context`` records nothing less.
    @property
    def config_bytes(self) -> bytes | None:
        """The configuration file's bytes; None when there is none or it cannot be read (why is
        in ``configuration``)."""
        raw = self._config_read()
        return raw if isinstance(raw, bytes) else None

    def _config_read(self) -> bytes | OSError | None:
        def read():
            try:
                return self.files.read(self.site.config_file, CONFIG_FILE_LIMIT)
            except OSError as exc:
                return exc
        return self.once(("config bytes",), read) if self.site.config_file else None

    @property
    def configuration(self) -> tuple[dict, str | None]:
        """(configuration, the problem that kept it empty or None), read once per build."""
        from .detect import read_config

        return self.once(("config",), lambda: read_config(self.site, self._config_read()))

    @property
    def config_sha(self) -> str:
        """The configuration file's sha256 (``includes.MISSING`` when it cannot be read): a
        dependency of every document of the site."""
        raw = self.config_bytes
        return MISSING if raw is None else self.once(("config sha",), lambda: hashlib.sha256(raw).hexdigest())

    @property
    def config_deps(self) -> tuple[tuple[str, str], ...]:
        """The files every document of the site depends on, (repository path, sha256), read once
        a build: the configuration file; a dialect whose configuration reads more adds them."""
        return ((self.site.config_file, self.config_sha),) if self.site.config_file is not None else ()

    @property
    def config_text(self) -> str:
        """The configuration file as text ("" when there is none or it cannot be read), for the
        dialects that search it as text."""
        raw = self.config_bytes
        return "" if raw is None else self.once(("config text",), lambda: raw.decode("utf-8-sig", "replace"))

    @property
    def site_folder(self) -> str:
        """The generator's site folder relative to the repository root (``detect.site_folder``)."""
        from .detect import site_folder

        return self.once(("site folder",), lambda: site_folder(self.site))

    @property
    def site_path(self) -> str:
        """The site folder, absolute (DOCS when no repository root is known)."""
        if not self.site.repo_root:
            return self.site.docs_root
        return os.path.join(self.site.repo_root, *[p for p in self.site_folder.split("/") if p])

    @property
    def docs_folder(self) -> str:
        """DOCS relative to the repository root, POSIX ("" at the root or with no root)."""
        from .detect import docs_folder

        return self.once(("docs folder",), lambda: docs_folder(self.site))

    # ---- the hooks: a dialect overrides those it has ---------------------------------------
    # A generator's page rule, ``rule(path, reader, data) -> reason | None`` (its ``pages.skip``):
    # set as ``page_rule = staticmethod(pages.skip)``, it is what ``skip`` asks.
    page_rule = None
    # The MDX components a generator draws in its own way (Nextra's ``<Callout>``, ``<Tabs items>``,
    # Starlight's ``<Aside>``): name -> ``read(element, env) -> text``, asked by the MDX rules
    # before their own readings; ``mdx.site_components`` has the writers they build text with.
    mdx_components: Mapping = MappingProxyType({})  # read-only: a class attribute every reader shares
    # A component the page imports from a file of the site (``import CommandTabs from
    # '@components/CommandTabs.astro'``) read from that file: ``read(element, source, env) -> text
    # | None``, where ``source()`` reads the file (a dependency of the page from then on: asked
    # only for an element it may show) or gives None; None leaves it to the MDX rules' reading.
    mdx_imported_component = None
    # Whether the generator renders an ``mdx-code-block`` fence's content as MDX (Docusaurus).
    mdx_code_blocks: bool = False

    def prepare(self, text: str, ctx) -> str:
        return text

    def finish(self, parsed, ctx):
        return parsed

    def label_title(self, ctx) -> str | None:
        """A name the page's front matter gives its navigation entry that the generator shows
        over the page's own H1 (``page_title``, step 2)."""
        return None

    def nav_title(self, ctx) -> str | None:
        """The name the generator's navigation gives a page that shows no H1 and no front-matter
        title (``page_title``, step 4)."""
        return None

    def skip(self, path: str, data: bytes | None = None) -> str | None:
        return None if self.page_rule is None else self.page_rule(path, self, data)

    def config_notes(self, ctx) -> None:
        return None


def open_site(site: Site | None) -> SiteReader:
    """The reader of ``site``'s dialect, built now and kept by the caller for the build (None, a
    caller that resolved no site: a plain reader without a root, so nothing is included)."""
    if site is None:
        site = Site("plain", None, "", "")
    if site.dialect == "plain":
        return SiteReader(site)
    return reading_module(site.dialect).Reader(site)


def reading_module(name: str):
    """The reading module of the dialect ``name`` (its row's), imported when first asked for: the
    module whose ``Reader`` a build opens."""
    return importlib.import_module(f"{__package__}.{dialect(name).module}")
