"""GitHub-style callouts (contextpull/dialects/syntax/callouts.py): the marker goes, the body stays
behind the label the page shows; what GitHub would not render stays as written."""

from __future__ import annotations

import pytest

from contextpull.dialects.syntax.callouts import callouts
from mdx_helpers import FakeContext, read_fixtures


@pytest.mark.parametrize(("title", "source", "expected"), read_fixtures("callouts.txt"))
def test_callout_fixtures(title, source, expected):
    assert callouts(source, FakeContext()) == expected, title


def test_each_callout_is_noted_converted_at_its_line():
    ctx = FakeContext()
    callouts("intro\n\n> [!NOTE]\n> a\n\n```\n> [!TIP]\n```\n\n> [!TIP]\n> b", ctx)
    assert ctx.outcomes() == [("callout", "converted", 3), ("callout", "converted", 10)]


def test_text_without_a_marker_is_returned_unchanged():
    text = "> plain quote\n\n```\ncode\n```"
    assert callouts(text, FakeContext()) is text


def test_a_titled_callout_stays_a_quote_for_github_and_is_titled_for_hugo():
    source = "> [!NOTE] Hugo modules are Go modules\n> You need Go 1.18.\n\n> [!WARNING]+ Radiation hazard\n> Keep away."
    assert callouts(source, FakeContext()) == source  # GitHub renders the extended form as a quote
    ctx = FakeContext()
    assert callouts(source, ctx, extended=True) == (
        "Hugo modules are Go modules: You need Go 1.18.\n\nRadiation hazard: Keep away."
    )
    assert ctx.outcomes() == [("callout", "converted", 1), ("callout", "converted", 4)]


def test_the_extended_form_without_a_title_keeps_the_type_as_label():
    assert callouts("> [!TIP]-\n> Fold me.", FakeContext(), extended=True) == "Tip: Fold me."
    assert callouts("> [!TIP]\n> Plain.", FakeContext(), extended=True) == "Tip: Plain."
