"""Artifact commands: build, diff, verify (issue 4). Thin over ``contextpull.artifact`` and ``contextpull.checks``.

Exit codes: 0 ok; 1 a check failed (golden drift, ``--strict`` skips, verify); 2 usage or a bad
setting; 3 bad input or an unusable store; 130 / 143 interrupted by SIGINT / SIGTERM (the group's
edge says so), with OUT holding the previous artifact, or this one whole if the signal came
while it was being renamed into place. On golden drift the artifact is still written (the
report and the diff are what a reviewer needs); with ``--strict`` and skipped files the build
fails before publishing and the previous artifact stays.
"""

from __future__ import annotations

import json
import os
import sys

import click

from ..errors import CheckFailed, ContextPullError
from . import cli, one_line, terminate_as_interrupt
from .options import json_option, settings_flags, settings_options
from .thresholds import max_removed_option, max_shrink_option, thresholds_from


def _echo_json(value) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def _warn(message: str) -> None:
    click.echo(one_line(f"warning: {message}"), err=True)


def _summary(report) -> str:
    m = report.to_dict()["manifest"]
    lines = [
        f"built {report.out}/store.sqlite: {m['counts']['documents']} documents, "
        f"{m['counts']['sections']} sections, {m['store']['bytes']:,} bytes",
        f"  sha256 {m['store']['sha256']}",
        f"  index {m['index']['mode']}, {m['index']['tokens']} of {m['index']['budget']} tokens;"
        f" corpus {m['fingerprints']['corpus']}",
    ]
    source = _provenance_line(m["source"])
    if source:
        lines.append(f"  {source}")
    if report.reuse != "none":
        what = "whole artifact" if report.reuse == "whole" else f"{report.reused_documents} unchanged documents"
        chunks = f"; kept {report.copied_chunks} of {report.copied_chunks + report.indexed_chunks} chunks" if report.reuse == "documents" else ""
        lines.append(f"  cache: reused {what}, parsed {report.parsed_documents}{chunks}")
    for item in m["skipped"]:
        lines.append(f"  skipped {item['path']}: {item['reason']}")
    lines.extend(f"  {line}" for line in report.dialect_lines())
    if report.summaries is not None:
        from ..ingest.summaries import summary_line

        lines.append(f"  {summary_line(report.summaries)}")
        for item in report.summaries["failed"]:
            lines.append(f"  offline summary for {item['path']}: {item['reason']}")
    if report.guard is not None:
        lines.append(f"  content-loss guard against {report.guard['base']}: {report.guard['status']}")
        for m in report.guard["measures"]:
            if m["limit"] is not None:
                lines.append(f"    {m['measure']} {m['percent']:.1f}% ({m['value']:,} of {m['of']:,}), limit {m['limit']}")
    g = report.golden
    if g.status == "drift":
        if g.index_diff:
            lines.append(g.index_diff.rstrip("\n"))
        lines.append(g.summary())
    elif g.status != "none":
        lines.append(f"  {g.summary()}")
    lines.append(f"  {report.timings.get('total_s', 0):.2f} s")
    return "\n".join(lines)


def _provenance_line(source: dict) -> str:
    from ..provenance import Provenance

    known = {k: source.get(k) for k in ("repository", "ref", "dirty", "version", "built_at")}
    if all(v is None for v in known.values()):
        return ""  # a build outside git: the manifest's commit alone may be GITHUB_SHA
    return Provenance(commit=source.get("commit"), **known).line()


