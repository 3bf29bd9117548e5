"""The reader core imports the standard library only (issue 3, item 3; ADR 001)."""

from __future__ import annotations

import json
import subprocess
import sys

WRITE_SIDE = ("contextpull.parsing", "contextpull.writing", "contextpull.ingest", "contextpull.artifact", "contextpull.checks")
FORBIDDEN = ("click", "mcp", "pypdf", "jsonschema", "contextpull.cli", *WRITE_SIDE)


def test_reader_core_loads_no_optional_dependency():
    code = (
        "import json, sys\n"
        "import contextpull, contextpull.store, contextpull.ops, contextpull.tools, contextpull.results\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(proc.stdout)
    bad = [m for m in loaded if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
    assert bad == []
    assert "contextpull.ops" in loaded
