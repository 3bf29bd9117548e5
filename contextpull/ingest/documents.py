"""The one document source of a run: each file discovery found and read, turned into what the
store gets, in path order (issue 35, "One spine").

``contextpull build`` (``engine.collect``, which a fresh store is written from) and
``contextpull ingest`` (``update.apply_corpus``, which updates a store in place) take their
documents from here, so a file is passed over, kept or read by one loop: a skip or a file the
generator does not render as a page passes through; a file whose stored copy still holds is
kept (the build's cache, the store being updated, each says so through ``keep``); every other
file is parsed, on worker processes when the run has them (``workers.py``), each result in the
order the files were found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..dialects.registry import dialect as dialect_row
from ..settings import Settings
from ..writing.records import NotAPage, Skipped
from .workers import ordered_map, workers_for

# keep(path, sha256) -> what stands for the file unread (a cached record, ``Unchanged``), or
# None to read it. ``sha256`` is the hash of the bytes read now.
Keep = Callable[[str, str], Any]


def documents(
    items: Iterable,
    settings: Settings,
    *,
    parse: Callable[..., Any],
    keep: Keep | None = None,
    halves: tuple[Callable[..., Any], Callable[[Any], Any]] | None = None,
    expected: int | None = None,
) -> Iterator[Any]:
    """``parse(path, data, sha256, settings)`` of every file in ``items`` (``engine._scan``'s
    reads, skips and not-pages, in path order) that ``keep`` does not stand in for, with the
    rest passed through, in input order. ``halves`` splits ``parse`` between a worker and this
    process, and ``expected`` (how many ``items`` there are, when known) says whether the run is
    long enough for one (``workers.ordered_map``)."""

    def jobs() -> Iterator[tuple[bool, object]]:
        for item in items:
            if isinstance(item, (Skipped, NotAPage)):
                yield False, item
                continue
            path = item.candidate.path
            kept = keep(path, item.sha256) if keep is not None else None
            if kept is not None:
                yield False, kept
            else:
                yield True, (path, item.data, item.sha256, settings)

    yield from ordered_map(parse, jobs(), workers=workers_for(settings.site, settings.workers), halves=halves,
                           heavy=api_page(settings.site), expected=expected)


def api_page(site) -> Callable[..., bool] | None:
    """Whether a job's page names an object of the API reference its site reads from source
    (``Dialect.api_lines``): such pages are a short run's heavy jobs (``workers.ordered_map``)."""
    marks = dialect_row(site.dialect).api_lines if site is not None and site.api_reference else b""
    if not marks:  # an empty pattern would call every page heavy
        return None
    lines = re.compile(marks)
    return lambda path, data, *rest: lines.search(data) is not None
