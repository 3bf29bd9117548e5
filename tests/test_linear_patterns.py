"""Scanners that used to backtrack read long runs of their own openers right (issue 35, "Linear
time"). Each case is a size at which the old pattern took seconds (quadratic: every opener scanned
to the end of the text); the assertion is the result, the speed is in
``benchmarks/pattern_census.py``."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.scan.inline_links import links_as_text
from contextpull.dialects.jekyll import dialect as jekyll, liquid, liquid_filters
from contextpull.dialects.mdbook import dialect as mdbook
from contextpull.dialects.mdx import jsx
from contextpull.dialects.mkdocs import dialect as mkdocs, snippets
from contextpull.dialects.sphinx import role_text
from contextpull.dialects.sphinx.myst import converter as myst_converter
from contextpull.dialects.sphinx.myst import lines as myst_lines
from contextpull.dialects.sphinx.rst import doctree as rst_doctree
from contextpull.dialects.sphinx.xrefs import doc_titles
from contextpull.dialects.syntax.options import arguments

N = 100_000


def _scope() -> liquid.Scope:
    return liquid.Scope(lookup=lambda path: None, tag=lambda name, args, line: None,
                        note=lambda *a: None)


def test_jekyll_code_elements_without_a_closer_stay_as_written():
    text = "<code>" * N + "tail"
    assert jekyll._code_elements(text) == text


def test_jekyll_code_element_is_the_shortest_from_the_first_opener():
    text = "<code>" * N + "a</code> after"
    assert jekyll._code_elements(text) == "`a` after"


def test_jekyll_code_elements_with_attributes_are_code_and_their_openers_read_once():
    assert jekyll._code_elements('<p><code class="filter">{{ x | y }}</code></p> <codec>no</codec>') == \
        '<p>`{{ x | y }}`</p> <codec>no</codec>'
    for text in ("<code " * N + "tail", '<code class="a">' * N + "tail", "<code\n" * N):
        assert jekyll._code_elements(text) == text  # no closer: as written, each opener once
    assert jekyll._code_elements('<code class="a">' * N + "b</code>") == "`b`"


def test_jekyll_include_parameters_in_a_long_word_run():
    assert jekyll._include_args("note.html " + "a" * N, _scope()) == ("note.html", {})
    assert jekyll._include_args("note.html " + "a" * N + "=1 b='two'", _scope()) == (
        "note.html", {"a" * N: "1", "b": "two"})


def test_liquid_strip_html_on_openers_without_a_closer():
    assert liquid_filters.strip_html("<" * N + "x") == "<" * N + "x"
    assert liquid_filters.strip_html("a<b>c" + "<" * N + ">d") == "acd"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<>ab", max_size=30))
def test_liquid_strip_html_is_the_pattern_it_replaced(text):
    assert liquid_filters.strip_html(text) == re.sub(r"<[^>]*>", "", text)


def test_mdbook_listing_attributes_after_a_long_word_run():
    """A ``<Listing>``'s attributes are read by the one argument reader (``syntax.options``),
    which takes a long word once where the pattern it replaced tried it from every character."""
    line = "a" * N + ' number="1-2" caption="A `Point<T>`"'
    attrs = {a.name: a.value for a in arguments(line) if a.name is not None}
    assert attrs == {"number": "1-2", "caption": "A `Point<T>`"}


def test_mdx_tree_after_a_run_of_lone_angle_brackets():
    tree, problems = jsx.parse("<" * N + " <Tabs>x</Tabs>")
    assert tree[0] == "<" * N + " "
    assert isinstance(tree[1], jsx.Element) and tree[1].name == "Tabs" and tree[1].children == ["x"]
    assert problems == []


_OLD_TITLE = re.compile(r"""\{[^}]*\btitle=(?:"([^"]*)"|'([^']*)')[^}]*\}""")


def _old_directive_title(rest: str) -> str:
    rest = rest.strip()
    if rest.startswith("["):
        end = rest.rfind("]")
        if end > 0:
            return rest[1:end].strip()
    m = _OLD_TITLE.search(rest)
    if m is not None:
        return (m.group(1) or m.group(2) or "").strip()
    return re.sub(r"\{[^}]*\}\s*$", "", rest).strip()


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(["", "Careful", "Watch out", "x title"]),
       st.sampled_from(["", ' {title="T"}', " {title='T'}", " {#id}", " {.c #id}", ' {#id title="T"}']))
