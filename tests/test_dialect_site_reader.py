"""A site opened for one build (issue 35, "A dialect is a value"; ``dialects/site_reader.py``):
one reader per build, the row's ``Reader``, state kept per build and never across builds, every
document still recording what it depends on; and the site's door (``dialects/door.py``), the
repository-root guard for the reads beside a page."""

from __future__ import annotations

import os
import pickle

import pytest

from contextpull.dialects import registry, site_reader
from contextpull.dialects.api import Site
from contextpull.dialects.detect import detect_site
from contextpull.dialects.door import SiteDoor
from contextpull.dialects.includes import MISSING
from contextpull.dialects.pages.hook import not_a_page
from contextpull.dialects.read import read_document
from contextpull.dialects.site_reader import SiteReader, open_site
from site_build import write_site

BOOK = {
    "book.toml": "[book]\ntitle = \"Rowing\"\n",
    "src/SUMMARY.md": "# Summary\n\n- [Basics](ch1.md)\n- [Oars](ch2.md)\n",
    "src/ch1.md": "Why row.\n",
    "src/ch2.md": "Which oar.\n",
    "src/loose.md": "# Loose\n",
}


def test_each_row_opens_its_own_reader_and_plain_the_base(tmp_path):
    for row in registry.DIALECTS:
        reader = open_site(Site(row.name, None, str(tmp_path), str(tmp_path)))
        assert type(reader).__module__ == f"contextpull.dialects.{row.module}"
        assert isinstance(reader, SiteReader)
    assert type(open_site(Site("plain", None, str(tmp_path), str(tmp_path)))) is SiteReader


def test_once_computes_a_key_once_per_reader_and_a_new_reader_computes_again(tmp_path):
    calls = []
    site = Site("plain", None, str(tmp_path), str(tmp_path))
    first = SiteReader(site)
    assert first.once(("t", 1), lambda: calls.append(1) or "a") == "a"
    assert first.once(("t", 1), lambda: calls.append(2) or "b") == "a"
    assert SiteReader(site).once(("t", 1), lambda: calls.append(3) or "c") == "c"
    assert calls == [1, 3]


def test_a_reader_crosses_to_a_worker_as_its_site_and_builds_its_state_again(tmp_path):
    root = write_site(tmp_path, BOOK)
    reader = open_site(detect_site(root / "src"))
    assert not_a_page("loose.md", reader) is not None
    assert reader.get(("config",)) is not None
    copy = pickle.loads(pickle.dumps(reader))
    assert type(copy) is type(reader) and copy.site == reader.site
    assert copy.get(("config",)) is None  # nothing kept crossed over
    assert not_a_page("loose.md", copy) == not_a_page("loose.md", reader)


