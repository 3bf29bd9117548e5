"""A throwaway git repository for provenance tests: docs, a remote, a tag and a dirty file.

``make_repo(tmp_path)`` returns a ``GitRepo`` whose ``docs`` folder is committed once at a fixed
date, tagged ``v1.2.0``, with an ``origin`` remote whose URL carries a user and a token (which
the build must never record). ``dirty()`` then adds an uncommitted file under ``docs``. Nothing
here touches the network: the remote is never fetched.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

REMOTE = "https://builder:ghp_s3cretT0ken@example.org/team/handbook.git"
PUBLIC_REMOTE = "https://example.org/team/handbook"
TAG = "v1.2.0"
COMMIT_EPOCH = 1764000000  # 2025-11-24T16:00:00Z
COMMIT_ISO = "2025-11-24T16:00:00Z"


def git_env() -> dict[str, str]:
    """No user configuration, a fixed author and date: the commit id is the same on every run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    date = f"@{COMMIT_EPOCH} +0000"
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Docs Writer",
        GIT_AUTHOR_EMAIL="docs@example.org",
        GIT_COMMITTER_NAME="Docs Writer",
        GIT_COMMITTER_EMAIL="docs@example.org",
        GIT_AUTHOR_DATE=date,
        GIT_COMMITTER_DATE=date,
    )
    return env


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=git_env()
    ).stdout.strip()


@dataclass
class GitRepo:
    root: Path
    docs: Path
    commit: str

    def dirty(self, name: str = "draft.md") -> Path:
        path = self.docs / name
        path.write_text("# Draft\n\nNot committed yet.\n", encoding="utf-8")
        return path

    def commit_all(self, message: str, epoch: int) -> str:
        env = {**git_env(), "GIT_AUTHOR_DATE": f"@{epoch} +0000", "GIT_COMMITTER_DATE": f"@{epoch} +0000"}
        subprocess.run(["git", "-C", str(self.root), "add", "-A"], check=True, env=env)
        subprocess.run(["git", "-C", str(self.root), "commit", "-q", "-m", message], check=True, env=env)
        self.commit = git(self.root, "rev-parse", "HEAD")
        return self.commit


def make_repo(tmp_path: Path, *, remote: str | None = REMOTE, tag: str | None = TAG) -> GitRepo:
    root = tmp_path / "repo"
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "guide.md").write_text("# Guide\n\nInstall the tool, then run it.\n", encoding="utf-8")
    (docs / "faq.md").write_text("# FAQ\n\n## Why?\n\nBecause the docs say so.\n", encoding="utf-8")
    (root / "README.md").write_text("# Handbook\n", encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    if remote is not None:
        git(root, "remote", "add", "origin", remote)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "docs")
    if tag is not None:
        git(root, "tag", "-a", tag, "-m", f"release {tag}")
    return GitRepo(root, docs, git(root, "rev-parse", "HEAD"))
