"""The five operations over several mounted stores, routed by the mount name (issue 27).

Section ids and document paths are ``NAME/<id>`` and ``NAME/<path>``: ``read`` and
``neighbours`` go to the store the prefix names and prefix what comes back; ``in`` entries begin
with a mount name and carry the store's own path filter after it; without ``in``, ``search``
asks every store and merges by ``merge.merge`` and ``grep`` lists each store's matches in id
order, the stores in name order, so the whole list is in id order. ``index()`` lists the mounts;
``index("NAME/")`` is that store's own index and ``index("NAME/sub/")`` its ``index("sub/")``.

Each result is the dataclass the single-store ``Ops`` returns, so ``contextpull.tools.call``
dispatches to this object unchanged and the tool schemas stay exactly as tools.json has them.
Standard library only; the stores are the ``Ops`` of a snapshot taken for one request.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Sequence

from ..errors import ToolError
from ..tool_schema import check_str, unknown_section
from ..ops import Ops
from ..results import GrepResult, NeighboursResult, ReadResult, SearchResult
from . import merge


@dataclass
class Mounted:
    """One mount as a request sees it: its name, its store's ``Ops``, and the listing facts."""

    name: str
    ops: Ops
    listing: str  # the mount's line in index()
    df_cache: dict = field(default_factory=dict)


class MountedOps:
    """``Ops``' five operations over mounts (in the server's order)."""

    def __init__(self, mounts: list[Mounted], listing: str):
        self.mounts = mounts
        self.by_name = {m.name: m for m in mounts}
        self.listing = listing

    # -- routing ------------------------------------------------------------------------------
    def _names(self) -> str:
        return ", ".join(m.name for m in self.mounts)

    def _unknown_mount(self, name: str, what: str) -> ToolError:
        return ToolError(
            f"no mount '{name}' for {what}",
            f"mounts: {self._names()}; ids and paths begin with the mount name, e.g. {self.mounts[0].name}/",
        )

    def _route(self, value: str, what: str) -> tuple[Mounted, str]:
        name, _, rest = value.partition("/")
        mount = self.by_name.get(name)
        if mount is None:
            raise self._unknown_mount(name, what)
        return mount, rest

    def _scoped(self, in_) -> list[tuple[Mounted, list[str] | None]]:
        """Which stores a search or grep asks, each with its own ``in`` (``None``: the whole store)."""
        if in_ is None or in_ == []:
            return [(m, None) for m in self.mounts]
        if isinstance(in_, str):
            in_ = [in_]
        if not isinstance(in_, (list, tuple)) or not all(isinstance(e, str) for e in in_):
            raise ToolError(f"in must be a list of path globs, got {in_!r}")
        wanted: dict[str, list[str] | None] = {}
        for entry in in_:
            check_str("in", entry)
            mount, rest = self._route(entry, f"in entry '{entry}'")
            if not rest.strip("/") or rest == "*":
                wanted[mount.name] = None  # the whole store
            elif mount.name not in wanted or wanted[mount.name] is not None:
                wanted.setdefault(mount.name, []).append(rest)  # type: ignore[union-attr]
        return [(m, wanted[m.name]) for m in self.mounts if m.name in wanted]

    # -- index --------------------------------------------------------------------------------
    def index(self, prefix: str | None = None) -> str:
        if prefix is None or prefix == "":
            return self.listing
        check_str("prefix", prefix)
        name, slash, rest = prefix.partition("/")
        mount = self.by_name.get(name)
        if mount is not None:
            return mount.ops.index(rest or None)
        if not slash and any(m.name.startswith(name) for m in self.mounts):
            return self.listing
        raise self._unknown_mount(name, f"prefix '{prefix}'")

    # -- search -------------------------------------------------------------------------------
    def search(self, query: str, in_: Sequence[str] | None = None, limit: int = 10, mode: str = "lexical") -> SearchResult:
        """Every store ranks; the merge keeps ``limit`` of their hits; only those are presented
        (snippets, paths, headings), each by its own store."""
        check_str("query", query)
        scoped = self._scoped(in_)
        results = _rank_all(scoped, query, limit, mode)
        modes = {r.mode for _, r in results}
        result_mode = "hybrid" if "hybrid" in modes else "lexical"
        # The stores' own hints (ops.HINT_NO_HITS and the rest) pass through unchanged; beside
        # hits, a store's "no hits" says nothing, so only the stores that answered speak.
        answered = [(m.name, r.hint) for m, r in results if r.ids]
        hint = _hints(answered or [(m.name, r.hint) for m, r in results])
        if len(results) == 1:
            mount, ranked = results[0]
            result = mount.ops.present(ranked)
            return SearchResult(tuple(_hit(mount.name, h) for h in result.hits), result.mode, result.hint)
        order = {m.name: i for i, m in enumerate(self.mounts)}
        lists = [merge.Ranked(order[m.name], r.ids, m.ops.conn, m.df_cache) for m, r in results]
        merged = merge.merge(lists, query, limit) if any(r.ids for _, r in results) else []
        kept: dict[int, list[str]] = {}
        for i, sid in merged:
            kept.setdefault(i, []).append(sid)
        shown = {}
        for m, r in results:
            i = order[m.name]
            if i in kept:
                shown.update(((i, h.id), h) for h in m.ops.present(r, kept[i]).hits)
        hits = tuple(_hit(self.mounts[i].name, shown[(i, sid)]) for i, sid in merged)
        return SearchResult(hits, result_mode, hint)

    # -- read, neighbours ---------------------------------------------------------------------
    def read(self, id: str, context: int = 0) -> ReadResult:
        check_str("id", id)
        mount, sid = self._route(id, f"id '{id}'")
        result = _same_error(id, sid, lambda: mount.ops.read(sid, context))
        return ReadResult(_section(mount.name, result.section), tuple(_section(mount.name, s) for s in result.context))

    def neighbours(self, id: str, before: int = 1, after: int = 1) -> NeighboursResult:
        check_str("id", id)
        mount, sid = self._route(id, f"id '{id}'")
        result = _same_error(id, sid, lambda: mount.ops.neighbours(sid, before, after))
        header = _section(mount.name, result.header) if result.header is not None else None
        return NeighboursResult(tuple(_section(mount.name, s) for s in result.sections), header)

    # -- grep ---------------------------------------------------------------------------------
    def grep(self, pattern: str, in_: Sequence[str] | None = None, regex: bool = False, limit: int = 20) -> GrepResult:
        scoped = sorted(self._scoped(in_), key=lambda pair: pair[0].name)
        matches, truncated = [], False
        for mount, scope in scoped:
            room = limit - len(matches)
            if room <= 0:  # full: one match in any later store means the list was cut
                truncated = bool(mount.ops.grep(pattern, scope, regex, 1).matches)
                if truncated:
                    break
                continue
            found = mount.ops.grep(pattern, scope, regex, room)
            truncated = found.truncated
            matches.extend(replace(m, id=f"{mount.name}/{m.id}", doc=f"{mount.name}/{m.doc}") for m in found.matches)
            if truncated:
                break
        return GrepResult(tuple(matches), truncated)


