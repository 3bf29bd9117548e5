"""The one include resolver and the Context over it (issue 26, "Includes, resolved inside the
repository"): every refusal is a named ``unresolved`` note, bounded in time and memory."""

from __future__ import annotations

import os

import pytest

from contextpull.dialects import includes
from contextpull.dialects.api import Site
from contextpull.dialects.context import DocumentContext
from contextpull.dialects.includes import MISSING


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    (root / "docs" / "guide").mkdir(parents=True)
    (root / "listings").mkdir()
    (root / "listings" / "main.rs").write_text("fn main() {}\n")
    return root


def ctx_for(root, path="guide/page.md"):
    site = Site("mdbook", None, str(root / "docs"), str(root))
    return DocumentContext(site, path)


def only_note(ctx):
    assert len(ctx.notes) == 1, ctx.notes
    return ctx.notes[0]


def test_a_relative_include_is_read_and_becomes_a_dependency(repo):
    ctx = ctx_for(repo)
    got = ctx.include("../../listings/main.rs", base=ctx.folder, line=3, construct="mdbook include")
    assert got is not None
    assert (got.text, got.path, got.chain) == ("fn main() {}\n", "listings/main.rs", ("docs/guide/page.md", "listings/main.rs"))
    assert set(ctx.deps) == {"listings/main.rs"}
    note = only_note(ctx)
    assert (note.construct, note.outcome, note.line) == ("mdbook include", "resolved", 3)


def test_a_missing_target_is_named_and_recorded_as_a_missing_dependency(repo):
    ctx = ctx_for(repo)
    assert ctx.include("nope.rs", base=ctx.folder, line=7, construct="mdbook include") is None
    note = only_note(ctx)
    assert (note.outcome, note.line, note.detail) == ("unresolved", 7, "target missing: nope.rs")
    assert ctx.deps == {"docs/guide/nope.rs": MISSING}


@pytest.mark.parametrize(
    "target, reason",
    [
        ("../../../../etc/passwd", "outside the repository"),
        ("/etc/passwd", "an absolute path"),
        ("C:\\Windows\\win.ini", "an absolute path"),
        ("https://example.com/x.md", "a URL, never fetched"),
        ("//example.com/x.md", "a URL, never fetched"),
        ("file:///etc/passwd", "a URL, never fetched"),
        ("", "empty include target"),
    ],
)
def test_targets_outside_the_repository_are_refused(repo, target, reason):
    ctx = ctx_for(repo)
    assert ctx.include(target, base=ctx.folder, line=1, construct="include") is None
    assert only_note(ctx).detail.startswith(reason)
    assert ctx.deps == {}


