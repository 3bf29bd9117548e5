"""The action end to end, without GitHub (issue 5, item 7; issue 20).

``tests/action_runner.py`` runs ``action.yml`` step by step as GitHub's runner would; this file
covers the build, golden check, cache and inputs. Releases, attestation, drift reports and the
golden upload are in ``test_action_publish_e2e.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from action_runner import FAKE_ARTIFACT_URL, ROOT, Context, StepResult, run_action, write_gh
from gha import parse_output_file


# --- fixtures --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A docs repository: a copy of the conformance corpus, its golden files made by the action."""
    corpus = ROOT / "conformance" / "corpus"
    if not corpus.is_dir():
        pytest.fail("conformance/corpus is missing")
    ws = tmp_path_factory.mktemp("workspace")
    shutil.copytree(corpus, ws / "docs")
    return ws


@pytest.fixture(scope="module")
def temp(tmp_path_factory):
    return tmp_path_factory.mktemp("runner-temp")


@pytest.fixture(scope="module")
def golden_run(workspace, temp):
    return run_action(workspace, temp, {"golden": "golden", "update-golden": "true"})


# --- the acceptance bar ------------------------------------------------------------------------------

def test_update_golden_writes_the_golden_files(golden_run, workspace):
    assert golden_run.code == 0, golden_run.stdout + golden_run.steps["build"].stderr
    assert golden_run.outputs["golden"] == "updated"
    assert (workspace / "golden" / "index.txt").is_file() and (workspace / "golden" / "ids.txt").is_file()
    assert golden_run.lines("::notice title=ContextPull golden updated::")


def test_clean_run_writes_every_output_and_renders_the_summary(golden_run, workspace, temp):
    run = run_action(workspace, temp, {"golden": "golden"})
    assert run.code == 0, run.stdout + run.steps["build"].stderr
    # golden-patch, attestation-url and release are for update-golden, attest and release-tag only.
    assert all(v for k, v in run.outputs.items() if k not in ("golden-patch", "attestation-url", "release")), run.outputs
    assert run.outputs["golden-patch"] == run.outputs["attestation-url"] == ""
    assert run.outputs["golden"] == "match"
    assert run.outputs["artifact-url"] == FAKE_ARTIFACT_URL
    store = workspace / run.outputs["store-path"]
    manifest = json.loads((workspace / run.outputs["manifest-path"]).read_text())
    assert manifest["store"]["sha256"] == run.outputs["sha256"]
    assert manifest["fingerprints"]["content"] == run.outputs["content-fingerprint"]
    assert manifest["fingerprints"]["corpus"] == run.outputs["corpus-fingerprint"]
    assert int(run.outputs["documents"]) == manifest["counts"]["documents"] > 0
    assert int(run.outputs["sections"]) == manifest["counts"]["sections"] > 0
    assert store.is_file()
    # The summary renders the build.
    assert "## ContextPull store: golden match" in run.summary
    assert f"| Documents | {run.outputs['documents']} |" in run.summary
    assert run.outputs["content-fingerprint"] in run.summary
    # auto: unique per job and matrix index; after a blank line, so it never joins the table.
    assert f"\n\nArtifact: [contextpull-store-docs-0]({FAKE_ARTIFACT_URL})" in run.summary
    assert run.steps["upload"].with_["name"] == "contextpull-store-docs-0"
    assert "<summary>Installed packages" in run.summary and "| click |" in run.summary
    # The upload would get exactly the three files and fail if any were missing.
    upload = next(s for s in run.steps.values() if "if-no-files-found" in s.with_)
    assert upload.with_["if-no-files-found"] == "error"
    assert sorted(Path(p).name for p in upload.with_["path"].split()) == sorted(
        ["store.sqlite", "store.sqlite.sha256", "manifest.json", "drift-report.md"])
    # The cache path was saved by the first run and given to this build as --cache.
    assert run.steps["cache-key"].outputs["key"].startswith(run.steps["cache-key"].outputs["restore-prefix"])
    assert "--cache" in run.steps["build"].stdout
    assert "| Cache | reused the whole previous store" in run.summary
    # Saved with its checksum, so the next build trusts its pages instead of verifying it whole.
    cache_dir = Path(run.steps["cache-key"].outputs["path"])
    assert sorted(p.name for p in cache_dir.iterdir()) == ["store.sqlite", "store.sqlite.sha256"]
    assert (cache_dir / "store.sqlite.sha256").read_text().split()[0] == run.outputs["sha256"]


