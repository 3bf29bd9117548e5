"""The construct report in the Action (issue 26): the job summary's dialect row and tables, and
an annotation on the file and line of every unresolved construct, capped like the others."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from builder_reports import REPORT

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

import file_annotations  # noqa: E402
import step_summary  # noqa: E402


def with_dialect(unresolved: int) -> dict:
    report = copy.deepcopy(REPORT)
    report["dialect"] = {
        "name": "mdbook",
        "config_file": "book.toml",
        "constructs": {"mdbook include": {"resolved": 7, "converted": 0, "unresolved": unresolved}},
        "totals": {"resolved": 7, "converted": 0, "unresolved": unresolved},
        "unresolved": [
            {"path": f"ch{i}.md", "line": i + 1, "construct": "mdbook include", "detail": f"target missing: l{i}.rs"}
            for i in range(unresolved)
        ],
    }
    return report


def test_the_summary_says_the_dialect_and_lists_each_unresolved_construct():
    text = step_summary.render(with_dialect(2), "src")
    assert "| Dialect | mdbook (from book.toml): 7 resolved, 0 converted, 2 unresolved |" in text
    assert "| mdbook include | 7 | 0 | 2 |" in text
    assert "| `src/ch1.md:2` | mdbook include | target missing: l1.rs |" in text


def test_a_plain_build_summary_is_what_it_was():
    plain = copy.deepcopy(REPORT)
    plain["dialect"] = {"name": "plain", "config_file": None, "constructs": {},
                        "totals": {"resolved": 0, "converted": 0, "unresolved": 0}, "unresolved": []}
    assert step_summary.render(plain, "docs") == step_summary.render(REPORT, "docs")
    assert file_annotations.build_annotations(plain, "docs", strict=False) == file_annotations.build_annotations(
        REPORT, "docs", strict=False)


def test_each_unresolved_construct_is_annotated_on_its_line_and_the_rest_counted():
    lines = file_annotations.build_annotations(with_dialect(12), "src", strict=False)
    on_files = [line for line in lines if "ContextPull left markup unresolved" in line]
    assert len(on_files) == file_annotations.MAX_PER_KIND
    assert on_files[0] == (
        "::warning file=src/ch0.md,line=1,title=ContextPull left markup unresolved::"
        "mdbook include not resolved: target missing: l0.rs"
    )
    assert "2 more unresolved constructs" in lines[-1]
