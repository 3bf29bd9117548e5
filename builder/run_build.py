"""The action's build step: run ``contextpull build --json`` and report it to the runner.

It keeps the JSON report (notes/common.md, "Build report") and turns it into the step's outputs
(every output ``action.yml`` declares from this step, in the heredoc form), the job summary
(``step_summary.py``) and file annotations (``file_annotations.py``). The build's exit code is the step's:
golden drift and ``strict`` skips end it with 1, bad input with 3 (issue 4's exit codes). When the
build wrote no report at all, its one-line error becomes one ``::error::`` line.

After a clean build the store and its ``store.sqlite.sha256`` are copied to the cache folder,
where ``actions/cache`` saves them at the end of the job for the next incremental build: with the
checksum beside it the next build trusts the store's index pages and copies unchanged chunks
(docs/artifacts.md, "Incremental builds"); without it, it would verify the whole store first and
re-index everything. Inputs arrive as ``CONTEXTPULL_ACTION_*``
environment variables; settings such as ``CONTEXTPULL_SUMMARIZER`` pass through to the build.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import step_summary
from file_annotations import build_annotations, skipped_annotations
from gha import annotation, append_summary, emit, parse_bool, write_outputs

# Outputs of this step; action.yml maps all but the internal ones to the action's outputs.
OUTPUT_NAMES = (
    "store-path",
    "manifest-path",
    "sha256",
    "corpus-fingerprint",
    "content-fingerprint",
    "documents",
    "sections",
    "index-mode",
    "golden",
)
INTERNAL_OUTPUTS = ("sha256-path", "skipped")


def _flag(environ: Mapping[str, str], name: str) -> bool:
    return parse_bool(name, environ.get("CONTEXTPULL_ACTION_" + name.upper().replace("-", "_"), "false") or "false")


def build_command(python: str, environ: Mapping[str, str]) -> list[str]:
    """The ``contextpull build`` argv for these inputs; DOCS goes after ``--`` so it is never a flag."""
    get = lambda name: environ.get("CONTEXTPULL_ACTION_" + name, "")  # noqa: E731
    argv = [python, "-m", "contextpull", "build", "--json", "--out", get("OUT")]
    if get("GOLDEN"):
        argv += ["--golden", get("GOLDEN")]
    if _flag(environ, "update-golden"):
        argv.append("--update-golden")
    if _flag(environ, "strict"):
        argv.append("--strict")
    cache_file = get("CACHE_FILE")
    if cache_file and Path(cache_file).is_file():
        argv += ["--cache", cache_file]
    return argv + ["--", get("DOCS")]


def outputs_from_report(report: Mapping[str, object]) -> dict[str, str]:
    """Every output of this step, as strings, from the build report."""
    manifest = report.get("manifest") or {}
    paths = report.get("paths") or {}
    prints = manifest.get("fingerprints") or {}
    counts = manifest.get("counts") or {}
    golden = report.get("golden") or {}
    return {
        "store-path": str(paths.get("store", "")),
        "manifest-path": str(paths.get("manifest", "")),
        "sha256": str((manifest.get("store") or {}).get("sha256", "")),
        "corpus-fingerprint": str(prints.get("corpus", "")),
        "content-fingerprint": str(prints.get("content", "")),
        "documents": str(counts.get("documents", "")),
        "sections": str(counts.get("sections", "")),
        "index-mode": str((manifest.get("index") or {}).get("mode", "")),
        "golden": str(golden.get("status") or "none"),
        "sha256-path": str(paths.get("sha256", "")),
        "skipped": str(counts.get("skipped", len(manifest.get("skipped") or []))),
    }


def parse_report(stdout: str) -> dict | None:
    """The JSON report, or None when the build printed none (it failed before reporting)."""
    text = stdout.strip()
    if not text:
        return None
    try:
        report = json.loads(text)
    except json.JSONDecodeError:
        # Tolerate stray lines before the JSON object: take the last line that parses.
        for line in reversed(text.splitlines()):
            try:
                report = json.loads(line)
                break
            except json.JSONDecodeError:
                continue
        else:
            return None
    return report if isinstance(report, dict) else None


def failure_message(returncode: int, stderr: str, report: Mapping[str, object] | None) -> str:
    """One line that says why the build failed, from the JSON error or the CLI's ``Error:`` line."""
    report = report or {}
    error = report.get("error")
    if isinstance(error, Mapping):  # {"error": {"message": ..., "suggestion": ...}}
        report, error = error, error.get("message")
    if isinstance(error, str) and error:  # {"error": "...", "suggestion": "..."}
        suggestion = report.get("suggestion")
        return f"{error} ({suggestion})" if suggestion else error
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("Error:"):
            return line[len("Error:"):].strip()
    tail = lines[-1] if lines else "no output"
    return f"contextpull build failed with exit code {returncode}: {tail}"


