"""The ``dialect`` setting (issue 26): its values, its precedence, the CLI flag, the Action
input, and the report of what was chosen from which file."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from contextpull.cli import cli
from contextpull.config import DIALECT_VALUES, resolve_settings
from contextpull.dialects.registry import NAMES, SETTING_VALUES
from contextpull.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

import settings_env  # noqa: E402
import validate_inputs  # noqa: E402


def test_the_settings_the_action_and_the_cli_take_the_one_table_of_values():
    assert DIALECT_VALUES == validate_inputs.DIALECTS == SETTING_VALUES
    assert SETTING_VALUES == ("auto", "plain", *NAMES)
    result = CliRunner().invoke(cli, ["build", "--help"], terminal_width=400)
    assert f"{', '.join(NAMES[:-1])} or {NAMES[-1]}." in " ".join(result.output.split())


def _names(text: str) -> set[str]:
    """The words of a listing such as ``auto (detected ...), plain, mkdocs or sphinx``."""
    text = re.sub(r"\([^)]*\)", "", text)
    return {word.strip(" `\"'.") for part in text.split(",") for word in part.split(" or ")} - {""}


def test_the_action_input_lists_every_value_of_the_table():
    """action.yml cannot import the table: its ``dialect`` description is held to it here."""
    spec = re.search(r"^  dialect:\n    description: \"(.*)\"$", (ROOT / "action.yml").read_text(), re.M)
    listing = spec.group(1).split(";")[0].split(":", 1)[1]
    assert _names(listing) == set(SETTING_VALUES)


def test_the_docs_list_every_value_of_the_table():
    dialects_md = (ROOT / "docs" / "dialects.md").read_text()
    sentence = re.search(r"The `dialect` setting takes (.*?), with the usual", dialects_md, re.S).group(1)
    assert set(re.findall(r"`([a-z]+)`", sentence)) == set(SETTING_VALUES)
    table = re.search(r"\| dialect \| configuration file \|\n\|---\|---\|\n((?:\|.*\n)+)", dialects_md).group(1)
    assert tuple(row.split("|")[1].strip() for row in table.splitlines()) == NAMES  # detection order
    row = next(line for line in (ROOT / "docs" / "library.md").read_text().splitlines() if line.startswith("| `dialect` |"))
    assert set(re.findall(r'`"([a-z]+)"`', row)) == set(SETTING_VALUES)


def test_the_action_reads_the_table_without_installing_the_package():
    """``validate_inputs.py`` runs with the runner's own ``python3`` (Python 3.8 syntax, standard
    library only) before anything is installed: importing the table loads the package's
    ``__init__``, its errors and the table, and not one dialect module."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import validate_inputs;"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('contextpull'))))"
    )
    done = subprocess.run([sys.executable, "-c", code, str(ROOT / "builder")], capture_output=True, text=True,
                          check=True, cwd=ROOT / "builder")
    loaded = done.stdout.split()
    assert "contextpull.dialects.registry" in loaded
    assert not [m for m in loaded if m.startswith("contextpull.dialects.") and m != "contextpull.dialects.registry"]
    for module in loaded:
        path = ROOT.joinpath(*module.split("."))
        source = (path / "__init__.py") if path.is_dir() else path.with_suffix(".py")
        ast.parse(source.read_text(encoding="utf-8"), feature_version=(3, 8))


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
