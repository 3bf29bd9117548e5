"""The agreement benchmark names the class behind each differing document (issue 40).

Hand-made pairs of section lists, ours then the published writer's, one per class as the
MicrosoftDocs corpus shows it; a pair that fits no class must come out ``unexplained``, or the
benchmark's "every remaining document in a documented class" would be a claim it cannot check.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "agreement_classes", Path(__file__).resolve().parent.parent / "benchmarks" / "agreement_classes.py"
)
classes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(classes)

TABLE = "| a | b |\n|---|---|\n| 1 | 2 |"
PROSE = ("T", 1, "prose", "# T\n\nIntroduction text of the page.")


def section(text: str, kind: str = "prose", path: str = "T > H") -> tuple:
    return (path, 2, kind, text)


PAIRS = {
    "table-row-trailing-space": (
        [PROSE, section("## H\n\n| a | b | \n|---|---|\n| 1 | 2 |", "table")],
        [PROSE, section("## H\n\n" + TABLE, "table")],
    ),
    "bare-heading-merged-backward": (
        [PROSE, section("## See also")],
        [("T", 1, "prose", PROSE[3] + "\n\n## See also")],
    ),
    "heading-and-table-over-limit": (
        [PROSE, section("## H\n\n" + TABLE, "table"), section(TABLE + "\n| 3 | 4 |", "table")],
        [PROSE, section("## H\n\n" + TABLE + "\n| 3 | 4 |", "table")],
    ),
    "heading-alone-before-long-block": (
        [PROSE, section("## H\n\n```\ncode\n```", "code")],
        [PROSE, section("## H"), section("```\ncode\n```", "code")],
    ),
    "heading-closing-hash": (
        [("C#", 1, "prose", "# C#\n\nText.")],
        [("C", 1, "prose", "# C\n\nText.")],
    ),
    "prose-cut-inside-word": (
        [PROSE, section("## H\n\nalpha\nbeta"), section("gamma")],
        [PROSE, section("## H\n\nalpha\nbeta\nga"), section("mma")],
    ),
    "unexplained": (
        [PROSE, section("## H\n\nSome text.")],
        [PROSE, section("## H\n\nOther text.")],
    ),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_each_class_is_named_for_its_pair(name):
    ours, peer = PAIRS[name]
    assert classes.document_classes(ours, peer, limit=20) == {name}


def test_agreeing_documents_have_no_class_and_office_documents_their_own():
    ours, peer = PAIRS["unexplained"]
    assert classes.document_classes(ours, ours, limit=20) == set()
    assert classes.document_classes(ours, peer, limit=20, markdown=False) == {"office-document"}


def test_every_class_the_classifier_names_is_described():
    named = set(PAIRS) | {"office-document"}
    assert named == set(classes.CLASSES)
