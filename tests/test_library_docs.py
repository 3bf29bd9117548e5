"""Every example of docs/library.md runs, in order, against a copy of the conformance corpus.

The page is the embedding user's contract (ADR 003; issue 23): an example that stopped working
would be a broken promise, so each ``python`` block is executed here in one namespace, in a
scratch folder holding ``docs/``, as the page says.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "library.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


def _blocks() -> list[str]:
    return BLOCK.findall(PAGE.read_text(encoding="utf-8"))


def test_page_has_an_example_for_each_entry_point():
    code = "\n".join(_blocks())
    for call in ("ingest(", "build(", "verify_store(", "check_golden(", "diff_stores(", "Store.open(",
                 "build_server(", "tokenize(", "main(["):
        assert call in code, f"docs/library.md has no example calling {call}"


def test_every_example_runs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("mcp")
    shutil.copytree(ROOT / "conformance" / "corpus", tmp_path / "docs")
    monkeypatch.chdir(tmp_path)
    for name in [k for k in os.environ if k.startswith("CONTEXTPULL_")]:
        monkeypatch.delenv(name)
    namespace: dict = {"__name__": "library_docs"}
    blocks = _blocks()
    assert len(blocks) >= 10
    for number, block in enumerate(blocks, 1):
        try:
            exec(compile(block, f"docs/library.md example {number}", "exec"), namespace)
        except Exception as exc:  # name the example, not just the line inside it
            raise AssertionError(f"docs/library.md example {number} failed: {exc!r}\n{block}") from exc
    out = capsys.readouterr().out
    assert "ingest() got an unknown keyword 'section_max_char'" in out
    assert "no section 'nope.md#9' / search for it first" in out
    assert '"id": "guides/advanced/retries.md#0"' in out  # the grep over MCP, and main()'s --json
    assert (tmp_path / "out" / "store.sqlite").is_file() and (tmp_path / "golden" / "ids.txt").is_file()


def test_transport_signatures_match_the_page():
    """The transports have no runnable example (they serve until stopped), so the page's
    signatures are checked against the functions themselves."""
    pytest.importorskip("mcp")
    import inspect

    from contextpull.server import serve_http, serve_stdio

    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    for function in (serve_http, serve_stdio):
        params = []
        for p in inspect.signature(function).parameters.values():
            params.append(p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}")
        assert f"`{function.__name__}({', '.join(params)})`" in text
    assert inspect.iscoroutinefunction(serve_stdio) and "`serve_stdio(server)` is a coroutine" in text
    assert "contextpull.serving.listen.listen(host, port)" in text
