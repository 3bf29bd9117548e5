"""The action around a release and a review, end to end (issue 20, "What it must show").

Each test runs ``action.yml`` step by step (``tests/action_runner.py``) with a stand-in ``gh``
that keeps release assets in a folder, so a second run sees what the first one uploaded:
first run, identical re-run, conflicting re-run, ``overwrite``, no ``gh``, attestation wiring,
the drift report (golden and base store) and the golden files' upload.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from action_runner import FAKE_ATTESTATION_URL, FAKE_GOLDEN_URL, ROOT, run_action, write_gh

TAG = "docs-latest"
RELEASE = {"release-tag": TAG, "out": "release-out", "artifact-name": "", "attest": "false"}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("publish-ws")
    shutil.copytree(ROOT / "conformance" / "corpus", ws / "docs")
    shutil.copytree(ROOT / "golden", ws / "golden")
    return ws


def release_lines(run) -> list[str]:
    return [line for line in run.summary.splitlines() if "release `" in line]


def test_first_run_then_identical_rerun_succeeds_without_uploading(workspace, tmp_path, file_regression):
    gh = write_gh(tmp_path / "gh")
    folder = gh.release(TAG)
    first = run_action(workspace, tmp_path, RELEASE, gh_dir=gh.bin, env=gh.env())
    assert first.code == 0, first.stdout + first.steps["release"].stderr
    assert sorted(p.name for p in folder.iterdir()) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]
    rerun = run_action(workspace, tmp_path, RELEASE, gh_dir=gh.bin, env=gh.env())
    assert rerun.code == 0, rerun.stdout + rerun.steps["release"].stderr
    verbs = [c["args"][1] for c in gh.calls()]
    # First run: view, upload. Re-run: view, download the three to compare, and no upload.
    assert verbs == ["view", "upload", "view", "download"]
    assert rerun.steps["release"].outputs["release"] == "identical"
    assert (first.outputs["release"], rerun.outputs["release"]) == ("attached", "identical")  # the Action's output
    file_regression.check("\n".join(release_lines(first) + release_lines(rerun)) + "\n", extension=".md")


def test_conflicting_rerun_names_tag_and_digests_and_changes_nothing(workspace, tmp_path):
    gh = write_gh(tmp_path / "gh")
    folder = gh.release(TAG, {"store.sqlite": b"another build", "store.sqlite.sha256": b"x", "manifest.json": b"{}"})
    run = run_action(workspace, tmp_path, RELEASE, gh_dir=gh.bin, env=gh.env())
    assert run.code == 1
    errors = run.lines("::error")
    assert len(errors) == 1, run.stdout
    import hashlib
    theirs = hashlib.sha256(b"another build").hexdigest()
    assert errors[0].startswith(f"::error title=ContextPull release::release {TAG} already has store.sqlite with sha256 {theirs}, "
                                f"this build's is {run.outputs['sha256']}")
    assert "overwrite: true" in errors[0]
    assert [c["args"][1] for c in gh.calls()] == ["view", "download"]
    assert (folder / "store.sqlite").read_bytes() == b"another build"


def test_overwrite_replaces_assets_that_differ(workspace, tmp_path):
    gh = write_gh(tmp_path / "gh")
    folder = gh.release(TAG, {"store.sqlite": b"last week's build"})
    run = run_action(workspace, tmp_path, {**RELEASE, "overwrite": "true"}, gh_dir=gh.bin, env=gh.env())
    assert run.code == 0, run.stdout + run.steps["release"].stderr
    upload = gh.calls()[-1]["args"]
    assert upload[:3] == ["release", "upload", TAG] and upload[-1] == "--clobber"
    assert (folder / "store.sqlite").read_bytes() == (workspace / run.outputs["store-path"]).read_bytes()
    assert "Replaced `store.sqlite`" in run.summary


def test_no_gh_on_path_is_one_error_with_the_fix(workspace, tmp_path):
    bare = tmp_path / "bare-bin"  # a runner with python3 and nothing else
    bare.mkdir()
    (bare / "python3").symlink_to(sys.executable)
    run = run_action(workspace, tmp_path, RELEASE, path=str(bare))
    assert run.code == 1
    errors = run.lines("::error")
    assert len(errors) == 1 and "the GitHub CLI (gh) is not on PATH" in errors[0] and "install it" in errors[0]
    assert "Traceback" not in run.steps["release"].stderr


def test_a_ref_instead_of_a_tag_fails_in_the_first_step(workspace, tmp_path):
    run = run_action(workspace, tmp_path, {**RELEASE, "release-tag": "refs/tags/v1"})
    assert run.code == 3
    assert run.lines("::error::input 'release-tag' must be the tag name, not the ref 'refs/tags/v1'; use v1")
    assert run.steps["build"].outcome == "skipped"


@pytest.mark.parametrize("attest, token, expected", [("true", "", True), ("auto", "https://token.invalid", True),
                                                     ("auto", "", False), ("false", "https://token.invalid", False)])
def test_attestation_covers_store_and_manifest(workspace, tmp_path, attest, token, expected):
    gh = write_gh(tmp_path / "gh")
    gh.release(TAG)
    env = {**gh.env(), **({"ACTIONS_ID_TOKEN_REQUEST_URL": token} if token else {})}
    run = run_action(workspace, tmp_path, {**RELEASE, "attest": attest}, gh_dir=gh.bin, env=env)
    assert run.code == 0, run.stdout
    step = run.steps["attest"]
    if not expected:
        assert step.outcome == "skipped" and run.outputs["attestation-url"] == ""
        if attest == "auto":
            assert run.lines("::notice::input 'attest' is auto and the job has no id-token: write permission")
        return
    assert step.outcome == "not-run"  # a uses: step, wired
    assert step.with_["subject-path"].split() == [run.outputs["store-path"], run.outputs["manifest-path"]]
    assert run.outputs["attestation-url"] == FAKE_ATTESTATION_URL


def drifted_copy(workspace: Path, tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(workspace / "docs", ws / "docs")
    shutil.copytree(workspace / "golden", ws / "golden")
    doc = ws / "docs" / "guides" / "getting-started.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace("## Installation", "## Installing"), encoding="utf-8")
    return ws


def test_drift_report_is_an_output_and_uploaded(workspace, tmp_path, file_regression):
    ws = drifted_copy(workspace, tmp_path)
    run = run_action(ws, tmp_path, {"golden": "golden", "cache": "false"})
    assert run.code == 1
    report = ws / run.outputs["drift-report"]
    text = report.read_text(encoding="utf-8")
    assert text.startswith("<!-- contextpull-drift-report -->\n### Golden drift")
    assert run.outputs["drift-report"] in run.steps["upload"].with_["path"].split()
    # Annotations carry the heading's line.
    changed = [line for line in run.stdout.splitlines() if "title=Section text changed" in line]
    assert changed and all(",line=" in line for line in changed)
    file_regression.check(text, extension=".md")


def test_drift_report_against_a_base_store_from_a_release(workspace, tmp_path, file_regression):
    gh = write_gh(tmp_path / "gh")
    base = run_action(workspace, tmp_path, {"out": "base-out", "artifact-name": ""})
    assert base.code == 0
    store = workspace / base.outputs["store-path"]
    gh.release(TAG, {"store.sqlite": store.read_bytes(),
                     "store.sqlite.sha256": (store.parent / "store.sqlite.sha256").read_bytes()})
    ws = drifted_copy(workspace, tmp_path)
    run = run_action(ws, tmp_path, {"base-store": f"release:{TAG}", "artifact-name": "", "cache": "false"},
                     gh_dir=gh.bin, env=gh.env())
    assert run.code == 0, run.stdout + run.steps["base-diff"].stderr
    assert [c["args"][:3] for c in gh.calls()] == [["release", "download", TAG]]
    text = (ws / run.outputs["drift-report"]).read_text(encoding="utf-8")
    assert text.startswith("<!-- contextpull-drift-report -->\n_Compared with the base store `release:docs-latest`._")
    file_regression.check(text, extension=".md")


def test_a_failed_content_loss_guard_uploads_then_fails_without_releasing(workspace, tmp_path):
    gh = write_gh(tmp_path / "gh")
    base = run_action(workspace, tmp_path, {"out": "base-out", "artifact-name": ""})
    store = workspace / base.outputs["store-path"]
    gh.release(TAG, {"store.sqlite": store.read_bytes(),
                     "store.sqlite.sha256": (store.parent / "store.sqlite.sha256").read_bytes()})
    gh.release("v9")
    ws = drifted_copy(workspace, tmp_path)
    run = run_action(ws, tmp_path, {"base-store": f"release:{TAG}", "max-removed": "text=0", "max-shrink": "50",
                                    "release-tag": "v9", "cache": "false"}, gh_dir=gh.bin, env=gh.env())
    assert run.code == 1
    assert run.steps["base-diff"].outputs["guard"] == "failed"
    assert run.steps["upload"].outcome == "not-run"  # its condition held: the artifact is uploaded
    assert run.steps["release"].outcome == "skipped" and run.steps["attest"].outcome == "skipped"
    assert run.steps["result"].outcome == "failure"
    errors = [line for line in run.steps["base-diff"].stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "text removed" in errors[0] and "--max-removed text=0" in errors[0]
    assert "**Content-loss guard failed** against `release:docs-latest`: text removed" in run.summary


def test_a_missing_base_release_is_a_warning_and_the_golden_report_stays(workspace, tmp_path):
    gh = write_gh(tmp_path / "gh")
    run = run_action(workspace, tmp_path, {"golden": "golden", "base-store": "release:nope", "artifact-name": ""},
                     gh_dir=gh.bin, env=gh.env())
    assert run.code == 0
    assert run.lines("::warning title=ContextPull base store::cannot download store.sqlite")
    assert run.outputs["drift-report"].endswith("drift-report.md")


def test_update_golden_uploads_the_files_and_a_patch_that_applies(workspace, tmp_path):
    ws = drifted_copy(workspace, tmp_path)
    subprocess.run(["git", "init", "-q", "."], cwd=ws, check=True)
    run = run_action(ws, tmp_path, {"golden": "golden", "update-golden": "true", "cache": "false"})
    assert run.code == 0, run.stdout
    upload = run.steps["upload-golden"]
    assert upload.with_["name"] == "contextpull-store-docs-0-golden"
    assert upload.with_["path"].split() == ["golden/index.txt", "golden/ids.txt", run.outputs["golden-patch"]]
    assert f"New golden files: [contextpull-store-docs-0-golden]({FAKE_GOLDEN_URL})" in run.summary
    assert "Golden files patch" in run.summary
    # The patch turns the committed golden files into the new ones.
    new = {name: (ws / "golden" / name).read_text() for name in ("index.txt", "ids.txt")}
    for name in new:
        shutil.copyfile(workspace / "golden" / name, ws / "golden" / name)
    subprocess.run(["git", "apply", run.outputs["golden-patch"]], cwd=ws, check=True)
    assert {name: (ws / "golden" / name).read_text() for name in new} == new
