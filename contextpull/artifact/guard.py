"""The content-loss guard of a build: the new store against its cache or a base store (issue 29).

``contextpull diff --max-removed/--max-shrink`` run by the build itself, before the artifact is
renamed into place, because the cache is often OUT's own ``store.sqlite``, which publishing
replaces. A guard that fails does not stop the publication: like golden drift, the artifact is
written so it can be inspected, and the build exits 1 with the one line ``diff`` prints.

No limit set, or nothing to compare with (no ``--base-store``, and no ``--cache`` file yet, as on
a first run): no guard. A ``--cache`` that is not a store is a warning (the build already
ignores it); a ``--base-store`` that is not one stops the build, since it was asked for by name.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..checks.thresholds import Thresholds, failure_line
from ..settings import Settings
from ..errors import StoreError


def thresholds_of(settings: Settings) -> Thresholds:
    return Thresholds.parse([settings.max_removed] if settings.max_removed else [], settings.max_shrink)


def check(
    settings: Settings, new_store: Path, *, base_store: Path | None, cache: Path | None,
    warn: Callable[[str], None],
) -> dict[str, Any] | None:
    """The build report's ``guard`` object, or ``None`` when there is no guard."""
    thresholds = thresholds_of(settings)
    base = base_store if base_store is not None else cache
    if thresholds.empty or base is None or (base_store is None and not os.path.lexists(base)):
        return None
    # imported only for a guard: the diff's modules took 11 ms of every build's start
    from ..checks.diff import diff_stores

    try:
        d = diff_stores(base, new_store)
    except StoreError as exc:
        if base_store is not None:
            raise StoreError(f"--base-store {base}: {exc.message}", exc.suggestion) from None
        warn(f"no content-loss guard: the cache {base} cannot be compared ({exc.message})")
        return None
    measures = d.measures(thresholds)
    failed = failure_line(measures)
    return {
        "base": str(base),
        "status": "failed" if failed else "passed",
        "failure": failed,
        "measures": [m.to_dict() for m in measures],
        "text": {"old": d.old_size.to_dict(), "new": d.new_size.to_dict()},
    }
