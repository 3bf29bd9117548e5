"""Index text formats and the budget (system-design.txt section 4, supplement.md)."""

from __future__ import annotations

import pytest

from contextpull.writing.index_text import (
    build_index,
    directory_groups,
    document_line,
    estimate_tokens,
    header_line,
    truncate,
)

FP = "0123456789abcdef"


def docs(n: int, dirs: int = 1) -> list[tuple[str, str, str | None, int]]:
    rows = []
    for i in range(n):
        folder = f"dir{i % dirs:02d}"
        rows.append(
            (f"{folder}/doc{i:04d}.md", f"Title {i}", f"Title {i} · a summary sentence for {i}.", 3)
        )
    return sorted(rows)


def test_flat_layout_matches_the_spec_columns():
    rows = [("a.md", "A", "A · short.", 2), ("guides/very/long/path/name/here.md", "T", None, 7)]
    text, mode, tokens = build_index(rows, 9, 3000, FP)
    lines = text.split("\n")
    assert mode == "flat"
    assert lines[0] == (
        "ContextPull index · 2 documents · 9 sections · corpus 01234567 · summaries: offline"
    )
    assert lines[1].startswith("Call search(query, in?)")
    assert lines[2].startswith("Search returns ids and snippets only")
    assert lines[3] == ""
    assert lines[4] == "a.md" + " " * 26 + "  A · short.  (2)"
    # a path longer than the column still gets two spaces; the title stands in for no summary
    assert lines[5] == "guides/very/long/path/name/here.md  T  (7)"
    assert not text.endswith("\n")
    assert tokens == estimate_tokens(text) == -(-len(text) // 4)


def test_summary_is_truncated_to_sixty_characters_with_an_ellipsis():
    line = document_line("x.md", "T", "word " * 30, 1)
    label = line[32:].rsplit("  (", 1)[0]
    assert len(label) <= 60
    assert label.endswith("…")
    assert truncate("abc", 60) == "abc"


def test_header_counts_are_plain_numbers_as_the_published_writer_prints_them():
    assert "· 1017 sections ·" in header_line(81, 1017, FP)
    assert "· 12345 documents ·" in header_line(12345, 1, FP)


@pytest.mark.parametrize("budget", [3000, 1500, 800, 400, 200, 120, 80, 50])
def test_budget_is_always_honoured(budget):
    text, mode, tokens = build_index(docs(300, dirs=40), 900, budget, FP)
    assert tokens <= budget
    assert estimate_tokens(text) == tokens
    assert text.startswith("ContextPull index")


def test_modes_step_down_as_the_budget_shrinks():
    rows = docs(60, dirs=3)
    flat, mode_flat, t_flat = build_index(rows, 180, 100_000, FP)
    assert mode_flat == "flat"
    compact, mode_compact, t_compact = build_index(rows, 180, t_flat - 1, FP)
    assert mode_compact == "compact"
    assert "compact; call index(prefix) for summaries" in compact.split("\n")[0]
    assert "dir00/doc0000.md" + " " * 14 + "  (3)" in compact.split("\n")
    assert "summary sentence" not in compact
    hier, mode_hier, _ = build_index(rows, 180, t_compact - 1, FP)
    assert mode_hier == "hierarchical"
    assert "hierarchical; call index(prefix) to expand a directory" in hier.split("\n")[0]
    dir_lines = [line for line in hier.split("\n") if line.startswith("dir")]
    assert [line.split()[0] for line in dir_lines] == ["dir00/", "dir01/", "dir02/"]
    assert "20 docs · 60 sections" in dir_lines[0]
    assert dir_lines[0].endswith("+17 more")


def test_hierarchical_leaves_out_directories_with_a_final_line():
    rows = docs(400, dirs=40)
    text, mode, tokens = build_index(rows, 1200, 250, FP)
    assert mode == "hierarchical"
    assert tokens <= 250
    last = text.split("\n")[-1]
    assert last.startswith("… and ") and "more directories" in last
    kept = [line for line in text.split("\n") if line.startswith("dir")]
    left = int(last.split()[2])
    assert len(kept) + left == 40
    # kept lines are the first directories in path order
    assert [line.split()[0] for line in kept] == [f"dir{i:02d}/" for i in range(len(kept))]


def test_root_files_are_grouped_as_root_in_first_appearance_order():
    rows = [("a/x.md", "X", None, 1), ("b.md", "B", None, 2), ("c/y.md", "Y", None, 3)]
    assert [key for key, _ in directory_groups(rows)] == ["a/", "(root)", "c/"]
    text, mode, _ = build_index(rows * 40, 240, 170, FP)
    assert mode == "hierarchical"
    body = text.split("\n")[4:]
    assert [line.split()[0] for line in body] == ["a/", "(root)", "c/"]


def test_same_input_same_text():
    rows = docs(50, dirs=5)
    assert build_index(rows, 150, 700, FP) == build_index(list(reversed(rows)), 150, 700, FP)
