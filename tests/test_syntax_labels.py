"""One label table (dialects/syntax/labels.py): the title an admonition shows without one of its
own, Sphinx's own words, the strongest callout class, and how a label stands before its body."""

from __future__ import annotations

from contextpull.dialects.syntax import labels


def test_a_kind_reads_as_its_title_and_sphinx_keeps_its_own_words():
    assert [labels.title(k) for k in ("note", "see-also", "DANGER", "code_tab", "")] == [
        "Note", "See also", "Danger", "Code tab", ""]
    assert labels.sphinx_title("seealso") == "See also" and labels.title("seealso") == "Seealso"
    assert all(labels.sphinx_title(k) == k.capitalize() for k in labels.SPHINX_ADMONITIONS if k != "seealso")
    assert labels.VERSION_LABELS["versionadded"].format("2.0") == "Added in version 2.0"


def test_the_strongest_callout_class_names_the_label():
    assert labels.class_label({"note", "warning"}) == "Warning"
    assert labels.class_label({"info"}) == "Note"
    assert labels.class_label({"wide"}) is None


def test_a_label_stands_alone_before_a_block():
    assert labels.labelled("Tip:", "```sh\nx\n```") == "Tip:\n\n```sh\nx\n```"
    assert labels.labelled("Note", "  Read this.") == "Note: Read this."


def test_sphinx_writes_the_same_rule_in_lines_and_a_bare_label_with_a_period():
    """rst's line reading, MyST and the doctree share ``labelled``'s block test and one empty rule."""
    assert labels.sphinx_labelled("Note", ["1. first", "2. second"]) == ["Note:", "", "1. first", "2. second"]
    assert labels.sphinx_labelled("Note", ["Read this.", "", "- a"]) == ["Note: Read this.", "", "- a"]
    assert labels.sphinx_labelled("Added in version 2.0", ["", "  "]) == ["Added in version 2.0."]
    assert labels.sphinx_alone("See also:") == "See also:"


def test_long_kinds_and_bodies_are_one_pass():
    assert labels.title("-" * 1_000_000) == ""
    assert labels.title("a_" * 300_000) == " ".join(["A"] + ["a"] * 299_999)
    body = " " * 1_000_000 + "x"
    assert labels.labelled("Note", body) == "Note: x"
