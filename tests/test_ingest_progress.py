"""The progress reporter: a bar on a terminal, sparse plain lines otherwise, silence when off."""

from __future__ import annotations

import io

from contextpull.ingest.progress import Progress


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


def test_disabled_writes_nothing():
    stream = io.StringIO()
    progress = Progress(stream=stream, enabled=False)
    progress.start(3)
    for name in "abc":
        progress.advance(name)
    progress.finish()
    assert stream.getvalue() == "" and progress.count == 3


def test_plain_stream_gets_periodic_lines_only():
    stream = io.StringIO()
    progress = Progress("build", stream=stream, interval=0.0)
    progress.start()
    progress.advance("a.md")
    progress.advance("b.md")
    progress.finish()
    assert stream.getvalue().splitlines() == ["build: 1 files", "build: 2 files"]
    quiet = io.StringIO()
    slow = Progress("build", stream=quiet, interval=3600)
    slow.start()
    slow.advance("a.md")
    assert quiet.getvalue() == ""


def test_terminal_gets_a_bar_that_is_cleared_at_the_end():
    stream = FakeTTY()
    progress = Progress("ingest", stream=stream)
    progress.start(2)
    progress.advance("a.md")
    progress.advance("b.md")
    progress.finish()
    out = stream.getvalue()
    assert "\r" in out and "2/2" in out and "#" * 24 in out
    assert out.endswith("\r\x1b[K")


def test_ingest_reports_progress_per_file(make_corpus, tmp_path):
    from contextpull.ingest.engine import ingest
    from contextpull.config import Settings

    corpus = make_corpus({"a.md": "# A\n\nFirst document body.\n", "b.md": "# B\n\nSecond body.\n"})
    progress = Progress(stream=io.StringIO(), enabled=False)
    ingest(corpus, tmp_path / "s.sqlite", Settings(), progress=progress)
    assert progress.count == 2
