"""The action checks its own inputs: one ``::error::`` line per bad input (issues 5 and 20).

GitHub passes every input as a string and enforces nothing, so these are the only guard between
``strict: maybe`` and a confusing failure three steps later.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

import gha  # noqa: E402
import validate_inputs as vi  # noqa: E402

DEFAULTS = {
    "docs": "docs",
    "out": "contextpull-store",
    "golden": "",
    "update-golden": "false",
    "strict": "false",
    "python-version": "3.12",
    "extras": "",
    "summarizer": "",
    "api-reference": "",
    "dialect": "",
    "embed-model": "",
    "cache": "true",
    "artifact-name": "auto",
    "release-tag": "",
    "overwrite": "false",
    "attest": "auto",
    "base-store": "",
    "max-removed": "",
    "max-shrink": "",
    "docs-version": "",
}
DECIDED = {"use-cache": "true", "upload": "true", "upload-golden": "false", "artifact-name": "contextpull-store-job-0",
           "golden-artifact-name": "contextpull-store-job-0-golden", "release": "false", "attest": "false",
           "attest-notice": "", "extras-spec": "", "embed-lock": "false"}


@pytest.fixture
def workspace(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\ntext\n")
    golden = tmp_path / "golden"
    golden.mkdir()
    (golden / "index.txt").write_text("index\n")
    (golden / "ids.txt").write_text("a.md#0\tabc\n")
    return tmp_path


def check(workspace, **changes):
    inputs = dict(DEFAULTS)
    inputs.update({k.replace("_", "-"): v for k, v in changes.items()})
    return vi.validate(inputs, workspace, {"CONTEXTPULL_ACTION_JOB": "job"})


def test_default_inputs_are_valid_and_decide_the_later_steps(workspace):
    problems, decided = check(workspace)
    assert problems == []
    assert decided == DECIDED


def test_action_defaults_are_the_ones_tested_here():
    from ruamel.yaml import YAML

    action = YAML(typ="safe").load((ROOT / "action.yml").read_text())
    assert {name: spec["default"] for name, spec in action["inputs"].items()} == DEFAULTS


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"strict": "maybe"}, "input 'strict' must be true or false, got 'maybe'"),
        ({"cache": "yes"}, "input 'cache' must be true or false, got 'yes'"),
        ({"docs": "missing"}, "input 'docs' points at 'missing', which does not exist"),
        ({"docs": "docs/a.md"}, "input 'docs' must be a folder, but 'docs/a.md' is a file"),
        ({"docs": ""}, "input 'docs' must not be empty"),
        ({"docs": "--help"}, "input 'docs' must be a path, not something that looks like a flag"),
        ({"golden": "nowhere"}, "input 'golden' points at 'nowhere', which does not exist"),
        ({"golden": "docs"}, "input 'golden' is the docs folder itself ('docs')"),
        ({"update_golden": "true"}, "input 'update-golden' is true but 'golden' is empty"),
        ({"out": "docs/a.md"}, "input 'out' must be a folder for the store"),
        ({"python_version": "2.7"}, "input 'python-version' must be a Python version from 3.10 to 3.13"),
        ({"python_version": "3.9"}, "input 'python-version' must be 3.10 to 3.13, got '3.9'"),
        ({"extras": "pdf, gpu"}, "input 'extras' names 'gpu', which the Action does not install (it only builds); choose from: pdf"),
        ({"summarizer": "$(rm -rf /)"}, "input 'summarizer' must be a summarizer name"),
        ({"artifact_name": "a/b"}, "input 'artifact-name' must not contain '/'"),
        ({"release_tag": "v1 beta"}, "input 'release-tag' must be a tag name"),
        ({"release_tag": "refs/tags/v1"}, "input 'release-tag' must be the tag name, not the ref 'refs/tags/v1'; use v1"),
        ({"release_tag": "refs/heads/main"}, "input 'release-tag' must be the tag name, not the ref"),
        ({"release_tag": "v1..2"}, "input 'release-tag' must be a tag name"),
        ({"release_tag": "v1.lock"}, "input 'release-tag' must be a tag name"),
        ({"release_tag": "v1:x"}, "input 'release-tag' must be a tag name"),
        ({"golden": "docs", "update_golden": "true"}, "input 'golden' is the docs folder itself ('docs')"),
        ({"extras": "mcp"}, "input 'extras' names 'mcp', which the Action does not install (it only builds); choose from: pdf"),
        ({"overwrite": "yes"}, "input 'overwrite' must be true or false, got 'yes'"),
        ({"attest": "always"}, "input 'attest' must be auto, true or false, got 'always'"),
        ({"base_store": "nowhere.sqlite"}, "input 'base-store' points at 'nowhere.sqlite', which is not a file"),
        ({"base_store": "release:"}, "input 'base-store' names no tag after 'release:'"),
        ({"base_store": "release:refs/tags/v1"}, "input 'base-store' must be the tag name, not the ref"),
        ({"max_removed": "20%"}, "input 'max-removed' needs base-store, the store it compares with"),
        ({"max_removed": "x%", "base_store": "release:docs-latest"}, "input 'max-removed' has 'x%', which is not a limit; e.g. 20%"),
        ({"max_removed": "pages=3", "base_store": "release:docs-latest"}, "input 'max-removed' has 'pages=3', which is not a limit"),
        ({"max_shrink": "150", "base_store": "release:docs-latest"}, "input 'max-shrink' has '150', which is over 100%"),
        ({"max_shrink": "text=5", "base_store": "release:docs-latest"}, "input 'max-shrink' has 'text=5', which is not a limit; e.g. 10 or 10%"),
        ({"docs_version": "1.0\n::error::x"}, "input 'docs-version' must be one line of at most 200 characters"),
        ({"out": "store\n::error::forged"}, "input 'out' must not contain control characters such as a newline"),
        ({"docs": "docs\r"}, "input 'docs' must not contain control characters"),
        ({"golden": "golden\t"}, "input 'golden' must not contain control characters"),
        ({"out": "docs"}, "input 'out' is the docs folder itself ('docs')"),
        ({"out": "./docs/"}, "input 'out' is the docs folder itself"),
        ({"python_version": "3"}, "input 'python-version' must name a minor version from 3.10 to 3.13 such as 3.12, got '3'"),
        ({"python_version": "3.x"}, "input 'python-version' must name a minor version from 3.10 to 3.13"),
    ],
)
def test_each_bad_input_is_one_problem_naming_the_fix(workspace, changes, expected):
    problems, _ = check(workspace, **changes)
    assert len(problems) == 1, problems
    assert problems[0].startswith(expected)


def test_a_golden_folder_without_the_files_names_them(workspace):
    (workspace / "empty").mkdir()
    problems, _ = check(workspace, golden="empty")
    assert problems == ["input 'golden' folder 'empty' has no index.txt or ids.txt; create the golden files once "
                        "with update-golden: true and commit them"]


def test_missing_golden_says_how_to_create_it(workspace):
    problems, _ = check(workspace, golden="nowhere")
    assert "update-golden: true" in problems[0]


def test_update_golden_may_create_the_golden_folder(workspace):
    assert check(workspace, golden="new-golden", update_golden="true")[0] == []


def test_a_release_never_restores_the_cache(workspace):
    problems, decided = check(workspace, release_tag="v1.2.0", artifact_name="")
    assert problems == []
    assert decided == {**DECIDED, "use-cache": "false", "upload": "false", "release": "true", "artifact-name": "",
                       "golden-artifact-name": "",
                       "attest-notice": "input 'attest' is auto and the job has no id-token: write permission: "
                                        "no attestation (grant id-token: write and attestations: write to attest the store)"}


def test_extras_become_a_pip_spec(workspace):
    assert check(workspace, extras="pdf, ")[1]["extras-spec"] == "[pdf]"


def test_auto_artifact_names_differ_per_job_and_matrix_entry(workspace):
    names = {vi.artifact_names("auto", {"CONTEXTPULL_ACTION_JOB": job, "CONTEXTPULL_ACTION_JOB_INDEX": index})[0]
             for job in ("check", "publish") for index in ("0", "1")}
    assert names == {"contextpull-store-check-0", "contextpull-store-check-1",
                     "contextpull-store-publish-0", "contextpull-store-publish-1"}
    assert vi.artifact_names("mine", {}) == ("mine", "mine-golden")
    assert vi.artifact_names("", {}) == ("", "")


@pytest.mark.parametrize("word, env, attest", [
    ("auto", {"ACTIONS_ID_TOKEN_REQUEST_URL": "https://x"}, True),
    ("auto", {}, False),
    ("auto", {"ACTIONS_ID_TOKEN_REQUEST_URL": "https://x", "CONTEXTPULL_ACTION_REPOSITORY_PRIVATE": "true"}, False),
    ("true", {}, True),
    ("false", {"ACTIONS_ID_TOKEN_REQUEST_URL": "https://x"}, False),
])
def test_attest_auto_follows_the_jobs_id_token_on_a_release(word, env, attest):
    assert vi.decide_attest(word, True, env)[0] is attest
    assert vi.decide_attest("auto", False, env) == (False, "")


def test_update_golden_uploads_only_with_an_artifact(workspace):
    assert check(workspace, golden="new", update_golden="true")[1]["upload-golden"] == "true"
    assert check(workspace, golden="new", update_golden="true", artifact_name="")[1]["upload-golden"] == "false"


def test_a_release_with_default_inputs_gives_no_cache_notice(workspace, monkeypatch, capsys, tmp_path):
    env = {vi.env_name(k): v for k, v in DEFAULTS.items()}
    env.update({vi.env_name("release-tag"): "v1", vi.env_name("attest"): "false",
                "GITHUB_OUTPUT": str(tmp_path / "out.txt")})
    monkeypatch.chdir(workspace)
    assert vi.main(env) == 0
    assert capsys.readouterr().out == ""


def test_several_bad_inputs_give_one_line_each(workspace, monkeypatch, capsys, tmp_path):
    env = {vi.env_name(k): v for k, v in DEFAULTS.items()}
    env.update({vi.env_name("strict"): "maybe", vi.env_name("docs"): "missing",
                "GITHUB_OUTPUT": str(tmp_path / "out.txt")})
    monkeypatch.chdir(workspace)
    assert vi.main(env) == 3  # bad input, as the build says it
    lines = capsys.readouterr().out.splitlines()
    # In the order the inputs are declared.
    assert lines[0].startswith("::error::input 'docs' points at 'missing'")
    assert lines[1] == "::error::input 'strict' must be true or false, got 'maybe'"
    assert len(lines) == 2
    assert not (tmp_path / "out.txt").exists()


def test_valid_inputs_write_the_decisions(workspace, monkeypatch, tmp_path):
    env = {vi.env_name(k): v for k, v in DEFAULTS.items()}
    env["GITHUB_OUTPUT"] = str(tmp_path / "out.txt")
    monkeypatch.chdir(workspace)
    assert vi.main(env) == 0
    assert gha.parse_output_file((tmp_path / "out.txt").read_text())["use-cache"] == "true"


def test_the_actions_extras_are_the_packages_own():
    """extras_spec accepts only ACTION_EXTRAS, so each must be an extra pip knows (read from the
    installed package's metadata, which Python 3.10 has without tomllib)."""
    from importlib.metadata import metadata

    extras = metadata("contextpull").get_all("Provides-Extra") or []
    assert set(vi.ACTION_EXTRAS) <= set(extras)
