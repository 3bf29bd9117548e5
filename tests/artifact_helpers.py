"""Helpers for tests that build artifacts (issue 4): a fixture corpus and the verify gate.

``assert_verified(store)`` runs the full ``verify`` on a store a test built; every test that
builds a store calls it, as issue 4 asks. Other owners may import it too.
"""

from __future__ import annotations

import os
from pathlib import Path

from corpus_files import write_corpus

from contextpull.artifact.run import build
from contextpull.checks.verify import VerifyReport, verify_store

FIXTURE = {
    "guide/install.md": (
        "# Installing\n\nInstall the tool with the package manager of your platform.\n\n"
        "## On Linux\n\nUse the distribution package; it brings the `cp-agent` binary.\n\n"
        "## On macOS\n\nUse the Homebrew formula. The agent starts at login.\n"
    ),
    "guide/config.md": (
        "# Configuration\n\nSettings live in `config.toml` next to the binary.\n\n"
        "## Cache directory\n\nSet `cache_dir` to move the cache. The default is `~/.cache/cp`.\n\n"
        "| key | default |\n|---|---|\n| cache_dir | ~/.cache/cp |\n| timeout | 30 |\n"
    ),
    "errors.md": (
        "# Error codes\n\nCodes returned by the gateway, with what to do about each.\n\n"
        "## TX-44xx\n\nTX-4401 means insufficient funds; TX-4419 means the issuer declined.\n"
    ),
    "notes.txt": "Release notes\n\nVersion 2 adds the cache directory setting.\n\nVersion 1 was the first release.\n",
}


write_files = write_corpus  # the shared writer, under the name these tests use


def fixture_corpus(root: Path, **changes: str | None) -> Path:
    """The fixture corpus under ``root``; ``changes`` maps file keys (``/`` as ``__``) to new text."""
    files = dict(FIXTURE)
    for key, text in changes.items():
        rel = key.replace("__", "/")
        if text is None:
            files.pop(rel, None)
        else:
            files[rel] = text
    return write_files(root, files)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without build-affecting variables, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONTEXTPULL_")}
    env.pop("SOURCE_DATE_EPOCH", None)
    env.pop("GITHUB_SHA", None)
    env.update(extra)
    return env


def quiet_build(docs: Path, out: Path, **kwargs):
    """``build`` with a clean environment (``environ=``, read as the CLI reads its own) and
    warnings collected instead of printed."""
    from contextpull.cli.environment import read_environment

    warnings: list[str] = []
    environ = kwargs.pop("environ", None)
    kwargs.setdefault("environment", read_environment(clean_env() if environ is None else environ, stamps_time=True))
    report = build(docs, out, warn=warnings.append, **kwargs)
    return report, warnings


def drifted_pair(root: Path) -> tuple[Path, Path]:
    """Two builds of the fixture corpus, the second with one document removed, one added and one
    edited: the stores a drift report compares."""
    docs = fixture_corpus(root / "docs")
    quiet_build(docs, root / "old")
    (docs / "notes.txt").unlink()
    (docs / "added.md").write_text("# Added page\n\nNew material about retries and back-off.\n")
    text = (docs / "errors.md").read_text()
    (docs / "errors.md").write_text(text.replace("insufficient funds", "not enough funds"))
    quiet_build(docs, root / "new")
    return root / "old" / "store.sqlite", root / "new" / "store.sqlite"


def assert_verified(store: Path, **kwargs) -> VerifyReport:
    """Full verify (sidecars included) of a store a test built; fails the test on any problem."""
    return verify_store(store, **kwargs)
