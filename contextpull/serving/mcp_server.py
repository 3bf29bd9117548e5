"""The MCP server: the five pull tools and the index over the official MCP Python SDK.

system-design.txt sections 7 (delivery into hosts), 9 (concurrency) and 11 (security); ADR 003 and
ADR 004. The server holds no retrieval logic: tools are registered verbatim from
``contextpull.tools.TOOLS`` and every call goes through ``contextpull.tools.call``, the same
dispatch the CLI and the conformance runner use. What lives here is delivery:

- the instructions (pull discipline plus the whole index when ``index_tokens`` fits the budget,
  otherwise a directory listing and how to expand it), returned on ``initialize`` and on the
  2026-07-28 ``server/discover``;
- the instructions after the discipline paragraph (the index, or the listing) as resource
  ``contextpull://index``, versioned by the store's content fingerprint;
- tool results and errors as the published server sends them (compact JSON; an error is the
  JSON of its message and suggestion, with ``isError``), never a dead server;
- a read-only store that is reopened when a rebuild replaced or changed it, so the next
  ``initialize`` or ``index`` call sees the new build;
- an optional ``--log`` line per tool call on stderr (never bodies: stdout is the protocol).

This module imports the ``mcp`` extra at import time; the reader core never imports this module.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS

from .. import __version__
from ..errors import ContextPullError, StoreError, ToolError
from .mcp_instructions import PULL_DISCIPLINE, directory_listing, estimate_tokens, index_body
from .mcp_instructions import provenance_line, with_discipline

__all__ = [
    "INDEX_URI",
    "PULL_DISCIPLINE",
    "LiveStore",
    "build_server",
    "directory_listing",
    "estimate_tokens",
    "http_app",
    "serve_http",
    "serve_stdio",
]

INDEX_URI = "contextpull://index"
# All five tools only read one local file (section 11): nothing changes, the same call gives the
# same answer, and nothing outside the store is reached. Hosts may use these hints to run them
# without a permission prompt. They belong to the MCP listing; tools.json stays the input schemas.
TOOL_ANNOTATIONS = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
# The SDK negotiates the revision per connection: the initialize handshake up to 2025-11-25, and
# the stateless per-request envelope of 2026-07-28 (``server/discover``) on stdio and HTTP alike.
SUPPORTED_PROTOCOL_VERSIONS = KNOWN_PROTOCOL_VERSIONS

# --------------------------------------------------------------------------- the live store


class LiveStore:
    """One read-only store file, reopened when it changes under us.

    A rebuild either replaces the file (``os.replace``: new inode) or writes into it in place
    (an incremental ingest: another connection commits, which moves ``PRAGMA data_version``).
    Either way the cached meta and instructions are stale, so ``current()`` reopens. Section 9:
    the server never writes.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        # One connection, used by one call at a time, on a worker thread (``off_loop``).
        self.lock = threading.Lock()
        self._store = None
        self._ops = None
        self._signature: tuple | None = None
        self._data_version: int | None = None
        self._refused: tuple | None = None
        self._closed = False
        self.instructions = ""
        self.index_text = ""
        self.fingerprint = ""
        self.meta: dict[str, str] = {}

    def _stat_signature(self) -> tuple:
        try:
            st = os.stat(self.path)
        except OSError as exc:
            raise StoreError(f"cannot open store {self.path}: {exc.strerror}") from None
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    def _changed(self) -> bool:
        if self._store is None:
            return True
        try:
            signature = self._stat_signature()
        except StoreError:
            return False  # gone for a moment (mid-replace): keep serving the open build
        if signature != self._signature and signature != self._refused:
            return True
        try:
            version = self._store.conn.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            return True
        return version != self._data_version

    def current(self):
        """The ``Ops`` over the newest build of the file (reopening if it changed)."""
        if self._closed:
            raise StoreError(f"{self.path} is closed: the server is stopping")
        if self._changed():
            try:
                self._reopen()
            except ContextPullError as exc:
                if self._store is None:
                    raise
                # A replacement we cannot open: say so once, keep answering from the last build.
                self._refused = self._stat_signature()
                self._data_version = self._store.conn.execute("PRAGMA data_version").fetchone()[0]
                print(f"contextpull: keeping the previous build of {self.path}: {exc.message}", file=sys.stderr)
        return self._ops

    def _reopen(self) -> None:
        from ..ops import Ops
        from ..store import Store

        signature = self._stat_signature()
        store = Store.open(self.path)
        try:
            meta = dict(store.meta)
            fingerprint = meta.get("content_fingerprint") or _content_fingerprint(store.conn)
            index_text = index_body(store.conn, meta)  # the resource; the instructions add the discipline
            data_version = store.conn.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error as exc:
            store.close()
            raise StoreError(f"cannot read {self.path}: {exc}") from None
        except BaseException:
            store.close()
            raise
        old, self._store = self._store, store
        self._ops = Ops(store)
        self._signature = signature
        self._refused = None
        self._data_version = data_version
        self.meta = meta
        self.fingerprint = fingerprint
        self.instructions = with_discipline(index_text, provenance_line(meta))
        self.index_text = index_text
        if old is not None:
            old.close()

    def close(self) -> None:
        """Close the connection once no call is using it, and refuse calls after. A call runs on
        a worker thread holding ``lock``; a server stopped by SIGTERM while it answered searches
        closed the connection under a running query, and the process ended in SIGSEGV (6 stops
        of 30)."""
        with self.lock:
            self._closed = True
            if self._store is not None:
                self._store.close()
                self._store = None
                self._ops = None


