"""Dependencies in fingerprints (issue 26, "Incremental and deterministic"): a change to an
included file rebuilds exactly the documents that include it, in ``build --cache`` and in the
in-place ``ingest``, and a cached build stays byte-identical to a fresh one."""

from __future__ import annotations

import json
import sqlite3

import pytest
from artifact_helpers import assert_verified, clean_env, quiet_build
from dialect_fakes import use_fake_dialect

from contextpull.dialects.tracking.reads import READS_KEY
from contextpull.config import Settings
from contextpull.ingest.engine import ingest as engine_ingest
from contextpull.cli.environment import read_environment


def ingest(docs, store, environ, dialect="auto"):
    return engine_ingest(docs, store, Settings(dialect=dialect), environment=read_environment(environ))


@pytest.fixture
def site(tmp_path, monkeypatch):
    use_fake_dialect(monkeypatch)
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: test\n")
    (root / "snippets").mkdir()
    (root / "snippets" / "hello.py").write_text("print('hello')\n")
    docs = root / "docs"
    docs.mkdir()
    (docs / "uses.md").write_text("# Uses\n\nThe example program:\n\nINCLUDE(../snippets/hello.py)\n\n!!! note\n    Run it.\n")
    (docs / "other.md").write_text("# Other\n\nA page that includes nothing at all.\n")
    (docs / "missing.md").write_text("# Missing\n\nINCLUDE(../snippets/later.py)\n")
    return root


def _sha(out):
    return (out / "store.sqlite.sha256").read_text()


def _meta(store, key):
    with sqlite3.connect(store) as conn:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def _rows(store):
    with sqlite3.connect(store) as conn:
        return dict(conn.execute("SELECT path, sha256 FROM documents"))


def test_an_include_is_in_the_store_and_its_dependency_in_meta(site):
    report, _ = quiet_build(site / "docs", site / "out")
    store = site / "out" / "store.sqlite"
    with sqlite3.connect(store) as conn:
        text = conn.execute("SELECT group_concat(text, '\n') FROM sections s JOIN documents d USING (doc_id) WHERE d.path = 'uses.md'").fetchone()[0]
    assert "print('hello')" in text and "INCLUDE(" not in text
    reads = json.loads(_meta(store, READS_KEY))
    assert [p for p, _ in reads["uses.md"]["deps"]] == ["mkdocs.yml", "snippets/hello.py"]
    assert reads["missing.md"]["deps"][-1] == ["snippets/later.py", "missing"]
    assert_verified(store)
    d = report.to_dict()["dialect"]
    assert (d["name"], d["config_file"]) == ("mkdocs", "mkdocs.yml")
    assert d["constructs"]["test include"] == {"resolved": 1, "converted": 0, "unresolved": 1}
    assert d["unresolved"] == [
        {"path": "missing.md", "line": 3, "construct": "test include", "detail": "target missing: ../snippets/later.py"}
    ]
    lines = report.dialect_lines()
    assert lines[0] == "dialect mkdocs (from mkdocs.yml): 1 resolved, 1 converted, 1 unresolved"
    assert "    missing.md:3: target missing: ../snippets/later.py" in lines


@pytest.mark.parametrize("change", ["edit", "create", "config"])
def test_build_cache_rebuilds_exactly_the_documents_whose_dependency_changed(site, change):
    docs, out = site / "docs", site / "out"
    quiet_build(docs, out)
    if change == "edit":
        (site / "snippets" / "hello.py").write_text("print('changed')\n")
        expected = 1
    elif change == "create":
        (site / "snippets" / "later.py").write_text("print('now here')\n")
        expected = 1
    else:
        (site / "mkdocs.yml").write_text("site_name: renamed\n")
        expected = 3  # every document of the site depends on its configuration
    cached, _ = quiet_build(docs, out, cache=out / "store.sqlite")
    assert cached.parsed_documents == expected
    assert cached.reused_documents == 3 - expected
    fresh, _ = quiet_build(docs, site / "fresh")
    assert _sha(out) == _sha(site / "fresh")
    assert cached.to_dict()["dialect"] == fresh.to_dict()["dialect"]
    assert_verified(out / "store.sqlite")


def test_an_unchanged_site_reuses_the_whole_cache(site):
    docs, out = site / "docs", site / "out"
    quiet_build(docs, out)
    first = _sha(out)
    cached, _ = quiet_build(docs, out, cache=out / "store.sqlite")
    assert cached.reuse == "whole" and _sha(out) == first
    assert cached.to_dict()["dialect"]["totals"] == {"resolved": 1, "converted": 1, "unresolved": 1}


def test_switching_to_plain_rebuilds_every_markdown_document(site):
    docs, out = site / "docs", site / "out"
    quiet_build(docs, out)
    cached, _ = quiet_build(docs, out, cache=out / "store.sqlite", flags={"dialect": "plain"})
    fresh, _ = quiet_build(docs, site / "fresh", flags={"dialect": "plain"})
    assert cached.parsed_documents == 3
    assert _sha(out) == _sha(site / "fresh")
    assert _meta(out / "store.sqlite", READS_KEY) is None
    assert fresh.dialect_lines() == []


def test_plain_documents_keep_the_file_sha256(site):
    import hashlib

    quiet_build(site / "docs", site / "out", flags={"dialect": "plain"})
    want = hashlib.sha256((site / "docs" / "other.md").read_bytes()).hexdigest()
    assert _rows(site / "out" / "store.sqlite")["other.md"] == want


def test_ingest_rebuilds_exactly_the_documents_whose_dependency_changed(site):
    docs, store = site / "docs", site / "store.sqlite"
    env = clean_env()
    first = ingest(docs, store, environ=env)
    assert first.changed == 3 and first.dialect["name"] == "mkdocs"
    again = ingest(docs, store, environ=env)
    assert (again.changed, again.unchanged, again.wrote) == (0, 3, False)
    assert again.dialect == first.dialect  # unchanged documents report their last reading
    (site / "snippets" / "hello.py").write_text("print('changed')\n")
    edited = ingest(docs, store, environ=env)
    assert (edited.changed, edited.unchanged) == (1, 2)
    (site / "snippets" / "later.py").write_text("print('now here')\n")
    created = ingest(docs, store, environ=env)
    assert (created.changed, created.unchanged) == (1, 2)
    assert created.dialect["totals"]["unresolved"] == 0
    reads = json.loads(_meta(store, READS_KEY))
    assert reads["missing.md"]["deps"][-1][1] != "missing"
    (docs / "missing.md").unlink()
    removed = ingest(docs, store, environ=env)
    assert removed.deleted == 1 and "missing.md" not in json.loads(_meta(store, READS_KEY))


def test_ingest_as_plain_drops_the_reads(site):
    docs, store = site / "docs", site / "store.sqlite"
    env = clean_env()
    ingest(docs, store, environ=env)
    report = ingest(docs, store, environ=env, dialect="plain")
    assert report.changed == 3
    assert _meta(store, READS_KEY) is None


def test_the_construct_report_as_text_and_json(site, file_regression, data_regression):
    (site / "docs" / "more.md").write_text(
        "# More\n\n" + "\n\n".join(f"INCLUDE(../snippets/gone{i}.py)" for i in range(7)) + "\n"
    )
    report, _ = quiet_build(site / "docs", site / "out")
    file_regression.check("\n".join(report.dialect_lines()) + "\n", extension=".txt")
    data_regression.check(report.to_dict()["dialect"])
