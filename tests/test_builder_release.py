"""Release upload and the incremental cache key (issue 5, items 3 and 4; issue 20, item 1).

The release step must send exactly the three artifact files, succeed when the release already
holds the same bytes, and never replace different bytes of a published release unless told to; the cache key must change with the documents and the settings, and its restore
prefix must not change with the documents (so an older store is still a usable cache).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

import cache_key  # noqa: E402
import release  # noqa: E402


@pytest.fixture
def artifact(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    env = {}
    for variable, name in zip(release.PATH_VARIABLES, release.ASSET_NAMES):
        (out / name).write_text(name)
        env["CONTEXTPULL_ACTION_" + variable] = str(out / name)
    env["CONTEXTPULL_ACTION_RELEASE_TAG"] = "v1.0.0"
    env["GITHUB_STEP_SUMMARY"] = str(tmp_path / "summary.md")
    return env


class FakeGh:
    """Stands in for ``gh``: a release with assets (name -> bytes, or a reported digest);
    answers ``release view`` and ``release download`` and records every call."""

    def __init__(self, assets: dict | None, draft: bool = False, upload_code: int = 0, digests: bool = False):
        self.assets = assets
        self.draft = draft
        self.upload_code = upload_code
        self.digests = digests
        self.calls: list[list[str]] = []

    def __call__(self, argv):
        self.calls.append(argv)
        verb = argv[2] if argv[1:2] == ["release"] else ""
        if self.assets is None:
            return subprocess.CompletedProcess(argv, 1, "", "release not found\n")
        if verb == "view":
            listed = [{"name": n, **({"digest": "sha256:" + hashlib.sha256(d).hexdigest()} if self.digests else {})}
                      for n, d in self.assets.items()]
            return subprocess.CompletedProcess(argv, 0, json.dumps({"assets": listed, "isDraft": self.draft}), "")
        if verb == "download":
            folder = Path(argv[argv.index("--dir") + 1])
            for i, arg in enumerate(argv):
                if arg == "--pattern" and argv[i + 1] in self.assets:
                    (folder / argv[i + 1]).write_bytes(self.assets[argv[i + 1]])
            return subprocess.CompletedProcess(argv, 0, "", "")
        return subprocess.CompletedProcess(argv, self.upload_code, "", "" if not self.upload_code else "HTTP 403\n")


def has_gh(name):
    return "/usr/bin/gh"


def main(env, gh):
    return release.main(env, run=gh, which=has_gh)


def local_bytes(artifact) -> dict:
    return {name: Path(artifact["CONTEXTPULL_ACTION_" + var]).read_bytes()
            for var, name in zip(release.PATH_VARIABLES, release.ASSET_NAMES)}


def test_uploads_exactly_the_three_files(artifact):
    gh = FakeGh({"notes.txt": b"n"})
    assert main(artifact, gh) == 0
    assert gh.calls[0] == ["gh", "release", "view", "v1.0.0", "--json", "assets,isDraft"]
    upload = gh.calls[1]
    assert upload[:4] == ["gh", "release", "upload", "v1.0.0"]
    assert [Path(p).name for p in upload[4:]] == ["store.sqlite", "store.sqlite.sha256", "manifest.json"]
    assert len(gh.calls) == 2


def test_the_same_bytes_already_there_are_success_without_upload(artifact):
    gh = FakeGh(local_bytes(artifact))
    assert main(artifact, gh) == 0
    assert [c[2] for c in gh.calls] == ["view", "download"]
    assert "already holds" in Path(artifact["GITHUB_STEP_SUMMARY"]).read_text()


def test_a_reported_digest_saves_the_download(artifact):
    gh = FakeGh(local_bytes(artifact), digests=True)
    assert main(artifact, gh) == 0
    assert [c[2] for c in gh.calls] == ["view"]


def test_different_bytes_are_one_error_naming_tag_and_digests(artifact, capsys):
    assets = {**local_bytes(artifact), "store.sqlite": b"other"}
    gh = FakeGh(assets)
    assert main(artifact, gh) == 1
    assert [c[2] for c in gh.calls] == ["view", "download"]  # looked, did not upload
    out = capsys.readouterr().out.splitlines()
    mine = hashlib.sha256(b"store.sqlite").hexdigest()
    assert out == [f"::error title=ContextPull release::release v1.0.0 already has store.sqlite with sha256 "
                   f"{hashlib.sha256(b'other').hexdigest()}, this build's is {mine}; nothing was changed: publish under "
                   "a new tag, or set overwrite: true to replace them (for a moving tag such as docs-latest)"]


def test_overwrite_replaces_what_differs(artifact):
    gh = FakeGh({"store.sqlite": b"other"})
    assert main({**artifact, "CONTEXTPULL_ACTION_OVERWRITE": "true"}, gh) == 0
    assert gh.calls[-1][-1] == "--clobber" and len(gh.calls[-1]) == 4 + 3 + 1


def test_a_partial_earlier_upload_is_completed(artifact):
    gh = FakeGh({"store.sqlite": local_bytes(artifact)["store.sqlite"]})
    assert main(artifact, gh) == 0
    assert [Path(p).name for p in gh.calls[-1][4:]] == ["store.sqlite.sha256", "manifest.json"]


def test_a_draft_may_be_replaced(artifact):
    gh = FakeGh({"manifest.json": b"old"}, draft=True)
    assert main(artifact, gh) == 0
    assert gh.calls[-1][-1] == "--clobber"


def test_missing_release_names_the_fix(artifact, capsys):
    assert main(artifact, FakeGh(None)) == 1
    line = capsys.readouterr().out.strip()
    assert "cannot read release v1.0.0 (release not found)" in line and "contents: write" in line


def test_failed_upload_is_an_error(artifact, capsys):
    assert main(artifact, FakeGh({}, upload_code=1)) == 1
    assert "HTTP 403" in capsys.readouterr().out


def test_no_gh_is_one_error_with_the_fix(artifact, capsys):
    def vanished(argv):
        raise FileNotFoundError("gh")

    assert release.main(artifact, run=vanished, which=lambda name: None) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and "the GitHub CLI (gh) is not on PATH" in out[0]
    # And a gh that vanishes between the check and the call is the same error, not a traceback.
    assert release.main(artifact, run=vanished, which=has_gh) == 1
    assert "the GitHub CLI (gh) is not on PATH" in capsys.readouterr().out


def test_missing_file_is_refused_before_calling_gh(artifact):
    Path(artifact["CONTEXTPULL_ACTION_SHA256_PATH"]).unlink()
    gh = FakeGh({})
    assert main(artifact, gh) == 1
    assert gh.calls == []


def test_cache_key_follows_documents_and_settings(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n")
    settings = {"section_max_chars": 2000}
    key1, prefix1 = cache_key.cache_key("1.0", settings, "docs", docs)
    assert key1.startswith(prefix1) and prefix1.startswith("contextpull-1.0-")
    (docs / "a.md").write_text("# A changed\n")
    key2, prefix2 = cache_key.cache_key("1.0", settings, "docs", docs)
    assert prefix2 == prefix1 and key2 != key1
    _, prefix3 = cache_key.cache_key("1.0", {"section_max_chars": 3000}, "docs", docs)
    _, prefix4 = cache_key.cache_key("1.1", settings, "docs", docs)
    assert len({prefix1, prefix3, prefix4}) == 3


def test_a_file_name_that_is_not_utf8_is_hashed_not_fatal(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n")
    key1, _ = cache_key.cache_key("1.0", {}, "docs", docs)
    (docs / os.fsdecode(b"caf\xe9.md")).write_text("# Cafe\n")
    key2, _ = cache_key.cache_key("1.0", {}, "docs", docs)
    assert key2 != key1


def test_cache_key_step_resolves_settings_like_the_build(tmp_path, monkeypatch):
    import gha

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n")
    monkeypatch.chdir(tmp_path)
    outputs = {}
    for value in ("", "500"):
        env = {"CONTEXTPULL_ACTION_DOCS": "docs", "RUNNER_TEMP": str(tmp_path / "t"),
               "GITHUB_OUTPUT": str(tmp_path / f"o{value}"), "CONTEXTPULL_SECTION_MAX_CHARS": value}
        assert cache_key.main(env) == 0
        outputs[value] = gha.parse_output_file((tmp_path / f"o{value}").read_text())
    # actions/cache saves the folder (the store and its checksum); the build gets the store.
    assert outputs[""]["path"] == str(tmp_path / "t" / "contextpull-cache")
    assert outputs[""]["file"] == str(tmp_path / "t" / "contextpull-cache" / "store.sqlite")
    assert outputs[""]["restore-prefix"] != outputs["500"]["restore-prefix"]


def test_cache_key_ignores_hidden_files_but_not_the_ignore_file(tmp_path):
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "sub" / "b.md").write_text("# B\n")
    (docs / "loop").symlink_to(docs, target_is_directory=True)
    before = cache_key.docs_hash(docs)
    (docs / ".contextpull").mkdir()
    (docs / ".contextpull" / "store.sqlite").write_bytes(b"local store")
    assert cache_key.docs_hash(docs) == before
    (docs / ".contextpullignore").write_text("sub/\n")
    assert cache_key.docs_hash(docs) != before
    assert cache_key.docs_files(docs) == [".contextpullignore", "sub/b.md"]


def test_the_steps_hash_files_with_the_stores_own_function():
    """One streamed sha256 for the cache key, the release and the base store: the one that
    writes ``store.sqlite.sha256``, which also refuses a named pipe instead of blocking on it."""
    import drift_report
    from contextpull.writing.fingerprint import file_sha256

    assert cache_key.file_sha256 is release.file_sha256 is drift_report.file_sha256 is file_sha256
