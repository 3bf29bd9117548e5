"""The VitePress dialect (contextpull/dialects/vitepress/): a fixture site built end to end and its
stored sections compared with a pytest-regressions fixture; detection from ``.vitepress/config.*``;
regions; the page rule from ``srcDir``/``srcExclude``; and bad input: unclosed containers and code
groups, a megabyte line of each opener, includes and imports that leave the repository or loop,
a missing region, a malformed configuration, each a named note, bounded, never a traceback."""

from __future__ import annotations

import sqlite3

import pytest

from contextpull.dialects.detect import detect_site
from contextpull.dialects.site_reader import open_site
from contextpull.dialects.vitepress import regions

from dialect_context import context
from site_build import DOCUMENTS, SECTIONS, build_json, store_rows, write_site

CONFIG = "docs/.vitepress/config.ts"

SITE = {
    CONFIG: """import { defineConfig } from 'vitepress'
export default defineConfig({
  title: 'Demo',
  srcExclude: ['**/parts/*', 'README.md'],
  themeConfig: {
    sidebar: [
      { text: 'Getting started', link: '/guide/start' },
      { link: '/guide/no-heading', text: 'From the sidebar' },
    ],
  },
})
""",
    "docs/index.md": """---
layout: home
hero:
  name: Demo
  text: A site
  tagline: Built with VitePress
  actions:
    - text: Start
      link: /guide/start
features:
  - title: Fast
    details: Very fast.
---
""",
    "docs/README.md": "# Not a page\n",
    "docs/parts/shared.md": "---\ntitle: Partial\n---\n# Shared\n\nShared line one.\n<!-- #region keep -->\nKept region.\n<!-- #endregion keep -->\nLast line.\n",
    "docs/snippets/app.ts": "import x from 'x'\n// #region setup\n  const app = createApp()\n  app.mount('#app')\n// #endregion setup\nexport default app\n",
    "docs/guide/start.md": """<script setup>
import { ref } from 'vue'
const count = ref(0)
</script>

# Getting started <Badge type="danger">advanced</Badge> {#start}

[[toc]]

Read this first <Badge text="beta" />.

::: tip
Use the CLI.
:::

::: warning Careful {#careful}
Do not run as root.
:::

::: details Show the code
Inside details.
:::

::: code-group
```sh [npm]
npm add -D vitepress
```
```sh [pnpm]
pnpm add -D vitepress
```
:::

<<< @/snippets/app.ts#setup{1,2} [main.ts]

<!--@include: ../parts/shared.md-->

<!--@include: @/parts/shared.md{6,6}-->

<!--@include: ../parts/shared.md#keep-->

> [!NOTE]
> A GitHub alert.

```md
::: tip
Shown as written: this is code.
:::
<!--@include: ../parts/in-code-too.md-->
```

<style>
.x { color: red }
</style>
""",
    "docs/guide/no-heading.md": "Some text without a heading.\n",
    # VitePress expands includes on the raw page, inside fenced code too
    "docs/parts/in-code-too.md": "Included in code too.\n",
}


def _build(tmp_path, files):
    root = write_site(tmp_path / "repo", files)
    report = build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    with sqlite3.connect(store) as db:
        documents = [list(row[:2]) for row in db.execute(DOCUMENTS).fetchall()]
        sections = [list(row) for row in db.execute(SECTIONS).fetchall()]
    return report, documents, sections


def test_a_site_reads_as_its_pages_show(tmp_path, data_regression):
    report, documents, sections = _build(tmp_path, SITE)
    assert report["dialect"]["name"] == "vitepress"
    assert report["dialect"]["config_file"] == CONFIG
    data_regression.check({
        "documents": documents,
        "sections": sections,
        "constructs": report["dialect"]["constructs"],
        "not_pages": report["dialect"]["not_pages"],
        "unresolved": report["dialect"]["unresolved"],
    })


@pytest.mark.parametrize("ext", ["js", "ts", "mjs", "mts", "cjs", "cts"])
def test_detected_from_the_vitepress_folder_in_docs_or_above(tmp_path, ext):
    root = write_site(tmp_path / "repo", {f"docs/.vitepress/config.{ext}": "export default {}\n", "docs/a/b.md": "# B\n"})
    site = detect_site(root / "docs")
    assert (site.dialect, site.config_file) == ("vitepress", f"docs/.vitepress/config.{ext}")
    assert detect_site(root / "docs" / "a").dialect == "vitepress"
    assert open_site(site).site_folder == "docs"


