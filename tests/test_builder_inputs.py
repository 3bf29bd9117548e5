"""The action checks its own inputs: one ``::error::`` line per bad input (issue 5).

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
    "cache": "true",
    "artifact-name": "contextpull-store",
    "release-tag": "",
}


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
    return vi.validate(inputs, workspace, ROOT)


def test_default_inputs_are_valid_and_decide_the_later_steps(workspace):
    problems, decided = check(workspace)
    assert problems == []
    assert decided == {"use-cache": "true", "upload": "true", "release": "false", "extras-spec": ""}


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
        ({"golden": "docs"}, "input 'golden' folder 'docs' has no index.txt or ids.txt"),
        ({"update_golden": "true"}, "input 'update-golden' is true but 'golden' is empty"),
        ({"out": "docs/a.md"}, "input 'out' must be a folder for the store"),
        ({"python_version": "2.7"}, "input 'python-version' must be a Python version from 3.10 to 3.13"),
        ({"python_version": "3.9"}, "input 'python-version' must be 3.10 to 3.13, got '3.9'"),
        ({"extras": "pdf, gpu"}, "input 'extras' names an unknown extra 'gpu'"),
        ({"summarizer": "$(rm -rf /)"}, "input 'summarizer' must be a summarizer name"),
        ({"artifact_name": "a/b"}, "input 'artifact-name' must not contain '/'"),
        ({"release_tag": "v1 beta"}, "input 'release-tag' must be a tag name"),
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


def test_missing_golden_says_how_to_create_it(workspace):
    problems, _ = check(workspace, golden="nowhere")
    assert "update-golden: true" in problems[0]


def test_update_golden_may_create_the_golden_folder(workspace):
    assert check(workspace, golden="new-golden", update_golden="true")[0] == []


def test_a_release_never_restores_the_cache(workspace):
    problems, decided = check(workspace, release_tag="v1.2.0", artifact_name="")
    assert problems == []
    assert decided == {"use-cache": "false", "upload": "false", "release": "true", "extras-spec": ""}


def test_extras_become_a_pip_spec(workspace):
    assert check(workspace, extras="pdf, mcp")[1]["extras-spec"] == "[mcp,pdf]"


def test_known_extras_come_from_pyproject():
    assert {"mcp", "pdf", "dev"} <= set(vi.known_extras(ROOT))


def test_known_extras_are_names_not_the_items_of_a_multi_line_list(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project.optional-dependencies]\npdf = ["pypdf>=4"]\ndev = [\n  "pytest>=8",\n  "hypothesis>=6",\n]\n'
        'mcp = ["mcp>=1.2"]\n\n[tool.other]\nx = 1\n'
    )
    assert vi.known_extras(tmp_path) == ["pdf", "dev", "mcp"]


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
