"""``contextpull serve``, ``fetch`` and ``claude-md`` (issue 6; system-design.txt section 7; issue 27).

``serve PATH`` decides what PATH is: a corpus folder (refresh ``PATH/.contextpull/store.sqlite``
with an incremental ingest, then serve it), a store file (serve as is), an ``https://`` URL of
a published store or ``gh:OWNER/REPO@TAG`` (fetch into the cache, then serve). In stdio mode
stdout belongs to the protocol, so ingest progress, the fetch note and ``--log`` lines all go to
stderr. One PATH is served exactly as before; several, a ``NAME=`` or ``--catalog`` mount each
store under its name (``serving/start.py``), and ``--refresh`` follows moving release tags.

The MCP SDK is the ``mcp`` extra: without it ``serve`` fails with one line and the install hint,
and the other commands work unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

import click

from ..errors import ContextPullError, InputError
from ..system.install import requirement
from . import cli, handling, terminate_as_interrupt

STORE_IN_CORPUS = Path(".contextpull") / "store.sqlite"
MIN_MCP = "2.3"
MCP_HINT = (
    f"install the extra: pip install \"{requirement('mcp')}\""
    f" (or run uvx --from \"{requirement('mcp')}\" contextpull serve ...)"
)

CLAUDE_MD = """\
## Documentation via ContextPull

This project's documentation is served by the `contextpull` MCP server. Its index (every document
with a one-line summary) is in the server instructions; if you cannot see it, call the `index` tool
or read the resource `contextpull://index`.

- Before answering a question about the documented subject, `search` for it; search returns ids and
  snippets only. `read` the ids you need and answer from their exact text.
