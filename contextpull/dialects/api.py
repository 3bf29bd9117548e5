"""The contract between the build and a dialect module (issue 26).

A build resolves one ``Site`` (which dialect, decided by which file, under which guard root) and
hands it, inside the settings, to every worker. A worker reads one document through a ``Context``:
the only door a dialect has to other files (``include``, ``read_data``, ``read_data_with_sha``),
to what it shows from a site-wide table (``depend``) and to the report (``note``). What passes
through the door becomes a dependency of the document, so its fingerprint covers what it includes
and reads. Where the site's own folders are is ``detect.site_folder``, one rule for every dialect.

A dialect is one row of ``registry.DIALECTS`` (data: its name, the files that identify its
generator and where detection looks for them, the module that reads it) and one object, the
``Reader`` class its module defines (``site_reader.SiteReader``), opened once per build
(``site_reader.open_site``). Its hooks are methods, each with a default that changes nothing:

- ``prepare(text, ctx) -> str``: Markdown (or MDX) source in, the Markdown the shared parser reads
  out: includes resolved, markup a reader never sees removed, markup with meaning made text;
- ``finish(doc, ctx) -> ParsedDocument``: what the renderer changes on the parsed page;
- ``label_title(ctx)`` and ``nav_title(ctx) -> str | None``: the name the generator's
  navigation gives a page, asked by the one title rule (``page_title``);
- ``skip(path, data=None) -> str | None``: why its generator renders no page for a file
  (a partial, a headless section), asked for every file (``pages/hook.py``; Hugo's, Jekyll's,
  mdBook's, mkdocs' and Sphinx's rules are ``pages.py`` in their sub-packages);
- ``config_notes(ctx) -> None``: notes on what its configuration sets in a way that is not
  read as data (Sphinx: a computed ``exclude_patterns``), made on the one document it picks so
  the report says it once (``read.py``).

What a dialect works out once per site (configuration, navigation, label table, templates,
parsed data files, page rules) is kept by the reader (``SiteReader.once``), never at module
level; a document reaches it as ``ctx.reader``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    from .embedded import Embedded
    from .site_reader import SiteReader

# What became of one construct: replaced by the content it stands for (an include, a data value),
# turned into the text a reader sees (an admonition, a shortcode whose rendering the generator
# defines), or not what the page shows, with a reason: left as it was, dropped, or one the
# generator itself would fail on or show as raw text (an unknown shortcode, component, directive,
# block or tag), whose text is kept all the same (docs/dialects.md, "The construct report").
OUTCOMES = ("resolved", "converted", "unresolved")


@dataclass(frozen=True)
class Site:
    """One build's generator, resolved once and carried to worker processes (picklable)."""

    dialect: str  # "plain", "mkdocs", "docusaurus", "hugo", "mdbook", "jekyll", "sphinx", "nextra", "vitepress", "starlight", "mintlify", "gitbook"
    config_file: str | None  # the file that decided it, relative to repo_root; None for a setting
    docs_root: str  # absolute, resolved: the DOCS folder
    repo_root: str  # absolute, resolved: the guard root; no read ever leaves it
    epoch: int | None = None  # the build's SOURCE_DATE_EPOCH (Sphinx ``date``), read once at the surface
    # Whether API pages are read from the repository's source (issue 37): the build's setting,
    # for a dialect whose row reads them; the reader keeps the source's model (``site_reader``).
    api_reference: bool = False
    # Whether a ``.md`` page showing MDX's own syntax is read as MDX (``mdx.evidence``): the
    # ``auto`` setting found no generator configuration, so only the page's content can say.
    guess_mdx: bool = False
    # Whether the first Markdown pages of such a site show MDX (``mdx.evidence.seen_in``): then
    # its reading is the MDX rules' Python work, which a worker takes off the writing process as
    # it does for a generator's site. Only how many processes read the site depends on it.
    mdx_seen: bool = False
    # What the pages showed where ``auto`` found no configuration file and read the site as the
    # generator whose syntax they hold (``registry.Dialect.evidence``); None when a file or the
    # setting decided.
    guessed_from: str | None = None

    @property
    def reading(self) -> str:
        """What a document's fingerprint names as the reading it had (``fingerprint.py``): the
        dialect, and whether API pages were read from source, so turning that on or off re-reads
        the site's documents instead of reusing ones read the other way."""
        return f"{self.dialect}+api" if self.api_reference else self.dialect