def test_mdx_directive_title_is_what_the_patterns_read(words, attributes):
    """On a title and a well-formed attribute list, the one attribute grammar reads what the
    replaced patterns read (on a malformed one, ``{}`` or a run of ``{``, it keeps the text,
    where the patterns dropped a last ``{...}`` whatever it held)."""
    rest = words + attributes
    assert jsx._directive_title(rest) == _old_directive_title(rest)


def test_mdx_directive_title_after_a_run_of_open_braces():
    assert jsx._directive_title("{" * N + ' {title="Careful"}') == "Careful"
    assert jsx._directive_title("Watch out " + "{" * N) == "Watch out " + "{" * N


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="``a ", max_size=30))
def test_mdbook_code_span_blanking_is_the_pattern_it_replaced(row):
    assert mdbook._blank_code_spans(row) == re.sub(r"(`+)[^`]*?\1", lambda m: " " * len(m.group(0)), row)


def test_mdbook_code_spans_in_a_long_run_of_backticks():
    assert mdbook._blank_code_spans("`" * N + " {{#each}}") == " " * N + " {{#each}}"
    assert mdbook._blank_code_spans("`" * (N + 1) + " {{#x}}") == " " * N + "` {{#x}}"
    assert mdbook._blank_code_spans("``a" + "`" * N) == " " * (N + 3)


class _Notes:
    def __init__(self):
        self.notes = []

    def note(self, *args):
        self.notes.append(args)


def _without_blank_run_guard(rx: re.Pattern) -> re.Pattern:
    return re.compile(rx.pattern.replace("(?<![ \\t])", ""))


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from([" ", "\t", "a", ")", ":material-x:", ":", "x:"]), max_size=12))
def test_mkdocs_icons_match_where_they_did(pieces):
    text = "".join(pieces)
    assert mkdocs._ICON.sub("", text) == _without_blank_run_guard(mkdocs._ICON).sub("", text)


def test_mkdocs_attribute_list_after_a_long_run_of_blanks():
    ctx = _Notes()
    assert mkdocs._inline("Word" + " " * N + "{ width=300 }", 1, ctx) == "Word"
    assert mkdocs._inline("Word" + " " * N + "{ width=300", 1, ctx) == "Word" + " " * N + "{ width=300"


def test_mkdocs_icon_after_a_long_run_of_blanks():
    ctx = _Notes()
    assert mkdocs._inline("Keep" + " " * N + ":material-check: done", 1, ctx) == "Keep done"
    assert mkdocs._inline("Keep" + " " * N + ":material-check done", 1, ctx) == "Keep" + " " * N + ":material-check done"


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="ab_[] é-", max_size=30))
def test_mkdocs_variant_options_are_what_the_pattern_found(text):
    assert snippets._variant_options(text) == re.findall(r"(\w+)\[([^\]]*)\]", text)


def test_mkdocs_variant_options_in_long_runs_of_openers():
    assert snippets._variant_options("a" * N + " ln[2:4]") == [("ln", "2:4")]
    assert snippets._variant_options("a[" * N) == []
    assert snippets._variant_options("a[" * N + "]") == [("a", "a[" * (N - 1))]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["`", "````", "`" * 9, "a", " ", "{ref}", "{", "}"]), max_size=16))
def test_sphinx_bounded_backtick_runs_match_as_before_below_the_guard(pieces):
    line = "".join(pieces)
    if doc_titles.LONG_TICKS in line:
        return
    old_inline = re.compile(r"\{([\w:.+-]+)\}(`+)(.+?)\2|(`+)(.+?)\4")
    assert [m.span() for m in myst_converter._INLINE.finditer(line)] == [m.span() for m in old_inline.finditer(line)]
    assert doc_titles.code_as_text(line) == re.sub(r"(`+)(.+?)\1", r"\2", line)


