"""Write a small corpus for a test: the one helper every fixture module uses."""

from __future__ import annotations

from pathlib import Path


def write_corpus(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create ``files`` (relative POSIX path -> text or bytes) under ``root``; returns ``root``.

    Text is written byte for byte (``newline=""``) so tests of CRLF input get CRLF on disk.
    """
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8", newline="")
    return root
