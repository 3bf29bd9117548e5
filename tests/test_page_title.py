"""The one rule by which a page takes its title from its generator's navigation
(contextpull/dialects/page_title.py): front matter ``title``, a label shown over the H1, the
page's own H1, the navigation's name; every dialect's hooks are asked through it."""

from __future__ import annotations

import pytest

from contextpull.dialects.api import Site
from contextpull.dialects.page_title import navigation_title, shows_h1
from contextpull.dialects.site_reader import SiteReader
from contextpull.parsing.parse_markdown import parse_markdown
from mdx_helpers import FakeContext


class _Hooks(SiteReader):
    """A reader whose hooks say what they were asked, so the rule's order shows."""

    def __init__(self, label=None, nav=None):
        super().__init__(Site("plain", None, "", ""))
        self.label, self.nav, self.asked = label, nav, []

    def label_title(self, ctx):
        self.asked.append("label")
        return self.label

    def nav_title(self, ctx):
        self.asked.append("nav")
        return self.nav


@pytest.mark.parametrize(
    ("front_matter", "text", "hooks", "title", "asked"),
    [
        ({"title": "Own"}, "## Part\n", {"label": "L", "nav": "N"}, None, []),
        ({}, "# Shown\n", {"label": "L", "nav": "N"}, "L", ["label"]),
        ({}, "# Shown\n", {"nav": "N"}, None, ["label"]),
        ({}, "## Part\n", {"nav": "N"}, "N", ["label", "nav"]),
        ({}, "#\n\n## Part\n", {"nav": "N"}, "N", ["label", "nav"]),
        ({"title": "   "}, "## Part\n", {"nav": "N"}, "N", ["label", "nav"]),
        ({"title": True}, "## Part\n", {"nav": "N"}, "N", ["label", "nav"]),
        ({"title": ["a"]}, "## Part\n", {"nav": ""}, None, ["label", "nav"]),
    ],
    ids=["front matter title: nothing asked", "label over H1", "H1 over navigation", "navigation without H1",
         "an empty H1 is none", "blank title is none", "true is no title", "structured title, empty name"],
)
def test_the_rule_asks_the_hooks_in_order(front_matter, text, hooks, title, asked):
    reader = _Hooks(**hooks)
    assert navigation_title(reader, parse_markdown(text, "stem"), FakeContext(front_matter=front_matter)) == title
    assert reader.asked == asked


def test_shows_h1_wants_text():
    assert shows_h1(parse_markdown("## a\n\n# b\n", "s"))
    assert not shows_h1(parse_markdown("#\n\n## a\n", "s"))
