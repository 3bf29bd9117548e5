"""The MCP server as a library: ``build_server`` and ``INDEX_URI`` (docs/library.md; ADR 003).

For a client that runs the server inside its own process or transport, as the 0.2.1 library
documented: ``server, init = build_server(store)`` then ``await server.run(read, write, init)``.
Everything that serves lives in ``contextpull.serving.mcp_server``; this module is the stable name over
it, so the delivery code can move without breaking embedding code.

Importing this module loads the ``mcp`` extra; the reader core (``contextpull``, ``.store``,
``.ops``, ``.tools``, ``.results``) never imports it.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable
from typing import Any

from .serving.mcp_server import INDEX_URI, LiveStore, serve_http, serve_stdio, stderr_logger
from .serving.mcp_server import build_server as _build_live_server
from .store import Store

__all__ = ["INDEX_URI", "LiveStore", "build_server", "serve_http", "serve_stdio"]


def build_server(
    store: Store | LiveStore | str | os.PathLike,
    *,
    log: bool | Callable[[str], None] | None = None,
) -> tuple[Any, Any]:
    """An MCP ``Server`` over one store file, and the initialization options ``Server.run`` needs.

    ``store`` is an open ``Store``, a path to a store file, or a ``LiveStore``. The server keeps
    its own read-only connection to that file (a ``LiveStore``), reopened when a rebuild replaces
    the file, so the caller's ``Store`` may be closed at any time; that connection is closed when
    the server is garbage-collected, or at once by the caller who passed the ``LiveStore``.
    Opening happens here, so a file that is not a store raises ``StoreError`` now, not on the
    first call. ``log=True`` writes one line per tool call to stderr; a callable receives it.
    """
    if isinstance(store, LiveStore):
        live, owned = store, False
    else:
        live, owned = LiveStore(store.path if isinstance(store, Store) else store), True
    live.current()
    logger = stderr_logger if log is True else (log or None)
    server = _build_live_server(live, log=logger)
    if owned:
        weakref.finalize(server, live.close)
    return server, server.create_initialization_options()