def test_sphinx_code_spans_in_long_runs_of_short_backtick_runs():
    title = ("`" * 16 + "a" + "`" * 16 + " ") * (N // 34) + "b"
    assert doc_titles.code_as_text(title) == "a " * (N // 34) + "b"
    # A run longer than the guard allows reaches no caller; the pattern alone still reads it in
    # one pass: spans of 16 + 1 + 16, then the widest that fits the last 10 (4 + 1 + 4).
    spans = [m.span() for m in myst_converter._INLINE.finditer("`" * N)]
    assert spans == [(33 * i, 33 * i + 33) for i in range(N // 33)] + [(99990, 99999)]
    line = "{ref}`" + "x" * N
    assert [m.span() for m in myst_converter._INLINE.finditer(line)] == []


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["<!--", "-->", "<!-->", "--", "\n", "a", "<", "-"]), max_size=14))
def test_myst_comment_lines_are_what_the_pattern_made(pieces):
    text = "".join(pieces)
    old = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.DOTALL)
    assert myst_lines._comments_to_newlines(text) == old


def test_myst_comments_after_a_long_run_of_openers():
    lines = ["<!--" * (N // 4), "text", "<!-- gone", "-->", "after"]
    assert myst_lines._strip_comments(lines) == ["", "", "", "", "after"]
    assert myst_lines._strip_comments(["<!--" * (N // 4) + " open"]) == ["<!--" * (N // 4) + " open"]


def _old_explicit(text):
    m = re.match(r"^(.+?)\s*(?<!\x00)<(.*?)>$", text, re.DOTALL)
    return None if m is None else (role_text.unescape(m.group(1)), role_text.unescape(m.group(2)))


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="<> a\x00\n\t\u2003", max_size=20))
def test_role_titles_are_what_sphinx_rule_reads(text):
    assert role_text.explicit(text) == _old_explicit(text)


def test_role_title_after_long_runs_of_blanks_and_openers():
    assert role_text.explicit("Title" + " " * N + "<target>") == ("Title", "target")
    assert role_text.explicit("Title" + " " * N + "<target") is None
    assert role_text.explicit("<" * N + "x") is None
    assert role_text.explicit("a" + "<" * N + ">") == ("a", "<" * (N - 1))


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from([":", "`", "a", " ", "<", ">", "~", ".", "!", "\t", ":ref:", "``"]), max_size=12))
def test_rst_title_and_problem_roles_read_as_before(pieces):
    text = "".join(pieces)  # role names here stay under the 64-character bound
    old_title = re.sub(r":[\w:.+-]+:`([^`<]*?)\s*(?:<[^`]*>)?`", lambda m: doc_titles._target(m.group(1)), text)
    old_title = re.sub(r"\*{1,2}([^*]+)\*{1,2}", r"\1", re.sub(r"``([^`]+)``", r"`\1`", old_title))
    assert doc_titles.plain_title(text) == old_title
    assert rst_doctree._ROLE.sub("", text) == re.sub(r":[\w.:+-]+:(?=`)", "", text)


def test_rst_roles_after_long_runs_of_colons_and_blanks():
    # A name of at most 64 characters ends the run: what comes before it stays.
    assert doc_titles.plain_title(":" * N + "ref:`Intro" + " " * N + "<intro>`") == ":" * (N - 62) + "Intro"
    assert doc_titles.plain_title(":ref:`Intro" + " " * N) == ":ref:`Intro" + " " * N
    assert rst_doctree._ROLE.sub("", ":" * N + "`x`") == ":" * (N - 66) + "`x`"


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="![]()a\n", max_size=24))
def test_links_as_text_is_the_pattern_it_replaced(text):
    assert links_as_text(text) == re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)


def test_links_as_text_after_long_runs_of_openers():
    assert links_as_text("[" * N + "see [the docs](x.md)") == "[" * (N - 1) + "see [the docs"
    assert links_as_text("![" * N) == "![" * N
    assert links_as_text("[a]" * N + "![b](c)") == "[a]" * N + "b"


def _brace_ends_one_character_at_a_time(text):
    """The scan brace_ends replaced, as the oracle: every character inside braces in turn."""
    ends, stack, n = {}, [], len(text)
    i = text.find("{")
    while 0 <= i < n:
        c = text[i]
        if c == "{":
            stack.append(i)
        elif c == "}":
            if stack:
                ends[stack.pop()] = i + 1
        elif not stack:
            i = text.find("{", i + 1)
            continue
        elif c in "\"'`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                break
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                break
            i = j + 1
        i += 1
    return ends


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["{", "}", "'", '"', "`", "\\", "/*", "*/", "/", "*", "a", "\n"]), max_size=20))
def test_mdx_brace_ends_are_the_one_character_scan(pieces):
    text = "".join(pieces)
    assert jsx.brace_ends(text) == _brace_ends_one_character_at_a_time(text)


