"""Shared by the tests that build a small site end to end (issue 26): the site written as a
repository of its own (``.git`` marks the guard root, so a build writes nothing under tests/),
``contextpull build --json`` with a clean environment, and the store read back read-only."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from artifact_helpers import clean_env
from contextpull.cli import cli

# Every page's sections in reading order, as (path, heading_path, text).
SECTIONS = (
    "SELECT d.path, s.heading_path, s.text FROM sections s JOIN documents d USING (doc_id)"
    " ORDER BY d.path, s.ordinal"
)
DOCUMENTS = "SELECT path, title, summary FROM documents ORDER BY path"


def write_site(root: Path, files: dict[str, str]) -> Path:
    """``files`` (relative path to text) under ``root``, which becomes a repository root."""
    (root / ".git").mkdir(parents=True)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def build_json(docs: Path, out: Path, *extra: str) -> dict:
    """The build report of a build that must succeed; its output is in the failure message."""
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(out), "--json", *extra], env=clean_env())
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout)


def store_rows(store: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def stored_paths(store: Path) -> list[str]:
    return [p for (p,) in store_rows(store, "SELECT path FROM documents ORDER BY path")]