@pytest.mark.parametrize(("files", "chosen"), [
    (["config/index.ts"], "config/index.ts"),
    (["config/index.mts"], "config/index.mts"),
    (["config/index.js", "config.js"], "config/index.js"),  # VitePress: config/index.ext, then config.ext
    (["config/index.ts", "config.js"], "config.js"),          # ... extension by extension
])
def test_a_config_folder_index_is_the_configuration(tmp_path, files, chosen):
    """VitePress takes ``.vitepress/config/index.*`` as well as ``config.*``: Pinia's docs keep
    theirs there, split over modules it imports."""
    root = write_site(tmp_path / "repo", {**{f"docs/.vitepress/{f}": "export default {}\n" for f in files},
                                           "docs/a/b.md": "# B\n"})
    site = detect_site(root / "docs")
    assert (site.dialect, site.config_file) == ("vitepress", f"docs/.vitepress/{chosen}")
    assert open_site(site).site_folder == "docs"


SPLIT = {
    "docs/.vitepress/config/index.ts": "import { shared } from './shared'\nimport { en } from './en'\n"
                                       "export default defineConfig({ ...shared, locales: { root: { ...en } } })\n",
    "docs/.vitepress/config/shared.ts": "export const shared = defineConfig({ markdown: { attrs: {\n"
                                        "  leftDelimiter: '%{',\n  rightDelimiter: '}%',\n} } })\n",
    "docs/.vitepress/config/en.ts": "import { shared } from './shared'\n"
                                    "export const en = { themeConfig: { sidebar: [{ text: 'Mooring knots', link: '/knots' }] } }\n",
    "docs/guide.md": "# Guide %{#guide}%\n\n## Tides %{#tides .big}%\n\nHigh at six.\n\n```md\n## Kept %{#kept}%\n```\n",
    "docs/knots.md": "Bowline and hitch, tied in the harbour.\n",
}


def test_a_configuration_split_over_modules_it_imports_is_read_with_them(tmp_path):
    """Settings in modules the configuration imports from beside it count: markdown-it-attrs'
    delimiters (``%{#id}%``, Pinia's) and the sidebar's titles; code keeps what it shows."""
    report, documents, sections = _build(tmp_path, SPLIT)
    assert report["dialect"]["config_file"] == "docs/.vitepress/config/index.ts"
    assert ["knots.md", "Mooring knots"] in documents
    guide = [s for s in sections if s[0] == "guide.md"]
    assert guide[-1][1] == "Guide > Tides" and not any("%{" in s[1] for s in guide)
    assert "## Kept %{#kept}%" in guide[-1][2] and "%{" not in guide[-1][2].replace("## Kept %{#kept}%", "")


def test_a_page_depends_on_the_modules_the_configuration_imports(tmp_path):
    """Editing an imported module reads the pages again: a ``--cache`` build after the change
    equals a fresh one."""
    root = write_site(tmp_path / "repo", SPLIT)
    build_json(root / "docs", tmp_path / "one")
    (root / "docs/.vitepress/config/en.ts").write_text(
        "export const en = { themeConfig: { sidebar: [{ text: 'Knots and hitches', link: '/knots' }] } }\n")
    build_json(root / "docs", tmp_path / "cached", "--cache", str(tmp_path / "one" / "store.sqlite"))
    build_json(root / "docs", tmp_path / "fresh")
    cached, fresh = (tmp_path / d / "store.sqlite" for d in ("cached", "fresh"))
    assert cached.read_bytes() == fresh.read_bytes()
    with sqlite3.connect(cached) as db:
        assert ["knots.md", "Knots and hitches"] in [list(r[:2]) for r in db.execute(DOCUMENTS)]


def test_a_config_file_outside_a_vitepress_folder_is_not_vitepress(tmp_path):
    root = write_site(tmp_path / "repo", {"docs/config.ts": "export default {}\n", "docs/a.md": "# A\n"})
    assert detect_site(root / "docs").dialect == "plain"


