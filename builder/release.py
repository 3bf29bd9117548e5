"""The action's release step: attach the three artifact files to a GitHub release, idempotently.

Readers download ``store.sqlite`` and check it against ``store.sqlite.sha256`` and
``manifest.json`` (issue 5, item 3). A published release is a promise: swapping the bytes under
the same name would make readers' checksums and citations lie. But a release job must also be
safe to re-run after a later step failed, and the build is reproducible (docs/artifacts.md), so
the same documents give the same bytes. So this step compares, by sha256, every asset the
release already holds under one of the three names (issue 20, item 1):

- none there: upload the three;
- all the same: success, nothing uploaded (a re-run), and the missing ones uploaded if any;
- any different: an ``::error::`` naming the tag and both digests, and nothing changed, unless
  ``overwrite: true`` (a moving tag such as ``docs-latest``) or the release is a draft, where
  they are replaced (``--clobber``).

The digest of an existing asset comes from ``gh release view`` when GitHub reports one, and
otherwise from downloading it. The store was built from scratch: the action never restores a
cache when ``release-tag`` is set (``validate_inputs.py``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from contextpull.writing.fingerprint import file_sha256
from gh_cli import GhProblem, Runner, _run, call, download, last_line, require_gh
from gha import InputProblem, annotation, append_summary, emit, parse_bool, write_outputs

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


def view_release(tag: str, run: Runner) -> dict:
    viewed = call(["release", "view", tag, "--json", "assets,isDraft"], run, what=f"release-tag {tag}")
    if viewed.returncode != 0:
        raise ReleaseProblem(
            f"cannot read release {tag} ({last_line(viewed)}); create the release first and give the job "
            "permissions: contents: write"
        )
    try:
        view = json.loads(viewed.stdout)
    except json.JSONDecodeError:
        raise ReleaseProblem(f"gh release view {tag} printed no JSON") from None
    return view if isinstance(view, dict) else {}


def existing_digests(tag: str, view: Mapping[str, object], run: Runner) -> dict[str, str]:
    """sha256 of each of the three names the release already holds, by name."""
    assets = {str(a.get("name")): a for a in (view.get("assets") or []) if isinstance(a, Mapping)}
    digests, fetch = {}, []
    for name in ASSET_NAMES:
        if name not in assets:
            continue
        reported = str(assets[name].get("digest") or "")
        if reported.startswith("sha256:"):
            digests[name] = reported[len("sha256:"):]
        else:
            fetch.append(name)
    if fetch:
        with tempfile.TemporaryDirectory(prefix="contextpull-release-") as folder:
            download(tag, fetch, Path(folder), run)
            for name in fetch:
                path = Path(folder) / name
                if not path.is_file():
                    raise ReleaseProblem(f"gh release download {tag} gave no {name}")
                digests[name] = file_sha256(path)
    return digests


def publish(tag: str, files: list[Path], overwrite: bool, run: Runner = _run) -> tuple[str, list[str]]:
    """Compare and upload; returns (what happened, the upload argv or [] when none was needed)."""
    view = view_release(tag, run)
    remote = existing_digests(tag, view, run)
    local = {f.name: file_sha256(f) for f in files}
    differ = [name for name in ASSET_NAMES if name in remote and remote[name] != local[name]]
    missing = [f for f in files if f.name not in remote]
    if differ and not (overwrite or view.get("isDraft")):
        first = differ[0]
        raise ReleaseProblem(
            f"release {tag} already has {first} with sha256 {remote[first]}, this build's is {local[first]}"
            f"{' (and ' + ', '.join(differ[1:]) + ' differ too)' if differ[1:] else ''}; nothing was changed: "
            "publish under a new tag, or set overwrite: true to replace them (for a moving tag such as docs-latest)"
        )
    if differ:
        argv = ["release", "upload", tag, *[str(f) for f in files], "--clobber"]
        state = "replaced"
    elif missing:
        argv = ["release", "upload", tag, *[str(f) for f in missing]]
        state = "attached" if len(missing) == len(files) else "completed"
    else:
        return "identical", []
    uploaded = call(argv, run, what=f"release-tag {tag}")
    if uploaded.returncode != 0:
        raise ReleaseProblem(f"gh release upload {tag} failed: {last_line(uploaded)}")
    return state, ["gh", *argv]


SUMMARY = {
    "attached": "Attached {names} to release `{tag}`.",
    "completed": "Release `{tag}` held part of this build with the same sha256; attached the rest of {names}.",
    "identical": "Release `{tag}` already holds {names} with the same sha256 (a re-run): nothing uploaded.",
    "replaced": "Replaced {names} on release `{tag}` (input `overwrite` is true, or the release is a draft).",
}


def main(environ: Mapping[str, str] = os.environ, run: Runner = _run,
         which: Callable[[str], object] = shutil.which) -> int:
    tag = environ.get("CONTEXTPULL_ACTION_RELEASE_TAG", "")
    try:
        if not tag:
            raise ReleaseProblem("input 'release-tag' is empty; nothing to attach to")
        overwrite = parse_bool("overwrite", environ.get("CONTEXTPULL_ACTION_OVERWRITE", "false") or "false")
        files = asset_files(environ)
        require_gh(f"release-tag {tag}", which)
        state, _ = publish(tag, files, overwrite, run)
    except (ReleaseProblem, GhProblem, InputProblem) as exc:
        emit([annotation("error", str(exc), title="ContextPull release")])
        return 1
    names = ", ".join(f"`{n}`" for n in ASSET_NAMES)
    write_outputs({"release": state}, environ)
    append_summary("\n" + SUMMARY[state].format(names=names, tag=tag) + "\n", environ)
    print(SUMMARY[state].format(names=", ".join(ASSET_NAMES), tag=tag).replace("`", ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