@cli.command("build")
@click.argument("docs", type=click.Path(file_okay=True, dir_okay=True))
@click.option("--out", "out", default="out", show_default=True, type=click.Path(), metavar="DIR", help="Folder for store.sqlite, store.sqlite.sha256 and manifest.json.")
@click.option("--golden", "golden", type=click.Path(), default=None, metavar="GDIR", help="Compare the index and ids with GDIR/index.txt and GDIR/ids.txt.")
@click.option("--update-golden", is_flag=True, help="Rewrite the golden files instead of comparing.")
@click.option("--cache", "cache", type=click.Path(), default=None, metavar="FILE", help="A previous store.sqlite to reuse unchanged documents from.")
@click.option("--strict", is_flag=True, help="Fail (exit 1, nothing published) when any file is skipped.")
@click.option("--docs-version", "docs_version", default=None, metavar="VERSION", help="The docs' version recorded in the store (default: the git tag at the commit, if any).")
@click.option("--base-store", "base_store", type=click.Path(), default=None, metavar="FILE", help="The store --max-removed and --max-shrink compare with (default: the --cache file).")
@max_removed_option
@max_shrink_option
@settings_options
@json_option
def build_cmd(docs, out, golden, update_golden, cache, strict, docs_version, base_store, max_removed, max_shrink, as_json, **kwargs):
    """Build DOCS into a reproducible artifact in --out.

    \b
    Writes OUT/store.sqlite, OUT/store.sqlite.sha256 and OUT/manifest.json,
    renamed into place only when the build succeeded.
    Example:
      contextpull build docs --out out --golden golden --cache out/store.sqlite
    """
    from ..artifact.run import build
    from ..ingest.progress import Progress
    from .environment import read_environment

    flags = {
        **settings_flags(kwargs), "docs_version": docs_version,
        "max_removed": ",".join(max_removed) or None, "max_shrink": max_shrink,
    }
    progress = Progress("build", enabled=not as_json)
    try:
        # the one read of this command's environment; a bad SOURCE_DATE_EPOCH stops the build here
        environment = read_environment(os.environ, stamps_time=True)
        with terminate_as_interrupt():
            report = build(
                docs, out, flags=flags, golden=golden, update_golden=update_golden,
                cache=cache, strict=strict, progress=progress, warn=_warn, base_store=base_store,
                environment=environment,
            )
    except ContextPullError as exc:
        progress.finish()
        if as_json:
            _echo_json({"exit_code": exc.exit_code, "published": False, **exc.to_dict()})
        raise
    except KeyboardInterrupt:
        progress.finish()  # the message that follows starts on a line of its own
        raise
    progress.finish()
    if as_json:
        _echo_json(report.to_dict())
    else:
        click.echo(_summary(report))
        if report.guard is not None and report.guard["status"] == "failed":
            raise CheckFailed(report.guard["failure"], "the artifact was written so it can be inspected")
    if report.exit_code:
        sys.exit(report.exit_code)


@cli.command("diff")
@click.argument("old", type=click.Path())
@click.argument("new", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@max_removed_option
@max_shrink_option
def diff_cmd(old, new, fmt, max_removed, max_shrink):
    """Show what changed between two stores: documents, section ids, index text, text lost.

    Ids whose text changed are listed on their own: citations of them now
    point at different text. Exit 0 whether or not they differ, unless a
    --max-removed or --max-shrink limit is crossed: then exit 1, after the
    report, with one line naming the measure, its figure and the limit.

    \b
    Example:
      contextpull diff old/store.sqlite out/store.sqlite --max-removed 20% --max-shrink 10
    """
    from ..checks.diff import diff_stores
    from ..checks.diff_report import render
    from ..checks.thresholds import failure_line

    thresholds = thresholds_from(max_removed, max_shrink)
    d = diff_stores(old, new)
    click.echo(render(d, fmt, thresholds), nl=False)
    failed = failure_line(d.measures(thresholds))
    if failed:
        raise CheckFailed(failed)


@cli.command("verify")
@click.argument("store", type=click.Path())
@click.option("--manifest", "manifest", type=click.Path(), default=None, metavar="FILE", help="The manifest.json to check the store against (default: the one beside it, if any).")
@click.option("--sha256", "sha256", default=None, metavar="HEX", help="The expected sha256 of the file (default: STORE.sha256 beside it, if any).")
@json_option
def verify_cmd(store, manifest, sha256, as_json):
    """Check a store: schema, FTS5, integrity, ids and links, hashes, fingerprints, checksum, manifest.

    Exits 1 naming the first failure, 3 when the file is not a usable store.
    """
    from ..checks.verify import verify_store

    try:
        report = verify_store(store, manifest=manifest, sha256=sha256)
    except ContextPullError as exc:
        if as_json:
            _echo_json({"ok": False, "path": store, "exit_code": exc.exit_code, **exc.to_dict()})
        raise
    if as_json:
        _echo_json(report.to_dict())
    else:
        click.echo(
            f"ok: {store}: {report.documents} documents, {report.sections} sections; "
            f"checked {', '.join(report.checks)}"
        )
        if not report.provenance.empty:
            click.echo(f"  {report.provenance.line()}")
