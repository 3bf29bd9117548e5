"""Cache key for the incremental build input (issue 5, item 4; issue 4, item 4).

``actions/cache`` restores the previous ``store.sqlite`` and its ``.sha256`` (the ``path`` output is
their folder, ``file`` the store) so ``contextpull build --cache`` copies unchanged chunks and
reparses only changed documents. The key has three parts:

- the builder version, because a store written by another version is not a trusted cache;
- a hash of the *resolved* settings and of the docs folder's name, because a store built with
  other section sizes cannot donate its sections (the restore prefix stops here, so any earlier
  store with the same settings is a usable, partial cache). Every setting that changes the
  store's bytes is a ``Settings`` field that ``resolve_settings`` reads from the same
  ``CONTEXTPULL_*`` variables as the build, so it is in the key: the summarizer (a store with
  model summaries is never restored for an offline build, nor the other way round) and the
  embedding model alike. The worker count and the Action's own inputs are not settings and
  change no byte, so they stay out;
- a hash of the docs files (path and content), so an unchanged tree hits exactly and saves nothing.

Run with the action's virtual environment, where ``contextpull`` is importable: the settings are
resolved by the same function the build uses, from the same environment and ``pyproject.toml``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from contextpull.writing.fingerprint import file_sha256
from gha import annotation, emit, write_outputs
from settings_env import build_environ

CACHE_DIR_NAME = "contextpull-cache"
CACHE_FILE_NAME = f"{CACHE_DIR_NAME}/store.sqlite"


def docs_files(docs: Path) -> list[str]:
    """Relative paths of the files a build may read, sorted: hidden entries are skipped as
    discovery skips them (``.contextpullignore`` at the root is read, so it counts), and links to
    folders are not followed, so a link loop cannot hang the step."""
    found = [".contextpullignore"] if (docs / ".contextpullignore").is_file() else []
    for folder, dirs, files in os.walk(docs, followlinks=False):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = Path(folder).relative_to(docs)
        found += [(rel / name).as_posix() for name in files if not name.startswith(".")]
    return sorted(found)


def docs_hash(docs: Path) -> str:
    """sha256 over ``relative/path NUL sha256(content) NUL`` for every file, in path order."""
    digest = hashlib.sha256()
    for rel in docs_files(docs):
        path = docs / rel
        if not path.is_file():  # a dangling link
            continue
        # surrogateescape: a file name that is not UTF-8 hashes as its bytes (the build skips it)
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(file_sha256(path).encode("ascii") + b"\0")
    return digest.hexdigest()[:20]


def settings_hash(settings: Mapping[str, object], docs_label: str) -> str:
    payload = json.dumps({"docs": docs_label, "settings": dict(settings)}, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:12]


def cache_key(version: str, settings: Mapping[str, object], docs_label: str, docs: Path) -> tuple[str, str]:
    """``(key, restore_prefix)``; the prefix matches any earlier store built with these settings."""
    prefix = f"contextpull-{version}-{settings_hash(settings, docs_label)}-"
    return prefix + docs_hash(docs), prefix


def main(environ: Mapping[str, str] = os.environ) -> int:
    from contextpull import __version__
    from contextpull.config import resolve_settings
    from contextpull.errors import ContextPullError

    docs_label = environ.get("CONTEXTPULL_ACTION_DOCS", "docs")
    docs = Path(docs_label)
    env = build_environ(environ)
    try:
        settings = resolve_settings(docs, {}, env).to_dict()
    except ContextPullError as exc:
        emit([annotation("error", exc.message + (f" ({exc.suggestion})" if exc.suggestion else ""))])
        return exc.exit_code
    key, prefix = cache_key(__version__, settings, docs_label, docs)
    temp = Path(environ.get("RUNNER_TEMP") or environ.get("TMPDIR") or "/tmp")
    write_outputs(
        {"key": key, "restore-prefix": prefix, "path": str(temp / CACHE_DIR_NAME), "file": str(temp / CACHE_FILE_NAME)},
        environ,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
