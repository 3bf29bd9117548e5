"""Small stores and corpora for the MCP server, serve and fetch tests (engineer F's tests).

``write_corpus`` writes a three-document docs folder; ``build_store`` turns it into a store with
our own ingest. The texts are made up for these tests; the shared corpora are never copied here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

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
    for rel, text in (docs or CORPUS).items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def build_store(corpus: Path, store: Path) -> Path:
    """Ingest ``corpus`` into ``store`` with our own pipeline, the way ``serve DIR`` does."""
    from contextpull.config import Settings

    store.parent.mkdir(parents=True, exist_ok=True)
    try:
        from contextpull.build.ingest import ingest
    except ImportError:  # ingest not merged yet: write the same records with the writer
        return _write_with_writer(corpus, store, Settings())
    report = ingest(corpus, store, Settings())
    if report.documents == 0:  # parsers not merged yet: every file skipped
        store.unlink()
        return _write_with_writer(corpus, store, Settings())
    return store


def _write_with_writer(corpus: Path, store: Path, settings) -> Path:
    """Heading-per-section records for the markdown files above, through A2's writer."""
    import hashlib
    import re

    from contextpull.build.records import DocumentRecord, SectionRecord
    from contextpull.build.writer import create_store, finalize_index, insert_document

    conn = create_store(store)
    for file in sorted(corpus.rglob("*.md")):
        rel = file.relative_to(corpus).as_posix()
        data = file.read_bytes()
        text = data.decode("utf-8")
        parts = [p for p in re.split(r"(?m)^(?=#)", text) if p.strip()]
        title = parts[0].lstrip("# ").splitlines()[0]
        sections = []
        for part in parts:
            heading = part.splitlines()[0].lstrip("# ")
            level = len(part) - len(part.lstrip("#"))
            path = title if level <= 1 else f"{title} > {heading}"
            sections.append(SectionRecord(path, level, "prose", part.strip()))
        doc = DocumentRecord(rel, title, None, "offline", hashlib.sha256(data).hexdigest(), len(data), "markdown", tuple(sections))
        insert_document(conn, doc, doc_id=None, ingested_at="2026-01-01T00:00:00Z")
    finalize_index(conn, settings, ingested_at="2026-01-01T00:00:00Z", corpus_root=str(corpus))
    conn.close()
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
