"""Discovery: order, hidden entries, .contextpullignore, symlinks, exclusions (system-design §3)."""

from __future__ import annotations

import os

import pytest

from contextpull.writing.discover import Candidate, discover
from contextpull.writing.records import Skipped

symlinks = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX symlinks")


def paths(root, **kwargs):
    return [item.path for item in discover(root, **kwargs) if isinstance(item, Candidate)]


def skipped(root, **kwargs):
    return {item.path: item.reason for item in discover(root, **kwargs) if isinstance(item, Skipped)}


def test_supported_extensions_in_string_order_of_posix_paths(make_corpus):
    root = make_corpus(
        {
            "b.md": "x",
            "a/z.txt": "x",
            "a-b.md": "x",
            "A.markdown": "x",
            "c/d/e.docx": b"x",
            "sheet.xlsx": b"x",
            "deck.pptx": b"x",
            "paper.pdf": b"x",
            "notes.html": "x",
            "image.png": b"x",
            "UPPER.MD": "x",
        }
    )
    found = paths(root)
    assert found == sorted(found)
    assert found == [
        "A.markdown",
        "UPPER.MD",
        "a-b.md",
        "a/z.txt",
        "b.md",
        "c/d/e.docx",
        "deck.pptx",
        "paper.pdf",
        "sheet.xlsx",
    ]
    assert skipped(root) == {}  # unsupported extensions are ignored silently


def test_hidden_files_and_directories_are_skipped(make_corpus):
    root = make_corpus({".hidden/a.md": "x", ".secret.md": "x", "sub/.git/b.md": "x", "ok.md": "x"})
    assert paths(root) == ["ok.md"]


def test_contextpullignore_literal_paths_and_globs(make_corpus):
    root = make_corpus(
        {
            ".contextpullignore": "# comment\n\ndrafts/\nsub/skip.md\n*.txt\n/top-only.md\nbuild/*.md\n",
            "drafts/a.md": "x",
            "sub/skip.md": "x",
            "sub/keep.md": "x",
            "notes.txt": "x",
            "deep/notes.txt": "x",
            "top-only.md": "x",
            "deep/top-only.md": "x",
            "build/x.md": "x",
            "build/inner/y.md": "x",
        }
    )
    assert paths(root) == ["build/inner/y.md", "deep/top-only.md", "sub/keep.md"]


def test_unicode_names_and_duplicate_base_names(make_corpus):
    root = make_corpus({"日本語/読む.md": "x", "a/index.md": "x", "b/index.md": "x", "café.md": "x"})
    assert paths(root) == ["a/index.md", "b/index.md", "café.md", "日本語/読む.md"]


def test_excluded_output_folder_inside_the_corpus(make_corpus):
    root = make_corpus({"a.md": "x", "out/report.md": "x", "outside.md": "x"})
    assert paths(root, exclude=[root / "out"]) == ["a.md", "outside.md"]


@symlinks
def test_symlinks_never_lead_out_of_the_root_and_loops_do_not_hang(make_corpus, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("secret", encoding="utf-8")
    root = make_corpus({"real/a.md": "x", "b.md": "x"})
    os.symlink(outside / "secret.md", root / "leak.md")
    os.symlink(outside, root / "leakdir")
    os.symlink(root, root / "real" / "loop")  # directory loop
    os.symlink(root / "loop1.md", root / "loop2.md")
    os.symlink(root / "loop2.md", root / "loop1.md")  # file link loop
    os.symlink(root / "b.md", root / "alias.md")  # inside the root: fine
    os.symlink(root / "missing.md", root / "broken.md")
    (root / ".private").mkdir()
    (root / ".private" / "x.md").write_text("x", encoding="utf-8")
    os.symlink(root / ".private" / "x.md", root / "peek.md")  # into a hidden folder
    found = paths(root)
    assert found == ["alias.md", "b.md", "real/a.md"]
    reasons = skipped(root)
    assert reasons["leak.md"] == "symbolic link points outside the corpus root"
    assert reasons["loop1.md"] == "symbolic link loop"
    assert reasons["broken.md"] == "broken symbolic link"
    assert reasons["peek.md"] == "symbolic link points to a hidden or ignored file"
    assert not any(path.startswith("leakdir") for path in found)


@symlinks
def test_corpus_root_given_through_a_symlink(make_corpus, tmp_path):
    root = make_corpus({"a.md": "x"})
    link = tmp_path / "link-to-docs"
    os.symlink(root, link)
    assert paths(link) == ["a.md"]


def test_a_folder_that_cannot_be_listed_is_reported(make_corpus, monkeypatch):
    import contextpull.writing.discover as discover_mod

    root = make_corpus({"a.md": "x", "locked/b.md": "x"})
    real_scandir = os.scandir

    def scandir(path):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(discover_mod.os, "scandir", scandir)
    assert paths(root) == ["a.md"]
    assert skipped(root) == {"locked/": "folder cannot be read (Permission denied)"}


@pytest.mark.parametrize("rules, expected", [
    # a leading slash anchors a folder rule too: sub/docs/ stays
    ("/docs/\n", ["keep.md", "notes/a.md", "notes/keep.md", "sub/docs/b.md", "y.md"]),
    # the last matching rule wins: ! includes again
    ("*.md\n!keep.md\n", ["keep.md", "notes/keep.md"]),
    ("notes/*\n!notes/keep.md\n", ["docs/a.md", "keep.md", "notes/keep.md", "sub/docs/b.md", "y.md"]),
    # **/ matches at the root too, and a/**/b with no folder between
    ("**/y.md\nnotes/**/a.md\n", ["docs/a.md", "keep.md", "notes/keep.md", "sub/docs/b.md"]),
    # an editor's byte order mark does not swallow the first rule
    ("\ufeffy.md\n", ["docs/a.md", "keep.md", "notes/a.md", "notes/keep.md", "sub/docs/b.md"]),
])
def test_contextpullignore_follows_gitignore(make_corpus, rules, expected):
    """Each case was checked against `git check-ignore` with the same rules."""
    files = {name: "x" for name in ("docs/a.md", "sub/docs/b.md", "keep.md", "notes/a.md", "notes/keep.md", "y.md")}
    root = make_corpus({".contextpullignore": rules, **files})
    assert paths(root) == expected
