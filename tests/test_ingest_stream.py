"""Streaming and the writer's helpers: collect() order and laziness, the FTS normalisation
fast path, optional parse workers (issue 2 memory bound; issue 8)."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from ingest_helpers import SETTINGS, dump, run

import contextpull.ingest.engine as ingest_mod
from contextpull.ingest.engine import collect
from contextpull.writing.records import DocumentRecord, Skipped
from contextpull.writing.writer import fts_normalize
from contextpull.cli.environment import read_environment
from contextpull.text import normalize_for_fts


def test_collect_streams_records_in_path_order_and_uses_reuse(make_corpus):
    corpus = make_corpus({"b.md": "# B\n\nBee text body.\n", "a.md": "# A\n\nAy text body.\n", "e.md": ""})
    seen = []

    def reuse(path, sha):
        seen.append(path)
        if path == "b.md":
            return DocumentRecord("b.md", "cached", None, None, sha, 1, "markdown", ())
        return None

    stream = collect(corpus, SETTINGS, reuse=reuse)
    assert iter(stream) is stream  # a generator, not a list
    items = list(stream)
    assert [item.path for item in items] == ["a.md", "b.md", "e.md"]
    assert items[1].title == "cached"
    assert isinstance(items[2], Skipped) and items[2].reason == "empty file"
    assert seen == ["a.md", "b.md", "e.md"]


def test_collect_reads_one_file_at_a_time(make_corpus, monkeypatch):
    corpus = make_corpus({f"doc{i}.md": f"# Doc {i}\n\nBody of document {i}.\n" for i in range(20)})
    reads = []
    real_read = ingest_mod._read

    def counting_read(candidate, *args):
        reads.append(candidate.path)
        return real_read(candidate, *args)

    monkeypatch.setattr(ingest_mod, "_read", counting_read)
    stream = collect(corpus, SETTINGS)
    first = next(stream)
    assert first.path == "doc0.md" and reads == ["doc0.md"]
    second = next(stream)
    assert second.path == "doc1.md" and reads == ["doc0.md", "doc1.md"]


@hsettings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab_.-- \n\t1é,;:!?()[]`'\"/*#|xY…ß٣")), max_size=40))
def test_writer_normalisation_equals_normalize_for_fts(text):
    assert fts_normalize(text) == normalize_for_fts(text)


@pytest.mark.parametrize(
    ("raw", "indexed"),
    [("--no-cache", "no-cache"), ("cache.", "cache"), ("tx-4419", "tx-4419"), ("3.12", "3.12"),
     ("tool.uv.sources", "tool.uv.sources"), ("_private_", "private"), ("- item", "- item"), ("../a", "../a"), ("|---|", "|---|"),
     ("use `-` here", "use `-` here"), ("end .", "end ."), ("x -- y", "x -- y"), ("__ x", "_ x"),
     ("-_- x", "_ x"), ("a_-", "a"), ("._b", "b")],
)
def test_writer_normalisation_examples(raw, indexed):
    assert fts_normalize(raw) == indexed


def test_parallel_parsing_writes_the_same_store(make_corpus, tmp_path, monkeypatch):
    import contextpull.ingest.workers as workers

    files = {f"d{i:02d}/doc{i}.md": f"# Doc {i}\n\n" + f"Body text number {i}. " * (i + 3) for i in range(12)}
    files["empty.md"] = ""
    corpus = make_corpus(files)
    run(corpus, tmp_path / "serial.sqlite", environment=read_environment({"CONTEXTPULL_JOBS": "1"}))
    monkeypatch.setattr(workers, "PARALLEL_MIN_JOBS", 2)
    report = run(corpus, tmp_path / "parallel.sqlite", environment=read_environment({"CONTEXTPULL_JOBS": "2"}))
    assert report.changed == 12 and [s.path for s in report.skipped] == ["empty.md"]
    assert dump(tmp_path / "serial.sqlite") == dump(tmp_path / "parallel.sqlite")
    records = list(collect(corpus, SETTINGS))
    assert [r.path for r in records] == sorted(files)


def test_ordered_map_keeps_order_and_passes_values_through():
    from contextpull.ingest.workers import ordered_map

    jobs = [(i % 3 != 0, (i,) if i % 3 else f"v{i}") for i in range(40)]
    out = list(ordered_map(abs, jobs, workers=2, min_jobs=1))
    assert out == [f"v{i}" if i % 3 == 0 else i for i in range(40)]


def test_worker_count_defaults_to_serial_and_follows_the_variable(monkeypatch):
    from contextpull.ingest import workers

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    assert workers.worker_count(None) == 0
    assert workers.worker_count(read_environment({"CONTEXTPULL_JOBS": "3"}).jobs) == 3
    assert workers.worker_count(read_environment({"CONTEXTPULL_JOBS": "1"}).jobs) == 0
    assert workers.worker_count(read_environment({"CONTEXTPULL_JOBS": "zero"}).jobs) == 0


def test_a_dialect_build_gets_one_worker_where_two_cores_are_usable(monkeypatch):
    from contextpull.ingest import workers

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    assert workers.worker_count(None, reads_dialect=True) == 1
    assert workers.worker_count(read_environment({"CONTEXTPULL_JOBS": "1"}).jobs, reads_dialect=True) == 0  # the variable decides
    monkeypatch.setattr(workers, "usable_cores", lambda: 1)
    assert workers.worker_count(None, reads_dialect=True) == 0
    monkeypatch.setattr(workers, "usable_cores", lambda: 8)
    monkeypatch.setattr(workers.sys, "platform", "darwin")  # a worker would be spawned, not forked
    assert workers.worker_count(None, reads_dialect=True) == 0


@pytest.mark.parametrize("n_workers", [1, 2])
def test_ordered_map_batches_keep_order_with_values_between_jobs(n_workers, monkeypatch):
    from contextpull.ingest import workers

    monkeypatch.setattr(workers, "BATCH_JOBS", 4)
    jobs = [(i % 5 != 0, (-i,) if i % 5 else f"v{i}") for i in range(150)]
    out = list(workers.ordered_map(abs, jobs, workers=n_workers, min_jobs=10))
    assert out == [f"v{i}" if i % 5 == 0 else i for i in range(150)]


def test_ordered_map_starts_no_process_for_a_run_below_the_threshold(monkeypatch):
    import concurrent.futures

    from contextpull.ingest import workers

    def refuse(*args, **kwargs):
        raise AssertionError("a worker process was started for a small run")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    jobs = [(True, (-i,)) for i in range(20)] + [(False, "end")]
    assert list(workers.ordered_map(abs, jobs, workers=1, min_jobs=20)) == [*range(20), "end"]


def test_ordered_map_holds_the_first_jobs_until_workers_are_decided():
    """Nothing is yielded before the workers are forked: the consumer's first record starts the
    writer's threads, which a fork should not copy mid-way."""
    from contextpull.ingest import workers

    consumed = []

    def jobs():
        for i in range(40):
            consumed.append(i)
            yield True, (-i,)

    stream = workers.ordered_map(abs, jobs(), workers=1, min_jobs=10)
    assert next(stream) == 0
    assert len(consumed) >= 11  # the threshold was passed before the first result came back
    assert list(stream) == list(range(1, 40))

