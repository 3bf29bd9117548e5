"""The drift report a reviewer reads in a pull request, and the golden files' patch.

``drift-report`` (an output of the action) names one markdown file in the ``out`` folder
(issue 20, item 5): the drift against the golden files, rendered from the build report, or,
when ``base-store`` is given, ``contextpull diff BASE NEW --format markdown`` against that
store: a file, or ``release:TAG`` for the ``store.sqlite`` of this repository's release TAG
(checked against its ``store.sqlite.sha256`` before use). The file starts with ``MARKER``, so a
workflow can find the comment it posted before and update it instead of adding another.

With ``update-golden: true`` the new golden files exist only in the runner's workspace; the
build step snapshots the old ones and ``golden_patch`` turns the change into a ``git apply``
patch, uploaded beside them and shown in the job summary (issue 20, item 3).

With ``max-removed`` or ``max-shrink`` the diff is also the content-loss guard (issue 29): a
crossed limit is one ``::error`` and a line at the head of the job summary, and the step's
``guard`` output is ``failed``; the step itself succeeds, so the store is still uploaded to be
inspected, while the attestation and the release are skipped and the action's last step fails.

``main`` is the ``base-diff`` step; it runs with the action's virtual environment.
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from contextpull.writing.fingerprint import file_sha256
from gh_cli import GhProblem, Runner, _run, download, require_gh
from gha import BASE_RELEASE_PREFIX, GOLDEN_FILES, annotation, append_summary, emit, write_outputs
from step_summary import MAX_DIFF_CHARS, code, golden_section

MARKER = "<!-- contextpull-drift-report -->"
REPORT_NAME = "drift-report.md"
PATCH_NAME = "golden.patch"


def golden_markdown(golden: Mapping[str, object]) -> str:
    """The drift against the golden files, as a pull-request comment."""
    status = str(golden.get("status") or "none")
    where = code(golden.get("dir") or "golden")
    if status == "drift":
        body = golden_section(golden)
    elif status == "match":
        body = ["### ContextPull golden check", "",
                f"The store matches the golden files in {where}: no section id added, removed or changed.", ""]
    elif status == "updated":
        body = ["### ContextPull golden check", "",
                f"The golden files in {where} were rewritten (`update-golden: true`); the workflow run has "
                "them as an artifact and as a patch in its summary.", ""]
    else:
        return ""
    return MARKER + "\n" + "\n".join(body).rstrip("\n") + "\n"


def write_report(out: str, markdown: str) -> str:
    """Write the report into OUT and return its path ('' for no report)."""
    if not markdown or not Path(out).is_dir():
        return ""
    path = Path(out) / REPORT_NAME
    path.write_text(markdown, encoding="utf-8")
    return str(path)


def snapshot(golden: str) -> dict[str, str | None]:
    """The golden files' text before a build rewrites them (None: not there yet)."""
    found: dict[str, str | None] = {}
    for name in GOLDEN_FILES:
        path = Path(golden) / name
        found[name] = path.read_text(encoding="utf-8") if path.is_file() else None
    return found


def golden_patch(golden: str, before: Mapping[str, str | None]) -> str:
    """A ``git apply`` patch from the snapshot to the golden files now on disk ('' if unchanged)."""
    parts = []
    root = Path(golden).as_posix().lstrip("/")
    for name in GOLDEN_FILES:
        path = Path(golden) / name
        new = path.read_text(encoding="utf-8") if path.is_file() else None
        old = before.get(name)
        if new == old:
            continue
        rel = f"{root}/{name}"
        head = [f"diff --git a/{rel} b/{rel}"]
        if old is None:
            head.append("new file mode 100644")
        lines = difflib.unified_diff((old or "").splitlines(keepends=True), (new or "").splitlines(keepends=True),
                                     "/dev/null" if old is None else f"a/{rel}",
                                     "/dev/null" if new is None else f"b/{rel}", n=3)
        body = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
        parts.append("\n".join(head) + "\n" + body)
    return "".join(parts)


def patch_summary(patch: str, golden: str) -> str:
    if not patch:
        return f"\nThe golden files in {code(golden)} did not change.\n"
    shown = patch if len(patch) <= MAX_DIFF_CHARS else patch[:MAX_DIFF_CHARS] + "\n... (patch cut here; the artifact has it whole)\n"
    fence = "````" if "```" in shown else "```"
    return ("\n<details><summary>Golden files patch (apply with <code>git apply</code>)</summary>\n\n"
            f"{fence}diff\n{shown.rstrip(chr(10))}\n{fence}\n\n</details>\n")


