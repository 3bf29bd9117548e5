"""Benchmark scripts answer ``--help`` without running: some write gigabytes or run for minutes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_bad_input_costs_help_prints_its_docstring_and_measures_nothing():
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bad_input_costs.py"), "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "What hostile but valid inputs cost" in done.stdout and "sparse 8 GiB" in done.stdout
    assert "1. bare headings" not in done.stdout  # the first measurement's line


def test_mounts_bench_help_prints_its_docstring_and_builds_nothing(tmp_path):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "mounts_bench.py"), "--help", "--work", str(tmp_path / "w")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Several stores in one server" in done.stdout
    assert not (tmp_path / "w").exists()


def test_sphinx_refs_counts_the_refs_of_a_site_and_checks_its_cache_after_a_retitle():
    site = Path(__file__).resolve().parent / "sphinx_refs_site"
    done = subprocess.run([sys.executable, str(BENCHMARKS / "sphinx_refs.py"), str(site), "docs", "--edit",
                           "--repeats", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("label table: 3 files, 9 labels; the build's one scan ")
    assert lines[2:5] == [
        "myst ref: 1 resolved, 0 converted, 0 unresolved",
        "rst ref: 6 resolved, 1 converted, 3 unresolved",
        "resolved, where the label stands: another document 6, the same document 1",
    ]
    assert lines[5].startswith("unresolved, why: ")
    # soil-types is overlined, so the first underlined one is retitled; tools.md does not refer to it
    assert lines[6] == ("edit: retitled Watering   Schedule in docs/garden/soil.rst; build --cache read 2"
                        " documents again, reused 1; byte-identical to a fresh build: True")


def test_dialect_steps_times_each_step_of_a_tiny_book(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "book.toml").write_text('[book]\ntitle = "T"\n')
    src = tmp_path / "src"
    src.mkdir()
    (src / "SUMMARY.md").write_text("# Summary\n\n- [One](one.md)\n")
    (src / "one.md").write_text("## One\n\n{{#include two.rs}}\n")
    (src / "two.rs").write_text("fn main() {}\n")
    (src / "unlisted.md").write_text("# Not a chapter\n")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "dialect_steps.py"), str(src), "--passes", "2"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{src} (mdbook, 3 files;")
    steps = [line.split()[0] for line in lines[1:]]
    assert steps == ["imports", "page", "front", "mdx", "prepare", "parse", "rest", "dialect", "plain", "state"]
    assert " values kept; pickled " in lines[-1]


def test_dialect_steps_refuses_a_plain_site(tmp_path):
    (tmp_path / "a.md").write_text("# A\n")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "dialect_steps.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "the dialect is plain" in done.stderr


def test_real_docs_peer_names_an_unknown_repository_and_builds_nothing(tmp_path):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "real_docs_peer.py"), "--corpora", str(tmp_path),
                           "--peer", "true", "--only", "nosuch"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--only: no repository named nosuch" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_add_trigram_names_a_store_it_cannot_copy(tmp_path):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "add_trigram.py"), str(tmp_path / "none.sqlite"),
                           str(tmp_path / "copy.sqlite")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and f"cannot copy {tmp_path / 'none.sqlite'}" in done.stderr
    assert "Traceback" not in done.stderr


def test_format_scaling_builds_a_small_page_of_every_format_and_prints_a_row_each():
    done = subprocess.run([sys.executable, str(BENCHMARKS / "format_scaling.py"), "--sizes", "0.003"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.rsplit(None, 6) for line in done.stdout.splitlines()[1:]]
    sys.path.insert(0, str(BENCHMARKS))
    from format_scaling import FORMATS

    assert [r[0] for r in rows] == list(FORMATS)
    assert all(r[-1] == "0" for r in rows), done.stdout  # every build succeeded


def test_pattern_bounds_help_prints_its_docstring_and_measures_nothing():
    done = subprocess.run([sys.executable, str(BENCHMARKS / "pattern_bounds.py"), "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Every pattern a user's files or settings reach" in done.stdout
    assert "part 1" not in done.stdout


def test_before_after_prints_one_row_a_repository(tmp_path):
    """Two checkouts' builds side by side; here the same one twice, so every cell is one value."""
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / ".git").mkdir()
    (repo / "mkdocs.yml").write_text("site_name: Harbour\n")
    (repo / "docs" / "index.md").write_text("# Harbour\n\nSee [the tides][t].\n\n[t]: https://tides.example\n")
    cli = tmp_path / "cli"
    root = Path(__file__).resolve().parent.parent
    cli.write_text(f'#!/bin/sh\nPYTHONPATH={root} exec {sys.executable} -P -m contextpull.cli "$@"\n')
    cli.chmod(0o755)
    done = subprocess.run([sys.executable, str(BENCHMARKS / "before_after.py"), "--before", str(cli), "--after", str(cli),
                           "--repo", f"harbour={repo}:docs"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "| harbour (`docs`) | mkdocs | 1 | 1 | 0.0 % | 0 | 0 |"


def test_vector_context_gives_each_vector_its_pages_direction(tmp_path):
    """``vector_context.with_context``: a section's vector moves towards its own page's mean
    direction, never another page's, and comes back a unit vector; the store it read is untouched."""
    import sqlite3

    import numpy as np

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import vector_context
    finally:
        sys.path.remove(str(BENCHMARKS))
    store = tmp_path / "store.sqlite"
    conn = sqlite3.connect(store)
    conn.execute("CREATE TABLE sections (id TEXT PRIMARY KEY, doc_id INTEGER)")
    conn.execute("CREATE TABLE embeddings (section_id TEXT PRIMARY KEY, model TEXT, dim INTEGER, vec BLOB)")
    rows = {"a#0": (1, [1.0, 0.0, 0.0]), "a#1": (1, [0.0, 1.0, 0.0]), "b#0": (2, [0.0, 0.0, 1.0])}
    for sid, (doc, vec) in rows.items():
        conn.execute("INSERT INTO sections VALUES (?, ?)", (sid, doc))
        conn.execute("INSERT INTO embeddings VALUES (?, 'm', 3, ?)", (sid, np.array(vec, dtype="<f4").tobytes()))
    conn.commit()
    conn.close()
    before = store.read_bytes()
    copy = vector_context.with_context(store, 1.0, tmp_path / "copy.sqlite")
    assert store.read_bytes() == before
    got = {sid: np.frombuffer(vec, dtype="<f4") for sid, vec in sqlite3.connect(copy).execute("SELECT section_id, vec FROM embeddings")}
    page_a = np.array([1.0, 1.0, 0.0]) / np.sqrt(2)
    for sid in ("a#0", "a#1"):
        want = np.array(rows[sid][1]) + page_a
        assert np.allclose(got[sid], want / np.linalg.norm(want), atol=1e-6)
    assert np.allclose(got["b#0"], [0.0, 0.0, 1.0])  # alone on its page: its own direction


def test_read_costs_times_each_page_of_a_tiny_book_in_build_order(tmp_path):
    """``read_costs.py``: one line per serial build, each page timed once, the projection from
    the first pages against what the rest cost, and the costliest pages by name (``SUMMARY.md`` is
    the book's navigation, not a page)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "book.toml").write_text('[book]\ntitle = "T"\n')
    src = tmp_path / "src"
    src.mkdir()
    (src / "SUMMARY.md").write_text("# Summary\n\n- [One](one.md)\n- [Two](two.md)\n- [Three](three.md)\n")
    for name in ("one", "two", "three"):
        (src / f"{name}.md").write_text(f"# {name.title()}\n\nText of {name}.\n")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "read_costs.py"), str(src), "--runs", "2", "--first", "1",
                           "--top", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["run 1", "run 2"]
    assert all(": 3 pages, reading " in line and "after pages 0-1: projected " in line for line in lines[:2])
    assert len(lines) == 4 and all(line.endswith(".md") and " bytes " in line for line in lines[2:])


def test_read_costs_projects_the_mean_of_its_sample_over_the_pages_left():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from read_costs import projection
    finally:
        sys.path.remove(str(BENCHMARKS))
    assert projection([9.0, 1.0, 3.0, 2.0, 2.0], skip=1, first=2) == (4.0, 4.0)  # mean 2 x 2 pages left
    assert projection([1.0, 2.0], skip=0, first=2) is None
