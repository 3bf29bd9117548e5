"""MDX as its page shows it (contextpull/dialects/mdx/mdx.py): ESM, JSX, admonitions, tabs,
partials and raw imports, one fixture file per syntax; code never edited."""

from __future__ import annotations

import pytest

from contextpull.dialects.mdx.mdx import prepare
from mdx_helpers import FakeContext, read_fixtures


def _cases(*names):
    return [pytest.param(src, want, id=f"{name}:{title}") for name in names for title, src, want in read_fixtures(name)]


@pytest.mark.parametrize(("source", "expected"), _cases("mdx_esm.txt", "mdx_admonitions.txt", "mdx_jsx.txt"))
def test_mdx_fixtures(source, expected):
    assert prepare(source, FakeContext()) == expected


PAGE = "docs/guide/page.mdx"


def test_a_partial_is_rendered_where_it_is_used_with_its_props():
    files = {
        "docs/guide/_intro.mdx": "---\nsidebar_label: x\n---\n\nWelcome, {props.reader}.\n\n:::tip\nRead on.\n:::\n",
    }
    ctx = FakeContext(files, path=PAGE)
    source = "import Intro from './_intro.mdx';\n\n# Guide\n\n<Intro reader=\"newcomer\" />\n\nAfter."
    assert prepare(source, ctx) == "# Guide\n\nWelcome, newcomer.\n\nTip: Read on.\n\nAfter."
    assert ("mdx partial", "resolved", 5) in ctx.outcomes()
    assert ("admonition", "converted", 5) in ctx.outcomes()  # notes inside a partial stand at its use
    assert ctx.included == ["docs/guide/_intro.mdx"]


def test_site_imports_start_at_the_folder_of_the_docusaurus_config():
    files = {"website/src/partials/_shared.md": "Shared text.", "website/docs/_local.mdx": "Local."}
    ctx = FakeContext(files, path="website/docs/a.mdx", docs="website/docs", config_file="website/docusaurus.config.ts")
    source = "import Shared from '@site/src/partials/_shared.md'\nimport Local from './_local.mdx'\n\n<Shared />\n\n<Local/>"
    assert prepare(source, ctx) == "Shared text.\n\nLocal."


def test_nested_partials_are_read_from_their_own_folder():
    files = {
        "docs/parts/_outer.mdx": "import Inner from './deeper/_inner.mdx'\n\nOuter.\n\n<Inner />",
        "docs/parts/deeper/_inner.mdx": "Inner.",
    }
    ctx = FakeContext(files, path="docs/page.mdx")
    assert prepare("import Outer from './parts/_outer.mdx'\n\n<Outer />", ctx) == "Outer.\n\nInner."
    assert ctx.included == ["docs/parts/_outer.mdx", "docs/parts/deeper/_inner.mdx"]


def test_a_partial_that_imports_itself_stops_with_a_named_note():
    files = {"docs/_loop.mdx": "import Loop from './_loop.mdx'\n\nOnce.\n\n<Loop />"}
    ctx = FakeContext(files, path="docs/page.mdx")
    assert prepare("import Loop from './_loop.mdx'\n\n<Loop />", ctx) == "Once."
    unresolved = [n for n in ctx.notes if n.outcome == "unresolved"]
    assert [(n.construct, n.line) for n in unresolved] == [("mdx partial", 3)]
    assert "cycle" in unresolved[0].detail


def test_a_missing_partial_is_dropped_with_its_line_noted():
    ctx = FakeContext({}, path="docs/page.mdx")
    source = "import Gone from './_gone.mdx'\n\nBefore.\n\n<Gone />\n\nAfter."
    assert prepare(source, ctx) == "Before.\n\nAfter."
    assert ("mdx partial", "unresolved", 5) in ctx.outcomes()


def test_a_raw_loader_import_fills_its_code_block_exactly():
    code = "const a = 1;\n\n\n  // indented, blank lines kept\n"
    ctx = FakeContext({"docs/examples/app.js": code}, path="docs/page.mdx")
    source = "import CodeBlock from '@theme/CodeBlock';\nimport App from '!!raw-loader!./examples/app.js';\n\n<CodeBlock language=\"js\">{App}</CodeBlock>"
    assert prepare(source, ctx) == "```js\nconst a = 1;\n\n\n  // indented, blank lines kept\n```"
    assert ("mdx raw import", "resolved", 4) in ctx.outcomes()


