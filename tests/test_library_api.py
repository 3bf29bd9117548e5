"""The library's public names (docs/library.md; issue 23): each one's documented behaviour."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from read_store import make_store

import contextpull
from contextpull.errors import CheckFailed, ConfigError, StoreError, ToolError


@pytest.fixture
def store_path(tmp_path) -> Path:
    return make_store(tmp_path / "store.sqlite")


DOCS = {
    "guide.md": "# Guide\n\n## Install\n\n" + "Install the tool with pip and check the version. " * 30
    + "\n\n## Errors\n\nError TX-4419 means the card was declined; do not retry it.\n",
    "notes.txt": "Release notes: version 3.12 adds --no-cache and GATEWAY_TIMEOUT_MS.\n",
}


# -- reader core ------------------------------------------------------------------------------
def test_store_open_readonly_true_is_the_default(store_path):
    from contextpull.store import Store

    with Store.open(store_path, readonly=True) as store:
        assert store.meta_get("schema_version") == store.schema_version


@pytest.mark.parametrize("value", [False, 0, None, "yes"])
def test_store_open_readonly_false_refuses_before_touching_the_file(store_path, value):
    from contextpull.store import Store

    before = (store_path.read_bytes(), store_path.stat().st_mtime_ns)
    with pytest.raises(StoreError) as err:
        Store.open(store_path, readonly=value)
    assert "never writes" in err.value.message and "contextpull.ingest.ingest" in err.value.suggestion
    assert (store_path.read_bytes(), store_path.stat().st_mtime_ns) == before
    assert not Path(str(store_path) + "-journal").exists()


def test_meta_get_returns_text_or_none(store_path):
    from contextpull.store import Store

    with Store.open(store_path) as store:
        assert store.meta_get("index_mode") == store.index_mode
        assert store.meta_get("corpus_fingerprint") == store.corpus_fingerprint
        assert store.meta_get("no such key") is None


def test_store_module_exports_schema_version_and_store_error():
    import contextpull.schema
    import contextpull.store

    assert contextpull.store.SCHEMA_VERSION == contextpull.schema.SCHEMA_VERSION
    assert contextpull.store.StoreError is StoreError


def test_ops_error_is_the_tool_error(store_path):
    from contextpull.ops import Ops, OpsError
    from contextpull.store import Store

    assert OpsError is ToolError is contextpull.OpsError
    with Store.open(store_path) as store, pytest.raises(OpsError) as err:
        Ops(store).read("nope.md#9")
    assert "no section" in err.value.message and err.value.exit_code == 4


def test_unknown_tool_is_a_tool_error_and_a_key_error(store_path):
    from contextpull.ops import Ops
    from contextpull.store import Store
    from contextpull.tools import call

    with Store.open(store_path) as store:
        with pytest.raises(KeyError):
            call(Ops(store), "delete", {})
        with pytest.raises(ToolError) as err:
            call(Ops(store), "delete", {})
    assert str(err.value) == "unknown tool 'delete'" and "index, search" in err.value.suggestion


# The rule of store-format.txt "Tokenisation", written out again from the spec's words.
def _spec_tokens(text: str) -> list[str]:
    normalised = re.sub(r"[\w.\-]+", lambda m: m.group(0).strip("-_."), text.lower())
    return [t.strip("._-") for t in re.findall(r"[^\W_][\w.\-]*", normalised) if t.strip("._-")]


SAMPLES = [
    "Set GATEWAY_TIMEOUT_MS or pass --no-cache; error TX-4419 on 3.12.",
    "See tool.uv.sources, e.g. TX-4419... and __init__ or -p.",
    "a_b-c.d --x-- ..y.. _z_ 42 v2.0-rc1 UPPER lower",
    "Ünïcödé café naïve straße",
    "",
    "--- ... ___",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_tokenize_follows_the_spec_rule(text):
    from contextpull.ops import tokenize

    assert tokenize(text) == _spec_tokens(text)


def _indexed_terms(text: str) -> list[str]:
    from contextpull.ops import normalize_for_fts
    from contextpull.schema import FTS_TOKENIZE

    conn = sqlite3.connect(":memory:")
    conn.execute(f'CREATE VIRTUAL TABLE t USING fts5(x, tokenize = "{FTS_TOKENIZE}")')
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    conn.execute("INSERT INTO t VALUES (?)", (normalize_for_fts(text),))
    return [row[0] for row in conn.execute("SELECT term FROM v ORDER BY offset")]


def _is_word(term: str) -> bool:
    return term[:1].isalnum()


@pytest.mark.parametrize("text", [s for s in SAMPLES if s.isascii()])
def test_tokenize_gives_the_word_terms_fts5_indexes(text):
    """On ASCII text the query rule and the FTS5 tokenizer over the normalised column agree on
    every word; runs made only of ``-``, ``_`` and ``.`` are indexed as the published writer
    indexes them, and no query token can match them (docs/agreement.md)."""
    from contextpull.ops import tokenize

    indexed = _indexed_terms(text)
    assert tokenize(text) == [term for term in indexed if _is_word(term)]


def test_punctuation_only_runs_are_indexed_but_never_queried():
    from contextpull.ops import tokenize

    assert _indexed_terms("--- ... ___") == ["---", "...", "_"]
    assert tokenize("--- ... ___") == []


def test_tokenize_keeps_identifiers():
    from contextpull.ops import tokenize

    assert tokenize("Set GATEWAY_TIMEOUT_MS or pass --no-cache; error TX-4419 on 3.12.") == [
        "set", "gateway_timeout_ms", "or", "pass", "no-cache", "error", "tx-4419", "on", "3.12"]


# -- import boundaries --------------------------------------------------------------------------
def _loaded(code: str) -> list[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def _under(loaded: list[str], *prefixes: str) -> list[str]:
    return [m for m in loaded if any(m == p or m.startswith(p + ".") for p in prefixes)]


def test_importing_the_entry_points_loads_no_pipeline():
    loaded = _loaded(
        "from contextpull.ingest import ingest\n"
        "from contextpull.artifact import build\n"
        "import contextpull.checks\n"
    )
    assert _under(loaded, "contextpull.parsing", "contextpull.writing", "contextpull.ingest.engine",
                  "contextpull.artifact.run", "contextpull.checks.verify", "click", "mcp") == []


def test_the_reader_core_does_not_load_the_server():
    loaded = _loaded("import contextpull, contextpull.store, contextpull.ops, contextpull.tools")
    assert _under(loaded, "contextpull.server", "contextpull.serving.mcp_server", "mcp") == []


# -- write side -------------------------------------------------------------------------------
def _ids(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT id FROM sections ORDER BY id")]


def test_ingest_takes_settings_as_keywords(make_corpus, tmp_path, monkeypatch):
    from contextpull.ingest import IngestReport, ingest

    monkeypatch.delenv("CONTEXTPULL_SECTION_MAX_CHARS", raising=False)
    docs = make_corpus(DOCS)
    seen: list[str] = []
    report = ingest(docs, tmp_path / "small.sqlite", section_max_chars=300, progress=seen.append)
    assert isinstance(report, IngestReport) and report.changed == 2
    assert seen == ["guide.md", "notes.txt"]
    ingest(docs, tmp_path / "default.sqlite")
    ingest(docs, tmp_path / "published.sqlite", max_chars=300)  # 0.2.1's name of the same setting
    assert _ids(tmp_path / "small.sqlite") == _ids(tmp_path / "published.sqlite")
    assert len(_ids(tmp_path / "small.sqlite")) > len(_ids(tmp_path / "default.sqlite"))


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"section_max_char": 300}, "ingest() got an unknown keyword 'section_max_char'"),
        ({"max_chars": 300, "section_max_chars": 300}, "ingest() got 'section_max_chars' twice"),
        ({"section_max_chars": 5}, "section_max_chars must be between 100 and 1000000, got 5 (from keyword argument section_max_chars)"),
        ({"embed_model": "x"}, "embed_model must be provider:model, got 'x' (from keyword argument embed_model)"),
        ({"embed_fn": lambda model, texts: []}, "ingest() keyword 'embed_fn' needs embed_model"),
        ({"embed_fn": "fn", "embed_model": "fake:m"}, "ingest() keyword 'embed_fn' must be a function, got str"),
        ({"summarizer": "mistral:x"}, "summarizer: unknown provider 'mistral' in 'mistral:x' (from keyword argument summarizer)"),
    ],
)
def test_ingest_refuses_a_bad_keyword_before_writing(make_corpus, tmp_path, keywords, message):
    from contextpull.ingest import ingest

    docs = make_corpus(DOCS)
    with pytest.raises(ConfigError) as err:
        ingest(docs, tmp_path / "s.sqlite", **keywords)
    assert err.value.message.startswith(message)
    assert not (tmp_path / "s.sqlite").exists()


def _bag_of_words(model, texts):
    """A deterministic stand-in model: one component per word hash, as a caller might bring."""
    import hashlib

    out = []
    for text in texts:
        vector = [0.0] * 16
        for word in text.lower().split():
            vector[hashlib.sha256(word.encode()).digest()[0] % 16] += 1.0
        out.append(vector if any(vector) else [1.0] + [0.0] * 15)
    return out


def test_ingest_embeds_with_the_callers_function_and_hybrid_reads_it(make_corpus, tmp_path):
    from contextpull import Ops, Store
    from contextpull.ingest import ingest

    docs = make_corpus(DOCS)
    report = ingest(docs, tmp_path / "s.sqlite", embed_model="bag:16", embed_fn=_bag_of_words)
    with Store.open(tmp_path / "s.sqlite") as store:
        documents, sections = store.counts()
        assert (documents, report.embedded) == (len(DOCS), sections)
        assert [tuple(r) for r in store.conn.execute("SELECT DISTINCT model, dim FROM embeddings")] == [("bag:16", 16)]
        result = Ops(store, embed_fn=_bag_of_words).search("declined card", mode="hybrid")
        assert result.mode == "hybrid" and result.hint is None and result.hits
    again = ingest(docs, tmp_path / "s.sqlite", embed_model="bag:16", embed_fn=_bag_of_words)
    assert again.embedded == 0  # nothing changed: every vector kept


def test_build_embeds_with_the_callers_function_and_a_cached_rebuild_embeds_nothing(make_corpus, tmp_path):
    from contextpull import Store
    from contextpull.artifact import build

    docs = make_corpus(DOCS)
    calls = []

    def embed_fn(model, texts):
        calls.append(len(texts))
        return _bag_of_words(model, texts)

    first = build(docs, tmp_path / "out1", embed_model="bag:16", embed_fn=embed_fn, warn=lambda line: None)
    with Store.open(tmp_path / "out1" / "store.sqlite") as store:
        sections = store.counts()[1]
        assert [tuple(r) for r in store.conn.execute("SELECT DISTINCT model, dim FROM embeddings")] == [("bag:16", 16)]
    assert first.embeddings["embedded"] == sections == sum(calls)
    assert first.manifest["settings"]["embed_model"] == "bag:16"
    calls.clear()
    again = build(docs, tmp_path / "out2", cache=tmp_path / "out1" / "store.sqlite", embed_model="bag:16",
                  embed_fn=embed_fn, warn=lambda line: None)
    assert again.embeddings == {"model": "bag:16", "embedded": 0, "kept": sections} and calls == []
    with pytest.raises(ConfigError, match=r"^build\(\) keyword 'embed_fn' needs embed_model"):
        build(docs, tmp_path / "out3", embed_fn=embed_fn)


def test_build_and_checks_entry_points(make_corpus, tmp_path):
    from contextpull.artifact import BuildReport, build
    from contextpull.checks import GoldenResult, check_golden, diff_stores, verify_store

    docs = make_corpus(DOCS)
    report = build(docs, tmp_path / "out", section_max_chars=300, golden=tmp_path / "g", update_golden=True,
                   warn=lambda line: None)
    assert isinstance(report, BuildReport) and report.manifest["settings"]["section_max_chars"] == 300
    store = tmp_path / "out" / "store.sqlite"
    assert verify_store(store).documents == 2
    result = check_golden(store, tmp_path / "g")
    assert isinstance(result, GoldenResult) and result.status == "match"
    with sqlite3.connect(store) as conn:
        assert check_golden(conn, tmp_path / "g").status == "match"  # a connection works too
    build(docs, tmp_path / "out2", warn=lambda line: None)
    drift = diff_stores(store, tmp_path / "out2" / "store.sqlite")
    assert drift.ids_removed and not drift.docs_changed
    assert check_golden(tmp_path / "out2" / "store.sqlite", tmp_path / "g").status == "drift"
    with pytest.raises(ConfigError, match="build\\(\\) got an unknown keyword 'golden_dir'"):
        build(docs, tmp_path / "out3", golden_dir=tmp_path / "g")
    (tmp_path / "out" / "store.sqlite.sha256").write_text("0" * 64 + "  store.sqlite\n")
    with pytest.raises(CheckFailed):
        verify_store(store)


def test_check_golden_on_a_path_that_is_not_a_store(tmp_path):
    from contextpull.checks import check_golden

    (tmp_path / "not.sqlite").write_text("hello")
    with pytest.raises(StoreError):
        check_golden(tmp_path / "not.sqlite", tmp_path)


# -- surfaces ---------------------------------------------------------------------------------
def test_build_server_takes_a_store_or_a_path(store_path, tmp_path):
    pytest.importorskip("mcp")
    from contextpull.server import INDEX_URI, build_server
    from contextpull.store import Store

    assert INDEX_URI == "contextpull://index"
    with Store.open(store_path) as store:
        server, init = build_server(store)
    assert init.server_name == "contextpull" and server.name == "contextpull"
    server, _ = build_server(str(store_path), log=True)
    (tmp_path / "not.sqlite").write_text("hello")
    with pytest.raises(StoreError):
        build_server(tmp_path / "not.sqlite")


def test_cli_main_returns_the_exit_code(store_path, capsys):
    from contextpull.cli import main

    assert main(["search", "TX-4419", "--store", str(store_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hits"][0]["id"].startswith("errors.md#")
    assert main(["read", "nope.md#9", "--store", str(store_path)]) == 4
    assert main(["search", "x", "--store", str(store_path) + ".missing"]) == 3
    assert main(["no-such-command"]) == 2


def test_python_m_contextpull_cli_runs_the_command():
    proc = subprocess.run([sys.executable, "-m", "contextpull.cli", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == f"contextpull {contextpull.__version__}\n"


def test_results_compare_equal_to_lists_as_the_published_api_returns_them(make_corpus, tmp_path):
    """Issue 28: ``result.hits == []`` is how the published API's users write it."""
    from contextpull import Ops, Store
    from contextpull.ingest import ingest

    docs = make_corpus(DOCS)
    ingest(docs, tmp_path / "s.sqlite")
    with Store.open(tmp_path / "s.sqlite") as store:
        ops = Ops(store)
        empty = ops.search("zebra")
        assert empty.hits == [] and not empty.hits != []
        found = ops.search("declined card")
        assert found.hits == list(found.hits) and found.hits != []
        assert ops.grep("no such literal anywhere").matches == []
        assert {found, found} == {found}  # results stay hashable


def test_store_rows_read_by_column_name(make_corpus, tmp_path):
    from contextpull import Store
    from contextpull.ingest import ingest

    docs = make_corpus(DOCS)
    ingest(docs, tmp_path / "s.sqlite")
    with Store.open(tmp_path / "s.sqlite") as store:
        row = store.conn.execute("SELECT path, n_sections FROM documents ORDER BY path").fetchone()
        assert (row["path"], row["n_sections"]) == tuple(row)
        path, count = row  # unpacking reads as before
        assert path == row[0]
