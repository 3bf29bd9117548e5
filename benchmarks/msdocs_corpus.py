"""The real corpus of the agreement benchmark: three MicrosoftDocs repositories at fixed commits.

  python benchmarks/msdocs_corpus.py DEST [--source NAME=GIT_DIR_OR_URL ...]

Writes DEST/cpp-docs, DEST/windows-driver-docs and DEST/win32: the files of each repository at
the commit below, without images, archives, PDFs and Visio drawings (72,355 documents to either
writer: Markdown plus a few xlsx and pptx). Each tree comes from ``git archive`` of the commit,
fetched from GitHub (``git fetch --depth 1``, about 1.5 GB in all) unless ``--source`` names a
local clone or mirror that already has it.

Why these: documentation of another shape than the uv docs (reference pages generated from
headers, long member tables, HTML tables inside Markdown), 72,000 documents and some 448,000
sections, public and pinned, so the figures in benchmarks/README.md can be made again.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPOSITORIES = {
    "cpp-docs": "a2e592a8fc391b6aff8d1323f5b58696abdc5d57",
    "windows-driver-docs": "825aa15f476fc33a3e80abd3db387b025771f6f8",
    "win32": "47e64c189dcb1c1a42c221380ccf0ec81cc82d4b",
}
LEFT_OUT = (".png", ".jpg", ".gif", ".jpeg", ".svg", ".zip", ".pdf", ".vsdx", ".ico", ".bmp", ".wmf", ".emf")


def git(*args: str, cwd: Path | None = None) -> bytes:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    if proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace').strip()[-400:]}")
    return proc.stdout


def git_dir_with(name: str, commit: str, source: str | None, scratch: Path) -> Path:
    """A git directory holding ``commit``: the given one, or a shallow fetch from GitHub."""
    if source and Path(source).exists():
        return Path(source)
    repo = scratch / name
    git("init", "-q", "--bare", str(repo))
    git("fetch", "-q", "--depth", "1", source or f"https://github.com/MicrosoftDocs/{name}", commit, cwd=repo)
    return repo


def extract(repo: Path, commit: str, dest: Path) -> int:
    """Unpack ``commit`` of ``repo`` into ``dest`` without the left-out kinds; returns files written."""
    with tempfile.TemporaryFile() as archive:
        subprocess.run(["git", "--git-dir", str(repo), "archive", "--format=tar", commit], stdout=archive, check=True)
        archive.seek(0)
        written = 0
        with tarfile.open(fileobj=archive) as tar:
            for member in tar:
                if not member.isfile() or member.name.lower().endswith(LEFT_OUT):
                    continue
                tar.extract(member, dest, filter="data")
                written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dest", type=Path)
    ap.add_argument("--source", action="append", default=[], metavar="NAME=GIT_DIR_OR_URL")
    args = ap.parse_args(argv)
    sources = dict(item.split("=", 1) for item in args.source)
    unknown = set(sources) - set(REPOSITORIES)
    if unknown:
        raise SystemExit(f"--source: no repository {sorted(unknown)}; these are {sorted(REPOSITORIES)}")
    with tempfile.TemporaryDirectory(prefix="msdocs-") as tmp:
        for name, commit in REPOSITORIES.items():
            out = args.dest / name
            if out.exists():
                raise SystemExit(f"{out}: already exists")
            repo = git_dir_with(name, commit, sources.get(name), Path(tmp))
            print(f"{name} {commit[:8]}: {extract(repo, commit, out)} files", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
