"""The build manifest: what was built, from what, with what (issue 4, item 5).

``manifest.json`` sits beside ``store.sqlite``; pipelines read it instead of opening the store.
Its shape is fixed by ``contextpull/manifest.schema.json`` and by the build report's ``manifest``
(``report.py``; the Action's scripts in ``builder/`` read it). Unlike the store, the manifest may name the
builder's Python and SQLite versions and the source commit: those explain the bytes, they are
not part of them.
"""

from __future__ import annotations

import json
import platform
import re
import sqlite3
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..system.child_env import without_git_variables
from ..settings import Settings
from ..provenance import Provenance
from ..schema import SCHEMA_VERSION

FORMAT_VERSION = 1
SCHEMA_FILE = Path(__file__).resolve().parent.parent / "manifest.schema.json"


def builder_info() -> dict[str, str]:
    return {
        "name": "contextpull",
        "version": __version__,
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
    }


_COMMIT = re.compile(r"[0-9a-f]{7,64}")  # the manifest schema's pattern for source.commit


def source_commit(docs: Path, ci_sha: str = "", head: str | None = None) -> str | None:
    """``ci_sha`` (``GITHUB_SHA``, read by the caller) when it is a commit id, else
    ``git -C DOCS rev-parse HEAD``; None when neither answers.
    ``head`` is that commit when the build has asked git already (the provenance's), which
    spares a second ``git`` process per build."""
    sha = ci_sha.strip().lower()
    if _COMMIT.fullmatch(sha):
        return sha
    if head:
        return head
    # Anything else (unset, or not a commit id) would make the manifest fail its own schema:
    # ask git instead.
    # The repository that holds DOCS, not one that GIT_DIR or GIT_WORK_TREE point at elsewhere.
    env = without_git_variables()
    try:
        result = subprocess.run(
            ["git", "-C", str(docs), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
            env=env,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    out = result.stdout.strip()
    return out if result.returncode == 0 and out else None


def build_time(epoch: int | None) -> str | None:
    """``SOURCE_DATE_EPOCH`` as RFC 3339 UTC, or None when the build was not given a time."""
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def make_manifest(
    *,
    store_file: str,
    store_bytes: int,
    store_sha256: str,
    corpus_fp: str,
    content_fp: str,
    documents: int,
    sections: int,
    skipped: list[dict[str, str]],
    index_mode: str,
    index_tokens: int,
    settings: Settings,
    commit: str | None,
    epoch: int | None,
    provenance: Provenance | None = None,
) -> dict[str, Any]:
    """Exactly the keys of the build report's ``manifest`` (the schema's), with the
    provenance the store's meta records (issue 27) in ``source``: ``commit`` is there as before
    (``GITHUB_SHA`` first), the other keys only when the build knows them, so a build outside git
    writes the manifest it always wrote."""
    return {
        "format_version": FORMAT_VERSION,
        "builder": builder_info(),
        "schema_version": SCHEMA_VERSION,
        "store": {"file": store_file, "bytes": store_bytes, "sha256": store_sha256},
        "fingerprints": {"corpus": corpus_fp, "content": content_fp, "file": store_sha256},
        "counts": {"documents": documents, "sections": sections, "skipped": len(skipped)},
        "index": {"mode": index_mode, "tokens": index_tokens, "budget": settings.index_budget_tokens},
        "settings": settings.to_dict(),
        "skipped": [{"path": s["path"], "reason": s["reason"]} for s in skipped],
        "source": {"commit": commit, **_source(provenance)},
        "build_time": build_time(epoch),
    }


def _source(provenance: Provenance | None) -> dict[str, Any]:
    if provenance is None:
        return {}
    values = {
        "repository": provenance.repository,
        "ref": provenance.ref,
        "dirty": provenance.dirty,
        "version": provenance.version,
        "built_at": provenance.built_at,
    }
    return {key: value for key, value in values.items() if value is not None}


def dumps(manifest: dict[str, Any]) -> str:
    """Stable text: sorted keys, two-space indent, trailing newline (diffs well in review)."""
    return json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def load_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def validate(manifest: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` when ``manifest`` does not fit the schema."""
    import jsonschema  # imported here: the read side must not need it

    jsonschema.validate(manifest, load_schema())
