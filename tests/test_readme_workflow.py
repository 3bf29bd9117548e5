"""README's docs-repository workflow is a real one (issue 20, "What it must show").

The example under "Use in GitHub Actions" is extracted, its ``uses: OWNER/contextpull@...``
pointed at this checkout (``uses: ./``, so actionlint checks the inputs it passes against
``action.yml``), and run through the validators the repository's own workflows pass.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from validators import run, tool

ROOT = Path(__file__).resolve().parent.parent

PLACEHOLDER = re.compile(r"OWNER/contextpull@FULL_COMMIT_SHA # v[\d.]+")




def readme_workflow() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Use in GitHub Actions"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"```yaml\n(.*?)```", section, flags=re.S)
    found = [b for b in blocks if b.startswith("name: Docs store")]
    assert len(found) == 1, "README's Action section has one complete workflow"
    return found[0]


@pytest.fixture
def repo(tmp_path):
    """A docs repository holding the README's workflow, with this action as ``./``."""
    workflow = PLACEHOLDER.sub("./", readme_workflow())
    assert "OWNER/contextpull" not in workflow
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "docs-store.yml").write_text(workflow, encoding="utf-8")
    shutil.copy(ROOT / "action.yml", tmp_path / "action.yml")
    run(["git", "init", "-q", "."], cwd=tmp_path)
    return tmp_path


def test_readme_workflow_passes_actionlint(repo):
    result = run([tool("actionlint"), "-no-color", ".github/workflows/docs-store.yml"], cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_workflow_with_a_misspelt_input_fails_actionlint(repo):
    path = repo / ".github" / "workflows" / "docs-store.yml"
    path.write_text(path.read_text().replace("release-tag: docs-latest", "release_tag: docs-latest"))
    result = run([tool("actionlint"), "-no-color", ".github/workflows/docs-store.yml"], cwd=repo)
    assert result.returncode != 0 and "release_tag" in result.stdout


@pytest.mark.parametrize("schema", ["vendor.github-workflows", "custom.github-workflows-require-timeout"])
def test_readme_workflow_matches_the_schemas(repo, schema):
    result = run([tool("check-jsonschema"), "--builtin-schema", schema, ".github/workflows/docs-store.yml"], cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_workflow_is_zizmor_clean(tmp_path):
    # As a docs repository has it: the action pinned by a commit (here a made-up one).
    workflow = PLACEHOLDER.sub("OWNER/contextpull@" + "0" * 40 + " # v0.5.0", readme_workflow())
    (tmp_path / "docs-store.yml").write_text(workflow, encoding="utf-8")
    result = run([tool("zizmor"), "--offline", "--no-progress", "--persona=pedantic", "docs-store.yml"],
                 cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_workflow_reviews_publishes_and_attests_with_least_privilege():
    workflow = YAML(typ="safe").load(readme_workflow())
    assert workflow["permissions"] == {} and "concurrency" in workflow
    jobs = workflow["jobs"]
    assert all("timeout-minutes" in job for job in jobs.values())
    check = jobs["check"]
    assert check["permissions"] == {"contents": "read", "pull-requests": "write"}
    comment = check["steps"][-1]
    assert "steps.store.outputs.drift-report" in comment["if"] and comment["env"]["REPORT"]
    assert "<!-- contextpull-drift-report -->" in comment["run"]
    publish = jobs["publish"]
    assert publish["permissions"] == {"contents": "write", "id-token": "write", "attestations": "write"}
    action = next(s for s in publish["steps"] if "contextpull" in str(s.get("uses")))
    assert action["with"]["attest"] == "true" and action["with"]["release-tag"]
    assert jobs["latest"]["steps"][-1]["with"]["overwrite"] == "true"