def test_drift_exits_one_with_annotations_on_the_file(golden_run, workspace, temp, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(workspace / "docs", ws / "docs")
    shutil.copytree(workspace / "golden", ws / "golden")
    # A markdown document that is in the store, taken from the golden id list.
    ids = [line.split("\t")[0] for line in (ws / "golden" / "ids.txt").read_text(encoding="utf-8").splitlines()]
    doc = ws / "docs" / next(i.rsplit("#", 1)[0] for i in ids if i.rsplit("#", 1)[0].endswith(".md"))
    text = doc.read_text(encoding="utf-8")
    heading = next(line for line in text.splitlines() if line.startswith("#"))
    doc.write_text(text.replace(heading, heading + " renamed", 1) + "\n## An added heading\n\nNew text here.\n",
                   encoding="utf-8")
    run = run_action(ws, tmp_path, {"golden": "golden", "cache": "false"})
    assert run.code == 1
    assert run.outputs["golden"] == "drift"
    rel = doc.relative_to(ws).as_posix()
    assert run.lines("::error title=ContextPull golden drift::")
    assert any(line.startswith(f"::error file={rel},") or line.startswith(f"::warning file={rel},")
               for line in run.stdout.splitlines()), run.stdout
    assert "### Golden drift" in run.summary
    # The store and the drift report are still uploaded for inspection; the last step fails.
    assert run.steps["build"].outcome == "success" and run.steps["build"].outputs["exit-code"] == "1"
    assert run.steps["upload"].outcome == "not-run"
    uploaded = run.steps["upload"].with_["path"].split()
    assert run.outputs["drift-report"] in uploaded
    assert run.steps["result"].outcome == "failure"


def test_release_sends_exactly_the_three_files_from_a_fresh_build(golden_run, workspace, tmp_path):
    gh = write_gh(tmp_path / "gh")
    folder = gh.release("v1.0.0")
    run = run_action(workspace, tmp_path, {"release-tag": "v1.0.0", "out": "release-out",
                                           "artifact-name": "", "attest": "false"}, gh_dir=gh.bin, env=gh.env())
    assert run.code == 0, run.stdout + run.steps["release"].stderr
    calls = gh.calls()
    assert [c["args"][:2] for c in calls] == [["release", "view"], ["release", "upload"]]
    upload = calls[1]
    assert upload["args"][2] == "v1.0.0"
    assert sorted(Path(p).name for p in upload["args"][3:]) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]
    assert (folder / "store.sqlite").read_bytes() == (workspace / run.outputs["store-path"]).read_bytes()
    assert upload["token"] == "fake-token" and upload["repo"] == "example/docs"
    # From scratch: no cache key, no --cache.
    assert run.steps["cache-key"].outcome == "skipped"
    assert "--cache" not in run.steps["build"].stdout
    assert run.steps["upload"].outcome == "skipped"


@pytest.mark.parametrize(
    "inputs, expected",
    [
        ({"docs": "no-such-folder"}, "::error::input 'docs' points at 'no-such-folder', which does not exist"),
        ({"golden": "no-such-golden"}, "::error::input 'golden' points at 'no-such-golden', which does not exist"),
        ({"strict": "maybe"}, "::error::input 'strict' must be true or false, got 'maybe'"),
    ],
)
def test_bad_input_ends_the_action_with_one_error_line(workspace, tmp_path, inputs, expected):
    run = run_action(workspace, tmp_path, dict(inputs))
    assert run.code == 3  # bad input, as the build says it (1 is a failed check)
    errors = run.lines("::error")
    assert len(errors) == 1 and errors[0].startswith(expected), run.stdout
    assert run.steps["inputs"].outcome == "failure"
    assert run.steps["build"].outcome == "skipped"


