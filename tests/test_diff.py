"""contextpull diff: documents and section ids added, removed, changed; index diff; three formats."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from artifact_helpers import assert_verified, clean_env, drifted_pair
from contextpull.checks.diff import diff_stores
from contextpull.cli import cli
from contextpull.errors import StoreError


@pytest.fixture
def two_stores(tmp_path):
    old, new = drifted_pair(tmp_path)
    for store in (old, new):
        assert_verified(store)
    return old, new


def test_diff_lists_documents_and_ids(two_stores):
    d = diff_stores(*two_stores)
    assert d.docs_added == ["added.md"]
    assert d.docs_removed == ["notes.txt"]
    assert d.docs_changed == ["errors.md"]
    assert d.ids_added and all(i.startswith("added.md#") for i in d.ids_added)
    assert d.ids_removed and all(i.startswith("notes.txt#") for i in d.ids_removed)
    assert d.ids_changed and all(i.startswith("errors.md#") for i in d.ids_changed)
    assert "+" in d.index_diff and "added.md" in d.index_diff


def test_same_store_has_no_differences(two_stores):
    old, _ = two_stores
    d = diff_stores(old, old)
    assert d.empty
    result = CliRunner().invoke(cli, ["diff", str(old), str(old)], env=clean_env())
    assert result.exit_code == 0 and "no differences" in result.stdout


def test_json_format(two_stores):
    result = CliRunner().invoke(cli, ["diff", *map(str, two_stores), "--format", "json"], env=clean_env())
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["changed"] is True
    assert data["documents"] == {"added": ["added.md"], "removed": ["notes.txt"], "changed": ["errors.md"]}
    assert set(data["ids"]) == {"added", "removed", "changed"}


def test_markdown_is_a_pr_comment(two_stores):
    result = CliRunner().invoke(cli, ["diff", *map(str, two_stores), "--format", "markdown"], env=clean_env())
    assert result.exit_code == 0
    md = result.stdout
    assert md.startswith("### ContextPull store diff")
    assert "| documents | 1 | 1 | 1 |" in md
    assert "now point at different text" in md
    assert "```diff" in md and "`errors.md#" in md


def test_text_format_names_changed_ids(two_stores):
    result = CliRunner().invoke(cli, ["diff", *map(str, two_stores)], env=clean_env())
    assert result.exit_code == 0
    assert "ids whose text changed" in result.stdout
    assert "errors.md#" in result.stdout


def test_diff_refuses_non_stores(tmp_path, two_stores):
    junk = tmp_path / "junk.sqlite"
    junk.write_text("nope")
    with pytest.raises(StoreError):
        diff_stores(junk, two_stores[1])
    result = CliRunner().invoke(cli, ["diff", str(tmp_path / "missing"), str(two_stores[1])], env=clean_env())
    assert result.exit_code == 3
