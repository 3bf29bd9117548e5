"""The action's release step: attach the three artifact files to a GitHub release.

Readers download ``store.sqlite`` and check it against ``store.sqlite.sha256`` and
``manifest.json`` (issue 5, item 3). A published release is a promise: once a reader may have
fetched its store, swapping the bytes under the same name would make their checksums and
citations lie. So this step asks ``gh release view --json assets,isDraft`` first and refuses to
upload over an existing asset of a published release; a draft may be re-uploaded (``--clobber``).
The store it uploads was built from scratch: the action never restores a cache when
``release-tag`` is set (``validate_inputs.py``).

It calls the ``gh`` command with ``GH_TOKEN`` and ``GH_REPO`` from the step's environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from gha import annotation, append_summary, emit

ASSET_NAMES = ("store.sqlite", "store.sqlite.sha256", "manifest.json")
PATH_VARIABLES = ("STORE_PATH", "SHA256_PATH", "MANIFEST_PATH")


class ReleaseProblem(Exception):
    """Why the files were not attached; becomes one ``::error::`` line."""


def asset_files(environ: Mapping[str, str]) -> list[Path]:
    """The three files in upload order, each checked to exist under the name readers expect."""
    files = []
    for variable, name in zip(PATH_VARIABLES, ASSET_NAMES):
        value = environ.get("CONTEXTPULL_ACTION_" + variable, "")
        path = Path(value)
        if not value or not path.is_file():
            raise ReleaseProblem(f"the build left no {name} to attach (looked for {value or 'nothing'})")
        if path.name != name:
            raise ReleaseProblem(f"expected a file named {name}, got {path.name}")
        files.append(path)
    return files


def upload_plan(tag: str, view: Mapping[str, object], files: list[Path]) -> list[str]:
    """The ``gh release upload`` argv, or ReleaseProblem when it would overwrite a published asset."""
    existing = {str(asset.get("name")) for asset in (view.get("assets") or []) if isinstance(asset, Mapping)}
    clash = sorted(existing & set(ASSET_NAMES))
    argv = ["gh", "release", "upload", tag, *[str(f) for f in files]]
    if not clash:
        return argv
    if view.get("isDraft"):
        return argv + ["--clobber"]
    raise ReleaseProblem(
        f"release {tag} is published and already has {', '.join(clash)}; refusing to overwrite "
        "assets readers may have downloaded: publish the store under a new tag"
    )


Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, check=False)


def release(tag: str, files: list[Path], run: Runner = _run) -> list[str]:
    """Check the release, upload; returns the argv used. Raises ReleaseProblem."""
    viewed = run(["gh", "release", "view", tag, "--json", "assets,isDraft"])
    if viewed.returncode != 0:
        detail = (viewed.stderr or viewed.stdout).strip().splitlines()
        raise ReleaseProblem(
            f"cannot read release {tag} ({detail[-1] if detail else 'gh failed'}); create the release "
            "first and give the job permissions: contents: write"
        )
    try:
        view = json.loads(viewed.stdout)
    except json.JSONDecodeError:
        raise ReleaseProblem(f"gh release view {tag} printed no JSON") from None
    argv = upload_plan(tag, view, files)
    uploaded = run(argv)
    if uploaded.returncode != 0:
        detail = (uploaded.stderr or uploaded.stdout).strip().splitlines()
        raise ReleaseProblem(f"gh release upload {tag} failed: {detail[-1] if detail else 'no output'}")
    return argv


def main(environ: Mapping[str, str] = os.environ, run: Runner = _run) -> int:
    tag = environ.get("CONTEXTPULL_ACTION_RELEASE_TAG", "")
    try:
        if not tag:
            raise ReleaseProblem("input 'release-tag' is empty; nothing to attach to")
        files = asset_files(environ)
        release(tag, files, run)
    except ReleaseProblem as exc:
        emit([annotation("error", str(exc), title="ContextPull release")])
        return 1
    names = ", ".join(f"`{n}`" for n in ASSET_NAMES)
    append_summary(f"Attached {names} to release `{tag}`.\n", environ)
    print(f"Attached {', '.join(ASSET_NAMES)} to release {tag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