def test_src_dir_moves_the_source_root_and_at_paths(tmp_path):
    root = write_site(tmp_path / "repo", {
        ".vitepress/config.mts": "export default { srcDir: './src', srcExclude: ['drafts/**'] }\n",
        "src/page.md": "<<< @/code/x.py\n",
        "src/code/x.py": "print('hi')\n",
        "src/drafts/d.md": "# Draft\n",
        "notes.md": "# Notes\n",
    })
    reader = open_site(detect_site(root))
    assert reader.src_folder == "src"
    assert reader.skip("notes.md").startswith("outside the source root src/")
    assert reader.skip("src/drafts/d.md") == ".vitepress/config.mts srcExclude: drafts/**"
    assert reader.skip("src/page.md") is None
    ctx = context(root, "src/page.md", dialect="vitepress", config_file=".vitepress/config.mts")
    ctx.reader = reader
    assert "print('hi')" in reader.prepare("<<< @/code/x.py\n", ctx)
    assert "src/code/x.py" in ctx.deps


def test_a_plugin_option_named_src_dir_is_not_the_source_root(tmp_path):
    # VueUse (packages/.vitepress/config.ts): the PWA plugin's srcDir, nested in ``pwa: {}``,
    # was read as the site's, and every page of the site was skipped as outside it.
    config = """import { withPwa } from '@vite-pwa/vitepress'
export default withPwa(defineConfig({
  title: 'Site',
  themeConfig: { nav: [{ text: 'Guide', link: '/guide/' }] },
  pwa: {
    outDir: resolve(__dirname, 'dist'),
    srcDir: '.vitepress/',
    manifest: { srcExclude: ['**'], icons: [{ src: '/a.png' }] },
  },
  srcExclude: ['drafts/**'],
}))
"""
    root = write_site(tmp_path / "repo", {CONFIG: config, "docs/guide/index.md": "# Guide\n", "docs/drafts/d.md": "# D\n"})
    reader = open_site(detect_site(root / "docs"))
    assert reader.src_folder == "docs"
    assert reader.skip("guide/index.md") is None  # paths are the build's, relative to DOCS
    assert reader.skip("drafts/d.md") == "docs/.vitepress/config.ts srcExclude: drafts/**"


