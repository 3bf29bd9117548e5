"""manifest.json: the schema in the repository validates what a build writes; source commit rules."""

from __future__ import annotations

import json
import shutil
import subprocess

import jsonschema
import pytest

from artifact_helpers import assert_verified, clean_env, fixture_corpus, quiet_build
from contextpull.artifact import manifest as manifest_mod

EXPECTED_KEYS = {
    "format_version", "builder", "schema_version", "store", "fingerprints", "counts",
    "index", "settings", "skipped", "source", "build_time",
}


def test_built_manifest_validates_and_has_exactly_the_agreed_keys(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    (docs / "bad.md").write_bytes(b"\x00binary\x00")
    report, _ = quiet_build(docs, tmp_path / "out", environ=clean_env(SOURCE_DATE_EPOCH="0"))
    on_disk = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert on_disk == report.manifest
    manifest_mod.validate(on_disk)
    assert set(on_disk) == EXPECTED_KEYS
    assert on_disk["format_version"] == 1
    assert on_disk["builder"]["name"] == "contextpull"
    assert on_disk["counts"] == {"documents": 4, "sections": on_disk["counts"]["sections"], "skipped": 1}
    assert on_disk["skipped"][0]["path"] == "bad.md" and on_disk["skipped"][0]["reason"]
    assert on_disk["fingerprints"]["file"] == on_disk["store"]["sha256"]
    assert on_disk["build_time"] == "1970-01-01T00:00:00Z"
    assert on_disk["settings"]["section_max_chars"] == 2000
    assert_verified(tmp_path / "out" / "store.sqlite")


def test_manifest_text_is_stable(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    quiet_build(docs, tmp_path / "a")
    quiet_build(docs, tmp_path / "b")
    text = (tmp_path / "a" / "manifest.json").read_text()
    assert text == (tmp_path / "b" / "manifest.json").read_text()
    assert text.endswith("}\n")


@pytest.mark.parametrize(
    "mutate",
    [
        lambda m: m.pop("counts"),
        lambda m: m.update(extra=1),
        lambda m: m["store"].update(sha256="xyz"),
        lambda m: m["fingerprints"].update(corpus="too-short"),
        lambda m: m["index"].update(mode="huge"),
        lambda m: m.update(build_time="yesterday"),
    ],
    ids=["missing key", "unknown key", "bad sha", "bad corpus fp", "bad mode", "bad time"],
)
def test_schema_rejects_malformed_manifests(tmp_path, mutate):
    docs = fixture_corpus(tmp_path / "docs")
    report, _ = quiet_build(docs, tmp_path / "out")
    manifest = json.loads(json.dumps(report.manifest))
    mutate(manifest)
    with pytest.raises(jsonschema.ValidationError):
        manifest_mod.validate(manifest)


def test_schema_file_is_itself_a_valid_schema():
    jsonschema.Draft202012Validator.check_schema(manifest_mod.load_schema())


def test_source_commit_prefers_github_sha(tmp_path):
    assert manifest_mod.source_commit(tmp_path, "a" * 40) == "a" * 40


@pytest.mark.parametrize("value", ["not-a-commit", "abc", "g" * 40])
def test_a_github_sha_that_is_not_a_commit_id_is_not_recorded(tmp_path, value):
    # Recording it would make the manifest fail its own schema (source.commit is hex).
    assert manifest_mod.source_commit(tmp_path, value) is None
    assert manifest_mod.source_commit(tmp_path, "A" * 40) == "a" * 40


def test_source_commit_is_null_outside_a_repository(tmp_path):
    assert manifest_mod.source_commit(tmp_path, "") is None


def test_source_commit_takes_the_head_the_build_already_asked_git_for(tmp_path):
    """Outside any repository git would answer nothing: the commit given is the one written,
    and ``GITHUB_SHA`` still comes first."""
    assert manifest_mod.source_commit(tmp_path, "", "b" * 40) == "b" * 40
    assert manifest_mod.source_commit(tmp_path, "a" * 40, "b" * 40) == "a" * 40


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_source_commit_from_git(tmp_path):
    docs = fixture_corpus(tmp_path / "docs")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
    run = lambda *a: subprocess.run(["git", "-C", str(docs), *a], check=True, capture_output=True, env={**clean_env(), **env})  # noqa: E731
    run("init", "-q")
    run("add", ".")
    run("commit", "-qm", "docs")
    head = run("rev-parse", "HEAD").stdout.decode().strip()
    report, _ = quiet_build(docs, tmp_path / "out")
    assert report.manifest["source"]["commit"] == head
    manifest_mod.validate(report.manifest)


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_source_commit_is_the_docs_repository_whatever_git_dir_says(tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
    subprocess.run(["git", "-C", str(other), "init", "-q"], check=True, capture_output=True)
    subprocess.run(["git", "-C", str(other), "commit", "-q", "--allow-empty", "-m", "x"], check=True,
                   capture_output=True, env={**clean_env(), **env})
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    docs = fixture_corpus(tmp_path / "docs")  # in no repository
    assert manifest_mod.source_commit(docs, "") is None