- Use `grep` for error codes, flags and identifiers, and `neighbours` for the section before or
  after one you read (or a split table's header).
- Pass document paths from the index as `in` to narrow a search, e.g. `in: ["guides/"]`.
- Cite the section ids you used, like [guides/install.md#3]. Do not answer from memory when the
  docs can say it.
"""


def _echo_err(text: str) -> None:
    click.echo(text, err=True)


def _require_mcp():
    """The server module, or one line naming the missing extra (the SDK is optional)."""
    try:
        import mcp  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as exc:
        raise ContextPullError(f"`contextpull serve` needs the MCP SDK ({exc.name} is not installed)", MCP_HINT) from None
    try:
        from ..serving import mcp_server
    except ImportError as exc:  # an SDK older than the 2.x API this server is written against
        raise ContextPullError(
            f"`contextpull serve` needs MCP SDK {MIN_MCP} or newer (found mcp {_mcp_version()}: {exc})",
            f"pip install 'mcp>={MIN_MCP}'",
        ) from None
    return mcp_server


def _mcp_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mcp")
    except PackageNotFoundError:
        return "unknown"


def refresh_corpus_store(corpus: Path, summarizer: str | None) -> Path:
    """Incremental ingest of ``corpus`` into its own store; progress to stderr only."""
    from ..ingest.engine import ingest
    from ..settings import resolve_settings
    from .environment import read_environment

    environment = read_environment(os.environ)
    store = corpus / STORE_IN_CORPUS
    settings = resolve_settings(corpus, {"summarizer": summarizer}, environment.variables)
    with contextlib.redirect_stdout(sys.stderr):  # stdout is the protocol channel in stdio mode
        report = ingest(corpus, store, settings, progress=_stderr_progress(), environment=environment)
    summary = _report_line(report)
    if summary:
        _echo_err(summary)
    return store


def _stderr_progress():
    from ..ingest.progress import Progress

    return Progress("ingest", stream=sys.stderr)


def _report_line(report) -> str:
    lines = getattr(report, "summary_lines", None)
    return "\n".join(f"contextpull: {line}" for line in lines()) if callable(lines) else ""


def resolve_store(path: str, *, ingest: bool, summarizer: str | None, sha256: str | None = None) -> Path:
    """Turn ``serve``'s PATH argument into a store file to open."""
    return _resolve(path, ingest=ingest, summarizer=summarizer, sha256=sha256)[0]


def _resolve(path: str, *, ingest: bool, summarizer: str | None, sha256: str | None = None, places=None):
    """The store file for PATH, and the remote it came from (``sources.Remote``) or None."""
    from ..serving.sources import fetch_remote, is_remote

    if is_remote(path):
        # With the checksum given, a cached copy is served without asking the network at all.
        remote = fetch_remote(path, sha256, places=places or _places())
        _echo_err(f"contextpull: {remote.note}")
        return remote.path, remote
    return _local_store(path, ingest=ingest, summarizer=summarizer), None


def _local_store(path: str, *, ingest: bool, summarizer: str | None) -> Path:
    target = Path(path)
    if target.is_dir():
        if ingest:
            return refresh_corpus_store(target, summarizer)
        store = target / STORE_IN_CORPUS
        if not store.is_file():
            raise InputError(f"no store at {store}", "run without --no-ingest to build it first")
        return store
    if target.is_file():
        return target
    raise InputError(
        f"{path} does not exist",
        "pass a docs folder, a store .sqlite file or an https:// URL of a published store",
    )


@cli.command()
@click.argument("sources", nargs=-1, metavar="SOURCE...")
@click.option("--no-ingest", is_flag=True, help="Serve the folder's existing store without refreshing it.")
@click.option("--summarizer", default=None, help="Document summaries for the refresh: 'offline' or provider:model.")
@click.option("--log", "log", is_flag=True, help="One line per tool call on stderr (tool, arguments, count, ms).")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    envvar="CONTEXTPULL_TRANSPORT",
    show_default=True,
    help="stdio for a host that launches the server; http for streamable HTTP at /mcp.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP bind address.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    envvar="CONTEXTPULL_PORT",
    show_default=True,
    show_envvar=True,
    help="HTTP port (0: any free port, shown at start).",
)
@click.option(
    "--sha256",
    "sha256",
    default=None,
    metavar="HEX",
    help="For a URL: the expected checksum (else the .sha256 published beside it); "
    "a cached copy with it is served offline.",
)
@click.option(
    "--allow-origin",
    "allow_origins",
    multiple=True,
    help="Extra browser Origin (and Host) to accept over HTTP, e.g. https://docs.example.com.",
)
@click.option(
    "--catalog",
    "catalog",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A TOML file of [[mount]] entries (name, source, optional sha256) to serve beside any SOURCE.",
)
@click.option(
    "--refresh",
    "refresh",
    default=None,
    metavar="DURATION",
    help="Re-check URL sources' published checksum this often (30s, 10m, 1h) and swap in a new store.",
)
def serve(sources, no_ingest, summarizer, log, transport, host, port, allow_origins, sha256, catalog, refresh):
    """Serve docs folders, store files or published stores over MCP.

    \b
    SOURCE is one of, optionally as NAME=SOURCE:
      a docs folder       ingested incrementally into SOURCE/.contextpull/store.sqlite, then served
      a .sqlite file      served as it is (read-only)
      an https:// URL     a published store, fetched and verified into the cache first
      gh:OWNER/REPO@TAG   the store.sqlite the Action attached to that release

    One SOURCE is served as it is. Several (or a NAME=, or --catalog) are mounted side by side:
    ids and paths become NAME/<id>, and index() lists the mounts.

    \b
    Examples:
      contextpull serve ./docs
      contextpull serve out/store.sqlite --transport http --port 8765
      contextpull serve https://github.com/o/r/releases/download/docs/store.sqlite
      contextpull serve uv=gh:astral-sh/uv@docs-latest ./docs --refresh 10m
      contextpull serve --catalog docs-catalog.toml
    """
    ctx = click.get_current_context()
    if not sources and catalog is None:
        raise click.UsageError("give a SOURCE (a docs folder, a store file, a URL) or --catalog FILE", ctx=ctx)
    from ..serving.catalog import parse_argument, read_catalog
    from ..serving.refresh import parse_duration

    interval = parse_duration(refresh) if refresh is not None else None
    specs = [parse_argument(text, i) for i, text in enumerate(sources, 1)]
    if catalog is None and len(specs) == 1 and specs[0].name is None:
        _serve_one(sources[0], no_ingest, summarizer, log, transport, host, port, allow_origins, sha256, interval)
        return
    if sha256:
        raise click.UsageError("--sha256 applies to one URL; pin several with sha256 = ... in a --catalog", ctx=ctx)
    specs = (read_catalog(catalog) if catalog is not None else []) + specs
    mcp_server = _require_mcp()
    from ..serving.start import open_mounts

    places = _places()
    started = open_mounts(
        specs,
        open_store=lambda path: _opened(mcp_server, path),
        resolve_local=lambda source: _local_store(source, ingest=not no_ingest, summarizer=summarizer),
        places=places,
        log=_echo_err,
    )
    mounts = started.mounts
    refresher = _refresher(started.followed, interval, ctx, places.cache)
    label = f"{len(mounts.names)} mounts ({', '.join(mounts.names)})"
    if transport == "stdio":  # over HTTP the "serving ... at URL" line says it
        _echo_err(f"contextpull: mounted {label}")
    server = mcp_server.build_server(mounts, log=mcp_server.stderr_logger if log else None)
    _serve_until_stopped(mcp_server, server, transport, label, host, port, allow_origins, mounts, refresher)


def _opened(mcp_server, path: Path):
    live = mcp_server.LiveStore(path)
    live.current()  # fail now, with one line, if the file is not a store
    return live


def _refresher(followed, interval, ctx, cache):
    if interval is None:
        return None
    if not followed:
        raise click.UsageError("--refresh follows URL or gh: sources without a sha256 pin; none was given", ctx=ctx)
    from ..serving.refresh import Refresher

    return Refresher(followed, interval, cache=cache, log=_echo_err)


def _places():
    """Where this command's remote stores come from and are kept: the environment, read here."""
    from .remotes import remotes

    return remotes(os.environ)


def _serve_one(path, no_ingest, summarizer, log, transport, host, port, allow_origins, sha256, interval) -> None:
    """One source, served as it always was: same ids, same instructions, same answers."""
    mcp_server = _require_mcp()
    from ..serving.sources import is_remote

    ctx = click.get_current_context()
    if sha256 and not is_remote(path):
        raise click.UsageError("--sha256 applies to a URL, not a folder or a file", ctx=ctx)
    places = _places()
    store_path, remote = _resolve(path, ingest=not no_ingest, summarizer=summarizer, sha256=sha256, places=places)
    live = _opened(mcp_server, store_path)
    followed = []
    if remote is not None and not sha256:
        from ..serving.refresh import Followed, repoint

        followed.append(Followed(path, remote.url, remote.sha256, lambda new: repoint(live, new)))
    refresher = _refresher(followed, interval, ctx, places.cache)
    server = mcp_server.build_server(live, log=mcp_server.stderr_logger if log else None)
    _serve_until_stopped(mcp_server, server, transport, store_path, host, port, allow_origins, live, refresher)


def _serve_until_stopped(mcp_server, server, transport, label, host, port, allow_origins, live, refresher) -> None:
    # Ctrl-C or SIGTERM (a service manager) is how a server is meant to stop: exit 0 either way.
    try:
        with _stopped_by_signals(live, transport):
            if refresher is not None:
                refresher.start()
            _run(mcp_server, server, transport, label, host, port, allow_origins)
    except (KeyboardInterrupt, asyncio.CancelledError):  # under 3.10 a Ctrl-C'd loop raises the latter
        pass
    finally:
        if refresher is not None:
            refresher.stop()
        live.close()


@contextlib.contextmanager
def _stopped_by_signals(live, transport: str):
    """Ctrl-C and SIGTERM stop a stdio server at once, once no call is using a store: the store is
    closed (``close`` waits for the call in flight) and the process exits 0.

    Why not unwind: the SDK's stdio transport, cancelled while requests are in flight, raises
    ``BrokenResourceError`` from its stdin reader in an exception group (1 stop in 4 with searches
    in flight); SIGTERM raised as an exception wherever the main thread stood landed inside anyio's
    start of a worker thread, which was then never stopped, and the process hung at exit; and a
    connection closed under a running query ended the process in SIGSEGV. Over HTTP, uvicorn
    catches both signals and shuts down on its own; there SIGTERM is the build's interrupt."""
    if transport != "stdio":
        with terminate_as_interrupt():
            yield
        return

    def stop(signum, frame):
        live.close()
        sys.stderr.flush()
        os._exit(0)

    with handling({signal.SIGINT: stop, signal.SIGTERM: stop}):
        yield


def _run(mcp_server, server, transport, store_path, host, port, allow_origins) -> None:
    if transport == "stdio":
        import anyio

        anyio.run(mcp_server.serve_stdio, server)
        return
    from ..serving.listen import display, listen, machine_names

    sock = listen(host, port)  # bind first: nothing says "serving" until the port is ours
    port = sock.getsockname()[1]  # --port 0 asks the system for a free one
    _echo_err(
        f"contextpull: serving {store_path} at http://{display(host)}:{port}/mcp"
        f" (MCP {', '.join(mcp_server.SUPPORTED_PROTOCOL_VERSIONS)}; stateless)"
    )
    names = machine_names(host)
    if names:
        _echo_err(
            f"contextpull: listening on every interface; requests may name this machine as "
            f"{', '.join(f'{display(n)}:{port}' for n in names)} or loopback; for any other name "
            f"(a DNS alias, a proxy) pass --allow-origin http://NAME:{port}"
        )
    mcp_server.serve_http(server, sock, host, port, tuple(allow_origins), names=names)  # resolved once


@cli.command()
@click.argument("url")
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True, help="Where to place the store.")
@click.option("--sha256", "sha256", default=None, help="Expected sha256; default: the .sha256 asset beside URL.")
def fetch(url, out, sha256):
    """Download a published store, verify it, and place it atomically at --out.

    \b
    Verified downloads are kept in the cache ($CONTEXTPULL_CACHE or ~/.cache/contextpull);
    a copy at --out or in the cache with the expected checksum is used without downloading.
    On any failure (HTTP error, truncated body, checksum mismatch, not a valid store) nothing
    is left behind and the exit code is non-zero.
    """
    from ..serving.fetch import fetch_store, is_url

    if not is_url(url):
        raise InputError(f"{url!r} is not a URL", "pass the https:// address of a published store.sqlite")
    fetched = fetch_store(url, cache=_places().cache, out=Path(out), sha256=sha256)
    verb = {"destination": "kept existing", "cache": "copied from cache"}.get(fetched.source, "fetched")
    click.echo(f"{verb} {fetched.path} ({fetched.bytes:,} bytes, sha256 {fetched.sha256})")


@cli.command(name="claude-md")
def claude_md():
    """Print a CLAUDE.md snippet telling the model how to use the contextpull server."""
    click.echo(CLAUDE_MD, nl=False)  # flushed here, so a full disk is this command's error
