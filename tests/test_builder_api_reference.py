"""The Action's api-reference input (issue 37): true or false, checked with the other inputs,
and given to the build step as CONTEXTPULL_API_REFERENCE, before the job's own variable."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "builder"))

import settings_env  # noqa: E402
import validate_inputs  # noqa: E402


def _validate(tmp_path: Path, given: str) -> list[str]:
    (tmp_path / "docs").mkdir(exist_ok=True)
    inputs = {**{name: "" for name in validate_inputs.INPUTS}, "docs": "docs", "out": "out", "api-reference": given,
              "update-golden": "false", "strict": "false", "cache": "true", "overwrite": "false", "attest": "auto"}
    problems, _ = validate_inputs.validate(inputs, tmp_path, {})
    return problems


@pytest.mark.parametrize("given", ["", "true", "false", "False "])
def test_true_false_or_empty_is_accepted(tmp_path, given):
    assert _validate(tmp_path, given) == []


def test_another_word_is_one_problem_naming_the_input(tmp_path):
    assert _validate(tmp_path, "sometimes") == ["input 'api-reference' must be true or false, got 'sometimes'"]


def test_the_input_goes_before_the_jobs_variable():
    env = settings_env.build_environ({"CONTEXTPULL_ACTION_API_REFERENCE": "false", "CONTEXTPULL_API_REFERENCE": "true"})
    assert env["CONTEXTPULL_API_REFERENCE"] == "false"
    assert settings_env.build_environ({"CONTEXTPULL_API_REFERENCE": "true"})["CONTEXTPULL_API_REFERENCE"] == "true"
