"""Where remote stores come from and where they are kept, as the serve and fetch commands read
them from their environment, once (the library below takes the ``Remotes`` value)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..serving.fetch import CACHE_ENV
from ..serving.sources import GITHUB_DEFAULT, GITHUB_ENV, Remotes


def cache_dir(environ: Mapping[str, str]) -> Path:
    """``$CONTEXTPULL_CACHE``, else ``~/.cache/contextpull``."""
    value = environ.get(CACHE_ENV, "")
    return Path(value).expanduser() if value else Path.home() / ".cache" / "contextpull"


def remotes(environ: Mapping[str, str]) -> Remotes:
    """The cache folder and ``$CONTEXTPULL_GITHUB_URL`` (where ``gh:`` releases are)."""
    return Remotes(cache_dir(environ), (environ.get(GITHUB_ENV) or GITHUB_DEFAULT).rstrip("/"))
