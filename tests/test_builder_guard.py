"""The Action's content-loss guard and provenance (issues 29 and 27): the base-diff step with
``max-removed``/``max-shrink``, the inputs' syntax, the build step's ``--docs-version`` and the
summary's source rows. Job summaries are pytest-regressions files (``--force-regen`` rewrites them).
"""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

BUILDER = Path(__file__).resolve().parent.parent / "builder"
sys.path.insert(0, str(BUILDER))

import drift_report  # noqa: E402
import run_build  # noqa: E402
import step_summary  # noqa: E402
import validate_inputs as vi  # noqa: E402
from artifact_helpers import quiet_build  # noqa: E402
from builder_reports import REPORT  # noqa: E402
from contextpull.checks.thresholds import BadThreshold, parse_removed, parse_shrink  # noqa: E402


def _corpus(root: Path, count: int) -> Path:
    root.mkdir(parents=True)
    for i in range(count):
        (root / f"page{i}.md").write_text(f"# Page {i}\n\nWhat page {i} says, in a sentence or two.\n", encoding="utf-8")
    return root


@pytest.fixture
def pair(tmp_path):
    quiet_build(_corpus(tmp_path / "old-docs", 10), tmp_path / "old")
    quiet_build(_corpus(tmp_path / "new-docs", 4), tmp_path / "new")
    return tmp_path / "old" / "store.sqlite", tmp_path / "new" / "store.sqlite"


def _run(argv):
    return subprocess.run(argv, capture_output=True, text=True, check=False)


def _step(tmp_path, base, new, **limits):
    output, summary = tmp_path / "output", tmp_path / "summary.md"
    output.write_text("")
    summary.write_text("")
    environ = {"CONTEXTPULL_ACTION_BASE_STORE": str(base), "CONTEXTPULL_ACTION_STORE_PATH": str(new),
               "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(tmp_path),
               **{f"CONTEXTPULL_ACTION_{k.upper()}": v for k, v in limits.items()}}
    assert drift_report.main(environ, _run) == 0  # the upload still runs; the last step fails
    return output.read_text(), summary.read_text().replace(str(tmp_path), "<tmp>")


def test_a_failed_guard_is_an_error_a_summary_line_and_an_output(tmp_path, pair, capsys, file_regression):
    outputs, summary = _step(tmp_path, *pair, max_removed="documents=20%", max_shrink="90")
    error = capsys.readouterr().out.strip().splitlines()
    assert error == [
        "::error title=ContextPull content-loss guard::documents removed 6 of 10 (60.0%25) is over "
        f"--max-removed documents=20%25 (base store {pair[0]})"  # % is escaped in a workflow command
    ]
    assert "guard<<" in outputs and "\nfailed\n" in outputs
    assert (pair[1].parent / "drift-report.md").is_file()
    file_regression.check(summary, extension=".md")


def test_a_guard_that_holds_says_passed_and_no_limits_say_none(tmp_path, pair, capsys):
    outputs, summary = _step(tmp_path, *pair, max_removed="70%")
    assert "\npassed\n" in outputs and "guard failed" not in summary
    assert "| documents removed | 6 of 10 (60.0%) | 70% | ok |" in summary
    assert capsys.readouterr().out == ""
    outputs, _ = _step(tmp_path, *pair)
    assert "\nnone\n" in outputs


VALUES = ["20%", "5", "documents=20%", "sections=3,text=10%", "text=4096", " 7 % ", ".5%",
          "x%", "120%", "2.5", "pages=3", "documents=", "", "20%,", "documents=-1"]


@pytest.mark.parametrize("value", VALUES)
def test_the_inputs_accept_what_the_diff_accepts(value):
    def cli_ok(parse) -> bool:
        try:
            parse(value)
        except BadThreshold:
            return False
        return True

    for name, parse in (("max-removed", lambda v: parse_removed([v])), ("max-shrink", parse_shrink)):
        try:
            vi.check_limit(name, value, "release:docs-latest")
            action_ok = True
        except vi.InputProblem:
            action_ok = False
        if value.strip():
            assert action_ok == cli_ok(parse), (name, value)


def test_the_build_step_passes_the_docs_version_or_the_release_tag():
    base = {"CONTEXTPULL_ACTION_OUT": "out", "CONTEXTPULL_ACTION_DOCS": "docs"}
    assert "--docs-version" not in run_build.build_command("python", base)
    argv = run_build.build_command("python", {**base, "CONTEXTPULL_ACTION_RELEASE_TAG": "v2.1.0"})
    assert argv[argv.index("--docs-version") + 1] == "v2.1.0"
    argv = run_build.build_command("python", {**base, "CONTEXTPULL_ACTION_RELEASE_TAG": "docs-latest",
                                              "CONTEXTPULL_ACTION_DOCS_VERSION": "2.1"})
    assert argv[argv.index("--docs-version") + 1] == "2.1"
    assert argv[-2:] == ["--", "docs"]


def test_summary_shows_the_source(file_regression):
    report = copy.deepcopy(REPORT)
    report["manifest"]["source"] = {
        "commit": "2ac89889f4cc330eabd50f295dcef02828522c69", "repository": "https://github.com/team/handbook",
        "ref": "v1.2.0", "dirty": True, "version": "1.2.0", "built_at": "2025-11-24T16:00:00Z",
    }
    text = step_summary.render(report, "docs")
    assert "| Source | github.com/team/handbook at 2ac8988, v1.2.0, uncommitted changes |" in text
    file_regression.check(text, extension=".md")
    assert "| Source |" not in step_summary.render(REPORT, "docs")  # a build outside git


def test_summary_shows_a_failed_build_guard():
    report = copy.deepcopy(REPORT)
    report["guard"] = {"base": "cache/store.sqlite", "status": "failed",
                       "failure": "documents removed 6 of 10 (60.0%) is over --max-removed documents=20%"}
    text = step_summary.render(report, "docs")
    assert "| Content-loss guard | failed against `cache/store.sqlite` |" in text
    assert "**Content-loss guard failed:** documents removed 6 of 10 (60.0%) is over --max-removed documents=20%." in text
