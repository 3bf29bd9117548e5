"""Small stores and corpora for the MCP server, serve, fetch and mounts tests.

``write_corpus`` writes a three-document docs folder; ``build_store`` turns it into a store with
our own ingest. The texts are made up for these tests; the shared corpora are never copied here.
"""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import time
from pathlib import Path

try:
    from corpus_files import write_corpus as _write
except ImportError:  # tests/ imported as a package
    from tests.corpus_files import write_corpus as _write

# A raw JSON-RPC initialize, for tests that speak HTTP without the SDK client.
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def stop_server(proc) -> None:
    """Ctrl-C a server process, as a person would, and kill it if it does not stop in 10 s."""
    import signal
    import subprocess

    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


CORPUS = {
    "README.md": "# Widget docs\n\nWidgets are configured in widget.toml and run by the widget daemon.\n",
    "guides/install.md": (
        "# Installing widgets\n\nInstall the package with the installer script, then run the"
        " widget daemon once so that it creates its cache folder.\n\n"
        "## On Windows\n\nUse the MSI installer; the cache lives in %LOCALAPPDATA%\\widget.\n"
        "Set WIDGET_HOME before the first start if you want it elsewhere.\n"
    ),
    "reference/errors.md": (
        "# Error codes\n\nEvery error the daemon reports has a code.\n\n"
        "## TX-4419\n\nThe cache folder is not writable. Check permissions on the cache folder"
        " and restart the daemon.\n\n"
        "## TX-4501\n\nThe configuration file widget.toml has a syntax error on the reported line.\n"
    ),
}


def write_corpus(root: Path, docs: dict[str, str] | None = None) -> Path:
    """The MCP tests' corpus (or ``docs``) under ``root``."""
    return _write(root, docs or CORPUS)


def build_store(corpus: Path, store: Path) -> Path:
    """Ingest ``corpus`` into ``store`` with our own pipeline, the way ``serve DIR`` does."""
    from contextpull.ingest.engine import ingest
    from contextpull.config import Settings

    store.parent.mkdir(parents=True, exist_ok=True)
    report = ingest(corpus, store, Settings())
    assert report.documents and not report.skipped, report.summary_lines()
    return store


def corpus_store(tmp_path: Path, name: str = "store.sqlite", docs: dict[str, str] | None = None) -> Path:
    corpus = write_corpus(tmp_path / (name + ".docs"), docs)
    return build_store(corpus, tmp_path / name)


def set_meta(store: Path, **values: str) -> None:
    """Change meta values of a test store in place (the server under test only reads)."""
    conn = sqlite3.connect(store)
    with conn:
        for key, value in values.items():
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, str(value)))
    conn.close()


# The second store of the mounts tests, mounted by its provenance name gadget@2.1.
GADGET = {
    "intro.md": "# Intro\n\nThe gadget reads gadget.toml on start. Its cache folder holds the logs.\n",
    "ops/errors.md": "# Errors\n\n## TX-4419\n\nGadget error TX-4419 means the cache is full: empty it.\n",
    "ops/flags.md": "# Flags\n\n## --dry-run\n\nPrint what the gadget would do.\n\n## --force\n\nOverwrite the cache.\n",
}
PROVENANCE = {
    "source_repository": "https://github.com/acme/gadget",
    "source_commit": "0123456789abcdef0123456789abcdef01234567",
    "docs_version": "2.1",
    "built_at": "2026-11-30T10:00:00Z",
}


def mount_stores(tmp_path: Path) -> tuple[Path, Path]:
    """The mounts tests' two stores: the MCP corpus as ``widget`` and ``GADGET`` with provenance."""
    widget = corpus_store(tmp_path, "widget.sqlite")
    gadget = corpus_store(tmp_path, "gadget.sqlite", GADGET)
    set_meta(gadget, **PROVENANCE)
    return widget, gadget


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, attempts: int = 120) -> None:
    for _ in range(attempts):  # bounded: 120 x 0.25 s
        if proc.poll() is not None:
            raise AssertionError(f"server exited early: {proc.stderr.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.25)
    raise AssertionError("server did not start listening")
