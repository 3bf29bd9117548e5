"""``contextpull.ingest.ingest``: the library entry of the in-place ingest (docs/library.md).

Settings are keyword arguments with the CLI's names and precedence: a keyword stands where a flag
would, then the ``CONTEXTPULL_*`` variables of the ``environment`` the caller passes, then
``[tool.contextpull]`` in the corpus's ``pyproject.toml``, then defaults (system-design.txt
section 8), so ``ingest("docs", store)`` and ``contextpull ingest docs --store store`` with no
such variables set write the same store. The engine is imported when the function runs, so
``from contextpull.ingest import ingest`` stays cheap.

The library reads no environment: ``environment`` (``settings.environment.Environment``) is what
the caller took from its own, ``Environment()`` when it passes none (the command line's is
``cli.environment.read_environment(os.environ)``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..settings import keyword_settings, resolve_settings
from ..errors import ConfigError
from .progress import as_progress

if TYPE_CHECKING:  # pragma: no cover
    from ..settings.environment import Environment
    from .report import IngestReport


def ingest(
    corpus: str | os.PathLike,
    store: str | os.PathLike,
    *,
    strict: bool = False,
    progress: Any = None,
    exclude: Iterable[str | os.PathLike] = (),
    environment: "Environment | None" = None,
    **settings: Any,
) -> "IngestReport":
    """Bring the store file ``store`` up to date with the folder ``corpus``; return the report.

    Unchanged documents are kept, changed ones rewritten, vanished ones deleted; a run that
    changes nothing writes nothing (system-design.txt section 3). ``settings`` are
    ``section_max_chars``, ``section_min_chars``, ``section_heading_depth``,
    ``index_budget_tokens``, ``summarizer`` and ``embed_model`` (or their 0.2.1 names
    ``max_chars``, ``min_chars``, ``heading_depth``, ``summarizer_name``); any other keyword is
    a ``ConfigError``. ``embed_fn(model, texts) -> vectors`` embeds with the caller's own model,
    stored under the name ``embed_model`` gives it. ``progress`` is a function called with each file's path as it is read.
    ``strict`` raises ``CheckFailed`` after writing when a file was skipped. ``environment`` is
    what the run takes from the caller's environment (``CONTEXTPULL_*`` settings, model keys,
    ``SOURCE_DATE_EPOCH``, the CI checkout); none when not given: the library reads none. Bad input raises
    ``InputError``, an unwritable store ``StoreError``.
    """
    from .engine import ingest as run_ingest

    corpus = Path(corpus)
    environment = library_environment(environment)
    resolved, embedder = library_settings("ingest", corpus, settings, environment)
    return run_ingest(
        corpus,
        Path(store),
        resolved,
        strict=strict,
        progress=as_progress(progress),
        exclude=[Path(p) for p in exclude],
        embedder=embedder,
        environment=environment,
    )


def library_environment(environment: "Environment | None") -> "Environment":
    """The environment a library call runs with: the caller's, or none at all."""
    from ..settings.environment import Environment

    return Environment() if environment is None else environment


def library_settings(caller: str, root: Path, keywords: dict[str, Any], environment):
    """The settings of a library call's keywords and the embedder of its ``embed_fn``, or None
    without one. ``ingest`` and ``artifact.build`` share it, so both accept and refuse the same
    keywords and resolve them with the CLI's precedence (a keyword stands where a flag would)."""
    keywords = dict(keywords)
    embed_fn = keywords.pop("embed_fn", None)
    flags = keyword_settings(caller, keywords)
    embedder = _function_embedder(caller, flags, embed_fn)
    resolved = resolve_settings(root if root.is_dir() else None, flags, environment.variables, given_as="keyword")
    if embedder is not None:
        resolved = replace(resolved, embed_model=embedder.setting)
    return resolved, embedder


def _function_embedder(caller: str, flags: dict[str, Any], embed_fn: Any):
    """``embed_fn(model, texts) -> vectors`` names its own model, so ``embed_model`` (taken out
    of ``flags``) is any non-empty name here, not only the providers this release ships."""
    if embed_fn is None:
        return None
    model = flags.pop("embed_model", None)
    if not callable(embed_fn):
        raise ConfigError(f"{caller}() keyword 'embed_fn' must be a function, got {type(embed_fn).__name__}")
    if not isinstance(model, str) or not model.strip():
        raise ConfigError(f"{caller}() keyword 'embed_fn' needs embed_model, the name its vectors are stored under")
    from ..models.embed import FunctionEmbedder

    return FunctionEmbedder(model.strip(), embed_fn)