def test_a_module_import_used_as_a_partial_name_is_not_read():
    ctx = FakeContext({}, path="docs/page.mdx")
    assert prepare("import Chart from 'some-package/Chart.mdx'\n\n<Chart />", ctx) == ""
    assert ctx.outcomes()[-1] == ("mdx partial", "unresolved", 3)


def test_every_construct_is_noted_at_its_line():
    ctx = FakeContext()
    source = "import X from 'x'\n\n:::tip\nA {value} b\n:::\n\n<Tabs>\n<TabItem value=\"a\">t</TabItem>\n</Tabs>\n\n<Unclosed>"
    prepare(source, ctx)
    assert sorted(ctx.outcomes(), key=lambda o: o[2]) == [
        ("mdx import", "converted", 1),
        ("admonition", "converted", 3),
        ("mdx expression", "unresolved", 4),
        ("tabs", "converted", 7),
        ("jsx", "unresolved", 11),
    ]


@pytest.mark.parametrize(
    "source",
    [
        "<" * 5000,
        "{" * 5000,
        "<A " * 2000,
        ":::tip\n" * 2000,
        "<Tabs>\n" * 500 + "```\n" + "</Tabs>\n" * 500,
        "{/* never closed",
        "import {\n" * 300,
    ],
    ids=["angles", "braces", "open tags", "open directives", "tags around a fence", "comment", "imports"],
)
def test_broken_input_gives_text_and_notes_never_an_exception(source):
    out = prepare(source, FakeContext())
    assert isinstance(out, str)


@pytest.mark.parametrize(
    ("setting", "path", "commonmark"),
    [
        ("", "docs/a.md", False),
        ("markdown: { format: 'detect' },", "docs/a.md", True),
        ("markdown: { format: 'detect' },", "docs/a.mdx", False),
        ('markdown: {format: "md"},', "docs/a.mdx", True),
        ("markdown: { format: 'mdx' },", "docs/a.md", False),
    ],
)
def test_a_site_configured_for_commonmark_keeps_braces_and_import_lines(setting, path, commonmark):
    config = f"export default {{ title: 'x', {setting} }};\n"
    ctx = FakeContext({"docusaurus.config.js": config}, path=path)
    source = "import X from 'y'\n\nSet {a} here."
    out = prepare(source, ctx)
    assert out == (source if commonmark else "Set  here.")


def test_code_lines_of_spaces_keep_their_spaces():
    source = "<Tabs>\n<TabItem value=\"a\">\n\n```py\nx = 1\n    \n\ty = 2\n```\n\n</TabItem>\n</Tabs>"
    assert prepare(source, FakeContext()) == "a:\n\n```py\nx = 1\n    \n\ty = 2\n```"


def test_an_indented_body_whose_code_holds_a_blank_line_is_dedented_whole():
    """hoppscotch's docs indent a tab's body four spaces, and its code blocks hold blank lines:
    the body is read at the margin, headings and all, and its code closes where it opened."""
    source = ("<Tabs>\n    <Tab title=\"hopp\">\n    ## `hopp.env`\n\n    Reads a variable.\n\n    ```js\n    const a = 1\n\n"
              "    hopp.env.get(a)\n    ```\n  </Tab>\n</Tabs>")
    assert prepare(source, FakeContext()) == (
        "hopp:\n\n## `hopp.env`\n\nReads a variable.\n\n```js\nconst a = 1\n\nhopp.env.get(a)\n```")


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.sampled_from(
    ["<Tabs>", "</Tabs>", "<TabItem value=\"a\">", "</TabItem>", "<X />", "<details>", "<summary>", "</summary>",
     "</details>", ":::tip", ":::", "::::note T", "::::", "{", "}", "{/*", "*/}", "`", "import X from './_x.mdx'",
     "<X/>", "export const a = {", "\n", "\n\n", "  ", "text", "a < b", "&amp;", "<!-- c -->", "-->", "\\{", "'", "\""]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40), st.text(alphabet="<{}>:`'\"x \n", max_size=30))
