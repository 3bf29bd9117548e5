"""The job summary names the files that are not pages (issue 26, "the Action's job summary shows
what an agent gets"): folded, each with its reason, capped like the summary's other long lists,
and absent from a summary whose build has none."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from builder_reports import REPORT

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

import step_summary  # noqa: E402


def with_not_pages(count: int) -> dict:
    report = copy.deepcopy(REPORT)
    reasons = ["mkdocs.yml exclude_docs: drafts/", "README.md beside index.md: mkdocs builds the folder's page from index.md",
               "mkdocs.yml draft_docs: wip-*.md (shown by mkdocs serve only, never built)"]
    report["dialect"] = {
        "name": "mkdocs",
        "config_file": "mkdocs.yml",
        "constructs": {"admonition": {"resolved": 0, "converted": 3, "unresolved": 0}},
        "totals": {"resolved": 0, "converted": 3, "unresolved": 0},
        "unresolved": [],
        "not_pages": [{"path": f"drafts/page|{i}.md", "reason": reasons[i % 3]} for i in range(count)],
    }
    return report


def test_the_summary_lists_the_files_that_are_not_pages_with_their_reasons(file_regression):
    file_regression.check(step_summary.render(with_not_pages(4), "docs"), extension=".md")


def test_a_long_list_of_not_pages_is_cut_and_counted(monkeypatch):
    monkeypatch.setattr(step_summary, "MAX_LISTED", 2)
    text = step_summary.render(with_not_pages(5), "docs")
    assert "### Files that are not pages (5)" in text
    assert "| `docs/drafts/page\\|1.md` | README.md beside index.md: mkdocs builds the folder's page from index.md |" in text
    assert "page\\|2.md" not in text
    assert "| ... | and 3 more |" in text
    assert "; 5 files not pages |" in text


def test_a_summary_without_not_pages_is_what_it_was():
    none = with_not_pages(0)
    del none["dialect"]["not_pages"]
    assert step_summary.render(with_not_pages(0), "docs") == step_summary.render(none, "docs")
    assert "not pages" not in step_summary.render(none, "docs")
