"""What a reviewer reads: the drift report, the golden patch, annotations and the summary
(issue 20, items 3, 5 and 7). Pure functions of a build report; the end-to-end runs are in
``test_action_publish_e2e.py``. Expected markdown is kept as pytest-regressions files
(``--force-regen`` rewrites them).
"""

from __future__ import annotations

import copy
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

BUILDER = Path(__file__).resolve().parent.parent / "builder"
sys.path.insert(0, str(BUILDER))

import drift_report  # noqa: E402
import file_annotations  # noqa: E402
import gh_cli  # noqa: E402
import run_build  # noqa: E402
import step_summary  # noqa: E402
from builder_reports import REPORT  # noqa: E402

IDS = ["guide.md#10", "guide.md#2", "guide.md#1", "a.md#0", "guide.md#0"]


def drift(**golden) -> dict:
    report = copy.deepcopy(REPORT)
    report["exit_code"] = 1
    report["golden"] = {"status": "drift", "dir": "golden", "ids_added": [], "ids_removed": [], "ids_changed": [],
                        "index_diff": "--- golden/index.txt\n+++ built\n-old\n+new\n", **golden}
    return report


def test_ids_are_in_natural_order():
    assert step_summary.natural(IDS) == ["a.md#0", "guide.md#0", "guide.md#1", "guide.md#2", "guide.md#10"]
    lines = file_annotations.build_annotations(drift(ids_removed=IDS), "docs", strict=False)
    removed = [line.split("section ")[1].split(" ")[0] for line in lines if "Section id removed" in line]
    assert removed == ["a.md#0", "guide.md#0", "guide.md#1", "guide.md#2", "guide.md#10"]


def test_drift_report_markdown(file_regression):
    text = drift_report.golden_markdown(drift(ids_removed=IDS, ids_changed=["ref/api.md#3"], ids_added=["new.md#0"])["golden"])
    assert text.startswith(drift_report.MARKER + "\n")
    file_regression.check(text, extension=".md")


def test_report_for_match_updated_and_no_golden():
    assert "no section id added, removed or changed" in drift_report.golden_markdown({"status": "match", "dir": "g"})
    assert "rewritten" in drift_report.golden_markdown({"status": "updated", "dir": "g"})
    assert drift_report.golden_markdown({}) == ""


def test_summary_with_installed_packages(file_regression):
    text = step_summary.render(REPORT, "docs", [("click", "8.5.1"), ("jsonschema", "4.26.0")])
    file_regression.check(text, extension=".md")


def test_golden_patch_applies_with_git(tmp_path):
    golden = tmp_path / "golden"
    golden.mkdir()
    (golden / "index.txt").write_text("one\ntwo\n")
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    before = drift_report.snapshot(str(golden))
    assert before == {"index.txt": "one\ntwo\n", "ids.txt": None}
    (golden / "index.txt").write_text("one\n2\n")
    (golden / "ids.txt").write_text("a.md#0\tabc\n")
    patch = drift_report.golden_patch(str(golden), before).replace(str(golden).lstrip("/"), "golden")
    assert patch.startswith("diff --git a/golden/index.txt b/golden/index.txt\n")
    assert "new file mode 100644\n--- /dev/null\n+++ b/golden/ids.txt" in patch
    new = {name: (golden / name).read_text() for name in ("index.txt", "ids.txt")}
    (golden / "index.txt").write_text("one\ntwo\n")
    (golden / "ids.txt").unlink()
    (tmp_path / "p.patch").write_text(patch)
    subprocess.run(["git", "apply", "p.patch"], cwd=tmp_path, check=True)
    assert {name: (golden / name).read_text() for name in new} == new
    assert drift_report.golden_patch(str(golden), new) == ""


def test_messages_speak_the_actions_inputs():
    words = run_build.action_words
    assert words("not in the store: install the pdf extra: pip install 'contextpull[pdf]'") == (
        "not in the store: set the input extras: pdf")
    assert words("fix or remove them, or build without --strict; the previous artifact is untouched") == (
        "fix or remove them, or set strict: false; the previous artifact is untouched")
    assert words("create it with: contextpull build ... --golden gold --update-golden", "gold") == (
        "create it with: update-golden: true")
    assert "--" not in words("--out out is the DOCS folder itself")
    # A word inside a path is the user's path, not the command line's.
    assert words("DOCS folder MYDOCS/x does not exist") == "the docs folder folder MYDOCS/x does not exist"
    assert words("--golden-dir/a.txt is not a golden file; see --golden") == (
        "--golden-dir/a.txt is not a golden file; see the input golden")
    assert words("cannot write docs/--out/x or DOCS/--cache") == "cannot write docs/--out/x or DOCS/--cache"


def test_skip_reasons_are_reworded_for_the_summary_and_annotations():
    report = copy.deepcopy(REPORT)
    report["manifest"]["skipped"] = [{"path": "a.pdf", "reason": "install the pdf extra: pip install 'contextpull[pdf]'"}]
    run_build.reword(report, "")
    assert report["manifest"]["skipped"][0]["reason"] == "set the input extras: pdf"


