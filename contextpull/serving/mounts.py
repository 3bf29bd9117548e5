"""Several stores in one server, each under its name, swapped between requests (issue 27).

``MountSet`` stands where the single-store server has its ``LiveStore``: ``build_server`` takes
either, since it needs only ``lock``, ``current()``, ``instructions``, ``index_text`` and
``fingerprint``. Each mount is a ``LiveStore`` of its own, so a docs folder rebuilt under a
running server is reopened as before; ``current()`` hands the request a ``MountedOps`` over the
stores of that moment.

Every tool call runs holding ``lock`` (``mcp_server.off_loop``), and ``swap`` takes the same lock
to put a refreshed store in place: a request in flight finishes on the store it started with,
the next one sees the new store, and no answer mixes the two. The old store is closed after the
swap, once no request can hold it.
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from ..provenance import Provenance
from .catalog import valid_name
from .mcp_instructions import multi_instructions
from .routing import Mounted, MountedOps


@dataclass
class Mount:
    """One named source and the store it is served from now."""

    name: str
    live: object  # mcp_server.LiveStore
    source: str  # as the user wrote it


class MountSet:
    """The mounts of one server, in the order they were given."""

    def __init__(self, mounts: list[Mount]):
        if not mounts:
            raise ValueError("a MountSet needs at least one mount")
        self.lock = threading.RLock()
        self._mounts = list(mounts)
        self._key: tuple | None = None
        self._ops: MountedOps | None = None
        self._facts: dict[str, Mounted] = {}
        self.instructions = ""
        self.index_text = ""
        self.fingerprint = ""

    @property
    def names(self) -> list[str]:
        return [m.name for m in self._mounts]

    def mount(self, name: str) -> Mount:
        return next(m for m in self._mounts if m.name == name)

    def current(self) -> MountedOps:
        """The operations over every mount's newest store; call holding ``lock``."""
        ops = [(m, m.live.current()) for m in self._mounts]
        key = tuple((m.name, id(o), m.live.fingerprint) for m, o in ops)
        if key != self._key:
            self._rebuild(ops, key)
        return self._ops  # type: ignore[return-value]

    def _rebuild(self, ops, key) -> None:
        mounted = []
        for mount, store_ops in ops:
            old = self._facts.get(mount.name)
            df_cache = old.df_cache if old is not None and old.ops is store_ops else {}
            mounted.append(Mounted(mount.name, store_ops, mount_line(mount.name, store_ops, mount.live.meta), df_cache))
        self._facts = {m.name: m for m in mounted}
        self.index_text = listing(mounted)
        self.instructions = multi_instructions(self.index_text)
        digest = hashlib.sha256()
        for name, _, fingerprint in key:
            digest.update(f"{name}\0{fingerprint}\n".encode("utf-8"))
        self.fingerprint = digest.hexdigest()
        self._ops = MountedOps(mounted, self.index_text)
        self._key = key

    def swap(self, name: str, live) -> None:
        """Serve ``name`` from ``live`` (already open) from the next request on."""
        with self.lock:
            mount = self.mount(name)
            old, mount.live = mount.live, live
            self._key = None
        old.close()

    def close(self) -> None:
        with self.lock:
            for mount in self._mounts:
                mount.live.close()


def store_counts(store_ops) -> tuple[int, int]:
    row = store_ops.conn.execute("SELECT count(*), coalesce(sum(n_sections), 0) FROM documents").fetchone()
    return int(row[0]), int(row[1])


def mount_line(name: str, store_ops, meta: dict) -> str:
    """One mount in ``index()``: name, version, commit, build date, documents, sections."""
    provenance = Provenance.from_meta(meta)
    documents, sections = store_counts(store_ops)
    parts = [
        f"version {provenance.version or '-'}",
        f"commit {provenance.short_commit or '-'}",
        f"built {provenance.build_date or '-'}",
        f"{documents:,} documents, {sections:,} sections",
    ]
    if provenance.repository_label:
        parts.append(f"from {provenance.repository_label}")
    return f"{name + '/':<24}  " + " · ".join(parts)


def listing(mounted: list[Mounted]) -> str:
    """``index()`` of a server with several mounts, also its resource and its instructions' body."""
    example = mounted[0].name
    lines = [
        f"ContextPull mounts · {len(mounted)} stores",
        *(m.listing for m in mounted),
        "",
        f"Call index(prefix=\"NAME/\") for a store's own index, e.g. index(prefix=\"{example}/\"). "
        f"Section ids and paths begin with the mount name ({example}/path.md#3); in entries too "
        f"(in: [\"{example}/guides/\"]).",
    ]
    return "\n".join(lines)


def default_name(meta: dict, source: str, path: Path) -> str:
    """A mount's name when none was given: ``repository@version`` from provenance, else the
    file's or folder's name."""
    named = Provenance.from_meta(meta).name()
    if named:
        return named
    gh = re.match(r"^gh:[^/]+/([^@]+)@(.+)$", source)
    if gh:
        candidate = f"{gh[1]}@{gh[2]}"
    elif source.startswith(("https://", "http://")):
        candidate = path.name
    else:
        candidate = Path(source).expanduser().resolve().name  # "." is the folder's own name
    if candidate.endswith(".sqlite"):
        candidate = candidate[: -len(".sqlite")]
    cleaned = "".join(c if c.isalnum() or c in "._@+-" else "-" for c in candidate).strip("-.")
    return cleaned if cleaned and valid_name(cleaned) else "store"
