"""The action's build step: run ``contextpull build --json`` and report it to the runner.

It keeps the JSON report (``contextpull/artifact/report.py``) and turns it into the step's outputs
(every output ``action.yml`` declares from this step, in the heredoc form), the job summary
(``step_summary.py``) and file annotations (``file_annotations.py``). The build's exit code is the step's:
golden drift and ``strict`` skips end it with 1, bad input with 3 (issue 4's exit codes). When the
build wrote no report at all, its one-line error becomes one ``::error::`` line.

After a clean build the store and its ``store.sqlite.sha256`` are copied to the cache folder,
where ``actions/cache`` saves them at the end of the job for the next incremental build: with the
checksum beside it the next build trusts the store's index pages and copies unchanged chunks
(docs/artifacts.md, "Incremental builds"); without it, it would verify the whole store first and
re-index everything. Inputs arrive as ``CONTEXTPULL_ACTION_*``
environment variables; settings such as ``CONTEXTPULL_SUMMARIZER`` pass through to the build,
the ``summarizer`` input over the job's variable (``settings_env.build_environ``).

A failed golden check still leaves a whole artifact (docs/artifacts.md), and a reviewer needs
it and the drift report to see what moved (issue 20, item 3). So when the build wrote its
artifact, this step succeeds and says the build's exit code in the ``exit-code`` output; the
uploads run, and the action's last step fails with that code. The build's messages speak the
command line (``--strict``, ``pip install 'contextpull[pdf]'``); ``action_words`` says them in
the inputs the user wrote.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import drift_report
import step_summary
from file_annotations import build_annotations, drift_ids, section_lines, skipped_annotations, summary_annotations
from gha import annotation, append_summary, emit, parse_bool, write_outputs
from settings_env import build_environ

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
# The build's own words for what an Action user sets as inputs (action_words tries the longest first).
ACTION_WORDS = (
    ("install the pdf extra: pip install 'contextpull[pdf]'", "set the input extras: pdf"),
    ("pip install 'contextpull[pdf]'", "extras: pdf"),
    # A summarizer from the docs' pyproject.toml without its key (the input and the job's
    # variable are checked in the first step; settings_env.missing_key).
    ("set OPENAI_API_KEY,", "add OPENAI_API_KEY to the step's env: from a secret,"),
    ("set ANTHROPIC_API_KEY,", "add ANTHROPIC_API_KEY to the step's env: from a secret,"),
    ("build without --strict", "set strict: false"),
    ("contextpull build ... --golden {golden} --update-golden", "update-golden: true"),
    ("--update-golden needs --golden GDIR", "update-golden: true needs the input golden"),
    ("--update-golden", "update-golden: true"),
    ("--strict", "strict: true"),
    ("--golden", "the input golden"),
    ("--out", "the input out"),
    ("--cache", "the restored cache"),
    ("DOCS", "the docs folder"),
)


def action_words(message: str, golden: str = "") -> str:
    """A build message with its command-line words replaced by the Action's inputs, in one pass,
    longest first. Only whole words: a path that contains one (``MYDOCS/x``, ``--golden-dir``,
    ``docs/--out``) is the user's and stays as written."""
    table = {cli.replace("{golden}", golden or "GDIR"): words for cli, words in ACTION_WORDS}
    alternatives = "|".join(re.escape(cli) for cli in sorted(table, key=len, reverse=True))
    return re.sub(rf"(?<![\w/.-])(?:{alternatives})(?![\w/-])", lambda m: table[m.group(0)], message)


def reword(report: dict | None, golden: str) -> None:
    """Say the report's skip reasons and warnings in the Action's words (for display only)."""
    if not report:
        return
    for item in list((report.get("manifest") or {}).get("skipped") or []) + list(report.get("skipped") or []):
        if isinstance(item, dict) and "reason" in item:
            item["reason"] = action_words(str(item["reason"]), golden)
    if isinstance(report.get("warnings"), list):
        report["warnings"] = [action_words(str(w), golden) for w in report["warnings"]]


