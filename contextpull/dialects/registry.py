"""The one table of dialects (issue 26, "A dialect setting"; issue 35, "A dialect is a value"):
one row per generator, data only. A row says the setting value, the file names that identify
the generator and where detection looks for them (``detect``), where the site is when no file
was found, and the module that reads it. That module is imported only when a build uses the
dialect, and its ``Reader`` class (a ``site_reader.SiteReader``) is the one object its hooks are
found on (``site_reader.open_site``).

The order of ``DIALECTS`` is the order detection tries names in one folder: names only one
generator uses come before names several share (``_config.yml``, ``config.toml``, ``conf.py``).

This module imports nothing: the CLI, the settings check and the Action take their lists of
names from ``NAMES`` and ``SETTING_VALUES`` without loading any reader.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    name: str
    config_files: tuple[str, ...]  # most specific first
    module: str  # its reading module, a path in contextpull.dialects, which defines ``Reader``
    # Whether the configuration file sits in the folder the pages are read from (Jekyll's
    # ``_config.yml``, Sphinx's ``conf.py``) rather than above it (``mkdocs.yml`` above ``docs/``,
    # ``hugo.toml`` above ``content/``): where the site is when no configuration file was found.
    config_beside_pages: bool = False
    # Detection beyond "a config file in DOCS or a folder above it" (``detect``), each data:
    # folders below DOCS looked in first (Sphinx's separate source and build layout);
    below_docs: tuple[str, ...] = ()
    # (file, dialect): beside this file the configuration belongs to another generator (a Jekyll
    # ``_config.yml`` beside a ``_toc.yml`` is a Jupyter Book, read as Sphinx);
    yields_to: tuple[tuple[str, str], ...] = ()
    # names other tools use too, counted only in a folder that holds ``shared_needs``;
    shared_config_files: tuple[str, ...] = ()
    shared_needs: str = ""
    # configuration folders below a site folder (Hugo's ``config/_default``), looked in after the
    # folder itself, with the generator's names and the shared ones (when ``shared_needs`` is
    # there); a configuration file found in one has its site above it (``detect.site_folder``);
    config_folders: tuple[str, ...] = ()
    # folders of the repository root looked in last (Docusaurus sites in ``website/``).
    root_folders: tuple[str, ...] = ()
    # a configuration split into files named by these patterns and joined by the key
    # ``inherits`` (mkdocs' ``mkdocs-base.yml`` + ``mkdocs-en.yml`` with ``INHERIT``), counted in a
    # folder where none of ``config_files`` is; ``detect.split_config`` says which file is picked.
    split_configs: tuple[str, ...] = ()
    inherits: str = ""
    # (file, table): a configuration file whose settings sit in one table of it (Zensical's
    # ``zensical.toml`` keeps mkdocs' settings under ``[project]``).
    config_tables: tuple[tuple[str, str], ...] = ()
    # Whether its ``.md`` pages carry JSX, so they go through the MDX rules as ``.mdx`` files do
    # (Docusaurus: the generator, not the extension, decides).
    markdown_is_mdx: bool = False
    # Whether its themes write a front-matter title into the page unescaped (Liquid's and
    # Jinja's ``{{ page.title }}``), so ``C&oacute;mo`` shows ``Cómo``; JSX, Vue and Go templates
    # escape it and show the entity as written.
    html_titles: bool = False
    # Whether its pages name API objects its generator renders from the code (mkdocstrings'
    # ``:::``, Sphinx's autodoc), read from source when the build's setting says so (issue 37).
    api_reference: bool = False
    # The words in its configuration file that name the plugin or extension rendering them
    # (``mkdocstrings``, ``sphinx.ext.autodoc``): griffe is imported before the workers start only
    # on a site whose configuration holds one. Elsewhere that import (0.06-0.09 s) went to every
    # build for nothing; a page that names an API object there all the same imports it itself.
    api_plugins: tuple[str, ...] = ()
    # A line that names such an object, as a pattern over a page's bytes: those pages go to a
    # worker of their own while the main process reads the rest (``ingest.workers._offload``).
    # It decides only where a page is read, never what is read, so a near miss costs time alone.
    api_lines: bytes = b""
    # Whether a heading's attribute list may name its entry in the table of contents
    # (``data-toc-label``: Python-Markdown's toc reads the one mkdocs authors write, and the API
    # pages read from source write it under mkdocstrings and autodoc alike): the blocks its
    # Markdown is parsed into take it as the heading's label (``markdown_blocks``); elsewhere a
    # heading's attribute list is the page's own reading.
    toc_labels: bool = False
    # Whether its configuration file counts only where no other generator's is found, in any
    # folder the search looks in: GitBook's ``.gitbook.yaml`` is a sync setting that stays behind
    # when a project moves to another generator (Redux keeps one beside ``website/``'s Docusaurus).
    fallback: bool = False
    # A configuration file many projects have (Next.js's ``next.config.js``) counts only where
    # this function of the dialect's package, ``"module:function"`` in ``contextpull.dialects``,
    # called with (door, folder), says the folder holds the generator's own layout (Nextra's
    # ``_meta`` files, ``app/**/page.mdx``). It looks at names and reads files as data only.
    confirm: str = ""
    # A function like ``confirm``, called with (door, configuration file, DOCS), that says
    # False when the file's own settings put its pages elsewhere (mkdocs' ``docs_dir``): a
    # stale copy of a configuration nearer DOCS is then passed over for one farther up, of the
    # same generator, that does build DOCS, and kept when none does.
    serves: str = ""
    # Document kinds (``parsing.parse.KINDS``) only this generator's pages are written in, read
    # on its sites alone (``reads_kind``): Markdoc's ``.mdoc`` means something only where an
    # Astro site's Markdoc integration renders it; elsewhere it is a named skip.
    own_kinds: tuple[str, ...] = ()
    # A function like ``confirm``, called with DOCS, that says from what a sample of its pages
    # shows the generator's own syntax (Hugo's shortcodes), or None: where ``auto`` finds no
    # configuration file at all, the first row whose pages say so is the site's generator, and
    # the report names the guess (``detect.detect_site``). It reads pages, never runs anything.
    evidence: str = ""


DIALECTS = (
    Dialect(
        # Zensical (Material for MkDocs' successor) builds the same pages from ``mkdocs.yml`` or
        # its own ``zensical.toml``; a site may give it a YAML file of that name (``-f``).
        "mkdocs", ("mkdocs.yml", "mkdocs.yaml", "zensical.toml", "zensical.yml", "zensical.yaml"), "mkdocs.dialect",
        api_reference=True, html_titles=True, toc_labels=True,
        api_plugins=("mkdocstrings",), api_lines=rb"(?m)^[ \t]*:::[ \t]+[A-Za-z_]",
        split_configs=("mkdocs-*.yml", "mkdocs-*.yaml"), inherits="INHERIT",
        config_tables=(("zensical.toml", "project"),), serves="mkdocs.config:builds_docs",
    ),
    Dialect(
        "docusaurus",
        ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs", "docusaurus.config.cjs"),
        "docusaurus.dialect",
        root_folders=("website",), markdown_is_mdx=True,
    ),
    # VitePress: the configuration is in the project's ``.vitepress`` folder, which sits in the
    # folder pages are read from (``docs/.vitepress/config.ts``), so the site is the folder above it.
    # VitePress takes ``config/index.*`` before ``config.*``, extension by extension.
    Dialect(
        "vitepress",
        tuple(f".vitepress/{name}.{ext}" for ext in ("js", "ts", "mjs", "mts", "cjs", "cts") for name in ("config/index", "config")),
        "vitepress.dialect", config_beside_pages=True, config_folders=(".vitepress/config", ".vitepress"),
    ),
    Dialect(
        "hugo", ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json"), "hugo.dialect",
        shared_config_files=("config.toml", "config.yaml", "config.yml", "config.json"),
        shared_needs="content", config_folders=("config/_default",),
        evidence="hugo.evidence:shortcodes_in",
    ),
    Dialect("mdbook", ("book.toml",), "mdbook.dialect"),
    Dialect(
        "sphinx", ("conf.py",), "sphinx.dialect", config_beside_pages=True, below_docs=("source",),
        api_reference=True, toc_labels=True, api_plugins=("sphinx.ext.autodoc", "sphinx.ext.autosummary"),
        api_lines=rb"(?m)^[ \t]*(?:\.\.[ \t]+|[`:]{3,}[ \t]*\{)auto[a-z]*(?:::|\})",
    ),
    Dialect(
        "jekyll", ("_config.yml", "_config.yaml"), "jekyll.dialect", config_beside_pages=True, html_titles=True,
        yields_to=(("_toc.yml", "sphinx"),),
    ),
    Dialect(
        "nextra", ("next.config.js", "next.config.mjs", "next.config.ts", "next.config.cjs"), "nextra.dialect",
        markdown_is_mdx=True, confirm="nextra.layout:is_nextra",
    ),
    Dialect(
        "starlight",
        ("astro.config.mjs", "astro.config.js", "astro.config.ts", "astro.config.mts", "astro.config.cjs"),
        "starlight.dialect", own_kinds=("markdoc",),
    ),
    Dialect(
        "mintlify", ("docs.json", "mint.json"), "mintlify.dialect", markdown_is_mdx=True,
        confirm="mintlify.navigation:is_mintlify",
    ),
    Dialect("gitbook", (".gitbook.yaml", ".gitbook.yml"), "gitbook.dialect", fallback=True),
)

NAMES = tuple(d.name for d in DIALECTS)
SETTING_VALUES = ("auto", "plain", *NAMES)
API_DIALECTS = tuple(d.name for d in DIALECTS if d.api_reference)
_BY_NAME = {d.name: d for d in DIALECTS}


def dialect(name: str) -> Dialect:
    return _BY_NAME[name]


# The kinds some row reads on its own sites only (``Dialect.own_kinds``).
OWN_KINDS = frozenset(k for d in DIALECTS for k in d.own_kinds)


def reads_kind(name: str, kind: str) -> bool:
    """Whether a site of the dialect ``name`` (``plain`` too) reads documents of ``kind``."""
    return kind not in OWN_KINDS or (name in _BY_NAME and kind in _BY_NAME[name].own_kinds)
