"""The artifact: one reproducible, self-contained ``store.sqlite`` with its checksum and
manifest (issue 4; store-format.txt "Meta keys"; system-design.txt section 5).

``contextpull.artifact.build(docs, out, **settings)`` is the library entry (``api``,
docs/library.md). ``run.build`` makes one artifact: the rows chunk by chunk (``chunks``,
``assemble``), kept from a previous artifact with ``--cache`` (``cache``, ``cache_copy``,
``patch``), compacted with ``VACUUM INTO`` (``build_file``), the manifest (``manifest``) and the
report (``report``), all under temporary names in OUT (``outdir``) that are renamed only when
every step succeeded. ``build_job`` holds the steps of one attempt.

``build`` and ``BuildReport`` load on first use (PEP 562): importing a submodule stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..system.lazy import exports

if TYPE_CHECKING:  # pragma: no cover
    from .api import build
    from .report import BuildReport

__all__ = ["BuildReport", "build"]


__getattr__ = exports(__name__, {"build": ("api", "build"), "BuildReport": ("report", "BuildReport")})
