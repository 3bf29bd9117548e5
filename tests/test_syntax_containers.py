"""Containers and directives (dialects/syntax/containers.py, container_tree.py): each syntax's line rule as
stated, the tree ``scan`` builds held to the closing rules read one container at a time (the way
the dialects read them), and the same answers on long runs of openers, at sizes where a scanner
that searched again per opener would take minutes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.syntax import containers as c
from contextpull.dialects.syntax import container_tree as t
from contextpull.dialects.syntax.container_tree import scan
from contextpull.dialects.syntax.containers import MAX_NESTING, Opener


def _shape(found):
    return [(x.line, x.body, x.end, x.after, x.closed, _shape(x.children)) for x in found]


def test_each_syntax_reads_its_opener():
    assert c.myst("```{note} Title") == Opener("", "```", "note", " Title")
    assert c.myst("- ::::{admonition} A") == Opener("- ", "::::", "admonition", " A")
    assert c.myst("```python") == Opener("", "```", None, "python")
    assert c.myst(":::") is None and c.myst("::: x") is None  # a colon fence needs {name}
    assert c.colons(":::tip[Title]{#id}") == Opener("", ":::", "tip", "[Title]{#id}")
    assert c.colon_closer(c.colons("::::  ")) and not c.colon_closer(c.colons(":::note"))
    assert c.slashes("//// details | Summary here  ") == Opener("", "////", "details", "Summary here")
    assert c.slash_closer("  ////  ") == 4 and c.slash_closer("/// x") == 0
    assert c.admonition('!!! note "Title"') == Opener("", "!!!", "note", "Title")
    assert c.admonition("???+ tip") == Opener("", "???+", "tip", None)
    assert c.tab('=== "Python"') == Opener("", "===", None, "Python")
    assert c.callout("> [!NOTE]") == Opener("", ">", "NOTE", None)
    assert c.callout("> [!NOTE] Title") is None and c.callout("> [!BOGUS]") is None
    assert c.callout("> [!WARNING]+ Radiation", extended=True) == Opener("", ">", "WARNING", "Radiation")


def test_myst_nests_by_a_longer_outer_fence_and_reads_options():
    lines = ["::::{note}", ":class: x", "", ":::{tip}", "body", ":::", "```py", ":::{x}", "```", "::::", "after"]
    [outer] = scan(lines, t.MYST)
    assert (outer.line, outer.body, outer.end, outer.closed, outer.options) == (0, 2, 9, True, {"class": "x"})
    assert [(x.opener.name, x.line, x.end) for x in outer.children] == [("tip", 3, 5), (None, 6, 8)]
    assert outer.children[1].children == []  # code holds no directives


def test_colons_close_the_innermost_at_least_as_long():
    lines = [":::::note", ":::tip", "x", ":::", ":::", "::::::", "after"]
    [outer] = scan(lines, t.COLONS)
    assert (outer.end, outer.closed, [(x.line, x.end) for x in outer.children]) == (5, True, [(1, 3)])
    assert scan([":::note", "::", "x"], t.COLONS)[0].closed is False


def test_slashes_close_by_the_same_count_skipping_code():
    lines = ["/// note | T", "    type: x", "//// tab", "/// tip", "///", "////", "```", "///", "```", "///"]
    [outer] = scan(lines, t.SLASHES)
    assert (outer.body, outer.end, outer.closed) == (2, 9, True)
    assert [(x.line, x.end) for x in outer.children] == [(2, 5)]
    assert [(x.line, x.end) for x in outer.children[0].children] == [(3, 4)]


def test_a_same_count_opener_ended_by_another_count_still_pairs_with_a_closer():
    """As the mkdocs dialect counts (``slash_close``): the inner ``/// note`` ends with its
    ``////`` parent, yet the outer block counts it open, so the last ``///`` closes nothing."""
    lines = ["/// note", "//// tab | T", "/// note", "////", "///"]
    [outer] = scan(lines, t.SLASHES)
    assert (outer.end, outer.closed, [(x.line, x.end, x.closed) for x in outer.children]) == (5, False, [(1, 3, True)])


def test_indented_and_quoted_bodies():
    lines = ['!!! note "T"', "    one", "", '    ??? tip', "        two", "out"]
    [note] = scan(lines, t.ADMONITIONS)
    assert (note.end, [(x.opener.name, x.line, x.end) for x in note.children]) == (5, [("tip", 2, 4)])
    quotes = scan(["> [!TIP]", "> a", "lazy", "", "> [!NOTE]"], t.CALLOUTS)
    assert [(q.opener.name, q.line, q.end) for q in quotes] == [("TIP", 0, 3), ("NOTE", 4, 5)]


def _myst_reference(lines, lo, hi, depth):
    """MyST read one container at a time: its closer is the first later line that closes it
    (nothing inside counts), its body read again one level down; code holds nothing."""
    out, i = [], lo
    while i < hi:
        opened = c.myst(lines[i])
        if opened is None or depth >= MAX_NESTING:
            i += 1
            continue
        j = next((j for j in range(i + 1, hi) if c.myst_closes(lines[j], opened)), hi)
        inner = [] if opened.name is None else _myst_reference(lines, i + 1, j, depth + 1)
        out.append((i, j, j < hi, inner))
        i = j + 1
    return out