_PARENT = os.getpid()


def _dies_in_a_worker_at_7(x):
    if x == 7 and os.getpid() != _PARENT:
        os._exit(1)  # a worker killed (out of memory, SIGKILL) mid-batch
    return x * 10


def test_a_worker_that_dies_leaves_its_work_and_the_rest_to_the_main_process(monkeypatch):
    from contextpull.ingest import workers

    monkeypatch.setattr(workers, "BATCH_JOBS", 3)
    jobs = [(True, (i,)) for i in range(40)]
    assert list(workers.ordered_map(_dies_in_a_worker_at_7, jobs, workers=1, min_jobs=2)) == [i * 10 for i in range(40)]


def _first_half(x):
    return x * 10, os.getpid()


def test_ordered_map_halves_run_the_first_on_a_worker_and_the_second_here(monkeypatch):
    from contextpull.ingest import workers

    monkeypatch.setattr(workers, "BATCH_JOBS", 4)
    here = []

    def second(part):
        value, pid = part
        here.append(pid)
        return value + 1

    jobs = [(i % 4 != 0, (i,) if i % 4 else f"v{i}") for i in range(60)]
    out = list(workers.ordered_map(lambda x: x * 10 + 1, jobs, workers=1, min_jobs=5, halves=(_first_half, second)))
    assert out == [f"v{i}" if i % 4 == 0 else i * 10 + 1 for i in range(60)]
    assert here and all(pid != os.getpid() for pid in here)  # the first half ran in the worker


