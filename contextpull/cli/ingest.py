"""``contextpull ingest DIR``: update a store in place from a docs folder (issue 2;
system-design.txt sections 3, 8 and 12).

The store is ``--store``, else ``CONTEXTPULL_STORE``, else ``store`` in ``[tool.contextpull]`` of the
corpus's ``pyproject.toml`` (relative to the corpus), else ``.contextpull/store.sqlite`` in the
working directory: the same default the read commands use, so ``contextpull ingest docs``
followed by ``contextpull search ...`` needs no flags. Each skipped file is listed on stderr with its reason; the summary follows. ``--strict``
turns any skipped file into exit 1 after the store is written (CI wants that).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from ..settings import read_pyproject, resolve_settings
from ..errors import ConfigError
from . import cli, terminate_as_interrupt
from .options import DEFAULT_STORE, json_option, settings_flags, settings_options


@cli.command("ingest")
@click.argument("corpus", type=click.Path(file_okay=True, dir_okay=True, path_type=Path))
@click.option(
    "--store",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    envvar="CONTEXTPULL_STORE",
    show_envvar=True,
    help=f"The store file to create or update. [default: store in the corpus's pyproject.toml"
    f" [tool.contextpull], else {DEFAULT_STORE}]",
)
@click.option("--strict", is_flag=True, help="Exit 1 when any file was skipped (after writing).")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@settings_options
@json_option
def ingest_command(
    corpus: Path, store: Path | None, strict: bool, quiet: bool, as_json: bool, **kwargs
):
    """Ingest the documents under CORPUS into the store, incrementally.

    \b
    Unchanged files (same sha256) are skipped; changed files are replaced; files gone from
    CORPUS are removed. Supported: .md .markdown .txt .docx .xlsx .pptx .pdf (pdf needs the
    'pdf' extra).
    """
    # Imported here so the read commands do not pay for loading the write side.
    from ..ingest.engine import ingest as run_ingest
    from ..ingest.engine import strict_failure, strict_problems
    from ..ingest.progress import Progress
    from .environment import read_environment

    environment = read_environment(os.environ)  # the one read of this command's environment
    root = corpus if corpus.is_dir() else None
    settings = resolve_settings(root, settings_flags(kwargs), environment.variables)
    if store is None:
        store = _store_from_pyproject(root) or Path(DEFAULT_STORE)
    progress = Progress("ingest", enabled=not quiet and not as_json)
    try:
        with terminate_as_interrupt():
            report = run_ingest(corpus, store, settings, progress=progress, environment=environment)
    except KeyboardInterrupt:
        progress.finish()  # the message that follows starts on a line of its own
        raise
    for skipped in report.skipped:
        click.echo(f"skipped {skipped.path}: {skipped.reason}", err=True)
    for failed in report.summary_failures():
        click.echo(f"offline summary for {failed['path']}: {failed['reason']}", err=True)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        for line in report.summary_lines():
            click.echo(line)
    if strict and strict_problems(report):
        raise strict_failure(report)


def _store_from_pyproject(root: Path | None) -> Path | None:
    """``store`` from ``[tool.contextpull]`` in the corpus root, relative to that root."""
    if root is None:
        return None
    table, label = read_pyproject(root)
    value = table.get("store")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"store must be a file path, got {value!r} (from {label})")
    return root / value
