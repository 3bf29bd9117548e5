"""The real corpus of the agreement benchmark: three MicrosoftDocs repositories at fixed commits.

  python benchmarks/msdocs_corpus.py DEST [--source NAME=GIT_DIR_OR_URL ...]

Writes DEST/cpp-docs, DEST/windows-driver-docs and DEST/win32: the files of each repository at
the commit below, without images, archives, PDFs and Visio drawings (72,355 documents to either
writer: Markdown plus a few xlsx and pptx). Each tree is read from the commit,
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
import tempfile
import threading
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
    """Write the files of ``commit`` into ``dest`` without the left-out kinds; returns how many.

    Blob by blob (``ls-tree``, then one ``cat-file --batch``) rather than ``git archive``: a
    mirror fetched without its images then serves as well as a full one.
    """
    listing = git("--git-dir", str(repo), "ls-tree", "-r", "-z", commit).split(b"\0")
    wanted: list[tuple[str, str]] = []
    for entry in filter(None, listing):
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha = meta.split()
        name = path.decode("utf-8", "surrogateescape")
        if kind == b"blob" and mode != b"120000" and not name.lower().endswith(LEFT_OUT):
            wanted.append((sha.decode(), name))
    proc = subprocess.Popen(["git", "--git-dir", str(repo), "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask() -> None:  # a thread, so neither pipe fills while the other waits
        for sha, _ in wanted:
            proc.stdin.write(f"{sha}\n".encode())
        proc.stdin.close()

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    for sha, name in wanted:
        header = proc.stdout.readline().split()
        if header[1] == b"missing":
            proc.kill()
            raise SystemExit(f"{repo}: {name} ({sha}) is not in the repository")
        out = dest / name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(proc.stdout.read(int(header[2])))
        proc.stdout.read(1)  # the newline after each object
    asking.join()
    proc.wait()
    return len(wanted)


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