def test_mdx_tree_after_a_run_of_open_braces():
    tree, problems = jsx.parse("{%" * N + " {x} <Tabs>y</Tabs>")
    assert tree[0] == "{%" * N + " "
    assert isinstance(tree[1], jsx.Expr) and tree[1].source == "x"
    assert tree[2] == " " and tree[3].name == "Tabs" and tree[3].children == ["y"]
    assert problems == []
    assert jsx.brace_ends("{" * N + "}") == {N - 1: N + 1}


_OLD_LITERAL = re.compile(r"""\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`$]*)`)\s*""", re.S)
_OLD_JS_STRING = {q: re.compile(q + r"(?:[^" + q + r"\\]|\\.)*" + q, re.S) for q in "\"'`"}


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="\"'`\\ a\n$\t", max_size=30), st.integers(0, 6))
def test_mdx_string_literals_are_the_patterns_they_replaced(text, start):
    old, new = _OLD_LITERAL.fullmatch(text), jsx._LITERAL.fullmatch(text)
    assert (old and old.groups()) == (new and new.groups())
    for quote in "\"'`":
        old, new = _OLD_JS_STRING[quote].match(text, start), jsx._JS_STRING[quote].match(text, start)
        assert (old and old.span()) == (new and new.span())


def test_mdx_a_long_string_prop_is_read_whole():
    body = '<pre class=\\"x\\">' * N
    assert jsx.Expr(f' "{body}" ', 0).literal == body
    assert jsx.brace_ends("{'" + "a" * N + "'}") == {0: N + 4}


def test_gitbook_empty_cells_kramdown_quote_headings_and_vitepress_notation_on_long_runs():
    """Three patterns tried from every character of a run of their openers took time quadratic
    in it (a 16 KB line of ``| `` 5 s); each now starts a run once, and reads as it did."""
    from contextpull.dialects.gitbook import html
    from contextpull.dialects.jekyll import kramdown
    from contextpull.dialects.vitepress import code_notation

    assert html._EMPTY_CELLS.sub("", "x" + "| " * N + "x") == "x" + "| " * N + "x"
    assert html._EMPTY_CELLS.sub("", "cell" + " | |" * N + "  \nnext") == "cell\nnext"
    heading = kramdown._QUOTE_HEADING.match("## Title" + " " * N + "##\nbody")
    assert heading.group(1).rstrip(" \t#").strip() == "Title" and heading.end() == len("## Title") + N + 3
    assert kramdown._QUOTE_HEADING.match("# a" + " " * N + "x").group(1).rstrip(" \t#") == "a" + " " * N + "x"
    assert code_notation._MARKER.search(" " * N + "[!code") is None
    assert code_notation.strip("```js\nlet a = 1" + " " * N + "// [!code highlight]\n```") == ("```js\nlet a = 1\n```", 1)


def test_unshown_elements_never_closed_or_inside_lines_read_once():
    """``markup.without_unshown_elements``: a search for a closer that found none is not made
    again, svg tags are paired in one pass, and an opener inside a line looks back a bounded
    way; each of these took seconds when every opener searched to the end."""
    from contextpull.dialects.syntax.markup import without_unshown_elements

    for text in ("<style>\n" * N, "x<style>" * N, "<svg><svg>" * (N // 2) + "</svg>", "<svg\n" * N,
                 "<svg \n" * N + ">", "<style \n" * N + ">"):  # openers before one far ``>``
        assert without_unshown_elements(text) == text
    # one closer closes the innermost drawing; the ones around it never close and stay
    assert without_unshown_elements("<svg>\n" * N + "</svg>") == "<svg>\n" * (N - 1) + "\n"


def test_mkdocs_keys_read_each_run_once():
    """``mkdocs/keys.py``: runs that never close, quotes that never close, and closed runs, a
    megabyte of each, read in one pass."""
    from contextpull.dialects.mkdocs.keys import Keys

    keys = Keys({})
    assert keys.read("++" * N) == "++" * N
    assert keys.read('++"x' * N) == '++"x' * N  # each quote closes on the next, then no run
    assert keys.read("++ctrl+q++" * N) == "Ctrl+Q" * N
