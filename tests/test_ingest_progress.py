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


class Clock:
    """A clock the test moves by hand, so rates and intervals are exact."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_plain_stream_gets_periodic_lines_with_total_percent_rate_and_time_left():
    stream, clock = io.StringIO(), Clock()
    progress = Progress("build", stream=stream, interval=5.0, clock=clock)
    progress.start(400)
    clock.now = 102.0
    for _ in range(199):  # 199 files in 2 s: under the interval, no line yet
        progress.advance("a.md")
    assert stream.getvalue() == ""
    clock.now = 105.0  # the 200th at 5 s: one line
    progress.advance("b.md")
    progress.finish()
    assert stream.getvalue().splitlines() == ["build: 200/400 files (50%), 40 files/s, 5s left"]


def test_without_a_total_the_line_says_count_and_rate():
    stream, clock = io.StringIO(), Clock()
    progress = Progress("ingest", stream=stream, interval=0.0, clock=clock)
    progress.start()
    clock.now += 2
    progress.advance("a.md")
    assert stream.getvalue() == "ingest: 1 files, 0 files/s\n"


def test_terminal_redraws_one_line_with_the_numbers_and_clears_it_at_the_end():
    stream, clock = FakeTTY(), Clock()
    progress = Progress("ingest", stream=stream, clock=clock)
    progress.start(4)
    for name in ("a.md", "b.md", "c.md", "d.md"):
        clock.now += 0.5
        progress.advance(name)
    frames = stream.getvalue().split("\r")
    assert frames[1] == "ingest [#####---------------] 1/4 files (25%), 2 files/s, 2s left  a.md\x1b[K"
    assert frames[4] == "ingest [####################] 4/4 files (100%), 2 files/s  d.md\x1b[K"
    progress.finish()
    assert stream.getvalue().endswith("\r\x1b[K") and "\n" not in stream.getvalue()


def test_terminal_line_never_wraps(monkeypatch):
    stream, clock = FakeTTY(), Clock()
    monkeypatch.setattr(Progress, "_columns", lambda self: 100)
    progress = Progress("build", stream=stream, clock=clock)
    progress.start(1000)
    clock.now += 1
    progress.advance("a/very/long/folder/name/that/goes/on/and/on/document.md")
    frame = stream.getvalue().split("\r")[1].removesuffix("\x1b[K")
    assert len(frame) == 99 and frame.endswith("on/document.md") and "…" in frame


def test_durations_read_as_a_person_would():
    from contextpull.ingest.progress import _duration

    assert [_duration(s) for s in (4.4, 59.6, 61, 3600 + 120)] == ["4s", "1m00s", "1m01s", "1h02m"]


def test_ingest_reports_progress_per_file(make_corpus, tmp_path):
    from contextpull.ingest.engine import ingest
    from contextpull.config import Settings

    corpus = make_corpus({"a.md": "# A\n\nFirst document body.\n", "b.md": "# B\n\nSecond body.\n"})
    progress = Progress(stream=io.StringIO(), enabled=False)
    ingest(corpus, tmp_path / "s.sqlite", Settings(), progress=progress)
    assert (progress.count, progress.total) == (2, 2)


def test_build_knows_the_total_before_the_first_file(make_corpus, tmp_path):
    from contextpull.artifact.run import build
    from contextpull.config import Settings

    corpus = make_corpus({f"d{i}.md": f"# D{i}\n\nBody {i}.\n" for i in range(5)})
    seen = []

    class Spy(Progress):
        def advance(self, path=""):
            seen.append((self.total, path))
            super().advance(path)

    build(corpus, tmp_path / "out", settings=Settings(), progress=Spy(enabled=False))
    assert seen == [(5, f"d{i}.md") for i in range(5)]
