"""Settings precedence and errors (system-design.txt section 8; supplement "Configuration")."""

from __future__ import annotations

import sys

import pytest

from contextpull.config import Settings, resolve_settings
from contextpull.errors import ConfigError


def pyproject(root, body: str):
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(body, encoding="utf-8")
    return root


def test_defaults_when_nothing_is_given(tmp_path):
    assert resolve_settings(tmp_path, {}, {}) == Settings()


def test_flag_beats_env_beats_pyproject_beats_default(tmp_path):
    root = pyproject(
        tmp_path / "docs",
        "[tool.contextpull]\nsection_max_chars = 1500\nsection_min_chars = 30\nindex_budget_tokens = 900\n",
    )
    env = {"CONTEXTPULL_SECTION_MAX_CHARS": "1200", "CONTEXTPULL_SECTION_MIN_CHARS": "20"}
    settings = resolve_settings(root, {"section_max_chars": 1000}, env)
    assert settings.section_max_chars == 1000  # flag
    assert settings.section_min_chars == 20  # env over pyproject
    assert settings.index_budget_tokens == 900  # pyproject over default
    assert settings.section_heading_depth == Settings().section_heading_depth  # default


def test_empty_env_value_counts_as_unset(tmp_path):
    root = pyproject(tmp_path / "docs", "[tool.contextpull]\nsection_max_chars = 1500\n")
    settings = resolve_settings(root, {}, {"CONTEXTPULL_SECTION_MAX_CHARS": ""})
    assert settings.section_max_chars == 1500


@pytest.mark.parametrize(
    ("flags", "env", "toml", "names"),
    [
        ({"section_max_chars": "lots"}, {}, "", ("section_max_chars", "--section-max-chars")),
        ({}, {"CONTEXTPULL_INDEX_BUDGET_TOKENS": "-5"}, "", ("index_budget_tokens", "CONTEXTPULL_INDEX_BUDGET_TOKENS")),
        ({}, {}, "section_heading_depth = 9\n", ("section_heading_depth", "pyproject.toml")),
        ({}, {}, "summarizer = 'gpt'\n", ("summarizer", "pyproject.toml")),
        ({}, {"CONTEXTPULL_SUMMARY_CONCURRENCY": "0"}, "", ("summary_concurrency", "CONTEXTPULL_SUMMARY_CONCURRENCY")),
        ({}, {}, "no_such_setting = 1\n", ("no_such_setting", "pyproject.toml")),
    ],
)
def test_bad_value_names_the_setting_and_its_source(tmp_path, flags, env, toml, names):
    root = pyproject(tmp_path / "docs", "[tool.contextpull]\n" + toml)
    with pytest.raises(ConfigError) as info:
        resolve_settings(root, flags, env)
    for name in names:
        assert name in info.value.message
    assert info.value.exit_code == 2


def test_min_must_be_below_max(tmp_path):
    with pytest.raises(ConfigError, match="section_min_chars"):
        resolve_settings(tmp_path, {"section_max_chars": 200, "section_min_chars": 500}, {})


def test_min_above_max_names_where_each_value_came_from(tmp_path):
    root = pyproject(tmp_path / "docs", "[tool.contextpull]\nsection_min_chars = 600\n")
    env = {"CONTEXTPULL_SECTION_MAX_CHARS": "500"}
    with pytest.raises(ConfigError) as info:
        resolve_settings(root, {}, env)
    message = info.value.message
    assert "[tool.contextpull] in" in message and "CONTEXTPULL_SECTION_MAX_CHARS" in message
    assert "\n" not in message


def test_cli_flag_and_env_reach_the_ingest_command(make_corpus, runner, tmp_path, monkeypatch):
    pytest.importorskip("contextpull.writing.section")
    corpus = make_corpus({"a.md": "# A\n\n" + "Some words here. " * 40 + "\n"})
    store = tmp_path / "s.sqlite"
    from contextpull.cli import cli

    result = runner.invoke(
        cli,
        ["ingest", str(corpus), "--store", str(store), "--index-budget-tokens", "777", "--json"],
        env={"CONTEXTPULL_SECTION_MAX_CHARS": "300"},
    )
    assert result.exit_code == 0, result.output
    import sqlite3

    meta = dict(sqlite3.connect(store).execute("SELECT key, value FROM meta"))
    assert meta["index_budget_tokens"] == "777"
    assert meta["section_max_chars"] == "300"
    bad = runner.invoke(cli, ["ingest", str(corpus), "--store", str(store), "--section-max-chars", "x"])
    assert bad.exit_code == 2


@pytest.mark.parametrize("body, message", [
    ('tool = "x"\n', "[tool] in {path} must be a table, not str"),
    ("[tool]\ncontextpull = 3\n", "[tool.contextpull] in {path} must be a table"),
])
def test_a_pyproject_of_the_wrong_shape_is_a_config_error(tmp_path, body, message):
    if sys.version_info < (3, 11):
        pytest.skip("Python 3.10 has no tomllib: only the flat lines of [tool.contextpull] are read")
    root = pyproject(tmp_path / "docs", body)
    with pytest.raises(ConfigError) as info:
        resolve_settings(root, {}, {})
    assert info.value.message == message.format(path=root / "pyproject.toml")