def test_any_mix_of_mdx_pieces_gives_text_and_leaves_a_fence_exactly_as_written(pieces, code):
    code = code.replace("```", "")
    fence = f"```\n{code}\n```"
    source = "".join(pieces) + "\n\n" + fence + "\n"
    ctx = FakeContext({"docs/_x.mdx": "".join(reversed(pieces))}, path="docs/page.mdx")
    out = prepare(source, ctx)
    assert isinstance(out, str)
    if source.count("```") == 2:  # no stray backtick run that would reopen the fence
        assert fence in out


def test_package_imports_are_never_read_as_files():
    ctx = FakeContext({}, path="docs/page.mdx")
    prepare("import Link from '@docusaurus/Link';\nimport T from '@theme/Tabs';\n\n<Link to=\"/\">x</Link>", ctx)
    assert ctx.included == []
    assert all(n.outcome != "unresolved" for n in ctx.notes)


def test_the_deepest_nesting_inside_the_deepest_partial_chain_still_renders():
    """Nesting is bounded per source (jsx.MAX_NESTING) and partials by the include depth, so the
    worst page a chain can build stays inside Python's recursion limit."""
    from contextpull.dialects.mdx.jsx import MAX_NESTING

    deep = "<A>\n" * MAX_NESTING + "text\n\n<P />\n\n" + "</A>\n" * MAX_NESTING
    files = {f"docs/_p{k}.mdx": f"import P from './_p{k + 1}.mdx'\n\n{deep}" for k in range(12)}
    ctx = FakeContext(files, path="docs/page.mdx")
    out = prepare("import P from './_p0.mdx'\n\n<P />", ctx)
    assert out.count("text") == 10  # the fake's depth limit, as the real resolver's
    assert ("mdx partial", "unresolved", 3) in ctx.outcomes()


def test_a_json_import_gives_the_values_the_page_shows():
    package = '{"engines": {"node": ">=18"}, "peers": ["eslint"], "private": true, "nested": {"a": {}}}'
    ctx = FakeContext({"packages/plugin/package.json": package}, path="docs/users/versions.mdx")
    source = (
        "import pkg from '../../packages/plugin/package.json';\n\n"
        "Node {pkg.engines.node}, with {pkg.peers[0]}; private: {pkg.private}. {pkg.nested.a} {pkg.missing}"
    )
    assert prepare(source, ctx) == "Node >=18, with eslint; private: true.  "
    outcomes = ctx.outcomes()
    assert outcomes.count(("mdx json import", "resolved", 3)) == 1  # read once for the page
    assert outcomes.count(("mdx expression", "unresolved", 3)) == 2


def test_a_raw_query_import_fills_its_code_block():
    ctx = FakeContext({"src/types.ts": "export type A = 1;\n"}, path="docs/page.mdx")
    source = "import Types from '!!../src/types.ts?raw';\n\n<CodeBlock language=\"ts\">{Types}</CodeBlock>"
    assert prepare(source, ctx) == "```ts\nexport type A = 1;\n```"


def _component_notes(ctx):
    return [(n.outcome, n.line, n.detail) for n in ctx.notes if n.construct in ("jsx component", "admonition")]


def test_a_component_the_page_never_defines_is_named_and_keeps_its_text():
    ctx = FakeContext()
    out = prepare("# U\n\n<NoSuch prop={1}>\nINNER\n</NoSuch>\n\n<Gone />\n", ctx)
    assert "INNER" in out
    assert _component_notes(ctx) == [
        ("unresolved", 3, "unknown component <NoSuch>: not imported and not provided by Docusaurus, its inner text kept"),
        ("unresolved", 7, "unknown component <Gone>: not imported and not provided by Docusaurus, nothing kept"),
    ]


@pytest.mark.parametrize(
    ("source", "files"),
    [
        ("import Box from '@site/src/components/Box'\n\n<Box>INNER</Box>", {}),
        ("import { Box as Boxed } from './box'\n\n<Boxed>INNER</Boxed>", {}),
        ("import * as UI from './ui'\n\n<UI.Box>INNER</UI.Box>", {}),
        ("export const Box = ({children}) => <b>{children}</b>;\n\n<Box>INNER</Box>", {}),
        ("<Details>INNER</Details>", {}),  # the theme's MDXComponents
        ("<Box>INNER</Box>", {"src/theme/MDXComponents.js": "import Box from '@site/src/Box';\n"
                                                             "export default {...MDXComponents, Box};\n"}),
    ],
)
def test_a_component_that_is_imported_defined_or_provided_stays_converted(source, files):
    ctx = FakeContext(files)
    assert "INNER" in prepare(source, ctx)
    assert [o for o, _, _ in _component_notes(ctx)] == ["converted"]


