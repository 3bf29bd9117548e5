"""Where the docs of a build come from, asked of git (issue 27, "Provenance in every store").

The values are the reader core's ``Provenance`` (``contextpull/provenance.py`` documents the meta
keys). Every one comes from the repository or the environment, never from the clock, so two
builds of one commit write the same bytes:

- repository: ``GITHUB_SERVER_URL``/``GITHUB_REPOSITORY`` in the Action (the caller's
  ``settings.environment.Checkout``: this module reads no environment), else the URL of the
  remote ``origin``, without user name, password or token (a remote URL often carries a token
  in CI), query or ``.git``; an scp-style ``git@host:owner/name`` becomes
  ``https://host/owner/name``. A remote that is a local path is not recorded: it names a folder
  of one machine, and would make two machines' builds differ.
- commit: ``HEAD``; ref: the tag pointing at it (the highest version when several do), else the
  branch, else ``GITHUB_REF_NAME`` (the Action checks out a detached ``HEAD``).
- dirty: whether ``git status --porcelain`` lists anything under DOCS (untracked files
  included: the build reads them).
- version: the ``docs_version`` setting, else the tag at ``HEAD``.
- built_at: ``SOURCE_DATE_EPOCH`` when set, else the commit's committer date.

When git is missing, times out, or DOCS is not inside a work tree, nothing is recorded but an
explicitly set ``docs_version`` (with ``built_at`` from ``SOURCE_DATE_EPOCH``): a folder of docs
outside git builds exactly as before, which keeps the published agreement and every checked-in
checksum of such builds.
"""

from __future__ import annotations

import os
import re
import subprocess
import urllib.parse
from datetime import datetime, timezone
from pathlib import Path

from ..system.child_env import without_git_variables
from ..provenance import Provenance
from ..settings.environment import Checkout

GIT_TIMEOUT_S = 10

_SCP_LIKE = re.compile(r"^(?:[^@/:]+@)?(?P<host>[^/:]+):(?P<path>[^/].*)$")


def iso_utc(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def public_url(raw: str) -> str | None:
    """``raw`` (a remote's URL) as it may be published: no credentials, no query, no ``.git``;
    ``None`` for a local path or anything that is not a network address."""
    raw = raw.strip()
    if not raw:
        return None
    if "://" in raw:
        parts = urllib.parse.urlsplit(raw)
        if parts.scheme.lower() == "file" or not parts.hostname:
            return None
        host = parts.hostname
        if parts.port is not None:
            host += f":{parts.port}"
        path = parts.path
        scheme = parts.scheme.lower()
    else:
        match = _SCP_LIKE.match(raw)
        if not match or "\\" in raw or os.path.isabs(raw):
            return None
        host, path, scheme = match["host"], "/" + match["path"], "https"
    path = path.rstrip("/")
    if path.endswith(".git"):
        path = path[:-4]
    return f"{scheme}://{host}{path}"


class _Git:
    """``git -C DOCS ...`` with a timeout, in an environment without ``GIT_*`` variables (the
    repository that holds DOCS, not one they point at); ``None`` for any failure."""

    def __init__(self, docs: Path):
        self.docs = docs
        self.env = without_git_variables()
        self.env["GIT_OPTIONAL_LOCKS"] = "0"  # status must not write the index of a read-only checkout

    def __call__(self, *args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(self.docs), *args],
                capture_output=True,
                text=True,
                timeout=GIT_TIMEOUT_S,
                check=False,
                env=self.env,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.SubprocessError, ValueError):
            return None
        return done.stdout if done.returncode == 0 else None


def _first_line(text: str | None) -> str | None:
    lines = (text or "").strip().splitlines()
    if not lines:
        return None
    return lines[0].strip() or None


def read_provenance(docs: Path, checkout: Checkout, version: str | None = None,
                    epoch: int | None = None) -> Provenance:
    """The provenance of a build of ``docs`` (module docstring); ``version`` is the
    ``docs_version`` setting, ``None`` when not set; ``checkout`` what CI says of the checkout;
    ``epoch`` is ``SOURCE_DATE_EPOCH`` as the surface read and checked it, once
    (``cli.environment.read_environment``)."""
    git = _Git(docs)
    inside = _first_line(git("rev-parse", "--is-inside-work-tree"))
    commit = _first_line(git("rev-parse", "--verify", "-q", "HEAD")) if inside == "true" else None
    if commit is None:
        if version is None:
            return Provenance()
        return Provenance(version=version, built_at=iso_utc(epoch) if epoch is not None else None)
    server, slug = checkout.server_url.strip(), checkout.repository.strip()
    if server and slug:
        repository = public_url(f"{server.rstrip('/')}/{slug}")
    else:
        repository = public_url(_first_line(git("remote", "get-url", "origin")) or "")
    tag = _first_line(git("tag", "--points-at", "HEAD", "--sort=-version:refname"))
    branch = _first_line(git("symbolic-ref", "--short", "-q", "HEAD"))
    ref = tag or branch or (checkout.ref_name.strip() or None)
    status = git("status", "--porcelain", "--untracked-files=all", "--", ".")
    dirty = None if status is None else bool(status.strip())
    if epoch is None:
        committed = _first_line(git("show", "-s", "--format=%ct", "HEAD"))
        epoch = int(committed) if committed and committed.isdigit() else None
    return Provenance(
        repository=repository,
        commit=commit,
        ref=ref,
        dirty=dirty,
        version=version if version is not None else tag,
        built_at=iso_utc(epoch) if epoch is not None else None,
    )
