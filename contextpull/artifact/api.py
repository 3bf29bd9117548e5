"""``contextpull.artifact.build``: the library entry of the reproducible build (docs/library.md).

Settings are keyword arguments under the CLI's precedence, a keyword standing where a flag would
(system-design.txt section 8; ``contextpull.settings.keyword_settings``), so a build from Python and
``contextpull build`` with the same values write the same bytes. Everything else is ``run.build``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..ingest.api import library_environment, library_settings
from ..ingest.progress import as_progress

if TYPE_CHECKING:  # pragma: no cover
    from ..settings.environment import Environment
    from .report import BuildReport


def build(
    docs: str | os.PathLike,
    out: str | os.PathLike,
    *,
    golden: str | os.PathLike | None = None,
    update_golden: bool = False,
    cache: str | os.PathLike | None = None,
    base_store: str | os.PathLike | None = None,
    strict: bool = False,
    progress: Any = None,
    warn: Callable[[str], None] | None = None,
    environment: "Environment | None" = None,
    **settings: Any,
) -> "BuildReport":
    """Build the folder ``docs`` into ``out/store.sqlite``, its ``.sha256`` and ``manifest.json``.

    Returns the ``BuildReport`` (``to_dict()`` is ``contextpull build --json``). Golden drift is
    not an exception: the artifact is still published and ``report.exit_code`` is 1, with the
    details in ``report.golden``; so is a crossed ``max_removed``/``max_shrink`` limit, judged
    against ``base_store`` or else the ``cache`` (``report.guard``). ``cache`` is a previous artifact's store to reuse; ``strict``
    raises ``CheckFailed`` (nothing published) when a file was skipped; ``warn`` receives each
    warning line (default: stderr). Settings keywords and ``environment`` as for ``contextpull.ingest.ingest``,
    ``embed_fn`` included.
    Errors: ``InputError``, ``ConfigError``, ``BuildError``; the previous artifact stays as it was.
    """
    from .run import build as run_build

    docs = Path(docs)
    environment = library_environment(environment)  # the caller's, or none: the library reads none
    resolved, embedder = library_settings("build", docs, settings, environment)
    return run_build(
        docs,
        Path(out),
        settings=resolved,
        golden=golden,
        update_golden=update_golden,
        cache=cache,
        base_store=base_store,
        strict=strict,
        progress=as_progress(progress),
        warn=warn,
        embedder=embedder,
        environment=environment,
    )