def test_outside_docusaurus_no_component_is_called_undefined():
    ctx = FakeContext(dialect="mkdocs", config_file="mkdocs.yml")
    prepare("<NoSuch>INNER</NoSuch>", ctx)
    assert [o for o, _, _ in _component_notes(ctx)] == ["converted"]


@pytest.mark.parametrize(
    ("config", "outcome"),
    [
        ("module.exports = {title: 'x'};", "unresolved"),
        ("module.exports = {presets: [['classic', {docs: {admonitions: {keywords: ['nosuch', 'x']}}}]]};", "converted"),
        ("const admonitions = require('./admonitions');\nmodule.exports = {presets: [['classic', {docs: {admonitions}}]]};",
         "converted"),  # keywords the build cannot read: none is called unknown
        ("module.exports = {presets: [['classic', {docs: {remarkPlugins: [myDirectives]}}]]};", "converted"),
        ("module.exports = {presets: [['classic', {docs: {remarkPlugins: []}}]]};", "unresolved"),
    ],
)
def test_a_container_that_is_no_admonition_keyword_is_named(config, outcome):
    ctx = FakeContext({"docusaurus.config.js": config})
    out = prepare(":::nosuch\nINNER\n:::\n\n:::tip\nTIP\n:::\n", ctx)
    assert "INNER" in out and "TIP" in out
    notes = _component_notes(ctx)
    assert [o for o, _, _ in notes] == [outcome, "converted"]
    if outcome == "unresolved":
        assert notes[0][2] == ("unknown admonition :::nosuch: not a Docusaurus keyword nor in admonitions.keywords,"
                               " its text kept")


@pytest.mark.parametrize(
    "statement",
    [
        "import S from '../../secret.txt';",
        'import {a, b} from "../../lib/x.js";',
        "import '../../../styles/x.css';",
        "import * as All from '@site/../outside.json';",
        "export {default} from '../../y.mdx';",
    ],
)
def test_an_import_of_any_file_type_outside_the_repository_is_named_at_its_line(statement):
    ctx = FakeContext({}, path="docs/page.mdx")
    text = prepare(f"# Page\n\n{statement}\n\nText.", ctx)
    assert text == "# Page\n\nText."
    unresolved = [(n.construct, n.line, n.detail) for n in ctx.notes if n.outcome == "unresolved"]
    spec = statement.split("'")[1] if "'" in statement else statement.split('"')[1]
    assert unresolved == [(f"mdx {statement.split()[0]}", 3, f"outside the repository, not read: {spec}")]
    assert ctx.included == []


@pytest.mark.parametrize(
    "statement",
    ["import Tabs from '@theme/Tabs';", "import S from './inside.txt';", "import X from '../shared/x.js';",
     "import Y from '@site/src/y.js';"],
)
def test_an_import_inside_the_repository_or_of_a_package_is_no_refusal(statement):
    ctx = FakeContext({}, path="docs/page.mdx")
    prepare(f"{statement}\n\nText.", ctx)
    assert [(n.construct, n.outcome) for n in ctx.notes] == [("mdx import", "converted")]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["from", "import", " ", "\n", "'", '"', "./x", "../", "a"]),
                          st.integers(1, 3000)), min_size=1, max_size=6))
def test_specifiers_read_long_runs_whole(runs):
    """Long runs of what the specifier pattern looks for: it reads them in one pass and finds
    a specifier written after them."""
    from contextpull.dialects.mdx.import_paths import specifiers

    source = "".join(token * count for token, count in runs) + "\nimport X from '../../last.txt'\n"
    assert specifiers(source)[-1] == "../../last.txt"