def save_cache_copy(store: str, checksum: str, cache_file: str) -> None:
    """Put the fresh store and its checksum file where actions/cache saves them."""
    if not (store and cache_file and Path(store).is_file()):
        return
    target = Path(cache_file)
    target.parent.mkdir(parents=True, exist_ok=True)
    sidecar = Path(f"{target}.sha256")
    sidecar.unlink(missing_ok=True)  # never a new store beside an old checksum
    shutil.copyfile(store, target)
    if checksum and Path(checksum).is_file():
        shutil.copyfile(checksum, sidecar)


Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, check=False)


def annotation_root(docs: str, workspace: str) -> str:
    """The docs folder as annotations need it: relative to the repository (the workspace)."""
    path = Path(docs)
    if path.is_absolute() and workspace:
        try:
            return path.relative_to(workspace).as_posix()
        except ValueError:
            return docs
    return docs


def main(environ: Mapping[str, str] = os.environ, run: Runner = _run) -> int:
    docs = annotation_root(environ.get("CONTEXTPULL_ACTION_DOCS", ""), environ.get("GITHUB_WORKSPACE", ""))
    strict = _flag(environ, "strict")
    argv = build_command(sys.executable, environ)
    # Quoted, and control characters spelled out: an input can never start a line of its own
    # here, where the runner would read it as a workflow command.
    shown = " ".join(shlex.quote(arg) for arg in argv[3:]).replace("\r", "\\r").replace("\n", "\\n")
    print("Running: contextpull " + shown, flush=True)
    proc = run(argv)
    returncode = exit_status(proc.returncode)
    if proc.stderr:
        sys.stderr.write(proc.stderr)
        sys.stderr.flush()
    report = parse_report(proc.stdout)
    if report is None or "manifest" not in report:
        message = failure_message(returncode, proc.stderr, report)
        skipped = (report or {}).get("skipped") or []  # --strict: every skipped file, though nothing was published
        lines = [annotation("error", message, title="ContextPull build failed")]
        emit(lines + skipped_annotations(skipped, docs, level="error"))
        append_summary(step_summary.failure(message) + "\n".join(step_summary.skipped_section(skipped, docs)), environ)
        return returncode or 3
    write_outputs(outputs_from_report(report), environ)
    append_summary(step_summary.render(report, docs), environ)
    lines = build_annotations(report, docs, strict=strict)
    if returncode != 0 and not any(line.startswith("::error") for line in lines):
        lines.insert(0, annotation("error", failure_message(returncode, proc.stderr, None)))
    emit(lines)
    if returncode == 0:
        paths = report.get("paths") or {}
        save_cache_copy(str(paths.get("store", "")), str(paths.get("sha256", "")), environ.get("CONTEXTPULL_ACTION_CACHE_FILE", ""))
    return returncode


def exit_status(returncode: int) -> int:
    """The step's exit status for the build's: a build killed by signal N (a negative code from
    ``subprocess``) exits 128 + N, as a shell reports it, not 256 - N."""
    return 128 - returncode if returncode < 0 else returncode


if __name__ == "__main__":
    sys.exit(main())
