"""The artifact folder: checks on DOCS and --out, temporary names, cleanup (issue 4, item 1).

A build never writes a final name until everything succeeded. Temporary files are hidden
(``.store.sqlite.<pid>.*``) and live in OUT itself, so the final ``os.replace`` is a rename on one
filesystem. A killed build can leave them behind; the next build in that folder removes those
whose process is gone and leaves a still-running build's files alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError
from ..writing.discover import SUPPORTED_EXTENSIONS

STORE_FILE = "store.sqlite"
SHA_FILE = STORE_FILE + ".sha256"
MANIFEST_FILE = "manifest.json"
TMP_PREFIX = ".store.sqlite."


def _inside(child: Path, parent: Path) -> bool:
    try:
        child.relative_to(parent)
        return True
    except ValueError:
        return False


def check_inputs(docs: Path, out: Path, golden: Path | None, warn: Callable[[str], None]) -> list[Path]:
    """Refuse unusable DOCS/OUT; return the paths to leave out of the corpus (said out loud)."""
    if not docs.exists():
        raise InputError(
            f"DOCS folder {docs} does not exist",
            "point at a folder of " + " ".join(SUPPORTED_EXTENSIONS) + " files",
        )
    if not docs.is_dir():
        raise InputError(f"DOCS {docs} is a file, not a folder", "pass the folder that holds the documents")
    if not os.access(docs, os.R_OK | os.X_OK):
        raise InputError(f"DOCS folder {docs} cannot be read")
    real_docs, real_out = docs.resolve(), out.resolve()
    if real_out == real_docs:
        raise InputError(f"--out {out} is the DOCS folder itself", "write the artifact to another folder, e.g. --out out")
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a folder")
    exclude = []
    if _inside(real_out, real_docs):
        warn(f"--out {out} is inside DOCS; it is left out of the corpus")
        exclude.append(real_out)
    if golden is not None and _inside(golden.resolve(), real_docs):
        warn(f"--golden {golden} is inside DOCS; it is left out of the corpus")
        exclude.append(golden.resolve())
    return exclude


def prepare_out(out: Path) -> None:
    """Create OUT and prove we can write there; clear what a killed build left behind."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f"{TMP_PREFIX}{os.getpid()}.probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise InputError(f"cannot write to --out {out}: {exc.strerror or exc}") from None
    for stale in out.glob(TMP_PREFIX + "*.tmp*"):
        if _owner_alive(stale.name):
            continue  # another build is writing into this folder right now
        try:
            stale.unlink()
        except OSError:
            pass


def _owner_alive(name: str) -> bool:
    """Is the process whose id is in a temporary file's name still running (and not us)?"""
    pid_text = name[len(TMP_PREFIX):].split(".", 1)[0]
    if not pid_text.isdigit() or int(pid_text) == os.getpid():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but not ours to signal
        return True
    return True