def test_two_builds_in_one_process_never_share_state(tmp_path):
    """An edit that keeps the file's size and time (what a stamp-keyed cache would miss) is seen
    by the next build's reader: no state outlives its build."""
    root = write_site(tmp_path, BOOK)
    summary = root / "src" / "SUMMARY.md"
    before = open_site(detect_site(root / "src"))
    assert not_a_page("ch2.md", before) is None
    stat = summary.stat()
    summary.write_text(summary.read_text().replace("ch2.md", "ch3.md"))
    os.utime(summary, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    after = open_site(detect_site(root / "src"))
    assert not_a_page("ch2.md", after) == "not listed in SUMMARY.md: mdBook renders only the chapters listed there"
    assert not_a_page("ch2.md", before) is None  # the earlier build keeps its own view


def test_every_document_records_what_it_depends_on_though_the_state_is_shared(tmp_path):
    root = write_site(tmp_path, BOOK)
    site = detect_site(root / "src")
    reader = open_site(site)
    first = read_document(b"Why row.\n", "markdown", "ch1", "ch1.md", site, reader)
    second = read_document(b"Which oar.\n", "markdown", "ch2", "ch2.md", site, reader)
    alone = read_document(b"Which oar.\n", "markdown", "ch2", "ch2.md", site)  # a reader of its own
    assert first.parsed.title == "Basics" and second.parsed.title == "Oars"
    assert dict(second.deps) == dict(alone.deps)
    assert {"book.toml", "src/SUMMARY.md"} <= set(dict(first.deps)) and dict(first.deps) == dict(second.deps)
    assert second.notes == alone.notes


def test_a_build_opens_its_site_once(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from artifact_helpers import clean_env
    from contextpull.cli import cli

    root = write_site(tmp_path / "site", BOOK)
    opened = []
    real = site_reader.open_site
    monkeypatch.setattr(site_reader, "open_site", lambda site: opened.append(site) or real(site))
    result = CliRunner().invoke(cli, ["build", str(root / "src"), "--out", str(tmp_path / "out")],
                                env=clean_env(CONTEXTPULL_JOBS="1"))
    assert result.exit_code == 0, result.output
    assert [s.dialect for s in opened] == ["mdbook"]


# ---- the site's door ---------------------------------------------------------------------
@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    write_site(root, {"docs/a.md": "A\n", "docs/sub/b.md": "B\n"})
    (tmp_path / "secret.txt").write_text("outside\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "c.md").write_text("C\n")
    return root


def test_the_door_reads_and_walks_inside_the_root(repo):
    door = SiteDoor(str(repo))
    assert door.read("docs/a.md", 100) == b"A\n"
    assert door.read(str(repo / "docs" / "a.md"), 100) == b"A\n"  # an absolute path inside
    assert door.is_file("docs/a.md") and door.is_dir("docs") and door.exists("docs/sub/b.md")
    assert [(rel, sorted(files)) for rel, _, files in door.walk("docs")] == [(".", ["a.md"]), ("sub", ["b.md"])]
    assert door.head("docs/a.md", 1) == b"A"


@pytest.mark.parametrize("path", ["../secret.txt", "docs/../../secret.txt", "SECRET_ABS", "docs/out/secret.txt"])
def test_the_door_treats_a_path_out_of_the_root_as_absent(repo, path):
    (repo / "docs" / "out").symlink_to(repo.parent)  # a link out of the repository
    path = str(repo.parent / "secret.txt") if path == "SECRET_ABS" else path
    door = SiteDoor(str(repo))
    with pytest.raises(OSError):
        door.read(path, 100)
    assert not door.is_file(path) and not door.exists(path)
    assert door.sha256(path) == MISSING


def test_the_door_walks_no_folder_that_is_a_link_out_and_follows_none_inside_a_walk(repo):
    (repo / "docs" / "away").symlink_to(repo.parent / "outside")
    door = SiteDoor(str(repo))
    assert list(door.walk("docs/away")) == []
    assert door.scandir("docs/away") == []
    walked = {rel: sorted(files) for rel, _, files in door.walk("docs")}
    assert "away" not in walked and all("c.md" not in files for files in walked.values())


def test_without_a_root_the_door_reads_nothing(repo):
    door = SiteDoor("")
    assert not door.is_file(str(repo / "docs" / "a.md"))
    with pytest.raises(OSError):
        door.read("docs/a.md", 100)


def test_a_plain_build_of_rst_pages_builds_the_label_table_once(tmp_path, monkeypatch):
    """A plain site's .rst pages go through the dialects' shared reader; what they share must be
    built once per build, not once per page that shows a ref."""
    from click.testing import CliRunner

    from artifact_helpers import clean_env
    from contextpull.cli import cli
    from contextpull.dialects.sphinx.xrefs import labels

    files = {f"docs/p{i}.rst": f".. _p{i}:\n\nPage {i}\n======\n\nSee :ref:`p{(i + 1) % 6}`.\n" for i in range(6)}
    root = write_site(tmp_path / "site", files)
    built = []
    real = labels.site_table
    monkeypatch.setattr(labels, "site_table", lambda *a: built.append(a[:2]) or real(*a))
    result = CliRunner().invoke(cli, ["build", str(root / "docs"), "--out", str(tmp_path / "out"), "--json"],
                                env=clean_env(CONTEXTPULL_JOBS="1"))
    assert result.exit_code == 0, result.output
    assert len(built) == 1