def _content_fingerprint(conn: sqlite3.Connection) -> str:
    from ..writing.fingerprint import content_fingerprint

    return content_fingerprint(conn)


# --------------------------------------------------------------------------- tool call logging


def _summarize_arguments(arguments: dict[str, Any]) -> str:
    parts = []
    for key, value in arguments.items():
        text = json.dumps(value, ensure_ascii=False)
        if len(text) > 60:
            text = text[:57] + "..."
        parts.append(f"{key}={text}")
    return " ".join(parts)


def _result_count(result: Any) -> int:
    if isinstance(result, str):
        return len(result.splitlines())
    if isinstance(result, dict):
        for key in ("hits", "matches", "sections"):
            if isinstance(result.get(key), list):
                return len(result[key])
        if "text" in result:
            return 1 + len(result.get("context") or [])
    return 0


def stderr_logger(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the server


def _tool_result(result: Any) -> types.CallToolResult:
    # The published server's results, byte for byte, so hosts and evaluations built on either
    # read the same thing (docs/agreement.md): the index listing as text, every other result as
    # compact JSON (every byte is a token in the host), errors as the JSON of their dict.
    if isinstance(result, str):
        return types.CallToolResult(content=[types.TextContent(text=result)])
    text = json.dumps(result, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=result)


def _error_result(exc: ContextPullError) -> types.CallToolResult:
    payload = exc.to_dict()
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(payload, ensure_ascii=False))],
        structured_content=payload,
        is_error=True,
    )


async def off_loop(live: LiveStore, fn: Callable, *args):
    """``fn(*args)`` on a worker thread, holding the store's lock. A long search or grep must not
    stop the event loop: over HTTP every other client's requests (a tools/list, a cancellation)
    would wait behind it. The calls still take turns on the one connection."""

    def locked():
        with live.lock:
            return fn(*args)

    return await anyio.to_thread.run_sync(locked)


