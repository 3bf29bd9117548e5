"""ContextPull: a token-budgeted index and five pull tools over one SQLite store.

The names exported here are the read side (ADR 001, ADR 009): importing ``contextpull`` loads the
standard library only. The write side lives in ``contextpull.build``; the surfaces in
``contextpull.cli`` and ``contextpull.mcp_server``.
"""

from __future__ import annotations

__version__ = "0.3.0"

from .errors import ContextPullError, StoreError, ToolError  # noqa: E402
from .ops import Ops  # noqa: E402
from .store import Store  # noqa: E402

__all__ = ["ContextPullError", "Ops", "Store", "StoreError", "ToolError", "__version__"]