def fetch_base(value: str, folder: Path, run: Runner = _run,
               which: Callable[[str], object] = shutil.which) -> Path:
    """The base store as a local file: the path itself, or a verified download of a release's."""
    if not value.startswith(BASE_RELEASE_PREFIX):
        return Path(value)
    tag = value[len(BASE_RELEASE_PREFIX):]
    require_gh(f"base-store {value}", which)
    folder.mkdir(parents=True, exist_ok=True)
    download(tag, ["store.sqlite", "store.sqlite.sha256"], folder, run)
    store, sidecar = folder / "store.sqlite", folder / "store.sqlite.sha256"
    if not store.is_file():
        raise GhProblem(f"release {tag} has no store.sqlite for input 'base-store'")
    if sidecar.is_file():
        expected = (sidecar.read_text(encoding="utf-8").split() or [""])[0]
        if expected != file_sha256(store):
            raise GhProblem(f"store.sqlite of release {tag} does not match its store.sqlite.sha256; input 'base-store' not used")
    return store


def main(environ: Mapping[str, str] = os.environ, run: Runner = _run,
         which: Callable[[str], object] = shutil.which) -> int:
    """The ``base-diff`` step: ``contextpull diff`` against ``base-store`` into the drift report.

    A base that cannot be had (no such release yet, say on the first pull request) or that
    ``contextpull diff`` refuses (a store of an older major version) is a warning, not a failure
    that would skip the upload and the release: the report then stays the golden one, with no output from this step, since
    ``action.yml`` falls back to the build step's ``drift-report`` when this step sets none.
    """
    value = environ.get("CONTEXTPULL_ACTION_BASE_STORE", "")
    store = environ.get("CONTEXTPULL_ACTION_STORE_PATH", "")
    temp = Path(environ.get("RUNNER_TEMP") or ".") / "contextpull-base"
    try:
        base = fetch_base(value, temp, run, which)
    except GhProblem as exc:
        emit([annotation("warning", f"{exc}; the drift report compares with the golden files only",
                         title="ContextPull base store")])
        return 0
    proc = run([sys.executable, "-m", "contextpull", "diff", str(base), store, "--format", "markdown", *limit_options(environ)])
    guard_failed = proc.returncode == 1 and proc.stdout.startswith("### ")  # the report, then one line
    if proc.returncode != 0 and not guard_failed:  # a store this version refuses (an older major version, say)
        message = (proc.stderr or proc.stdout).strip().splitlines()
        emit([annotation("warning", f"input 'base-store' {value}: contextpull diff failed: "
                                    f"{message[-1] if message else proc.returncode}; the drift report compares "
                                    "with the golden files only", title="ContextPull base store")])
        return 0
    # The diff names the stores by path; the downloaded one's is a temporary folder: say the input.
    body = proc.stdout.strip().replace(str(base), value)
    markdown = f"{MARKER}\n_Compared with the base store {code(value)}._\n\n{body}\n"
    path = write_report(str(Path(store).parent), markdown)
    write_outputs({"drift-report": path, "guard": guard_status(environ, guard_failed)}, environ)
    summary = "\n" + markdown.replace(MARKER + "\n", "", 1)
    if guard_failed:
        # The artifact is still uploaded (so it can be inspected); the release is not made and
        # the action's last step fails.
        line = guard_line(proc.stderr)
        emit([annotation("error", f"{line} (base store {value})", title="ContextPull content-loss guard")])
        summary = f"\n**Content-loss guard failed** against {code(value)}: {line}.\n" + summary
    append_summary(summary, environ)
    return 0


def limit_options(environ: Mapping[str, str]) -> list[str]:
    """The ``max-removed`` and ``max-shrink`` inputs as ``contextpull diff`` options (issue 29)."""
    options = []
    removed = environ.get("CONTEXTPULL_ACTION_MAX_REMOVED", "").strip()
    shrink = environ.get("CONTEXTPULL_ACTION_MAX_SHRINK", "").strip()
    if removed:
        options += ["--max-removed", removed]
    if shrink:
        options += ["--max-shrink", shrink]
    return options


def guard_status(environ: Mapping[str, str], failed: bool) -> str:
    if failed:
        return "failed"
    return "passed" if limit_options(environ) else "none"


def guard_line(stderr: str) -> str:
    """The diff's one line (``Error: documents removed ... is over --max-removed ...``)."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    line = lines[-1] if lines else "a limit was crossed"
    return line[len("Error:"):].strip() if line.startswith("Error:") else line


if __name__ == "__main__":
    sys.exit(main())