def test_install_step_makes_a_private_venv_from_the_action_checkout(tmp_path):
    """Without the test override, the install step creates a venv under runner.temp and installs
    the action's own checkout (with the extras) into it; a recorder stands in for Python and pip."""
    action = YAML(typ="safe").load((ROOT / "action.yml").read_text(encoding="utf-8"))
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "install")
    log = tmp_path / "python.log"
    fake = tmp_path / "fake-python"
    fake.write_text(
        "#!/usr/bin/env bash\n"
        f"echo \"$0 $*\" >> {log}\n"
        'if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; fi\n'
    )
    fake.chmod(0o755)
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    ctx = Context({}, temp)
    ctx.steps["python"] = StepResult("python", "not-run", {"python-path": str(fake)})
    ctx.steps["inputs"] = StepResult("inputs", "success", {"extras-spec": "[pdf]"})
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CONTEXTPULL_"))}
    env.update({k: ctx.substitute(v) for k, v in step["env"].items()})
    env.update({"GITHUB_ACTION_PATH": str(ROOT), "GITHUB_OUTPUT": str(tmp_path / "out")})
    script = tmp_path / "install.sh"
    script.write_text(step["run"])
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    venv_python = temp / "contextpull-venv" / "bin" / "python"
    calls = log.read_text().splitlines()
    assert calls[0] == f"{fake} -m venv {temp / 'contextpull-venv'}"
    # Every dependency from the locks, hash-checked; then the checkout alone, offline.
    assert calls[1] == (f"{venv_python} -m pip install --quiet --disable-pip-version-check --require-hashes "
                        f"-r {ROOT}/builder/requirements.lock -r {ROOT}/builder/requirements-pdf.lock")
    assert calls[2] == (f"{venv_python} -m pip install --quiet --disable-pip-version-check "
                        f"--no-deps --no-build-isolation --no-index {ROOT}")
    assert calls[3] == f"{venv_python} -m contextpull --version"
    assert parse_output_file((tmp_path / "out").read_text()) == {"python": str(venv_python)}


def test_embed_model_writes_vectors_and_the_next_run_reuses_them(workspace, tmp_path):
    """The embed-model input (issue 38): the store holds the static model's vectors, and a run
    restored from the cache after one document changed embeds only that document's sections."""
    pytest.importorskip("numpy")
    pytest.importorskip("tokenizers")
    import re
    import sqlite3

    ws, temp = tmp_path / "ws", tmp_path / "temp"
    shutil.copytree(workspace / "docs", ws / "docs")
    temp.mkdir()
    first = run_action(ws, temp, {"embed-model": "local:minilm-static"})
    assert first.code == 0, first.stdout + first.steps["build"].stderr
    assert first.steps["inputs"].outputs["embed-lock"] == "true"
    with sqlite3.connect(ws / first.outputs["store-path"]) as conn:
        models = conn.execute("SELECT model, count(*) FROM embeddings GROUP BY model").fetchall()
    sections = int(first.outputs["sections"])
    assert models == [("local:minilm-static", sections)]
    assert f"| Embeddings | local:minilm-static: {sections} sections embedded, 0 kept |" in first.summary
    with sqlite3.connect(ws / first.outputs["store-path"]) as conn:
        before = set(conn.execute("SELECT heading_path, text FROM sections").fetchall())
    edited = ws / "docs" / "policies" / "returns-2025.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n\nOne more paragraph about returns.\n", encoding="utf-8")
    second = run_action(ws, temp, {"embed-model": "local:minilm-static"})
    assert second.code == 0, second.stdout + second.steps["build"].stderr
    assert "--cache" in second.steps["build"].stdout
    row = re.search(r"\| Embeddings \| local:minilm-static: (\d+) sections embedded, (\d+) kept \|", second.summary)
    assert row, second.summary
    embedded, kept = map(int, row.groups())
    with sqlite3.connect(ws / second.outputs["store-path"]) as conn:
        after = conn.execute("SELECT heading_path, text FROM sections").fetchall()
    # A vector is reused by its section's heading path and text (writing/vectors.py): only the
    # sections the edit made new are embedded again, every other vector is the cache's.
    new_sections = sum(1 for row in after if row not in before)
    assert new_sections >= 1
    assert embedded == new_sections
    assert kept == len(after) - new_sections == int(second.outputs["sections"]) - new_sections
