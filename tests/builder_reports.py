"""Build reports for the builder tests, in the shape ``contextpull build --json`` writes
(notes/common.md, "Build report"): one clean report, drift variants and a model-summary one.
Shared here so no test module imports another."""

from __future__ import annotations

import copy

REPORT = {
    "exit_code": 0,
    "paths": {"store": "out/store.sqlite", "manifest": "out/manifest.json", "sha256": "out/store.sqlite.sha256"},
    "manifest": {
        "format_version": 1,
        "builder": {"name": "contextpull", "version": "9.9.9", "python": "3.11.7", "sqlite": "3.40.1"},
        "schema_version": "1.0",
        "store": {"file": "store.sqlite", "bytes": 4096, "sha256": "ab" * 32},
        "fingerprints": {"corpus": "c0" * 8, "content": "cd" * 32, "file": "ab" * 32},
        "counts": {"documents": 3, "sections": 11, "skipped": 1},
        "index": {"mode": "flat", "tokens": 321, "budget": 3000},
        "settings": {"section_max_chars": 2000},
        "skipped": [{"path": "sub/bad,name.md", "reason": "not valid text:\nbinary"}],
        "source": {"commit": None},
        "build_time": None,
    },
    "golden": {"status": "match", "dir": "golden", "ids_added": [], "ids_removed": [], "ids_changed": [],
               "index_diff": ""},
    "timings": {"total_s": 0.1},
}


def drift_report(added=0, removed=0, changed=0) -> dict:
    report = copy.deepcopy(REPORT)
    report["exit_code"] = 1
    report["golden"] = {
        "status": "drift",
        "dir": "golden",
        "ids_added": [f"new/doc{i}.md#0" for i in range(added)],
        "ids_removed": [f"guide.md#{i}" for i in range(removed)],
        "ids_changed": [f"ref/api.md#{i}" for i in range(changed)],
        "index_diff": "--- golden/index.txt\n+++ built\n-old line\n+new line\n",
    }
    return report


def summarized_report(failed: int = 0) -> dict:
    """A clean build that used a model summarizer, ``failed`` documents kept the offline summary
    (the report's ``summaries`` object, contextpull/ingest/summaries.py)."""
    report = copy.deepcopy(REPORT)
    report["manifest"]["settings"]["summarizer"] = "openai:gpt-test"
    report["summaries"] = {
        "summarizer": "openai:gpt-test",
        "generated": 2 - min(failed, 2),
        "cached": 1,
        "offline": failed,
        "failed": [{"path": f"guide/part,{n}.md", "reason": "HTTP 502 after 2 attempts"} for n in range(failed)],
        "requests": 2 + failed,
        "retries": failed,
        "tokens_in": 80,
        "tokens_out": 16,
    }
    return report
