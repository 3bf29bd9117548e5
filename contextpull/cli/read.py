"""Read commands: index, search, read, grep, neighbours, export-chunks, tools-json.

Thin over the library (issue 3, item 5): every tool command goes through ``contextpull.tools.call``,
the same dispatch the MCP server and the conformance runner use, so ``--json`` prints exactly what
a model would receive. Text output is for people: one hit or match per line, section text verbatim.
Errors are ``ContextPullError``s, turned into one line and an exit code by the ``cli`` group.
"""

from __future__ import annotations

import json
from contextlib import contextmanager

import click

from ..errors import StoreError, ToolError
from ..ops import Ops
from ..store import Store
from ..text import query_tokens
from ..tools import call, tools_json
from . import cli
from .options import json_option, store_option

_IN_OPTION = click.option(
    "--in", "in_", multiple=True, metavar="PATH_OR_GLOB", help="Restrict to documents (repeatable); a directory matches its files."
)


@contextmanager
def _ops(store_path: str):
    with Store.open(store_path) as store:
        yield Ops(store)


def _echo_json(value) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def _args(**kwargs) -> dict:
    """Tool arguments from CLI options: options left unset are omitted so schema defaults apply."""
    out = {}
    for key, value in kwargs.items():
        if value is None or value == ():
            continue
        out["in" if key == "in_" else key] = list(value) if isinstance(value, tuple) else value
    return out


def _echo_section(section: dict, label: str = "") -> None:
    tag = f" · {label}" if label else ""
    click.echo(f"=== {section['id']} · {section['heading_path']} · {section['kind']}{tag}")
    click.echo(section["text"])


@cli.command("index")
@click.option("--prefix", default=None, help="List the documents under this path prefix.")
@store_option
@json_option
def index_cmd(prefix, store, as_json):
    """Print the index text (or the listing under --prefix)."""
    with _ops(store) as ops:
        text = call(ops, "index", _args(prefix=prefix))
        hint = ops.index_hint(prefix)  # a prefix that lists nothing: say which paths exist
    if as_json:
        _echo_json({"text": text, **({"hint": hint} if hint else {})})
    else:
        click.echo(text)
        if hint:
            click.echo(f"hint: {hint}")


@cli.command("search")
@click.argument("query")
@_IN_OPTION
@click.option("--limit", type=int, default=None, help="Hits to return, 1 to 50 (default 10).")
@click.option("--mode", type=click.Choice(["lexical", "hybrid"]), default=None, help="Default lexical.")
@store_option
@json_option
def search_cmd(query, in_, limit, mode, store, as_json):
    """Find sections: ids, heading paths and snippets, never bodies.

    A query without a single searchable word (only punctuation) is a bad input here: the result
    is printed as usual (empty, with its hint) and the exit code is 4.
    """
    with _ops(store) as ops:
        result = call(ops, "search", _args(query=query, in_=in_, limit=limit, mode=mode))
    unsearchable = not query_tokens(query)
    if as_json:
        _echo_json(result)
    elif unsearchable:
        # The hint is the published reader's; the command line adds where to go instead.
        click.echo(f"Error: {result['hint']} (use grep for punctuation or symbols)", err=True)
    else:
        for hit in result["hits"]:
            click.echo(f"{hit['score']:7.2f}  {hit['id']:<40} {hit['heading_path']}")
            click.echo(f"         {hit['snippet']}")
        if result["hint"]:
            click.echo(f"hint: {result['hint']}")
    if unsearchable:
        click.get_current_context().exit(ToolError.exit_code)


@cli.command("read")
@click.argument("section_id", metavar="ID")
@click.option("--context", type=int, default=None, help="Also print this many sections either side (0 to 5).")
@store_option
@json_option
def read_cmd(section_id, context, store, as_json):
    """Print one section verbatim."""
    with _ops(store) as ops:
        result = call(ops, "read", _args(id=section_id, context=context))
    if as_json:
        _echo_json(result)
        return
    if not result["context"]:
        click.echo(result["text"])
        return
    ordinal = _ordinal(result["id"])
    before = [c for c in result["context"] if _ordinal(c["id"]) < ordinal]
    after = [c for c in result["context"] if _ordinal(c["id"]) > ordinal]
    for section in before:
        _echo_section(section, "context")
    _echo_section(result)
    for section in after:
        _echo_section(section, "context")


def _ordinal(section_id: str) -> int:
    return int(section_id.rsplit("#", 1)[1])


@cli.command("grep")
@click.argument("pattern")
@_IN_OPTION
@click.option("--regex", is_flag=True, default=None, help="Treat PATTERN as a Python regex.")
@click.option("--limit", type=int, default=None, help="Sections to return, 1 to 100 (default 20).")
@store_option
@json_option
def grep_cmd(pattern, in_, regex, limit, store, as_json):
    """Exact, case-insensitive substring (or regex) match; first matching line per section."""
    with _ops(store) as ops:
        result = call(ops, "grep", _args(pattern=pattern, in_=in_, regex=regex, limit=limit))
    if as_json:
        _echo_json(result)
        return
    for match in result["matches"]:
        click.echo(f"{match['id']:<40} {match['line']}")
    if result["truncated"]:
        click.echo("(more sections match; raise --limit or narrow with --in)")


@cli.command("neighbours")
@click.argument("section_id", metavar="ID")
@click.option("--before", type=int, default=None, help="Sections before (0 to 5, default 1).")
@click.option("--after", type=int, default=None, help="Sections after (0 to 5, default 1).")
@store_option
@json_option
def neighbours_cmd(section_id, before, after, store, as_json):
    """Print the sections around ID, and the header part of a split table."""
    with _ops(store) as ops:
        result = call(ops, "neighbours", _args(id=section_id, before=before, after=after))
    if as_json:
        _echo_json(result)
        return
    if result["header"]:
        _echo_section(result["header"], "table header")
    for section in result["sections"]:
        _echo_section(section, "" if section["id"] == section_id else "neighbour")


@cli.command("export-chunks")
@store_option
def export_chunks_cmd(store):
    """Every section as JSON lines {id, text, source}, in document and section order."""
    with Store.open(store) as opened:
        rows = opened.conn.execute(
            "SELECT s.id, s.text, d.path FROM sections s JOIN documents d ON d.doc_id = s.doc_id "
            "ORDER BY d.path, s.ordinal"
        )
        for sid, text, path in rows:
            if not isinstance(text, str) or not isinstance(sid, str) or not isinstance(path, str):
                raise StoreError(
                    f"{store}: section {sid!r} does not hold text",
                    "the store file is damaged: check it with `contextpull verify`, rebuild it",
                )
            click.echo(json.dumps({"id": sid, "text": text, "source": path}, ensure_ascii=False))


@cli.command("tools-json")
def tools_json_cmd():
    """Print the tool definitions: contextpull tools-json > tools.json"""
    click.echo(tools_json(), nl=False)
