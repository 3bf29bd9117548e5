"""Download a published store, verify it, and place it atomically (issue 6, part 4).

A team's CI publishes ``store.sqlite`` with ``store.sqlite.sha256`` beside it (the build artifact,
issue 4). ``contextpull fetch URL`` and ``contextpull serve URL`` download it with nothing but
the standard library (ADR 001: urllib, no HTTP client dependency), and either a verified file is
at the destination or nothing is: the body streams into a temporary file in the destination's
folder, is checked for length, sha256 and store validity, and only then moves into place with
``os.replace``. Every failure removes the temporary file and raises a ``ContextPullError``
naming the cause. Verified downloads land in the cache folder (``$CONTEXTPULL_CACHE`` or
``~/.cache/contextpull``, one folder per checksum); ``--out`` gets an atomic copy. A copy at the
destination or in the cache with the expected checksum is reused without downloading.

Only ``https://`` is accepted, plus plain ``http://`` to a loopback host for tests and local
mirrors: a store is served to a model, and an unauthenticated download from the network would
make its content anyone's.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..errors import ContextPullError, InputError, StoreError
from ..system.sqlite_files import COMPANIONS

CACHE_ENV = "CONTEXTPULL_CACHE"
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_CHUNK = 1 << 16
_MAX_CHECKSUM_BYTES = 4096


class FetchError(InputError):
    """A download that did not produce a verified store; the destination is left untouched."""


@dataclass(frozen=True)
class Fetched:
    path: Path
    sha256: str
    bytes: int
    reused: bool  # no download: the copy came from ``source``
    source: str = "download"  # download | cache | destination


def is_url(text: str) -> bool:
    return text.startswith(("https://", "http://"))


def check_url(url: str) -> None:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return
    if parts.scheme == "http" and parts.hostname in _LOOPBACK:
        return
    raise InputError(
        f"refusing to download {url!r}: only https:// URLs (or http:// to localhost) are allowed",
        "publish the store over https, e.g. as a release asset",
    )


def normalize_sha256(value: str, source: str) -> str:
    text = value.strip().split()[0].lower() if value.strip() else ""
    if not _HEX64.match(text):
        raise InputError(f"{source} is not a sha256 checksum: {value.strip()[:80]!r}")
    return text


def cached_path(url: str, sha256: str, cache: Path) -> Path:
    """Where ``serve URL`` keeps a store: one folder per checksum, the asset's own file name."""
    name = Path(urllib.parse.urlsplit(url).path).name
    if name in ("", ".", ".."):  # a URL ending in a folder: the default name, never a path step
        name = "store.sqlite"
    return cache / sha256[:16] / name


def fetch_store(
    url: str,
    *,
    cache: Path,
    out: Path | None = None,
    sha256: str | None = None,
    timeout: float = 60.0,
) -> Fetched:
    """A verified copy of the store at ``url``: in the ``cache`` folder (the caller's; the CLI reads ``$CONTEXTPULL_CACHE``), and at
    ``out`` when given.

    The body is downloaded only when neither ``out`` nor the cache already holds a file with
    the expected checksum. If the cache folder cannot be created, the download goes straight
    to ``out`` (still through a temporary file beside it).
    """
    check_url(url)
    if sha256:
        expected = normalize_sha256(sha256, "--sha256")
    else:
        expected = published_checksum(url, timeout)
    target = Path(out) if out is not None else None
    if target is not None:
        if target.is_dir():
            raise InputError(f"{target} is a folder; --out needs a file path")
        if _matches(target, expected):
            return Fetched(target, expected, target.stat().st_size, reused=True, source="destination")
    cached: Path | None = cached_path(url, expected, cache)
    downloaded = False
    if not _matches(cached, expected):
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            if target is None:
                raise InputError(
                    f"cannot create the cache folder {cached.parent}",
                    f"set {CACHE_ENV} to a writable folder",
                ) from None
            cached = None
        try:
            _download_verified(url, expected, cached or target, timeout)
        except BaseException:
            if cached is not None:
                _remove_if_empty(cached.parent)
            raise
        downloaded = True
    source = "download" if downloaded else "cache"
    if target is None:
        return Fetched(cached, expected, cached.stat().st_size, reused=not downloaded, source=source)
    if cached is not None:
        _copy_into_place(cached, target)
    return Fetched(target, expected, target.stat().st_size, reused=not downloaded, source=source)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


def _matches(path: Path, expected: str) -> bool:
    return path.is_file() and _file_sha256(path) == expected


