"""Expected outputs as pytest-regressions fixtures (issue 21).

What users see and check in is pinned here, byte for byte: the golden index text and section id
list of the test corpora, ``tools.json``, the MCP instructions a host receives, and the drift
report a pull request shows. A change to any of them fails here with a diff; when the change is
intended, ``pytest tests/test_regressions.py --force-regen`` rewrites the fixture and the commit
shows the new text for review. The fixtures live in ``tests/test_regressions/``.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from artifact_helpers import clean_env, drifted_pair, quiet_build
from contextpull.checks import golden
from contextpull.cli import cli
from contextpull.serving.mcp_instructions import build_instructions
from contextpull.tools import TOOLS, tools_json

ROOT = Path(__file__).resolve().parent.parent
UV_DOCS = ROOT.parent / "shared" / "corpora" / "uv-docs"

CORPORA = {
    "conformance": ROOT / "conformance" / "corpus",
    "uv_docs": UV_DOCS,
    "large": None,  # benchmarks/large_corpus.py: past 1,000 documents and sections (issue 28)
}


def _large_corpus(tmp_path_factory) -> Path:
    spec = importlib.util.spec_from_file_location("large_corpus", ROOT / "benchmarks" / "large_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.write(tmp_path_factory.mktemp("large-corpus"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each corpus built once for the module: name -> store path."""
    stores = {}
    for name, corpus in CORPORA.items():
        if corpus is None:
            corpus = _large_corpus(tmp_path_factory)
        elif corpus.is_dir():
            # A copy outside any git work tree: the fixtures pin what the documents make, not the
            # commit a checkout happens to be at (provenance, docs/artifacts.md).
            corpus = Path(shutil.copytree(corpus, tmp_path_factory.mktemp(f"{name}-docs") / "docs"))
        if corpus.is_dir():
            out = tmp_path_factory.mktemp(name)
            quiet_build(corpus, out)
            stores[name] = out / "store.sqlite"
    return stores


def _store(built, name) -> Path:
    if name not in built:
        pytest.skip(f"{CORPORA[name]} is not here (it is beside the repository in CI)")
    return built[name]


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_index_text(built, name, file_regression):
    with sqlite3.connect(_store(built, name)) as conn:
        file_regression.check(golden.index_text(conn), basename=f"index_{name}", extension=".txt")


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_section_ids(built, name, file_regression):
    with sqlite3.connect(_store(built, name)) as conn:
        file_regression.check(golden.ids_text(conn), basename=f"ids_{name}", extension=".txt")


def test_large_corpus_counts_are_plain_numbers_everywhere_in_the_index(built, file_regression):
    """The published writer prints 2067, not 2,067: the header, a directory line and an
    ``index(prefix)`` header all count past 1,000 here, and each is pinned."""
    from contextpull import Ops, Store

    with Store.open(_store(built, "large")) as store:
        ops = Ops(store)
        text = ops.index()
        listing = ops.index("area-00/")
        meta = {k: v for k, v in store.conn.execute("SELECT key, value FROM meta")}
        instructions = build_instructions(store.conn, meta)
    assert "," not in text.splitlines()[0] and " 1100 documents · " in text.splitlines()[0]
    assert " 550 documents · " in listing.splitlines()[0]
    file_regression.check(
        "\n\n".join([listing.splitlines()[0], instructions]) + "\n", basename="large_listing", extension=".txt"
    )


def test_mcp_instructions(built, file_regression):
    with sqlite3.connect(_store(built, "conformance")) as conn:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        file_regression.check(build_instructions(conn, meta) + "\n", extension=".txt")


def test_tools_json(file_regression):
    """The checked-in tools.json is the one definition rendered, and both are pinned here."""
    rendered = tools_json()
    assert (ROOT / "tools.json").read_text(encoding="utf-8") == rendered
    assert json.loads(rendered)["tools"] == TOOLS
    file_regression.check(rendered, extension=".json")


def test_drift_report_markdown(tmp_path, file_regression):
    old, new = drifted_pair(tmp_path)
    result = CliRunner().invoke(cli, ["diff", str(old), str(new), "--format", "markdown"], env=clean_env())
    assert result.exit_code == 0, result.output
    file_regression.check(result.stdout.replace(str(tmp_path), "<tmp>"), extension=".md")