def test_annotations_point_at_the_heading_line(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nintro\n\n## Install ##\n\ntext\n")
    store = tmp_path / "store.sqlite"
    with sqlite3.connect(store) as db:
        db.execute("CREATE TABLE sections (id TEXT PRIMARY KEY, heading_path TEXT)")
        db.executemany("INSERT INTO sections VALUES (?, ?)",
                       [("guide.md#0", "Guide"), ("guide.md#1", "Guide > Install"), ("guide.md#2", "Guide > Gone")])
    lines = file_annotations.section_lines(str(store), ["guide.md#1", "guide.md#0", "guide.md#2", "old.md#4",
                                                        "guide.md#9"], docs)
    # A heading not found, or an id no longer in the store, is line 1 of a file that still exists.
    assert lines == {"guide.md#1": 5, "guide.md#0": 1, "guide.md#2": 1, "guide.md#9": 1}
    annotated = file_annotations.build_annotations(drift(ids_changed=["guide.md#1"]), "docs", strict=False,
                                                   lines_of=lines)
    assert annotated[1].startswith("::error file=docs/guide.md,line=5,title=Section text changed::")


def test_each_file_is_read_once_and_only_the_annotated_ids_get_a_line(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("".join(f"## Part {n}\n\ntext\n\n" for n in range(40)))
    store = tmp_path / "store.sqlite"
    with sqlite3.connect(store) as db:
        db.execute("CREATE TABLE sections (id TEXT PRIMARY KEY, heading_path TEXT)")
        db.executemany("INSERT INTO sections VALUES (?, ?)", [(f"guide.md#{n}", f"Part {n}") for n in range(40)])
    reads = []
    real = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: reads.append(self.name) or real(self, *a, **k))
    lines = file_annotations.section_lines(str(store), [f"guide.md#{n}" for n in range(40)], docs)
    assert reads == ["guide.md"]
    assert lines["guide.md#0"] == 1 and lines["guide.md#39"] == 1 + 39 * 4
    # Past the cap, per kind, an id is not annotated, so it needs no line.
    many = [f"guide.md#{n}" for n in range(30000)]
    report = drift(ids_removed=list(reversed(many)), ids_changed=["a.md#1"], ids_added=many[:3])
    cap = file_annotations.MAX_PER_KIND
    assert file_annotations.drift_ids(report) == step_summary.natural(many)[:cap] + ["a.md#1"] + many[:3]


def test_a_base_store_that_cannot_be_had_leaves_the_output_to_the_build_step(tmp_path, capsys):
    """action.yml takes the build step's drift-report when this step sets none; writing the
    golden report's path back would only repeat it."""
    output = tmp_path / "output"
    output.write_text("")
    environ = {"CONTEXTPULL_ACTION_BASE_STORE": "release:v1", "CONTEXTPULL_ACTION_STORE_PATH": "out/store.sqlite",
               "CONTEXTPULL_ACTION_GOLDEN_REPORT": "out/drift-report.md", "GITHUB_OUTPUT": str(output),
               "RUNNER_TEMP": str(tmp_path)}
    assert drift_report.main(environ, which=lambda name: None) == 0
    assert output.read_text() == ""
    assert capsys.readouterr().out.startswith("::warning title=ContextPull base store::the GitHub CLI (gh) is not on PATH")


def test_a_base_store_the_diff_refuses_is_a_warning_and_the_golden_report_stays(tmp_path, capsys):
    output = tmp_path / "output"
    output.write_text("")
    environ = {"CONTEXTPULL_ACTION_BASE_STORE": "old/store.sqlite", "CONTEXTPULL_ACTION_STORE_PATH": "out/store.sqlite",
               "GITHUB_OUTPUT": str(output), "RUNNER_TEMP": str(tmp_path)}

    def run(argv):
        return subprocess.CompletedProcess(argv, 3, "", "error: old/store.sqlite is a version 1 store\n")

    assert drift_report.main(environ, run) == 0
    assert output.read_text() == ""
    assert capsys.readouterr().out.startswith(
        "::warning title=ContextPull base store::input 'base-store' old/store.sqlite: contextpull diff failed: "
        "error: old/store.sqlite is a version 1 store; the drift report compares with the golden files only")


def test_a_base_store_whose_checksum_does_not_match_is_refused(tmp_path):
    def gh(argv):
        folder = Path(argv[argv.index("--dir") + 1])
        (folder / "store.sqlite").write_bytes(b"store")
        (folder / "store.sqlite.sha256").write_text("0" * 64 + "  store.sqlite\n")
        return subprocess.CompletedProcess(argv, 0, "", "")

    with pytest.raises(gh_cli.GhProblem, match="does not match its store.sqlite.sha256"):
        drift_report.fetch_base("release:v1", tmp_path / "base", gh, which=lambda name: "/usr/bin/gh")
    with pytest.raises(gh_cli.GhProblem, match="not on PATH"):
        drift_report.fetch_base("release:v1", tmp_path / "base", gh, which=lambda name: None)
    assert drift_report.fetch_base("old/store.sqlite", tmp_path, gh) == Path("old/store.sqlite")