_INDENTED_TEXT = st.text(alphabet=" \t\n\u00a0ax", max_size=24)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.one_of(_INDENTED_TEXT, st.just(None)), max_size=6), st.integers(1, 6), st.booleans())
def test_jsx_body_indentation_is_read_line_by_line(parts, width, first):
    """A body's indentation is the least of its text lines' (and of the line before a nested
    element, blank or not); dedenting takes up to that many blanks off each line."""
    from contextpull.dialects.mdx import mdx
    from contextpull.dialects.mdx.jsx import Element

    nodes = [Element("X", {}, 0, False, "<X>") if p is None else p for p in parts]
    leads = []
    for k, node in enumerate(nodes):
        if isinstance(node, str):
            lines = node.split("\n")[1:]
            for j, line in enumerate(lines):
                if line.strip() or (k + 1 < len(nodes) and j == len(lines) - 1):
                    leads.append(len(line) - len(line.lstrip(" \t")))
    assert mdx._indentation(nodes) == min(leads, default=0)
    for node in (p for p in parts if p is not None):
        lines = node.split("\n")
        expected = [line if j == 0 and not first else line[min(len(line) - len(line.lstrip(" \t")), width):]
                    for j, line in enumerate(lines)]
        assert mdx._dedent(node, width, first) == "\n".join(expected)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=" \t\n\u00a0\u3000\r\x0bab", max_size=30))
def test_space_lines_are_emptied_as_the_per_line_rule_reads_them(text):
    import re

    from contextpull.dialects.mdx.mdx import _blank_space_lines
    assert _blank_space_lines(text) == re.sub(r"^[^\S\n]+$", "", text, flags=re.M)


def test_an_import_a_formatter_wrapped_after_its_keyword_is_one_statement():
    """React Native's integration guide: prettier wrapped ``import A from './_a.md'; import`` /
    ``B from './_b.md';`` over two lines, one ESM block to MDX. The second line was read as prose
    and ``<B />`` as an unknown component: its partial, the Android guide, was lost (the page
    24 -> 43 sections)."""
    files = {"docs/_apple.md": "Apple steps.", "docs/_kotlin.md": "Kotlin steps."}
    ctx = FakeContext(files, path="docs/page.md")
    source = ("import Apple from './_apple.md'; import\nKotlin from './_kotlin.md';\n\n"
              "Intro.\n\n<Kotlin />\n\n<Apple />")
    assert prepare(source, ctx) == "Intro.\n\nKotlin steps.\n\nApple steps."
    assert not [n for n in ctx.notes if n.outcome == "unresolved"]
    # a statement that ended stays ended: prose on the next line is prose
    assert prepare("import Apple from './_apple.md';\nText after.", FakeContext(files)) == "Text after."
    # ``--dialect plain`` reads MDX as it did: its stores do not change
    plain = FakeContext(files, path="docs/page.mdx", dialect="plain", config_file=None)
    assert "Kotlin from" in prepare(source, plain)


def test_a_code_block_of_a_template_literal_keeps_its_text_and_names_the_interpolation():
    """React Native's install commands, ``<CodeBlock>{`npx ... --version ${getCurrentVersion()}`}
    </CodeBlock>``: the value is JavaScript no build runs, the command is the page's (8 blocks on
    4 pages were dropped whole, 0 now)."""
    ctx = FakeContext(path="docs/page.md")
    source = ("import CodeBlock from '@theme/CodeBlock';\n\nRun:\n\n<CodeBlock language=\"bash\" title=\"shell\">\n"
              "{`npx cli init App --version ${getCurrentVersion()}`}\n</CodeBlock>\n\nDone.")
    assert prepare(source, ctx) == ("Run:\n\n```bash title=\"shell\"\nnpx cli init App --version ${getCurrentVersion()}\n```"
                                    "\n\nDone.")
    [note] = [n for n in ctx.notes if n.outcome == "unresolved"]
    assert (note.construct, note.line) == ("code block component", 5) and "kept as written" in note.detail
    # any other expression is still JavaScript, never run, and dropped with its note
    assert prepare("<CodeBlock>\n{makeCode()}\n</CodeBlock>\n\nAfter.", FakeContext(path="docs/page.md")) == "After."
    # ``--dialect plain`` reads MDX as it did: its stores do not change
    plain = FakeContext(path="docs/page.mdx", dialect="plain", config_file=None)
    assert prepare(source, plain) == "Run:\n\nDone."