# Stores ranked at once by a lexical search over this many mounts or more: SQLite runs a query
# without Python's lock, so on two cores two stores' passes run side by side. Fewer mounts, or a
# hybrid search (its query model is shared by mounts), rank one after another.
PARALLEL_MOUNTS = 4


def _rank_all(scoped: list, query: str, limit: int, mode: str) -> list:
    """Each scoped store's ``Ops.rank``, in the scoped order; the first error raised is the
    first store's, as when they run one after another."""
    workers = min(len(scoped), os.cpu_count() or 1, PARALLEL_MOUNTS)
    if mode != "lexical" or len(scoped) < PARALLEL_MOUNTS or workers < 2:
        return [(m, m.ops.rank(query, scope, limit, mode)) for m, scope in scoped]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mount-search") as pool:
        futures = [pool.submit(m.ops.rank, query, scope, limit, mode) for m, scope in scoped]
        return [(m, future.result()) for (m, _), future in zip(scoped, futures)]


def _hints(pairs: list[tuple[str, str | None]]) -> str | None:
    """One store's hint as it is; several different hints each after its mount's name."""
    given = [(name, hint) for name, hint in pairs if hint]
    distinct = list(dict.fromkeys(hint for _, hint in given))
    if not distinct:
        return None
    if len(distinct) == 1 and len(given) == len(pairs):
        return distinct[0]
    return "; ".join(f"{name}: {hint}" for name, hint in given)


def _hit(name: str, hit):
    return replace(hit, id=f"{name}/{hit.id}", doc=f"{name}/{hit.doc}")


def _section(name: str, section):
    return replace(
        section,
        id=f"{name}/{section.id}",
        doc=f"{name}/{section.doc}",
        prev_id=f"{name}/{section.prev_id}" if section.prev_id else None,
        next_id=f"{name}/{section.next_id}" if section.next_id else None,
    )


def _same_error(full: str, sid: str, fn):
    """The store's answer; its unknown-section error names the id as the caller wrote it."""
    try:
        return fn()
    except ToolError as exc:
        if exc.message == unknown_section(sid).message:
            raise unknown_section(full) from None
        raise