class Note(NamedTuple):
    """One construct met in one document, for the construct report. A tuple: a page makes one
    per construct (Jekyll's Liquid, one per output), and a frozen dataclass's ``__init__`` (a
    ``setattr`` per field) was 4 % of reading Jekyll's docs."""

    construct: str  # "mdbook include", "admonition", "hugo shortcode", ...
    outcome: str  # one of OUTCOMES
    line: int  # 1-based line in the document where it stands (0 when unknown)
    detail: str = ""  # for an unresolved one: why ("target missing: ../x.rs", "outside the repository")


@dataclass(frozen=True)
class Included:
    """A file read for a document through ``Context.include``."""

    text: str  # decoded, newlines normalised, whole (selection is ``selection.select``'s job)
    path: str  # relative to repo_root, POSIX
    chain: tuple[str, ...]  # the open includes down to and with this one (cycle and depth guard)

    @property
    def folder(self) -> str:
        """The folder nested relative includes start from, relative to repo_root."""
        return self.path.rpartition("/")[0]


class Context(Protocol):
    """One document's view of its site while it is read."""

    site: Site
    reader: "SiteReader"  # the site opened for the build: what is kept once per site
    path: str  # the document's store path, relative to DOCS
    # The document relative to repo_root, POSIX, and its folder ("" at the root): where its
    # relative includes start from. Dialects take them from here rather than work them out from
    # ``site`` and ``path`` again, so every dialect agrees on them.
    repo_path: str
    folder: str
    config: dict  # the generator's configuration, read as data ({} when there is none)
    # Where a hook places blocks it has already read, so the Markdown parse carries them whole
    # (``embedded.Embedded``); None where the reading has no such place (the hook then writes
    # its blocks back as Markdown).
    embedded: "Embedded | None"

    def include(
        self, target: str, *, base: str, line: int, construct: str, within: Included | None = None
    ) -> Included | None:
        """The file ``target`` names (a path as the directive wrote it, relative to ``base``, a
        folder relative to repo_root; a leading ``/`` is the dialect's business, resolve it before),
        or None when it is missing or refused (outside the repository, through a symlink out of it,
        not a regular file, too large, a cycle, too deep, the document's byte budget spent): then
        an ``unresolved`` note with the document's file and line is already recorded. A resolved
        read records the target as a dependency and a ``resolved`` note. ``within`` is the
        include whose text holds this directive (None at the document's own level): it is what
        bounds depth and detects cycles, so a dialect that expands nested includes passes it."""

    def read_data(self, target: str) -> bytes | None:
        """A data file's bytes (relative to repo_root) under the same guard, recorded as a
        dependency; None when missing or refused (no note: the caller knows what it wanted)."""

    def read_data_with_sha(self, target: str) -> tuple[bytes, str] | None:
        """``read_data`` with the sha256 (hex) of the bytes, the one recorded for the dependency:
        a dialect that caches what it parsed from a file keys the cache by it without hashing the
        bytes again."""

    def depend(self, key: str, sha: str) -> None:
        """Record a dependency that is not a file: what the document shows from a site-wide
        table (a Sphinx label's title), so reading every file the table was built from is not
        needed to say the document changed. ``key`` is ``scheme://...`` (never a path: the
        resolver refuses those), ``sha`` the sha256 of the entry now, or ``includes.MISSING``;
        ``fingerprint.VIRTUAL`` names the module that recomputes it for an incremental build."""

    def note(self, construct: str, outcome: str, line: int, detail: str = "") -> None:
        """Record one construct for the report."""
