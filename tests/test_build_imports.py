"""A build imports what its site needs: PyYAML only for a site with YAML, the store diff only for a
content-loss guard, the API reference's modules only when it reads one. Each took 11-12 ms of a
build's start (``benchmarks/README.md``, "Reading pipeline"), a few percent of an mdBook's or a
Sphinx project's whole build."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, runpy, sys
sys.argv = ["contextpull", "build", *sys.argv[1:]]
try:
    runpy.run_module("contextpull", run_name="__main__")
except SystemExit as exc:
    assert not exc.code, exc.code
watched = ("yaml", "contextpull.checks.diff", "contextpull.apiref.render")
print(json.dumps(sorted(m for m in watched if m in sys.modules)))
"""


def _loaded(*args: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _repository(root):
    """``root`` made a repository's root, where a generator's configuration is looked for."""
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("")
    return root


def _book(root):
    _repository(root)
    (root / "src").mkdir()
    (root / "book.toml").write_text('[book]\ntitle = "B"\n')
    (root / "src" / "SUMMARY.md").write_text("# Summary\n\n- [One](one.md)\n")
    (root / "src" / "one.md").write_text("# One\n\nText.\n")
    return root / "src"


def _hugo(root, page):
    _repository(root)
    (root / "hugo.toml").write_text('title = "H"\n')
    (root / "content").mkdir()
    (root / "content" / "one.md").write_text(page)
    return root / "content"


def test_a_site_without_yaml_builds_without_pyyaml_or_the_diff(tmp_path):
    assert _loaded(str(_book(tmp_path / "book")), "--out", str(tmp_path / "out")) == []
    docs = _hugo(tmp_path / "hugo", '+++\ntitle = "One"\n+++\n\n# One\n')
    assert _loaded(str(docs), "--out", str(tmp_path / "out2")) == []


@pytest.mark.parametrize("page", ["---\ntitle: One\ndate: 2024-01-02\n---\n\n# One\n", "---\nk: [a, {b: c}]\n---\n\n# One\n"])
def test_yaml_front_matter_imports_pyyaml(tmp_path, page):
    docs = _hugo(tmp_path, page)
    assert _loaded(str(docs), "--out", str(tmp_path / "out")) == ["yaml"]


def test_a_guard_imports_the_diff(tmp_path):
    docs = _book(tmp_path / "book")
    out = tmp_path / "out"
    _loaded(str(docs), "--out", str(out))
    loaded = _loaded(str(docs), "--out", str(out), "--cache", str(out / "store.sqlite"), "--max-removed", "50%")
    assert loaded == ["contextpull.checks.diff"]


def test_an_api_line_imports_the_api_reference_only_when_it_is_read(tmp_path):
    _repository(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: S\nplugins:\n  - mkdocstrings\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text('def f():\n    """Do f."""\n')
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "api.md").write_text("# API\n\n::: pkg.f\n")
    docs = str(tmp_path / "docs")
    assert _loaded(docs, "--out", str(tmp_path / "off"), "--no-api-reference") == ["yaml"]
    assert _loaded(docs, "--out", str(tmp_path / "on"), "--api-reference") == ["contextpull.apiref.render", "yaml"]
