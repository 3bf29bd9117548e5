"""ContextPull: a token-budgeted index and five pull tools over one SQLite store.

The names exported here are the read side (ADR 001, ADR 009): importing ``contextpull`` loads the
standard library only. The write side lives in ``contextpull.parsing``, ``.writing``,
``.ingest``, ``.artifact`` and ``.checks`` (their library entry points are in docs/library.md);
the surfaces in ``contextpull.cli`` and ``contextpull.server``. ``Store`` and ``Ops`` load on first use
(PEP 562), so the write side, which imports this package for its version, does not pay for the
read side at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.5.0"

from .errors import ContextPullError, OpsError, StoreError, ToolError  # noqa: E402
from .system.lazy import exports  # noqa: E402

if TYPE_CHECKING:  # pragma: no cover
    from .ops import Ops
    from .store import Store

__all__ = ["ContextPullError", "Ops", "OpsError", "Store", "StoreError", "ToolError", "__version__"]


__getattr__ = exports(__name__, {"Ops": ("ops", "Ops"), "Store": ("store", "Store")})
