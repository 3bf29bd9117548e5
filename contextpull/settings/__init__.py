"""The write side's settings: what a run is told, resolved once where it starts.

- ``values.py``: ``Settings``, the frozen value every step and worker takes;
- ``coerce.py``: one setting's value checked, or a ``ConfigError`` naming its source;
- ``resolve.py``: the four sources in precedence order (flags or keywords, ``CONTEXTPULL_*``,
  ``[tool.contextpull]``, defaults) and the library's keyword names;
- ``environment.py``: what a run takes from the process environment, read by the surfaces only.

It sits on the write side: the reader core (``contextpull/store.py``, ``ops.py``, ...) never
imports it. ``contextpull.config`` is the stable public name over it (docs/library.md).
"""

from __future__ import annotations

from .resolve import ENV_PREFIX, PUBLISHED_KEYWORDS, keyword_settings, read_pyproject, resolve_settings
from .values import DEFAULT_MAX_FILE_BYTES, Settings

__all__ = [
    "DEFAULT_MAX_FILE_BYTES", "ENV_PREFIX", "PUBLISHED_KEYWORDS", "Settings", "keyword_settings",
    "read_pyproject", "resolve_settings",
]