def test_a_symbolic_link_out_of_the_repository_is_refused(repo, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read")
    os.symlink(secret, repo / "docs" / "guide" / "link.txt")
    ctx = ctx_for(repo)
    assert ctx.include("link.txt", base=ctx.folder, line=2, construct="include") is None
    assert "through a symbolic link out of the repository" in only_note(ctx).detail


def test_a_link_inside_the_repository_is_followed_and_keyed_by_its_target(repo):
    os.symlink(repo / "listings" / "main.rs", repo / "docs" / "guide" / "main.rs")
    ctx = ctx_for(repo)
    got = ctx.include("main.rs", base=ctx.folder, line=1, construct="include")
    assert got is not None and got.path == "listings/main.rs"


def test_a_named_pipe_is_refused_without_blocking(repo):
    os.mkfifo(repo / "listings" / "pipe.rs")
    ctx = ctx_for(repo)
    assert ctx.include("listings/pipe.rs", base="", line=1, construct="include") is None
    assert only_note(ctx).detail == "listings/pipe.rs is a named pipe, not a regular file"


def test_a_folder_is_refused(repo):
    ctx = ctx_for(repo)
    assert ctx.include("listings", base="", line=1, construct="include") is None
    assert "not a regular file" in only_note(ctx).detail or "cannot read" in only_note(ctx).detail


def test_a_huge_target_is_refused_unread(repo, monkeypatch):
    monkeypatch.setattr(includes, "MAX_INCLUDE_BYTES", 1000)
    with open(repo / "listings" / "big.txt", "wb") as f:
        f.truncate(10**9)  # sparse: a gigabyte on paper, nothing on disk
    ctx = ctx_for(repo)
    assert ctx.include("listings/big.txt", base="", line=1, construct="include") is None
    assert "over the include limit" in only_note(ctx).detail


def test_a_binary_target_is_refused(repo):
    (repo / "listings" / "x.bin").write_bytes(b"\x00\x01\x02")
    ctx = ctx_for(repo)
    assert ctx.include("listings/x.bin", base="", line=1, construct="include") is None
    assert only_note(ctx).detail.startswith("a binary file")


def test_a_cycle_is_named_with_its_chain(repo):
    (repo / "docs" / "a.md").write_text("{{#include b.md}}")
    (repo / "docs" / "b.md").write_text("{{#include a.md}}")
    ctx = ctx_for(repo, "a.md")
    b = ctx.include("b.md", base=ctx.folder, line=1, construct="include")
    assert b is not None
    assert ctx.include("a.md", base=b.folder, line=1, construct="include", within=b) is None
    assert ctx.notes[-1].detail == "include cycle: docs/a.md -> docs/b.md -> docs/a.md"


def test_depth_is_bounded_along_the_chain(repo):
    for i in range(15):
        (repo / "docs" / f"n{i}.md").write_text(f"n{i}")
    ctx = ctx_for(repo, "top.md")
    within = None
    got = []
    for i in range(15):
        within = ctx.include(f"n{i}.md", base="docs", line=1, construct="include", within=within)
        if within is None:
            break
        got.append(within)
    assert len(got) == includes.MAX_DEPTH
    assert ctx.notes[-1].detail.startswith(f"includes nested deeper than {includes.MAX_DEPTH}")


def test_a_chain_that_multiplies_stops_at_the_document_budget(repo, monkeypatch):
    monkeypatch.setattr(includes, "DOCUMENT_BUDGET", 10_000)
    (repo / "docs" / "part.md").write_text("x" * 3000)
    site = Site("mdbook", None, str(repo / "docs"), str(repo))
    ctx = DocumentContext(site, "top.md")
    results = [ctx.include("part.md", base="docs", line=i, construct="include") for i in range(1, 8)]
    assert sum(r is not None for r in results) == 3
    refused = [n for n in ctx.notes if n.outcome == "unresolved"]
    assert len(refused) == 4 and all("include budget" in n.detail for n in refused)


def test_many_includes_of_an_empty_file_stop_at_the_read_limit(repo, monkeypatch):
    monkeypatch.setattr(includes, "MAX_READS", 50)
    (repo / "docs" / "empty.md").write_text("")
    site = Site("mdbook", None, str(repo / "docs"), str(repo))
    ctx = DocumentContext(site, "top.md")
    got = [ctx.include("empty.md", base="docs", line=i, construct="include") for i in range(60)]
    assert sum(g is not None for g in got) == 50
    assert ctx.notes[-1].detail == "the document's limit of 50 includes is reached: empty.md"


def test_read_data_uses_the_same_guard_and_records_the_dependency(repo):
    (repo / "docs" / "_data").mkdir()
    (repo / "docs" / "_data" / "v.yml").write_text("min: 3\n")
    ctx = ctx_for(repo)
    assert ctx.read_data("docs/_data/v.yml") == b"min: 3\n"
    assert ctx.read_data("../outside.yml") is None
    assert ctx.read_data("docs/_data/none.yml") is None
    assert ctx.deps["docs/_data/v.yml"] != MISSING and ctx.deps["docs/_data/none.yml"] == MISSING
    assert ctx.notes == []


def test_without_a_repository_root_nothing_is_read():
    ctx = DocumentContext(Site("plain", None, "", ""), "a.rst")
    assert ctx.include("../../etc/passwd", base=ctx.folder, line=1, construct="rst include") is None
    assert only_note(ctx).detail.startswith("no repository root is known")
    assert ctx.read_data("etc/passwd") is None


def test_a_note_with_an_unknown_outcome_is_a_bug(repo):
    with pytest.raises(ValueError):
        ctx_for(repo).note("x", "done", 1)


def test_a_located_path_resolves_as_realpath_does_below_the_root(repo, tmp_path):
    """The resolver looks at links only below the repository root, which is real already; what it
    finds must be what ``os.path.realpath`` finds, for links at any depth, chains of them, missing
    components and paths through a file."""
    outside = tmp_path / "elsewhere"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "x.md").write_text("x")
    (repo / "docs" / "guide" / "page.md").write_text("page")
    os.symlink(repo / "listings", repo / "docs" / "code")  # a folder link inside
    os.symlink(repo / "docs" / "code", repo / "docs" / "chain")  # a link to a link
    os.symlink("../../listings/main.rs", repo / "docs" / "guide" / "main.rs")  # a relative file link
    os.symlink(outside, repo / "out")  # a link that leaves the repository
    resolver = includes.Resolver(str(repo), "docs/guide/page.md")
    for target in ["docs/guide/page.md", "docs/code/main.rs", "docs/chain/main.rs", "docs/guide/main.rs",
                   "docs/missing/deeper/x.md", "docs/guide/page.md/x", "listings", "docs/code"]:
        key, real = resolver.locate(target, "")
        assert real == os.path.realpath(os.path.join(repo, target)), target
        assert key == os.path.relpath(real, repo).replace(os.sep, "/"), target
    with pytest.raises(includes.Refused, match="symbolic link out"):
        resolver.locate("out/deep/x.md", "")


