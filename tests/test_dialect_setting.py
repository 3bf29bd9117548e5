"""The ``dialect`` setting (issue 26): its values, its precedence, the CLI flag, the Action
input, and the report of what was chosen from which file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from contextpull.cli import cli
from contextpull.config import DIALECT_VALUES, resolve_settings
from contextpull.dialects.registry import SETTING_VALUES
from contextpull.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

import settings_env  # noqa: E402
import validate_inputs  # noqa: E402


def test_the_three_lists_of_values_agree():
    assert DIALECT_VALUES == validate_inputs.DIALECTS
    assert set(DIALECT_VALUES) == set(SETTING_VALUES) and SETTING_VALUES[:2] == ("auto", "plain")


def test_precedence_flag_environment_pyproject_default(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.contextpull]\ndialect = "hugo"\n')
    assert resolve_settings(tmp_path, {}, {}).dialect == "hugo"
    assert resolve_settings(tmp_path, {}, {"CONTEXTPULL_DIALECT": "Jekyll"}).dialect == "jekyll"
    assert resolve_settings(tmp_path, {"dialect": "plain"}, {"CONTEXTPULL_DIALECT": "jekyll"}).dialect == "plain"
    assert resolve_settings(tmp_path / "none", {}, {}).dialect == "auto"


def test_a_bad_value_names_its_source(tmp_path):
    with pytest.raises(ConfigError, match=r"dialect must be one of auto, plain, .* got 'gatsby' \(from environment variable CONTEXTPULL_DIALECT\)"):
        resolve_settings(tmp_path, {}, {"CONTEXTPULL_DIALECT": "gatsby"})


def test_the_dialect_is_not_recorded_so_plain_manifests_keep_their_settings(tmp_path):
    assert "dialect" not in resolve_settings(tmp_path, {"dialect": "mkdocs"}, {}).to_dict()


def test_the_action_input_becomes_the_variable_and_is_checked():
    env = settings_env.build_environ({"CONTEXTPULL_ACTION_DIALECT": "mdbook", "CONTEXTPULL_DIALECT": "hugo"})
    assert env["CONTEXTPULL_DIALECT"] == "mdbook"
    assert settings_env.build_environ({"CONTEXTPULL_ACTION_DIALECT": "", "CONTEXTPULL_DIALECT": "hugo"})["CONTEXTPULL_DIALECT"] == "hugo"
    validate_inputs.check_dialect("")
    validate_inputs.check_dialect("Sphinx")
    with pytest.raises(validate_inputs.InputProblem, match="input 'dialect' must be one of"):
        validate_inputs.check_dialect("gatsby")


def _site(tmp_path):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "book.toml").write_text('[book]\ntitle = "A book"\n')
    (root / "src").mkdir()
    (root / "src" / "intro.md").write_text("## Starting out\n\nThe first chapter of the book.\n")
    return root


def test_build_says_which_dialect_and_from_which_file(tmp_path):
    root = _site(tmp_path)
    runner = CliRunner()
    result = runner.invoke(cli, ["build", str(root / "src"), "--out", str(tmp_path / "out")], env={"SOURCE_DATE_EPOCH": "0"})
    assert result.exit_code == 0, result.output
    assert "  dialect mdbook (from book.toml): " in result.output
    result = runner.invoke(cli, ["build", str(root / "src"), "--out", str(tmp_path / "out"), "--json"])
    assert json.loads(result.output)["dialect"]["config_file"] == "book.toml"
    result = runner.invoke(cli, ["build", str(root / "src"), "--out", str(tmp_path / "out"), "--dialect", "plain", "--json"])
    assert json.loads(result.output)["dialect"] == {
        "name": "plain", "config_file": None, "constructs": {},
        "totals": {"resolved": 0, "converted": 0, "unresolved": 0}, "unresolved": [],
    }


def test_ingest_says_which_dialect_too(tmp_path):
    root = _site(tmp_path)
    result = CliRunner().invoke(cli, ["ingest", str(root / "src"), "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.output
    assert "dialect mdbook (from book.toml)" in result.output
