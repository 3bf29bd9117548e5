"""The site a run reads, resolved once where the run starts (issue 35, "one spine"): which
generator its folder is (``dialects.detect``), what the environment fixes for it (the epoch, the
worker count), whether its API pages are read from source and griffe loaded before workers fork,
whether a folder without configuration looks like MDX, and the site opened for the build. Workers
receive the result inside the settings and never resolve it again.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..apiref import preload as preload_apiref
from ..dialects.registry import API_DIALECTS, dialect as dialect_row
from ..settings import Settings
from ..settings.environment import Environment


def with_site(settings: Settings, corpus: Path, environment: Environment = Environment()) -> Settings:
    """``settings`` with the ``Site`` its ``dialect`` setting resolves to for ``corpus`` and the
    worker count ``environment`` asks for (once per run, in the main process; the workers get
    both inside the settings). The site carries the run's ``SOURCE_DATE_EPOCH``, the one the
    Sphinx ``date`` directive shows, so a worker never reads the variable again."""
    if settings.site is not None:
        return settings
    from ..dialects.detect import detect_site

    site = detect_site(Path(corpus), settings.dialect)
    if environment.epoch is not None:
        site = replace(site, epoch=environment.epoch)
    if site.guess_mdx and environment.jobs is None:
        from ..dialects.mdx.evidence import seen_in

        site = replace(site, mdx_seen=seen_in(site.docs_root))
    if settings.api_reference and site.dialect in API_DIALECTS and site.repo_root \
            and preload_apiref(now=_names_api_plugin(site)):
        site = replace(site, api_reference=True)
    return replace(settings, site=site, workers=environment.jobs)


def _names_api_plugin(site) -> bool:
    """Whether the site's configuration file names a plugin that renders API pages
    (``Dialect.api_plugins``); True when it cannot be read, so the import is made as before.
    Read through the site's door, as the reader reads it: guarded, bounded, never blocking."""
    from ..system.bounded_read import CONFIG_FILE_LIMIT
    from ..dialects.door import SiteDoor

    plugins = dialect_row(site.dialect).api_plugins
    if not site.config_file:
        return False
    try:
        text = SiteDoor(site.repo_root).read(site.config_file, CONFIG_FILE_LIMIT)
    except OSError:
        return True
    return any(name.encode() in text for name in plugins)


def open_reader(settings: Settings):
    """The site of ``settings`` opened for one build (``dialects.site_reader``): built once here,
    handed to the page rules and, with the per-document work, to each worker once. A plain site
    gets one too: its ``.rst``, ``.ipynb`` and ``.mdx`` documents are read through the dialects'
    shared readers, and what they share (a label table) must be built once, not per document.
    Opening one loads no dialect's module."""
    site = settings.site
    if site is None:
        return None
    from ..dialects.site_reader import open_site

    return open_site(site)