def _temp_beside(target: Path):
    target.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".part", delete=False)
    # NamedTemporaryFile is private (0600) and os.replace keeps that mode: give the placed store
    # the mode any new file gets here, so a server running as another user can read it.
    os.chmod(handle.name, _new_file_mode())
    return handle, Path(handle.name)


def _new_file_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _download_verified(url: str, expected: str, target: Path, timeout: float) -> None:
    """Stream into a temporary file beside ``target``, verify, then ``os.replace``; else nothing."""
    handle, tmp = _temp_beside(target)
    try:
        with handle:
            size, actual = _download(url, handle, timeout)
        if actual != expected:
            raise FetchError(
                f"checksum mismatch for {url}: expected {expected}, got {actual}",
                "the asset and its .sha256 do not belong together, or the download was altered",
            )
        verify_store_file(tmp, url)
        _place(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        _remove_sidecars(tmp)


def _copy_into_place(source: Path, target: Path) -> None:
    handle, tmp = _temp_beside(target)
    try:
        with handle, open(source, "rb") as src:
            shutil.copyfileobj(src, handle, _CHUNK * 16)
        _place(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _place(tmp: Path, target: Path) -> None:
    try:
        os.replace(tmp, target)
    except OSError as exc:  # the target is a folder, or cannot be replaced
        raise FetchError(f"cannot place the store at {target}: {exc.strerror or exc}") from None


def _remove_sidecars(tmp: Path) -> None:
    """Verification opened the temporary file; a WAL store leaves empty -wal/-shm files by it."""
    for suffix in COMPANIONS:
        Path(str(tmp) + suffix).unlink(missing_ok=True)


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    """Release hosts redirect to a CDN; a redirect must meet the same rule as the first URL."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        try:
            check_url(newurl)
        except InputError as exc:
            raise FetchError(f"refusing a redirect from {req.full_url} to {newurl}: {exc.message}") from None
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_CheckedRedirects)


def _open(url: str, timeout: float):
    request = urllib.request.Request(url, headers={"User-Agent": "contextpull-fetch"})
    try:
        return _OPENER.open(request, timeout=timeout)  # scheme and host checked, redirects too
    except urllib.error.HTTPError as exc:
        raise FetchError(f"download failed: HTTP {exc.code} {exc.reason} for {url}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise FetchError(f"download failed: {reason} for {url}") from None


def published_checksum(url: str, timeout: float = 60.0) -> str:
    """The checksum published beside ``url`` (its ``.sha256`` asset); a refresh polls only this."""
    sha_url = url + ".sha256"
    try:
        with _open(sha_url, timeout) as response:
            body = response.read(_MAX_CHECKSUM_BYTES)
    except FetchError as exc:
        raise FetchError(
            f"no checksum for {url}: {exc.message}",
            "pass --sha256 HEX, or publish the .sha256 asset beside the store",
        ) from None
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        raise FetchError(f"{sha_url} is not a checksum file") from None
    return normalize_sha256(text, sha_url)


def _download(url: str, sink, timeout: float) -> tuple[int, str]:
    """Stream the body into ``sink``; check the length the server announced."""
    digest = hashlib.sha256()
    size = 0
    with _open(url, timeout) as response:
        announced = response.headers.get("Content-Length")
        try:
            while chunk := response.read(_CHUNK):
                sink.write(chunk)
                digest.update(chunk)
                size += len(chunk)
        except OSError as exc:  # IncompleteRead, reset, timeout
            raise FetchError(f"download of {url} broke off after {size} bytes: {exc}") from None
    if announced is not None and announced.isdigit() and int(announced) != size:
        raise FetchError(
            f"truncated download of {url}: got {size} of {int(announced)} bytes",
            "try again; the server closed the connection early",
        )
    return size, digest.hexdigest()


def _file_sha256(path: Path) -> str:
    from ..writing.fingerprint import file_sha256

    return file_sha256(path)


def verify_store_file(path: Path, url: str | None = None) -> None:
    """Reject a file that ``contextpull verify`` rejects; ``StoreError`` names why.

    The message names ``url`` rather than the temporary file, which is gone by the time it is read.
    """
    from ..checks.verify import verify_store

    try:
        verify_store(path, sidecars=False)
    except ContextPullError as exc:
        if url is None:
            raise StoreError(f"downloaded file is not a valid store: {exc.message}", exc.suggestion) from None
        reason = exc.message.replace(str(path), "the downloaded file")
        raise StoreError(f"{url} is not a valid store: {reason}", exc.suggestion) from None