def installed_packages() -> list[tuple[str, str]]:
    """(name, version) of every distribution in this (the action's) environment, sorted."""
    from importlib.metadata import distributions

    found = {(d.metadata["Name"] or "?").lower(): d.version for d in distributions() if d.metadata["Name"]}
    return sorted(found.items())


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
    # The docs' version in the store (issue 27): the input, else the release being built.
    version = get("DOCS_VERSION").strip() or get("RELEASE_TAG").strip()
    if version:
        argv += ["--docs-version", version]
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


Runner = Callable[..., "subprocess.CompletedProcess[str]"]


def _run(argv: list[str], env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, check=False, env=env)


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
    golden_dir = environ.get("CONTEXTPULL_ACTION_GOLDEN", "")
    update = _flag(environ, "update-golden")
    before = drift_report.snapshot(golden_dir) if update and golden_dir else {}
    argv = build_command(sys.executable, environ)
    # Quoted, and control characters spelled out: an input can never start a line of its own
    # here, where the runner would read it as a workflow command.
    shown = " ".join(shlex.quote(arg) for arg in argv[3:]).replace("\r", "\\r").replace("\n", "\\n")
    print("Running: contextpull " + shown, flush=True)
    proc = run(argv, env=build_environ(environ))
    returncode = exit_status(proc.returncode)
    if proc.stderr:
        sys.stderr.write(proc.stderr)
        sys.stderr.flush()
    report = parse_report(proc.stdout)
    reword(report, golden_dir)
    if report is None or "manifest" not in report:
        message = action_words(failure_message(returncode, proc.stderr, report), golden_dir)
        # --strict: every skipped file and every offline summary fallback, though nothing was published
        skipped = (report or {}).get("skipped") or []
        fallbacks = (report or {}).get("summary_failures") or []
        lines = [annotation("error", message, title="ContextPull build failed")]
        emit(lines + skipped_annotations(skipped, docs, level="error") + summary_annotations(fallbacks, docs, level="error"))
        listed = step_summary.skipped_section(skipped, docs) + step_summary.summary_failures_section(fallbacks, docs)
        append_summary(step_summary.failure(message) + "\n".join(listed), environ)
        return returncode or 3
    outputs = outputs_from_report(report)
    paths = report.get("paths") or {}
    store = str(paths.get("store", ""))
    out = str(Path(store).parent) if store else environ.get("CONTEXTPULL_ACTION_OUT", "")
    golden = report.get("golden") or {}
    outputs["drift-report"] = drift_report.write_report(out, drift_report.golden_markdown(golden))
    outputs["golden-patch"] = ""
    summary = step_summary.render(report, docs, installed_packages())
    if golden.get("status") == "updated" and golden_dir:
        patch = drift_report.golden_patch(golden_dir, before)
        patch_path = Path(out) / drift_report.PATCH_NAME
        patch_path.write_text(patch, encoding="utf-8")
        outputs["golden-patch"] = str(patch_path)
        summary += drift_report.patch_summary(patch, golden_dir)
    # The artifact is whole (drift leaves it written): uploads run, the last step fails.
    deferred = returncode != 0 and bool(store) and Path(store).is_file()
    outputs["exit-code"] = str(returncode)
    write_outputs(outputs, environ)
    append_summary(summary, environ)
    ids = drift_ids(report)
    lines_of = section_lines(store, ids, Path(environ.get("CONTEXTPULL_ACTION_DOCS", "") or ".")) if ids else {}
    lines = build_annotations(report, docs, strict=strict, lines_of=lines_of)
    if returncode != 0 and not any(line.startswith("::error") for line in lines):
        lines.insert(0, annotation("error", action_words(failure_message(returncode, proc.stderr, None), golden_dir)))
    emit(lines)
    if returncode == 0:
        save_cache_copy(store, str(paths.get("sha256", "")), environ.get("CONTEXTPULL_ACTION_CACHE_FILE", ""))
    return 0 if deferred else returncode


def exit_status(returncode: int) -> int:
    """The step's exit status for the build's: a build killed by signal N (a negative code from
    ``subprocess``) exits 128 + N, as a shell reports it, not 256 - N."""
    return 128 - returncode if returncode < 0 else returncode


if __name__ == "__main__":
    sys.exit(main())