def test_property_objects_are_found_in_one_pass_over_hostile_text():
    import time

    from contextpull.dialects.data.js_literal import property_objects

    text = "export default { srcDir: 'a', vite: { b: { c: '}' } }, d: `{`, /* e: { */ f: {} }"
    assert [text[a:b] for a, b in property_objects(text)] == ["{ b: { c: '}' } }", "{}"]
    assert property_objects("x = { a: { b: 1") == [(9, 15)]
    for hostile in ("{" * MB, ":{" * (MB // 2), "a:{}" * (MB // 4), "/*a" * (MB // 3), "'" * MB, "`\\" * (MB // 2)):
        started = time.process_time()
        property_objects(hostile)
        assert time.process_time() - started < 2.0


def test_regions_in_every_comment_style_nested_and_unnamed_ends():
    lines = [
        "// #region a", "one", "# region b", "two", "# endregion", "/* #region a */", "three",
        "/* #endregion */", "// #endregion a", "<!-- #region c -->", "four", "<!-- #endregion c -->",
        "#pragma region d", "five", "#pragma endregion d",
    ]
    assert [lines[r.start : r.end] for r in regions.find(lines, "a")] == [lines[1:8]]
    assert [lines[r.start : r.end] for r in regions.find(lines, "b")] == [["two"]]
    assert [lines[r.start : r.end] for r in regions.find(lines, "c")] == [["four"]]
    assert [lines[r.start : r.end] for r in regions.find(lines, "d")] == [["five"]]
    assert regions.find(lines, "missing") == []
    assert regions.without_markers(lines[:5]) == ["one", "two"]


# ---- bad input ---------------------------------------------------------------------------

def _prepare(tmp_path, page: str, files=None, config="export default {}\n"):
    root = write_site(tmp_path / "repo", {CONFIG: config, "docs/page.md": page, **(files or {})})
    reader = open_site(detect_site(root / "docs"))
    ctx = context(root, "page.md", dialect="vitepress", config_file=CONFIG, docs="docs")
    ctx.reader = reader
    return reader.prepare(page, ctx), ctx


def _unresolved(ctx):
    return [(n.construct, n.line, n.detail) for n in ctx.notes if n.outcome == "unresolved"]


MB = 1_000_000


@pytest.mark.parametrize(("page", "files", "expected"), [
    pytest.param("::: tip\nNever closed.\n", {}, [("vitepress container", 1, "::: tip never closed: read to the end of the page")],
                 id="unclosed-container"),
    pytest.param("::: code-group\n```sh [npm]\nnpm i\n```\n", {}, [("vitepress code group", 1, "::: code-group never closed: read to the end of the page")],
                 id="unclosed-code-group"),
    pytest.param("Text.\n:::\n", {}, [("vitepress container", 2, "a ::: line that closes no container: dropped")], id="stray-closer"),
    pytest.param("::: frobnicate\nBody.\n:::\n", {},
                 [("vitepress container", 1, "unknown container ::: frobnicate: VitePress shows its lines as text; its body kept")],
                 id="unknown-container"),
    pytest.param("<!--@include: ../../../../etc/passwd-->\n", {}, [("vitepress include", 1, "outside the repository: ../../../../etc/passwd")],
                 id="include-escapes"),
    pytest.param("<<< ../../../../etc/passwd\n", {}, [("vitepress code snippet", 1, "outside the repository: ../../../../etc/passwd")],
                 id="snippet-escapes"),
    pytest.param("<!--@include: ./a.md-->\n", {"docs/a.md": "A\n<!--@include: ./b.md-->\n", "docs/b.md": "B\n<!--@include: ./a.md-->\n"},
                 [("vitepress include", 1, "include cycle: docs/a.md -> docs/b.md -> docs/a.md")], id="include-loop"),
    pytest.param("<!--@include: ./page.md-->\n", {}, [("vitepress include", 1, "include cycle: docs/page.md -> docs/page.md")],
                 id="include-itself"),
    pytest.param("<<< ./x.ts#nope\n", {"docs/x.ts": "// #region yes\nx\n// #endregion yes\n"},
                 [("vitepress code snippet", 1, "no region 'nope' in docs/x.ts: nothing shown")], id="snippet-missing-region"),
    pytest.param("<!--@include: ./x.md#nope-->\n", {"docs/x.md": "# Yes\n"},
                 [("vitepress include", 1, "no region or heading 'nope' in docs/x.md: nothing included")], id="include-missing-region"),
    pytest.param("<!--@include: ./x.md{5,9}-->\n", {"docs/x.md": "one\ntwo\n"},
                 [("vitepress include", 1, "lines {5,9} out of bounds in docs/x.md (3 lines): nothing included")], id="include-range-out-of-bounds"),
    pytest.param("<<< ./missing.ts\n", {}, [("vitepress code snippet", 1, "target missing: ./missing.ts")], id="snippet-missing"),
    pytest.param("<script setup>\nconst a = 1\n", {}, [("vue block", 1, "<script> never closed by </script>: its opening line dropped")],
                 id="unclosed-script"),
])
def test_bad_input_is_a_named_note(tmp_path, page, files, expected):
    _, ctx = _prepare(tmp_path, page, files)
    assert _unresolved(ctx) == expected


@pytest.mark.parametrize("opener", [":::", "::: tip ", "<<<", "<!--@include: x.md-->", "<script>", "<Badge ", "{#a}"])
def test_a_megabyte_line_of_openers_is_read_once(tmp_path, opener):
    line = (opener * (MB // len(opener) + 1))[:MB]
    out, ctx = _prepare(tmp_path, f"# Hostile\n\nBefore.\n\n{line}\n\nAfter.\n")
    assert out.startswith("# Hostile") and "After." in out
    assert len(_unresolved(ctx)) <= 101  # at most MAX_FAILED failures named, and one note counting the rest


def test_a_page_of_failing_directives_names_a_hundred_and_counts_the_rest(tmp_path):
    _, ctx = _prepare(tmp_path, "<!--@include: ./x.md-->\n" * 150 + "<<< ./y.ts\n" * 150)
    notes = [(n.construct, n.line, n.detail) for n in ctx.listed_notes() if n.outcome == "unresolved"]
    for construct, first in (("vitepress include", 101), ("vitepress code snippet", 251)):
        assert [n for n in notes if n[0] == construct][-1] == (construct, first, "50 more on this page, from here on, not listed")
    assert len(notes) == 202


def test_a_megabyte_of_opener_lines_is_bounded(tmp_path):
    page = "::: tip\n" * 100_000 + "text\n" + ":::\n" * 100_000
    out, ctx = _prepare(tmp_path, page)
    assert "text" in out
    assert any("nested deeper than 20" in d for _, _, d in _unresolved(ctx))


def test_a_megabyte_of_include_openers_never_closed_is_named(tmp_path):
    out, ctx = _prepare(tmp_path, "Before.\n\n" + "<!--@include:" * (MB // 13) + "\n")
    assert _unresolved(ctx) == [("vitepress include", 3, "an <!--@include: never closed by -->: nothing included from it")]
    assert out.startswith("Before.")  # the unclosed comment runs to the end, as in HTML


@pytest.mark.parametrize(("config", "named"), [
    ("export default { srcDir: process.env.DIR }\n", "srcDir is not a string literal"),
    ("export default { srcDir: '../..' }\n", "srcDir '../..' leaves the project"),
    ("export default { srcExclude: [...drafts] }\n", "srcExclude is not a list of string literals"),
    ("export default { srcExclude: drafts }\n", "srcExclude is not a literal list"),
    ("", "is empty"),
    ("const x = {\n", "exports no configuration"),
    ("\xff\xfe garbage {{{ ]]]\n", "exports no configuration"),
])
def test_a_malformed_config_is_named_and_the_site_read_with_defaults(tmp_path, config, named):
    report, documents, _ = _build(tmp_path, {CONFIG: config, "docs/index.md": "# Home\n\n::: tip\nHi.\n:::\n"})
    assert report["dialect"]["name"] == "vitepress"
    assert documents == [["index.md", "Home"]]
    problems = [u for u in report["dialect"]["unresolved"] if u["construct"] == "vitepress configuration"]
    assert len(problems) == 1 and named in problems[0]["detail"] and problems[0]["path"] == "index.md"


def test_heading_anchors_and_container_attributes_are_found_from_the_end_in_one_pass():
    from contextpull.dialects.vitepress.blocks import _without_trailing_braces
    from contextpull.dialects.vitepress.page_includes import _anchor

    assert _anchor("Install {#setup}") == "setup" and _anchor("Install") is None
    assert _anchor("a {#b{#c}  ") == "b{#c"  # the leftmost {# of the last run, as the pattern read it
    assert _anchor("{#" * 30_000 + "}") == "{#" * 29_999
    assert _without_trailing_braces("Tip {.x}") == "Tip"
    assert _without_trailing_braces("A" + " " * 60_000 + "B") == "A" + " " * 60_000 + "B"
    assert _without_trailing_braces("A {x} {y") == "A {x} {y"


@pytest.mark.parametrize(("line", "kept"), [
    ("  msg: 'Hi' // [!code highlight]", "  msg: 'Hi'"),
    ("  msg: 'Hi' // [!code focus:3]", "  msg: 'Hi'"),
    ("<p>x</p> <!-- [!code hl] -->", "<p>x</p>"),
    ("x = 1  # [!code word:Hello]", "x = 1"),
    ("// [!code focus]", None),  # the marker alone: the line goes
    ("remove() // [!code --]", "remove() // [!code --]"),  # a diff the page shows as "-": kept
    ("warn() // [!code warning]", "warn() // [!code warning]"),
    ("note() // see [!code highlight] docs", "note() // see [!code highlight] docs"),  # says more
])
def test_shiki_notation_that_only_emphasises_goes(line, kept):
    from contextpull.dialects.vitepress import code_notation

    raw = f"```js\n{line}\nnext()\n```"
    out, count = code_notation.strip(raw)
    assert out == ("```js\n" + (f"{kept}\n" if kept is not None else "") + "next()\n```")
    assert count == (0 if kept == line else 1)


TWOSLASH_PAGE = """# Types

```ts twoslash include main
// @noErrors
// @errors: 2322
import { ref } from 'vue'
export const count = ref(0)
```

```ts
// @filename: main.ts
// @include: main
// ---cut---
import { count } from './main'
const double = count.value * 2
//    ^?
// ---cut-after---
function hidden() {}
```

```vue
<!-- App.vue -->
<script setup lang="ts">
// @include: main
// ---cut---
const a = 1
</script>

<template><p>{{ a }}</p></template>
```

```ts no-twoslash
// ---cut---
shown()
```

```ts
// ---cut-start---
// ---cut-end---
// @filename: kept.ts
keep()
```
"""


@pytest.mark.parametrize("transformer", [True, False])
def test_twoslash_notation_is_not_shown(tmp_path, transformer):
    # VueUse: 81 sections on 49 pages showed `// ---cut---` and the setup above it, flags and queries
    config = ("import { transformerTwoslash } from '@shikijs/vitepress-twoslash'\n"
              "export default { markdown: { codeTransformers: [transformerTwoslash()] } }\n") if transformer else "export default {}\n"
    root = write_site(tmp_path / "repo", {CONFIG: config, "docs/types.md": TWOSLASH_PAGE})
    report = build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, _, t in store_rows(tmp_path / "out" / "store.sqlite", SECTIONS))
    # the fence says twoslash: read on any VitePress site
    assert "```ts twoslash include main\nimport { ref } from 'vue'\nexport const count = ref(0)\n```" in text
    if transformer:  # the site runs twoslash: a block written with its cuts is one it reads
        assert "```ts\nimport { count } from './main'\nconst double = count.value * 2\n```" in text
        assert "```vue\n<!-- App.vue -->\n<script setup lang=\"ts\">\nconst a = 1\n</script>" in text
        assert "```ts\n// @filename: kept.ts\nkeep()\n```" in text
        assert report["dialect"]["constructs"]["twoslash notation"]["converted"] == 4
    else:  # no twoslash on the site: a block without the word shows as written
        assert "// ---cut---\nimport { count }" in text and "// ---cut-start---" in text
    assert "```ts no-twoslash\n// ---cut---\nshown()\n```" in text


@pytest.mark.parametrize(("code", "problem"), [
    ("// ---cut-start---\nx()\n", "a cut-start at code line 1 without its cut-end: cuts not read"),
    ("x()\n// ---cut-end---\n", "a cut-end at code line 2 without its cut-start: cuts not read"),
])
def test_unmatched_twoslash_cuts_are_named_and_kept(code, problem):
    from contextpull.dialects.syntax import twoslash

    raw = f"```ts twoslash\n{code}```"
    assert twoslash.strip(raw) == (raw, 0, problem)


def test_an_indented_twoslash_block_loses_its_notation_too():
    """The code under an indented fence is indented like it: a flag at the code's margin is still a
    flag (one dedent rule for every reader of a block's code, ``fence_rule.fence_code``)."""
    from contextpull.dialects.syntax import twoslash

    raw = "  ```ts twoslash\n  // @noErrors\n  import { x } from 'y'\n  // ---cut---\n  x()\n  ```"
    assert twoslash.strip(raw) == ("  ```ts twoslash\n  x()\n  ```", 3, None)


def test_twoslash_queries_and_flags_on_long_runs():
    from contextpull.dialects.syntax import twoslash

    raw = "```ts twoslash\n" + "// " + "^" * MB + "\n//" + " " * MB + "@x\n" + "/" * MB + "\nkept()\n```"
    out, count, problem = twoslash.strip(raw)
    assert problem is None and count == 1 and out.endswith("/" * MB + "\nkept()\n```")


def test_an_upper_case_toc_marker_and_a_heading_inside_a_list_item_are_read():
    """Vue's docs: the glossary's ``[[TOC]]`` (@mdit-vue/plugin-toc matches it in any case) and
    API entries whose ``  ### Function Signature {#function-signature}`` stand in a list item
    (4 sections showed the marker or the anchor -> 0)."""
    from contextpull.dialects.vitepress import vue

    class Notes:
        def __init__(self):
            self.notes = []

        def note(self, *args):
            self.notes.append(args[:3])

    ctx = Notes()
    assert vue.inline("[[TOC]]", 3, ctx) is None
    assert vue.inline("  ### Function Signature {#function-signature}", 9, ctx) == "  ### Function Signature"
    assert vue.inline("  Text {#not-a-heading}", 10, ctx) == "  Text {#not-a-heading}"
    assert ctx.notes == [(vue.TOC, "converted", 3), (vue.ANCHOR, "converted", 9)]
