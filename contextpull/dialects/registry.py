"""The one table of dialects (issue 26, "A dialect setting"): each setting value, the file
names that identify its generator, and the module that reads it, imported only when a build
uses it.

The order of ``DIALECTS`` is the order detection tries names in one folder: names only one
generator uses come before names several share (``_config.yml``, ``config.toml``, ``conf.py``).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Dialect:
    name: str
    config_files: tuple[str, ...]  # most specific first
    module: str  # its reading module, a path in contextpull.dialects
    # Whether the configuration file sits in the folder the pages are read from (Jekyll's
    # ``_config.yml``, Sphinx's ``conf.py``) rather than above it (``mkdocs.yml`` above ``docs/``,
    # ``hugo.toml`` above ``content/``): where the site is when no configuration file was found.
    config_beside_pages: bool = False


DIALECTS = (
    Dialect("mkdocs", ("mkdocs.yml", "mkdocs.yaml"), "mkdocs.dialect"),
    Dialect(
        "docusaurus",
        ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs", "docusaurus.config.cjs"),
        "docusaurus.dialect",
    ),
    Dialect("hugo", ("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json"), "hugo.dialect"),
    Dialect("mdbook", ("book.toml",), "mdbook.dialect"),
    Dialect("sphinx", ("conf.py",), "sphinx.dialect", config_beside_pages=True),
    Dialect("jekyll", ("_config.yml", "_config.yaml"), "jekyll.dialect", config_beside_pages=True),
)
# Hugo's older name, shared with many tools: it counts only beside a ``content/`` folder.
HUGO_SHARED_CONFIG = ("config.toml", "config.yaml", "config.yml", "config.json")

NAMES = tuple(d.name for d in DIALECTS)
SETTING_VALUES = ("auto", "plain", *NAMES)
_BY_NAME = {d.name: d for d in DIALECTS}


def dialect(name: str) -> Dialect:
    return _BY_NAME[name]


@lru_cache(maxsize=None)  # once per process: every document asks
def load_module(path: str) -> ModuleType:
    """The module ``contextpull.dialects.<path>``. Every module the table and ``read`` name
    exists, so one that is missing raises like any other import failure: a typo in a path must
    not silently read a whole dialect as the identity."""
    return importlib.import_module(f"{__package__}.{path}")
