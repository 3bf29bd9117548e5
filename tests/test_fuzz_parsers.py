"""A few seconds of benchmarks/fuzz_parsers.py as a property test: every parser entry point
returns or refuses with ParseError on generated and damaged input (issue 22). The minutes-long
run and its figures are in benchmarks/README.md."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_parsers.py"


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("fuzz_parsers", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_every_target_is_fuzzed_without_a_crash(fuzz):
    tallies = fuzz.run(seconds=len(fuzz.TARGETS) * 0.6, batch=10)
    assert set(tallies) == {"markdown", "text", "docx", "xlsx", "pptx", "pdf", "safezip", "xml", "section", "discover"}
    crashes = {name: t.first for name, t in tallies.items() if t.crashes}
    assert crashes == {}
    assert all(t.examples > 0 for t in tallies.values())


def test_a_crash_is_counted_and_shown_not_raised(fuzz, monkeypatch):
    strategy, _ = fuzz.TARGETS["text"]

    def broken(data: bytes) -> None:
        raise KeyError("planted")

    monkeypatch.setitem(fuzz.TARGETS, "text", (strategy, broken))
    tally = fuzz.Tally()
    fuzz.run_target("text", 0.5, tally, slow=10.0, batch=5)
    assert tally.crashes == tally.examples > 0
    assert list(tally.first) == ["KeyError at broken"]


def test_a_name_the_discover_target_made_twice_is_made_once(fuzz):
    # A FIFO and then a file of the same name: writing the file would wait for a reader of the
    # FIFO forever, which once stalled the suite. The target must return, and discovery with it.
    fuzz.check_discover([(["a"], ".md", "fifo"), (["a"], ".md", "file"), (["b"], ".md", "bad-utf8"),
                         (["b"], ".md", "bad-utf8")])
