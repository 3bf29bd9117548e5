"""What ``build`` records about where the docs came from (issue 27, "Provenance in every store")."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from artifact_helpers import assert_verified, clean_env, quiet_build
from contextpull.artifact import manifest as manifest_mod
from contextpull.artifact.source import public_url, read_provenance
from contextpull.cli import main
from contextpull.provenance import PROVENANCE_KEYS, Provenance
from contextpull.cli.environment import read_environment
from contextpull.settings.environment import Checkout
from git_fixture import COMMIT_ISO, PUBLIC_REMOTE, TAG, make_repo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _meta(store) -> dict[str, str]:
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return dict(conn.execute("SELECT key, value FROM meta"))
    finally:
        conn.close()


def _provenance_meta(store) -> dict[str, str]:
    return {k: v for k, v in _meta(store).items() if k in PROVENANCE_KEYS}


def test_build_in_a_repository_records_every_key_and_no_credentials(tmp_path):
    repo = make_repo(tmp_path)
    report, _ = quiet_build(repo.docs, tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    assert _provenance_meta(store) == {
        "source_repository": PUBLIC_REMOTE,
        "source_commit": repo.commit,
        "source_ref": TAG,
        "source_dirty": "false",
        "docs_version": TAG,
        "built_at": COMMIT_ISO,
    }
    assert b"s3cret" not in store.read_bytes()
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    manifest_mod.validate(manifest)
    assert manifest["source"] == {
        "commit": repo.commit, "repository": PUBLIC_REMOTE, "ref": TAG, "dirty": False,
        "version": TAG, "built_at": COMMIT_ISO,
    }
    assert "s3cret" not in json.dumps(report.to_dict())
    assert_verified(store)


def test_provenance_stays_out_of_the_index_and_the_content_fingerprint(tmp_path):
    repo = make_repo(tmp_path)
    outside = tmp_path / "outside"
    shutil.copytree(repo.docs, outside)
    inside_report, _ = quiet_build(repo.docs, tmp_path / "a")
    outside_report, _ = quiet_build(outside, tmp_path / "b")
    a, b = _meta(tmp_path / "a" / "store.sqlite"), _meta(tmp_path / "b" / "store.sqlite")
    assert _provenance_meta(tmp_path / "b" / "store.sqlite") == {}
    assert {k: v for k, v in a.items() if k not in PROVENANCE_KEYS} == b
    assert inside_report.manifest["fingerprints"]["content"] == outside_report.manifest["fingerprints"]["content"]


def test_dirty_tree_version_flag_and_source_date_epoch(tmp_path):
    repo = make_repo(tmp_path)
    repo.dirty()
    quiet_build(
        repo.docs, tmp_path / "out", flags={"docs_version": "2.0-beta"}, environ=clean_env(SOURCE_DATE_EPOCH="0"),
    )
    meta = _provenance_meta(tmp_path / "out" / "store.sqlite")
    assert meta["source_dirty"] == "true"
    assert meta["docs_version"] == "2.0-beta"
    assert meta["source_ref"] == TAG
    assert meta["built_at"] == "1970-01-01T00:00:00Z"


def test_changes_outside_docs_do_not_make_it_dirty(tmp_path):
    repo = make_repo(tmp_path)
    (repo.root / "README.md").write_text("# Handbook, edited\n", encoding="utf-8")
    assert read_provenance(repo.docs, Checkout()).dirty is False
    repo.dirty()
    assert read_provenance(repo.docs, Checkout()).dirty is True


def test_version_setting_precedence(tmp_path):
    repo = make_repo(tmp_path)
    (repo.docs / "pyproject.toml").write_text('[tool.contextpull]\ndocs_version = "from-pyproject"\n', encoding="utf-8")
    quiet_build(repo.docs, tmp_path / "a")
    quiet_build(repo.docs, tmp_path / "b", environ=clean_env(CONTEXTPULL_DOCS_VERSION="from-env"))
    quiet_build(repo.docs, tmp_path / "c", flags={"docs_version": "from-flag"}, environ=clean_env(CONTEXTPULL_DOCS_VERSION="from-env"))
    versions = [_meta(tmp_path / d / "store.sqlite")["docs_version"] for d in "abc"]
    assert versions == ["from-pyproject", "from-env", "from-flag"]


def test_branch_without_tag_and_the_action_repository(tmp_path):
    repo = make_repo(tmp_path, tag=None)
    env = clean_env(GITHUB_SERVER_URL="https://github.example", GITHUB_REPOSITORY="team/handbook")
    p = read_provenance(repo.docs, read_environment(env).checkout)
    assert (p.repository, p.ref, p.version) == ("https://github.example/team/handbook", "main", None)
    assert p.name() == f"handbook@{repo.commit[:7]}"


def test_outside_git_records_nothing_but_an_explicit_version(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    assert read_provenance(docs, Checkout(), epoch=0) == Provenance()
    assert read_provenance(docs, Checkout(), "1.0", epoch=0) == Provenance(version="1.0", built_at="1970-01-01T00:00:00Z")
    repo = make_repo(tmp_path / "x")
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))  # git absent: no keys, no failure
    assert read_provenance(repo.docs, Checkout()) == Provenance()


def test_two_builds_of_one_commit_are_byte_identical(tmp_path):
    repo = make_repo(tmp_path)
    quiet_build(repo.docs, tmp_path / "a")
    quiet_build(repo.docs, tmp_path / "b")
    assert (tmp_path / "a" / "store.sqlite").read_bytes() == (tmp_path / "b" / "store.sqlite").read_bytes()


def test_a_cache_from_another_commit_does_not_keep_its_provenance(tmp_path):
    repo = make_repo(tmp_path)
    quiet_build(repo.docs, tmp_path / "out")
    (repo.root / "README.md").write_text("# Handbook, edited\n", encoding="utf-8")
    commit = repo.commit_all("readme", 1764100000)
    report, _ = quiet_build(repo.docs, tmp_path / "out", cache=tmp_path / "out" / "store.sqlite")
    meta = _provenance_meta(tmp_path / "out" / "store.sqlite")
    assert meta["source_commit"] == commit
    assert "docs_version" not in meta and meta["source_ref"] == "main"  # the tag is on the old commit
    assert report.reuse == "documents"
    quiet_build(repo.docs, tmp_path / "fresh")
    assert (tmp_path / "out" / "store.sqlite").read_bytes() == (tmp_path / "fresh" / "store.sqlite").read_bytes()


@pytest.mark.parametrize(
    "raw, public",
    [
        ("https://user:token@github.com/o/r.git", "https://github.com/o/r"),
        ("https://x-access-token:abc@github.com/o/r?x=1#y", "https://github.com/o/r"),
        ("ssh://git@example.org:2222/o/r.git/", "ssh://example.org:2222/o/r"),
        ("git@github.com:o/r.git", "https://github.com/o/r"),
        ("/srv/git/r.git", None),
        ("file:///srv/git/r.git", None),
        ("../r", None),
        ("", None),
    ],
)
def test_public_url(raw, public):
    assert public_url(raw) == public


def test_cli_docs_version_flag(tmp_path, monkeypatch):
    repo = make_repo(tmp_path)
    for key in ("CONTEXTPULL_DOCS_VERSION", "GITHUB_REPOSITORY", "GITHUB_SERVER_URL", "SOURCE_DATE_EPOCH"):
        monkeypatch.delenv(key, raising=False)
    assert main(["build", str(repo.docs), "--out", str(tmp_path / "out"), "--docs-version", "9.9", "--json"]) == 0
    assert _meta(tmp_path / "out" / "store.sqlite")["docs_version"] == "9.9"
    assert main(["build", str(repo.docs), "--out", str(tmp_path / "out"), "--docs-version", "a\nb"]) == 2


def test_verify_and_diff_print_the_provenance(tmp_path, runner):
    from contextpull.cli import cli

    repo = make_repo(tmp_path)
    quiet_build(repo.docs, tmp_path / "old")
    repo.dirty()
    quiet_build(repo.docs, tmp_path / "new", flags={"docs_version": "1.3.0"})
    line = f"Docs from example.org/team/handbook at {repo.commit[:7]} (version {TAG}), built 2025-11-24."
    verified = runner.invoke(cli, ["verify", str(tmp_path / "old" / "store.sqlite")], env=clean_env())
    assert verified.exit_code == 0 and verified.stdout.splitlines()[1] == f"  {line}"
    as_json = json.loads(runner.invoke(cli, ["verify", str(tmp_path / "old" / "store.sqlite"), "--json"], env=clean_env()).stdout)
    assert as_json["provenance"]["commit"] == repo.commit
    diffed = runner.invoke(cli, ["diff", str(tmp_path / "old" / "store.sqlite"), str(tmp_path / "new" / "store.sqlite")], env=clean_env())
    assert diffed.stdout.splitlines()[:2] == [
        f"old: {line}",
        f"new: Docs from example.org/team/handbook at {repo.commit[:7]} (version 1.3.0, uncommitted changes), built 2025-11-24.",
    ]


def test_verify_fails_when_the_manifest_source_disagrees(tmp_path):
    from contextpull.errors import CheckFailed

    repo = make_repo(tmp_path)
    quiet_build(repo.docs, tmp_path / "out")
    path = tmp_path / "out" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["source"]["version"] = "v9.9.9"
    path.write_text(json.dumps(manifest))
    with pytest.raises(CheckFailed, match="manifest source"):
        assert_verified(tmp_path / "out" / "store.sqlite")
