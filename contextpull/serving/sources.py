"""Remote sources of ``serve``: ``gh:OWNER/REPO@TAG`` and URLs, verified and cached for offline starts (issue 27).

``gh:OWNER/REPO@TAG`` is the release the Action publishes for TAG (``builder/release.py`` attaches
``store.sqlite`` with ``store.sqlite.sha256`` beside it), so it expands to
``$CONTEXTPULL_GITHUB_URL/OWNER/REPO/releases/download/TAG/store.sqlite``; the base defaults to
``https://github.com`` and is overridable so tests and mirrors point it at their own server.

``fetch.fetch_store`` keeps verified stores in the cache, one folder per checksum. What it cannot
do alone is start offline when no checksum is pinned: the published ``.sha256`` is on the
network. So each verified fetch also records the URL's last checksum in the cache
(``urls/<sha256 of the URL>``), and a start that cannot reach the checksum serves that copy,
saying so in one line, when it still verifies.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from .fetch import FetchError, fetch_store, normalize_sha256, published_checksum

GITHUB_ENV = "CONTEXTPULL_GITHUB_URL"
GITHUB_DEFAULT = "https://github.com"
ASSET = "store.sqlite"  # the Action's release asset; its checksum is ASSET + ".sha256"
_GH = re.compile(r"^gh:(?P<owner>[A-Za-z0-9][A-Za-z0-9_.-]*)/(?P<repo>[A-Za-z0-9_.-]+)@(?P<tag>[^\s/?#]+)$")


@dataclass(frozen=True)
class Remote:
    """A verified store file for a remote source, and how it was had."""

    url: str
    path: Path
    sha256: str
    note: str  # one line for stderr: downloaded, cached, or cached because the network failed


@dataclass(frozen=True)
class Remotes:
    """Where remote stores come from and where they are kept: the command that serves or fetches
    reads them from its environment, once (``cli/remotes.py``), and passes them down."""

    cache: Path  # cli.remotes.cache_dir: $CONTEXTPULL_CACHE or ~/.cache/contextpull
    github_url: str = GITHUB_DEFAULT  # $CONTEXTPULL_GITHUB_URL: where gh: releases are


def is_remote(source: str) -> bool:
    return source.startswith(("https://", "http://", "gh:"))


def expand(source: str, github_url: str = GITHUB_DEFAULT) -> str:
    """The URL of a remote source: ``gh:`` shorthand expanded against ``github_url``, a URL as it is."""
    if not source.startswith("gh:"):
        return source
    match = _GH.match(source)
    if match is None:
        raise InputError(f"{source!r} is not gh:OWNER/REPO@TAG", "e.g. gh:astral-sh/uv@docs-latest")
    base = github_url.rstrip("/")
    return f"{base}/{match['owner']}/{match['repo']}/releases/download/{match['tag']}/{ASSET}"


def fetch_remote(source: str, sha256: str | None = None, *, places: Remotes, timeout: float = 60.0) -> Remote:
    """A verified, cached copy of ``source``; with ``sha256`` pinned a cached copy needs no network."""
    url, cache = expand(source, places.github_url), places.cache
    expected = sha256
    if not expected:
        try:
            expected = published_checksum(url, timeout)
        except FetchError as exc:
            offline = _cached_copy(url, cache)
            if offline is None:
                raise
            return Remote(url, offline[0], offline[1], f"{exc.message}; serving the cached copy {offline[0]} (sha256 {offline[1][:12]})")
    fetched = fetch_store(url, cache=cache, sha256=expected, timeout=timeout)
    record_checksum(url, fetched.sha256, cache)
    return Remote(url, fetched.path, fetched.sha256, _note(fetched))


def _note(fetched) -> str:
    return (
        f"{'using cached' if fetched.reused else 'downloaded'} store {fetched.path}"
        f" ({fetched.bytes:,} bytes, sha256 {fetched.sha256[:12]})"
    )


def _record_path(url: str, cache: Path) -> Path:
    return cache / "urls" / hashlib.sha256(url.encode("utf-8")).hexdigest()[:32]


def record_checksum(url: str, sha256: str, cache: Path) -> None:
    """Remember the URL's verified checksum; a cache we cannot write only costs offline starts."""
    path = _record_path(url, cache)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        tmp.write_text(f"{sha256}  {url}\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def _cached_copy(url: str, cache: Path) -> tuple[Path, str] | None:
    """The last verified copy of ``url`` if it is still in the cache and still has its checksum."""
    try:
        recorded = normalize_sha256(_record_path(url, cache).read_text(encoding="utf-8"), "cache record")
    except (OSError, InputError):
        return None
    try:
        fetched = fetch_store(url, cache=cache, sha256=recorded)  # served from the cache, verified, no request
    except Exception:  # noqa: BLE001 - a damaged cache is only "no cached copy"
        return None
    return fetched.path, recorded