def _slow_first_half(x):
    import time

    time.sleep(0.02)  # a worker busy with its batch while this process fills the window
    return x, os.getpid()


def test_this_process_takes_back_a_batch_no_worker_has_begun_while_it_waits(monkeypatch):
    from contextpull.ingest import workers

    monkeypatch.setattr(workers, "BATCH_JOBS", 2)
    jobs = [(True, (i,)) for i in range(24)]
    where = []

    def second(part):
        value, pid = part
        where.append(pid)
        return value

    def whole(x):
        where.append(os.getpid())
        return x

    out = list(workers.ordered_map(whole, jobs, workers=1, min_jobs=1, halves=(_slow_first_half, second)))
    assert out == list(range(24))
    assert os.getpid() in where and any(pid != os.getpid() for pid in where)  # both parsed some


def test_a_folder_whose_first_pages_show_mdx_is_read_with_a_worker(tmp_path, monkeypatch):
    """Under ``auto`` with no generator configuration, a sample of the first Markdown pages says
    whether the MDX rules will read the site: then it gets a worker as a generator's site does.
    The store is the same either way; only the process count follows the sample."""
    from pathlib import Path

    from contextpull.dialects import page_sample
    from contextpull.ingest import workers
    from contextpull.ingest.site import with_site
    from contextpull.settings import Settings

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    plain, mdx, late = tmp_path / "plain", tmp_path / "mdx", tmp_path / "late"
    for folder in (plain, mdx, late):
        (folder / ".hidden").mkdir(parents=True)
        (folder / ".hidden" / "a.md").write_text("<Note>hidden pages are not read</Note>\n")
    (plain / "a.md").write_text("# A\n\nList<String> and `<Tabs>` in code.\n")
    (mdx / "sub").mkdir()
    (mdx / "a.md").write_text("# A\n\nPlain.\n")
    (mdx / "sub" / "b.md").write_text("# B\n\n<Note>\nRead me.\n</Note>\n")
    for k in range(page_sample.SAMPLE_PAGES):  # the evidence comes after the sample ends
        (late / f"p{k:02}.md").write_text("# P\n")
    (late / "z.md").write_text("<Note>late</Note>\n")

    sites = {name: with_site(Settings(), Path(folder)).site for name, folder in
             (("plain", plain), ("mdx", mdx), ("late", late))}
    assert {name: (s.guess_mdx, s.mdx_seen) for name, s in sites.items()} == {
        "plain": (True, False), "mdx": (True, True), "late": (True, False)}
    assert [workers.workers_for(sites[n]) for n in ("plain", "mdx", "late")] == [0, 1, 0]
    assert workers.workers_for(sites["mdx"], 1) == 0  # CONTEXTPULL_JOBS decides when set


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_the_mdx_sample_never_opens_a_pipe_or_follows_a_link(tmp_path):
    """A named pipe called ``a.md`` would block an ``open``; a link may lead out of the
    repository. The sample passes both over, in a child process bounded in time."""
    import subprocess
    import sys

    docs = tmp_path / "docs"
    docs.mkdir()
    os.mkfifo(docs / "a.md")
    outside = tmp_path / "outside.md"
    outside.write_text("<Note>outside the docs</Note>\n")
    os.symlink(outside, docs / "b.md")
    (docs / "c.md").write_text("# Plain\n")
    probe = "import sys; from contextpull.dialects.mdx.evidence import seen_in; print(seen_in(sys.argv[1]))"
    done = subprocess.run([sys.executable, "-c", probe, str(docs)], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