def test_documents_of_one_build_share_reads_but_each_records_its_dependency_and_spends_its_budget(repo, monkeypatch):
    """The build's read memo (``includes.ReadMemo``): a second document reading the same file
    gets the same text, dependency and budget spent without the file being read again; a
    refusal is not kept, so a file that was missing is read once it is there."""
    from contextpull.dialects.site_reader import SiteReader

    reader = SiteReader(Site("mdbook", None, str(repo / "docs"), str(repo)))
    first = DocumentContext(reader.site, "guide/page.md", reader=reader)
    got = first.include("../../listings/main.rs", base=first.folder, line=1, construct="mdbook include")
    reads = []
    monkeypatch.setattr(includes, "read_regular", lambda path, limit: reads.append(path) or b"other bytes")
    second = DocumentContext(reader.site, "guide/other.md", reader=reader)
    again = second.include("../../listings/main.rs", base=second.folder, line=1, construct="mdbook include")
    assert (again.text, again.path) == (got.text, got.path) and reads == []
    assert second.deps == first.deps
    assert second._resolver.budget == first._resolver.budget == includes.DOCUMENT_BUDGET - len(got.text)
    monkeypatch.undo()

    assert second.include("new.rs", base=second.folder, line=2, construct="mdbook include") is None
    (repo / "docs" / "guide" / "new.rs").write_text("fn new() {}\n")
    third = DocumentContext(reader.site, "guide/third.md", reader=reader)
    assert third.include("new.rs", base=third.folder, line=2, construct="mdbook include").text == "fn new() {}\n"


def test_a_kept_read_larger_than_what_is_left_of_the_budget_is_refused_as_a_fresh_read_is(repo, monkeypatch):
    from contextpull.dialects.site_reader import SiteReader

    reader = SiteReader(Site("mdbook", None, str(repo / "docs"), str(repo)))
    ctx = DocumentContext(reader.site, "guide/page.md", reader=reader)
    assert ctx.include("../../listings/main.rs", base=ctx.folder, line=1, construct="mdbook include") is not None
    poor = DocumentContext(reader.site, "guide/poor.md", reader=reader)
    poor._resolver.budget = 3
    assert poor.include("../../listings/main.rs", base=poor.folder, line=1, construct="mdbook include") is None
    assert "include budget" in poor.notes[-1].detail
