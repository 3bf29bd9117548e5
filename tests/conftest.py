"""Shared fixtures. Other owners may add fixtures at the end of this file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from corpus_files import write_corpus


@pytest.fixture
def make_corpus(tmp_path):
    """``make_corpus(files, name="docs")`` -> a corpus folder under the test's tmp_path.

    Also callable as ``make_corpus(tmp_path, files)`` for the older signature.
    """

    def _make(*args, name: str = "docs"):
        if len(args) == 2:
            base, files = args
            return write_corpus(Path(base) / name, files)
        (files,) = args
        return write_corpus(tmp_path / name, files)

    return _make


@pytest.fixture
def runner():
    return CliRunner()


# --- issue 4: the verify gate for any store a test builds -------------------------------------
@pytest.fixture
def verify_built_store():
    """``verify_built_store(path)`` runs the full ``contextpull verify`` checks on a store file
    (checksum and manifest too when they sit beside it) and returns the report; any failure
    raises ``CheckFailed`` / ``StoreError`` naming it. Issue 4 asks every built store be verified."""
    from contextpull.checks.verify import verify_store

    return verify_store


# --- cache-assisted builds: both ways of reusing a cache's chunks ---------------------------
@pytest.fixture(params=["patch", "copy"])
def cache_mode(request, monkeypatch):
    """A cache-assisted build either patches a byte copy of the cache (``patch.py``, the default
    when the cache's chunks keep their positions) or copies its unchanged chunks into an empty
    build file (``assemble.py``, used otherwise); tests taking this fixture run both."""
    if request.param == "copy":
        from contextpull.artifact import cache

        monkeypatch.setattr(cache.BuildCache, "patchable", lambda self: False)
    return request.param


# --- one pytest run per --basetemp (basetemp_lock.py says why) ----------------------------------
def pytest_configure(config):
    import basetemp_lock

    basetemp_lock.configure(config)


# --- process-wide state a test must leave as it found it (issue 34) ---------------------------
@pytest.fixture(autouse=True)
def _signal_handlers_restored():
    """A test that leaves SIGINT, SIGTERM or SIGALRM handled differently fails itself, instead
    of making a later test fail for no reason of its own: a signal test (test_interrupts.py)
    relies on Ctrl-C raising KeyboardInterrupt, whatever ran before it in the same process."""
    import signal

    watched = (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)
    before = {sig: signal.getsignal(sig) for sig in watched}
    timer_before = signal.getitimer(signal.ITIMER_REAL)
    yield
    after = {sig: signal.getsignal(sig) for sig in watched}
    changed = {signal.Signals(sig).name: (before[sig], after[sig]) for sig in watched if before[sig] != after[sig]}
    for sig in watched:
        signal.signal(sig, before[sig] if before[sig] is not None else signal.SIG_DFL)
    assert not changed, f"the test left signal handlers changed: {changed}"
    assert signal.getitimer(signal.ITIMER_REAL) == timer_before == (0.0, 0.0), "the test left an interval timer armed"
