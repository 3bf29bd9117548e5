"""The ``contextpull`` command: a click group over the library, nothing more.

Commands live in small modules by job (``ingest``, ``read``, ``build``, ``serve``) and register
themselves on ``cli``. Every ``ContextPullError`` becomes one line on stderr and the exit code its
class declares (see ``contextpull.errors``); click keeps exit code 2 for usage errors.
"""

from __future__ import annotations

import contextlib
import importlib
import signal
import sqlite3
import sys
from collections.abc import Iterator

import click

from .. import __version__
from ..errors import ContextPullError


# Which module registers which command. A command's module is imported only when that command
# runs (or when --help lists them all), so `contextpull ingest` does not pay for the read side,
# the MCP surface or the artifact builder at start-up: no-change runs in CI are mostly start-up.
COMMAND_MODULES = {
    "ingest": "ingest",
    "build": "build",
    "diff": "build",
    "verify": "build",
    "index": "read",
    "search": "read",
    "read": "read",
    "grep": "read",
    "neighbours": "read",
    "export-chunks": "read",
    "tools-json": "read",
    "serve": "serve",
    "fetch": "serve",
    "claude-md": "serve",
    "eval": "eval",
}


class Terminated(KeyboardInterrupt):
    """What ``terminate_as_interrupt`` raises for SIGTERM; the group's edge exits 143 for it."""


@contextlib.contextmanager
def handling(handlers: dict) -> Iterator[None]:
    """``handlers`` (signal -> handler) for the time of a command, the previous ones back once it
    is done (it may run inside a larger program); off the main thread (embedded use) signals
    are left alone."""
    try:
        previous = {sig: signal.signal(sig, handler) for sig, handler in handlers.items()}
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)


def terminate_as_interrupt():
    """SIGTERM (a cancelled CI job) unwinds like Ctrl-C, so temporary files are removed."""

    def handler(signum, frame):
        raise Terminated

    return handling({signal.SIGTERM: handler})


class _Group(click.Group):
    """Load command modules lazily; translate our errors once, at the edge, not in every command."""

    def get_command(self, ctx: click.Context, cmd_name: str):  # type: ignore[override]
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            importlib.import_module(f"{__name__}.{COMMAND_MODULES[cmd_name]}")
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for module in sorted(set(COMMAND_MODULES.values())):
            importlib.import_module(f"{__name__}.{module}")
        return super().list_commands(ctx)

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except ContextPullError as exc:
            line = f"Error: {exc.cli_message}"  # the CLI's words: options, not tool arguments
            if exc.cli_suggestion:
                line += f" ({exc.cli_suggestion})"
            click.echo(one_line(line), err=True)
            ctx.exit(exc.exit_code)
        except sqlite3.DatabaseError as exc:
            # Last line of defence: a damaged page can surface mid-command (a value that no
            # longer decodes), and SQLite can refuse a path (ingest into a folder we cannot
            # write); say so in one line instead of a traceback.
            detail = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
            click.echo(
                one_line(
                    f"Error: SQLite failed: {detail} (check the store path and its permissions; "
                    "if the file is damaged, `contextpull verify` names the problem: rebuild it)"
                ),
                err=True,
            )
            ctx.exit(3)
        except KeyboardInterrupt as exc:
            # Unwound like any error, so a build has removed its temporary files by now. The
            # status is the shell's for the signal: 1 would say a check failed.
            name, code = ("SIGTERM", 143) if isinstance(exc, Terminated) else ("SIGINT", 130)
            click.echo(f"Error: interrupted by {name}", err=True)
            ctx.exit(code)
        except BrokenPipeError:
            # The reader went away (``contextpull export-chunks | head``): that is success, not
            # an error. Click would exit 1 here; point stdout at devnull so the flush at exit
            # stays quiet too.
            _silence_stdout()
            ctx.exit(0)
        except OSError as exc:
            # What no layer below turned into one of ours: output to a full disk, say.
            where = f" ({exc.filename})" if exc.filename else ""
            click.echo(one_line(f"Error: {exc.strerror or exc}{where}"), err=True)
            _silence_stdout()
            ctx.exit(3)
        except UnicodeEncodeError as exc:
            # A path or argument whose bytes are not UTF-8 reached a layer that needs text.
            shown = repr(exc.object[max(0, exc.start - 40):exc.end + 40])
            click.echo(one_line(f"Error: {shown} is not valid UTF-8 text (rename the path or pass UTF-8)"), err=True)
            ctx.exit(3)


def one_line(text: str, limit: int = 500) -> str:
    """Messages are one line: a wrapped SQLite or OS message can carry newlines (even a
    section's text), so collapse whitespace and cut what is too long to read."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="contextpull", message="%(prog)s %(version)s")
def cli() -> None:
    """Build ContextPull stores from docs folders and pull from them.

    \b
    Exit codes: 0 ok, 1 a check failed (golden drift, verify, --strict),
    2 usage error, 3 bad input or unusable store, 4 tool error,
    130 / 143 interrupted by SIGINT / SIGTERM.
    """


def main(argv: list[str] | None = None) -> int:
    """Run one command and return its exit code; quiet on a closed pipe (``contextpull index | head``).

    The console script exits with the returned code; a program embedding the CLI calls
    ``main(["search", "TX-4419", "--json"])`` and gets the code instead of a ``SystemExit``
    (docs/library.md). ``argv`` defaults to ``sys.argv[1:]``.
    """
    try:
        cli.main(args=argv, prog_name="contextpull")
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)  # sys.exit("message"): the message, then status 1
        return 1
    except BrokenPipeError:  # raised outside a command (e.g. while printing --help)
        _silence_stdout()
        return 0
    return 0


def _silence_stdout() -> None:
    """Python flushes stdout at exit and would complain again; point it at devnull."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