def _slash_reference(lines, lo, hi, depth):
    """pymdown read one block at a time: ``slash_close`` over its body, then the body again."""
    out, i = [], lo
    while i < hi:
        fence = c.open_fence(lines[i])
        if fence is not None:
            i = min(c.fence_end(lines[:hi], i, fence), hi)
            continue
        opened = c.slashes(lines[i])
        if opened is None or depth >= MAX_NESTING:
            i += 1
            continue
        j = c.slash_close(lines[:hi], i + 1, len(opened.marker))
        out.append((i, j, j < hi, _slash_reference(lines, i + 1, j, depth + 1)))
        i = j + 1
    return out


def _tree(found, hi):
    return [(x.line, min(x.end, hi), x.closed, _tree(x.children, x.end)) for x in found]


_MYST_PIECES = st.sampled_from([":::{note}", "::::{tip}", ":::", "::::", "```", "````", "```{x}", "```py", "~~~",
                                "- :::{a}", "   :::", "    :::", "text", ":k: v", ""])
_SLASH_PIECES = st.sampled_from(["/// note", "//// tab | T", "///", "////", "```", "~~~", "text", "    k: v", ""])


@settings(max_examples=500, deadline=None)
@given(st.lists(_MYST_PIECES, max_size=16))
def test_myst_tree_is_the_one_container_at_a_time_reading(lines):
    assert _tree(scan(lines, t.MYST), len(lines)) == _myst_reference(lines, 0, len(lines), 0)


@settings(max_examples=500, deadline=None)
@given(st.lists(_SLASH_PIECES, max_size=16))
def test_slash_tree_is_the_one_block_at_a_time_reading(lines):
    assert _tree(scan(lines, t.SLASHES), len(lines)) == _slash_reference(lines, 0, len(lines), 0)


def _depth(found):
    return max((1 + _depth(x.children) for x in found), default=0)


def test_long_runs_of_openers():
    closers = [":::"] * 200_000
    assert scan(closers, t.COLONS) == [] and scan(closers, t.MYST) == []
    openers = [":::note"] * 200_000
    [outer] = scan(openers, t.COLONS)
    assert _depth([outer]) == MAX_NESTING and not outer.closed
    assert c.colons(":" * 1_000_000).marker == ":" * 1_000_000
    assert scan([":" * 1_000_000], t.COLONS) == [] and scan([":" * 1_000_000 + "{x}"], t.MYST)[0].opener.name == "x"
    assert c.slashes("/" * 1_000_000) is None and c.slash_closer("/" * 1_000_000) == 1_000_000
    nested = ["/// note"] * 10_000 + ["///"] * 10_000
    [outer] = scan(nested, t.SLASHES)  # every opener pairs with a closer, those past the bound too
    assert (outer.end, outer.closed, _depth([outer])) == (19_999, True, MAX_NESTING)
    myst = [":::{note}"] * 10_000 + [":::"]
    [outer] = scan(myst, t.MYST)
    assert (outer.end, outer.closed, _depth([outer])) == (10_000, True, MAX_NESTING)
    bangs = [" " * 4 * k + "!!! note" for k in range(1_000)]  # 2 MB: indentation grows with depth
    assert _depth(scan(bangs, t.ADMONITIONS)) == MAX_NESTING
    assert len(scan(["!!! note"] * 200_000, t.ADMONITIONS)) == 200_000
    quotes = ["> [!NOTE]"] + ["> x"] * 200_000
    assert [q.end for q in scan(quotes, t.CALLOUTS)] == [200_001]
    assert c.callout("> [!NOTE]+" + " " * 1_000_000 + "x", extended=True).title == "x"


def test_rst_directives_and_their_indented_bodies():
    assert c.rst("  .. note:: Title") == Opener("  ", "..", "note", " Title")
    assert c.rst(".. _target:") is None and c.rst("..note::") is None
    lines = [".. note::", "", "   one", "", "   .. tip:: x", "", "      two", "", "after"]
    [note] = scan(lines, t.RST)
    assert (note.end, [(x.opener.name, x.line, x.end) for x in note.children]) == (7, [("tip", 3, 6)])
    assert c.rst_body(lines, 1, 0) == (["", "one", "", ".. tip:: x", "", "   two"], 7)
    assert c.rst(".. " + "a:" * 500_000) is None  # no "::": the name gives back one character at a time, once
    assert len(c.rst(".. " + ":" * 1_000_000).name) == 999_998
    assert len(scan([".. note::"] * 200_000, t.RST)) == 200_000


def test_a_tab_indented_body_is_dedented_by_columns():
    [note] = scan(["!!! note", "\t!!! tip", "\t    two"], t.ADMONITIONS)
    assert [(x.opener.name, x.line, x.end) for x in note.children] == [("tip", 0, 2)]
