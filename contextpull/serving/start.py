"""What a server of several sources mounts at start (issue 27, "Many stores in one server").

Each source is resolved to a store file (a URL or ``gh:`` fetched and verified, a docs folder
refreshed by the caller's ingest, a file as it is), opened, and named: the name given, else
``repository@version`` from its provenance, else the file's or folder's name. A source that
cannot be used (unreachable with no verified cached copy, a failed checksum, not a store) is one
line on stderr and the others are served; no usable source at all is an error (exit 3), and two
sources with one name are a usage error naming both.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ContextPullError
from .catalog import MountSpec, check_names
from .mounts import Mount, MountSet, default_name
from .refresh import Followed
from .sources import Remotes, fetch_remote, is_remote


@dataclass
class Started:
    mounts: MountSet
    followed: list[Followed]  # the unpinned URL mounts a --refresh polls
    failed: list[str]  # one line per source left out


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def open_mounts(
    specs: list[MountSpec],
    *,
    open_store: Callable[[Path], object],
    resolve_local: Callable[[str], Path],
    places: Remotes,
    log: Callable[[str], None] = _stderr,
) -> Started:
    """Mount every usable source of ``specs``; ``open_store(path)`` returns an open ``LiveStore``;
    ``places`` is where remote sources come from and are kept (``cli/remotes.py`` reads it)."""
    opened: list[tuple[MountSpec, object, str | None, str | None]] = []
    failed = []
    for spec in specs:
        try:
            url = sha256 = None
            if is_remote(spec.source):
                remote = fetch_remote(spec.source, spec.sha256, places=places)
                log(f"contextpull: {spec.source}: {remote.note}")
                path, url, sha256 = remote.path, remote.url, remote.sha256
            else:
                path = resolve_local(spec.source)
            live = open_store(path)
        except ContextPullError as exc:
            line = f"contextpull: not serving {spec.source} ({spec.origin}): {exc.message}"
            failed.append(line)
            log(line)
            continue
        opened.append((spec, live, url, None if spec.sha256 else sha256))
    if not opened:
        raise ContextPullError(
            f"no usable source among {len(specs)}: nothing to serve",
            "check the lines above; a URL needs the network or a verified cached copy",
        )
    named = [(spec.name or default_name(live.meta, spec.source, Path(live.path)), spec, live) for spec, live, _, _ in opened]
    try:
        check_names([(name, f"{spec.source} ({spec.origin})") for name, spec, _ in named])
    except ContextPullError:
        for _, _, live in named:
            live.close()
        raise
    mounts = MountSet([Mount(name, live, spec.source) for name, spec, live in named])
    followed = [
        Followed(name, url, sha, _swapper(mounts, name, open_store))
        for (name, _, _), (_, _, url, sha) in zip(named, opened)
        if url is not None and sha is not None
    ]
    return Started(mounts, followed, failed)


def _swapper(mounts: MountSet, name: str, open_store: Callable[[Path], object]):
    def replace(path: Path) -> None:
        mounts.swap(name, open_store(path))  # opened before the swap: the lock is held only to swap

    return replace