def build_server(live: LiveStore, *, log: Callable[[str], None] | None = None) -> Server:
    """A low-level SDK ``Server`` over ``live``; the caller owns ``live`` and closes it."""
    from ..tools import TOOLS, call

    tool_list = [
        types.Tool(
            name=t["name"], description=t["description"], input_schema=t["input_schema"], annotations=TOOL_ANNOTATIONS
        )
        for t in TOOLS
    ]
    schemas = {t["name"]: t["input_schema"] for t in TOOLS}

    async def list_tools(ctx: ServerRequestContext, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list)

    async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams):
        name = params.name
        arguments = dict(params.arguments or {})
        started = time.perf_counter()
        count = 0
        status = "ok"
        try:
            if name not in schemas:
                raise ToolError(
                    f"unknown tool {name!r}", "the tools are " + ", ".join(sorted(schemas))
                )
            result = await off_loop(live, lambda: call(live.current(), name, arguments))
            count = _result_count(result)
            return _tool_result(result)
        except ContextPullError as exc:
            # StoreError included: a store that vanished is reported, the server keeps serving.
            status = "error"
            return _error_result(exc)
        except Exception as exc:  # a bug must not take the host's tools away either
            status = "error"
            return _error_result(ContextPullError(f"internal error: {type(exc).__name__}: {exc}"))
        finally:
            if log is not None:
                ms = (time.perf_counter() - started) * 1000
                parts = [f"tool={name}", _summarize_arguments(arguments), f"results={count}", f"ms={ms:.1f}"]
                if status != "ok":
                    parts.append("error")
                log("contextpull " + " ".join(p for p in parts if p))

    def index_resource() -> types.Resource:
        live.current()
        text = live.index_text
        return types.Resource(
            uri=INDEX_URI,
            name="index",
            title="ContextPull index",
            description=f"The pull discipline and the index of this store (build {live.fingerprint[:16]}).",
            mime_type="text/plain",
            size=len(text.encode("utf-8")),
            meta={"contentFingerprint": live.fingerprint, "version": live.fingerprint[:16]},
        )

    async def list_resources(ctx: ServerRequestContext, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[await off_loop(live, _store_or_error, index_resource)])

    async def read_resource(ctx: ServerRequestContext, params: types.ReadResourceRequestParams):
        uri = str(params.uri)
        if uri.split("?", 1)[0] != INDEX_URI:
            raise MCPError(code=types.INVALID_PARAMS, message=f"no resource {uri!r}; the one resource is {INDEX_URI}")
        await off_loop(live, _store_or_error, live.current)
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(
                    uri=INDEX_URI,
                    mime_type="text/plain",
                    text=live.index_text,
                    meta={"contentFingerprint": live.fingerprint},
                )
            ]
        )

    server = Server(
        "contextpull",
        version=__version__,
        title="ContextPull",
        description="Pull exact sections of a docs store: index, search, read, grep, neighbours.",
        instructions=None,
        get_tool_input_schema=schemas.get,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
    server.middleware.append(_FreshInstructions(live))
    return server


def _store_or_error(fn):
    try:
        return fn()
    except ContextPullError as exc:
        raise MCPError(code=types.INTERNAL_ERROR, message=exc.message) from None


class _FreshInstructions:
    """Put the current build's instructions into ``initialize`` and ``server/discover`` results.

    The SDK takes instructions once, at construction; a rebuild must show on the next handshake
    (section 9), so the result is completed here, after the store has been rechecked.
    """

    def __init__(self, live: LiveStore):
        self.live = live

    async def __call__(self, ctx: ServerRequestContext, call_next):
        if ctx.method not in ("initialize", "server/discover"):
            return await call_next(ctx)
        await off_loop(self.live, _store_or_error, self.live.current)
        result = await call_next(ctx)
        if isinstance(result, dict):
            result["instructions"] = self.live.instructions
        elif hasattr(result, "instructions"):
            result.instructions = self.live.instructions
        return result


# --------------------------------------------------------------------------- transports


async def serve_stdio(server: Server) -> None:
    """Speak MCP on stdin/stdout until the host closes the pipe."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def security_settings(host: str, port: int, extra_origins: tuple[str, ...] = (), names: list[str] | None = None):
    """DNS-rebinding protection over the names ``listen.allowed_names`` accepts for this bind."""
    from mcp.server.transport_security import TransportSecuritySettings

    from .listen import allowed_names

    hosts, origins = allowed_names(host, extra_origins, names)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


def http_app(server: Server, host: str, port: int, extra_origins: tuple[str, ...] = (), names: list[str] | None = None):
    """Streamable HTTP at ``/mcp``, stateless: no per-client state, so replicas can share a file."""
    return server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=True,
        json_response=True,
        host=host,
        transport_security=security_settings(host, port, extra_origins, names),
    )


def serve_http(server: Server, sock, host: str, port: int, extra_origins: tuple[str, ...] = (),
               names: list[str] | None = None) -> None:
    """Serve on ``sock``, already bound and listening (``listen.listen``): a port that cannot be
    had was reported before anything said "serving". ``names``: ``listen.allowed_names``'s."""
    import uvicorn

    app = http_app(server, host, port, extra_origins, names)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
