"""``contextpull.config``: the stable public name of the settings (docs/library.md).

The settings live on the write side, in ``contextpull.settings``; this module keeps the name the
library has documented since 0.2.1, so code that imports ``Settings`` or ``resolve_settings``
from here keeps working. Nothing inside the package imports it (tests/test_import_graph.py).
"""

from __future__ import annotations

from .system.bounded_read import CONFIG_FILE_LIMIT
from .settings import (
    DEFAULT_MAX_FILE_BYTES,
    ENV_PREFIX,
    PUBLISHED_KEYWORDS,
    Settings,
    keyword_settings,
    read_pyproject,
    resolve_settings,
)
from .settings.coerce import DIALECT_VALUES

__all__ = [
    "CONFIG_FILE_LIMIT", "DEFAULT_MAX_FILE_BYTES", "DIALECT_VALUES", "ENV_PREFIX", "PUBLISHED_KEYWORDS",
    "Settings", "keyword_settings", "read_pyproject", "resolve_settings",
]
