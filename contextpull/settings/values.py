"""The settings of a run as one frozen value (system-design.txt section 8; supplement "Configuration").

``resolve.py`` makes it from the four sources; everything that reads or writes takes it as an
argument, and worker processes receive it whole (with the ``site`` and ``workers`` the run
attached), so a worker reads the settings the main process resolved, never its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Settings:
    """The knobs of a build. Those that change what a build writes are recorded in the manifest
    and the store (``to_dict``); those that only change how it runs (``summary_concurrency``)
    are not, so a build that does not use them keeps its bytes."""

    section_max_chars: int = 2000
    section_min_chars: int = 40
    section_heading_depth: int = 4
    index_budget_tokens: int = 3000
    summarizer: str = "offline"  # or provider:model (issue 17; contextpull.models.summarize)
    summary_concurrency: int = field(default=8, metadata={"recorded": False})
    # Documents larger than this are skipped unread (issue 22). Not recorded: it decides which
    # files are read, not what a read file becomes, and the manifest lists every skip.
    max_file_bytes: int = field(default=DEFAULT_MAX_FILE_BYTES, metadata={"recorded": False})
    # ``provider:model`` for section embeddings (supplement "Configuration"); None: no vectors.
    embed_model: str | None = None
    # The docs' version, recorded as the ``docs_version`` meta key (issue 27; contextpull/provenance.py),
    # not among the settings: None lets the build take the tag at the commit.
    docs_version: str | None = field(default=None, metadata={"recorded": False})
    # Limits on what a build may remove against its cache or base store (issue 29; syntax in
    # contextpull/checks/thresholds.py). They judge a store, they change none of its bytes.
    max_removed: str | None = field(default=None, metadata={"recorded": False})
    max_shrink: str | None = field(default=None, metadata={"recorded": False})
    # Which site generator's reading of the files (issue 26): ``auto`` detects it from the
    # generator's configuration file. Not recorded: what it changes is in every document's
    # fingerprint (contextpull/dialects/tracking/fingerprint.py), and ``plain`` must keep its bytes.
    dialect: str = field(default="auto", metadata={"recorded": False})
    # Whether mkdocstrings ``:::`` lines and Sphinx autodoc directives are read from the
    # repository's Python source (issue 37; contextpull/apiref/). Not recorded, like ``dialect``:
    # the module files a page read are in its fingerprint. ``False`` builds what 0.4 built.
    api_reference: bool = field(default=True, metadata={"recorded": False})
    # The ``contextpull.dialects.api.Site`` the setting resolved to for one corpus, set by the
    # build (``ingest.site.with_site``) so worker processes receive it with the settings.
    site: Any = field(default=None, metadata={"recorded": False, "setting": False})
    # Worker processes the caller's environment asked for (``CONTEXTPULL_JOBS``, read at the
    # surface: contextpull/settings/environment.py), set with ``site``; None lets the run decide.
    workers: int | None = field(default=None, metadata={"recorded": False, "setting": False})

    def to_dict(self) -> dict[str, Any]:
        """The settings a build records; ``embed_model`` only when set, so a build without
        embeddings records (and its cache key and manifest read) exactly what they did before the
        setting existed. ``summary_concurrency`` and ``max_file_bytes`` change no byte of a read file and are
        never recorded."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.metadata.get("recorded", True)}
        if out["embed_model"] is None:
            del out["embed_model"]
        return out
