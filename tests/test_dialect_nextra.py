"""The Nextra dialect (contextpull/dialects/nextra/) and MDX chosen by content (issue 36): a
small Nextra site built end to end (its components, ``_meta`` titles, tsconfig aliases, GitHub
callouts) against a fixture, detection from ``next.config.*`` with Nextra's layout, the ``_meta``
scanner and the tsconfig reader on strings, the ``.md`` pages of a site without configuration read
as MDX only on evidence, and bad input: unclosed components, a megabyte of openers, imports that
escape or loop, a malformed tsconfig or ``_meta``: each a named note, bounded, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from artifact_helpers import clean_env
from contextpull.cli import cli
from contextpull.dialects.detect import detect_site
from contextpull.dialects.mdx import evidence, import_paths
from contextpull.dialects.nextra import meta
from site_build import DOCUMENTS, SECTIONS, build_json, store_rows, write_site

NEXT_CONFIG = "import nextra from 'nextra'\nexport default nextra({})({})\n"
TSCONFIG = """{
  // comments and trailing commas, as tsconfig allows
  "compilerOptions": {
    "baseUrl": ".",
    "paths": { "@components/*": ["./components/*"], /* two */ "@app/*": ["./app/*"], },
  },
}
"""

SITE = {
    "next.config.mjs": "export default {}\n",
    "tsconfig.json": TSCONFIG,
    "components/shared.mdx": "Shared text from a partial.\n",
    "content/_meta.ts": "const meta = {\n  index: 'Home',\n  guide: { title: 'The Guide', theme: { toc: false } },\n"
                        "  fancy: { title: <b>New</b> },\n  ...other,\n}\nexport default meta\n",
    "content/index.mdx": "No heading on this page.\n",
    "content/guide.md": """import { Callout, Tabs, Steps, Cards, FileTree } from 'nextra/components'
import Shared from '@components/shared.mdx'

## Install

<Callout type="warning" emoji="⚠️">
  Back up first.
</Callout>

<Callout>A default callout.</Callout>

<Tabs items={['pnpm', {label: 'npm'}]}>
  <Tabs.Tab>
```sh
pnpm add x
```
  </Tabs.Tab>
  <Tabs.Tab>Use npm.</Tabs.Tab>
</Tabs>

<Steps>
### First step

Do this.

### Second step

Then that.
</Steps>

<Cards>
  <Cards.Card title="Quick start" href="/start" />
  <Cards.Card title="API" href="/api">Every function.</Cards.Card>
</Cards>

<FileTree>
  <FileTree.Folder name="content" defaultOpen>
    <FileTree.File name="index.mdx" />
  </FileTree.Folder>
  <FileTree.File name="next.config.mjs" />
</FileTree>

> [!TIP]
> Read the FAQ.

{/* a comment no page shows */}

<Shared />
""",
    "content/_partials/note.mdx": "A partial, not a page.\n",
}


def _build(tmp_path, files, docs="content", *extra):
    root = write_site(tmp_path / "repo", files)
    report = build_json(root / docs, tmp_path / "out", *extra)
    return root, report, tmp_path / "out" / "store.sqlite"


def test_a_nextra_site_reads_as_its_pages_show_it(tmp_path, data_regression):
    _, report, store = _build(tmp_path, SITE)
    assert (report["dialect"]["name"], report["dialect"]["config_file"]) == ("nextra", "next.config.mjs")
    data_regression.check({
        "documents": [list(row[:2]) for row in store_rows(store, DOCUMENTS)],
        "sections": [list(row) for row in store_rows(store, SECTIONS)],
        "constructs": report["dialect"]["constructs"],
        "unresolved": report["dialect"]["unresolved"],
        "not_pages": report["dialect"].get("not_pages", []),
    })


@pytest.mark.parametrize(("files", "expected"), [
    ({"next.config.js": "module.exports = {}\n", "pages/_meta.json": "{}"}, "nextra"),
    ({"next.config.ts": "export default {}\n", "content/docs/_meta.js": "export default {}\n"}, "nextra"),
    ({"next.config.mjs": "export default {}\n", "src/app/docs/page.mdx": "# Docs\n"}, "nextra"),
    ({"next.config.cjs": "const withNextra = require('nextra')({})\n"}, "nextra"),
    # a Next.js application without Nextra's layout: its configuration says nothing of the docs
    ({"next.config.js": "module.exports = {}\n", "pages/index.tsx": "x"}, "plain"),
    ({"next.config.js": "module.exports = {}\n", "app/page.tsx": "x", "app/x/other.mdx": "# X\n"}, "plain"),
])
def test_nextra_is_detected_from_next_config_with_its_layout(tmp_path, files, expected):
    root = write_site(tmp_path / "repo", {"content/index.md": "# Home\n", **files})
    assert detect_site(root / "content").dialect == expected


def test_app_router_pages_take_their_folder_title_and_other_mdx_is_not_a_page(tmp_path):
    _, report, store = _build(tmp_path, {
        "next.config.mjs": "export default {}\n",
        "app/_meta.json": '{"docs": "Documentation"}',
        "app/docs/_meta.js": "export default { guide: 'Guide' }\n",
        "app/docs/page.mdx": "Welcome.\n",
        "app/docs/guide/page.mdx": "Read on.\n",
        "app/docs/guide/old.mdx": "Old text, imported by a page.\n",
    }, docs="app")
    assert [row[:2] for row in store_rows(store, DOCUMENTS)] == [("docs/guide/page.mdx", "Guide"),
                                                                ("docs/page.mdx", "Documentation")]
    assert [e["path"] for e in report["dialect"]["not_pages"]] == ["docs/guide/old.mdx"]


@pytest.mark.parametrize(("source", "expected"), [
    ("export default { a: 'A', b: { title: \"B\" }, 'c-d': `C` }", {"a": "A", "b": "B", "c-d": "C"}),
    ("const meta: MetaRecord = { a: 'A' }\nexport default meta", {"a": "A"}),
    ("export default { a: <span>A</span>, b: call({x: 1}), ...spread, c: 'C' }", {"c": "C"}),
    ("export default { // a comment\n a: 'A', /* another */ b: { type: 'separator' } }", {"a": "A"}),
])
def test_meta_files_are_read_as_data(source, expected):
    assert meta.titles(source, "_meta.ts") == expected


@pytest.mark.parametrize(("source", "why"), [
    ("export default { a: 'A'", "ends inside its default export"),
    ("module.exports = { a: 'A' }", "has no export default"),
    ("export default makeMeta()", "not a literal object"),
    ("export default {" + "a: {" * 100 + "}" * 100, "nested deeper than 32"),
    ("export default {" + "{" * 1_000_000, "where a key stands"),  # a megabyte of openers
])
def test_a_malformed_meta_file_is_a_named_error(source, why):
    with pytest.raises(meta.MetaError, match=why):
        meta.titles(source, "_meta.js")


def test_a_malformed_meta_is_named_on_the_page_and_the_page_keeps_its_title(tmp_path):
    _, report, store = _build(tmp_path, {
        "next.config.mjs": "export default {}\n",
        "content/_meta.js": "export default { page: 'Never read'",
        "content/page.md": "Text.\n",
        "content/sub/_meta.json": "{not json",
        "content/sub/other.md": "Other.\n",
    })
    assert [row[:2] for row in store_rows(store, DOCUMENTS)] == [("page.md", "page"), ("sub/other.md", "other")]
    named = [(u["path"], u["construct"], u["detail"]) for u in report["dialect"]["unresolved"]]
    assert named == [
        ("page.md", "nextra _meta", "content/_meta.js: ends inside its default export; no titles read from it"),
        ("sub/other.md", "nextra _meta",
         "content/sub/_meta.json: malformed JSON: Expecting property name enclosed in double quotes:"
         " line 1 column 2 (char 1); no titles read from it"),
    ]


def test_tsconfig_paths_are_read_from_jsonc_and_map_once():
    aliases = import_paths.read_aliases(TSCONFIG, "site")
    assert import_paths.aliased("@components/a/b.mdx", aliases) == "site/components/a/b.mdx"
    assert import_paths.aliased("react", aliases) is None
    # aliases that name each other map once, as in TypeScript: no loop
    cycle = import_paths.read_aliases('{"compilerOptions": {"paths": {"@a/*": ["@b/*"], "@b/*": ["@a/*"]}}}', "")
    assert import_paths.aliased("@a/x.mdx", cycle) == "@b/x.mdx"
    with pytest.raises(import_paths.AliasError, match="compilerOptions.paths is not an object"):
        import_paths.read_aliases('{"compilerOptions": {"paths": ["x"]}}', "")


@pytest.mark.parametrize(("tsconfig", "page", "construct", "detail"), [
    ('{"compilerOptions": {"paths": {"@a/*": ["@b/*"], "@b/*": ["@a/*"]}}}',
     "import P from '@a/p.mdx'\n\n<P />\n", "mdx partial", "target missing: @b/p.mdx"),
    ("{ not json", "import P from '@a/p.mdx'\n\n<P />\n", "tsconfig paths", "tsconfig.json: malformed JSON"),
    ('{"compilerOptions": {"paths": {"@out/*": ["../../*"]}}}',
     "import P from '@out/etc/passwd.md'\n\n<P />\n", "mdx partial", "outside the repository"),
    ("{}", "import P from '../../../x.mdx'\n\n<P />\n", "mdx import", "outside the repository, not read: ../../../x.mdx"),
    ("{}", "import A from './a.mdx'\n\n<A />\n", "mdx partial", "cycle"),
])
def test_bad_imports_are_named_and_the_page_read(tmp_path, tsconfig, page, construct, detail):
    _, report, store = _build(tmp_path, {
        "next.config.mjs": "export default {}\n", "pages/_meta.json": "{}", "tsconfig.json": tsconfig,
        "pages/page.mdx": "# Page\n\nKept text.\n\n" + page,
        "pages/a.mdx": "import B from './b.mdx'\n\nA <B />\n", "pages/b.mdx": "import A from './a.mdx'\n\nB <A />\n",
    }, docs="pages")
    assert any("Kept text." in text for path, _, text in store_rows(store, SECTIONS) if path == "page.mdx")
    named = [(u["construct"], u["detail"]) for u in report["dialect"]["unresolved"] if u["path"] == "page.mdx"]
    assert any(c == construct and detail in d for c, d in named), named


@pytest.mark.parametrize(("line", "construct"), [
    ("<Callout>" * 100_000, "jsx"),  # opened and never closed
    ("<Callout " * 100_000, None),  # tags that never end: text
    ("{/*" * 300_000, None),  # comments that never close: text
    ("<Tabs items={['a'" * 50_000, None),
])
def test_a_megabyte_of_openers_is_bounded_and_named(tmp_path, line, construct):
    _, report, store = _build(tmp_path, {
        "next.config.mjs": "export default {}\n", "pages/_meta.json": "{}",
        "pages/page.mdx": "# Page\n\nKept text.\n\n" + line + "\n",
    }, docs="pages")
    assert [row[0] for row in store_rows(store, DOCUMENTS)] == ["page.mdx"]
    named = {u["construct"] for u in report["dialect"]["unresolved"]}
    assert (construct in named) if construct else not named


def test_unclosed_components_keep_their_text_and_are_named(tmp_path):
    _, report, store = _build(tmp_path, {
        "next.config.mjs": "export default {}\n", "pages/_meta.json": "{}",
        "pages/page.mdx": "# Page\n\n<Callout type=\"info\">\nOpen callout text.\n\n<Tabs items={['a']}>\n<Tabs.Tab>\nTab text.\n",
    }, docs="pages")
    text = " ".join(row[2] for row in store_rows(store, SECTIONS))
    assert "Open callout text." in text and "Tab text." in text
    assert sorted(u["detail"] for u in report["dialect"]["unresolved"]) == [
        "<Callout> is never closed", "<Tabs.Tab> is never closed", "<Tabs> is never closed"]


# ---- MDX in .md pages, chosen by content -------------------------------------------------------

@pytest.mark.parametrize(("text", "found"), [
    ("# T\n\n<Note>\nText.\n</Note>\n", {evidence.JSX: 1}),
    ("## Reference {/*reference*/}\n", {evidence.COMMENTS: 1}),
    ("import Foo from './foo.js'\n\n<Foo />\n", {evidence.IMPORTS: 1, evidence.JSX: 1}),
    ("<div>\n<br>\n<details><summary>S</summary>x</details>\n</div>\n", {}),  # HTML is no JSX
    ("A `List<String>` and List<String> and press <Enter> to go.\n", {}),  # unclosed: prose
    ("```jsx\n<App />\n{/* x */}\nimport a from 'b'\n```\n", {}),  # code
    ("Use `<App />` here.\n\n    <Indented />\n<!-- <Hidden /> -->\n", {}),
    ("We import things from 'x' every day.\n", {}),
    ("{/*" * 300_000, {}),  # a megabyte of openers: one pass, nothing closes
])
def test_mdx_evidence_is_strict(text, found):
    assert evidence.evidence(text.encode()) == found


GUESS_SITE = {
    "docs/plain.md": "# Plain\n\nA <div>page</div> with List<String> in it.\n\n```jsx\n<App />\n```\n",
    "docs/react.md": "---\ntitle: React page\n---\n\n## Intro {/*intro*/}\n\n<Note>\nA note.\n</Note>\n\n<Sandpack>\n\n```js\nexport default 1\n```\n\n</Sandpack>\n",
}


def test_md_pages_with_mdx_are_read_as_mdx_only_with_auto(tmp_path):
    root = write_site(tmp_path / "repo", GUESS_SITE)
    auto = build_json(root / "docs", tmp_path / "auto")
    plain = build_json(root / "docs", tmp_path / "plain", "--dialect", "plain")
    assert auto["dialect"]["name"] == "plain" and auto["dialect"]["mdx_guess"] == {
        "pages": 1, "evidence": {evidence.COMMENTS: 1, evidence.JSX: 1}}
    assert "mdx_guess" not in (plain.get("dialect") or {})
    auto_rows = store_rows(tmp_path / "auto" / "store.sqlite", SECTIONS)
    plain_rows = store_rows(tmp_path / "plain" / "store.sqlite", SECTIONS)
    # the page without evidence reads exactly as plain; the other one as its page shows it
    assert [r for r in auto_rows if r[0] == "plain.md"] == [r for r in plain_rows if r[0] == "plain.md"]
    react = " ".join(r[1] + " " + r[2] for r in auto_rows if r[0] == "react.md")
    assert "A note." in react and "<Note>" not in react and "{/*" not in react and "<Sandpack>" not in react
    result = CliRunner().invoke(cli, ["build", str(root / "docs"), "--out", str(tmp_path / "text")], env=clean_env())
    assert "mdx guessed for 1 .md page: JSX components (1), {/* */} (1)" in result.output + result.stderr


def test_a_guessed_page_is_reused_by_a_cached_build(tmp_path):
    root = write_site(tmp_path / "repo", GUESS_SITE)
    cache = tmp_path / "cache"
    first = build_json(root / "docs", tmp_path / "one", "--cache", str(cache))
    second = build_json(root / "docs", tmp_path / "two", "--cache", str(cache))
    assert first["dialect"]["mdx_guess"] == second["dialect"]["mdx_guess"]
    assert (tmp_path / "one" / "store.sqlite").read_bytes() == (tmp_path / "two" / "store.sqlite").read_bytes()


def test_a_fence_inside_an_export_template_literal_is_a_string_not_code(tmp_path):
    page = (
        "import fs from 'node:fs'\n\nexport function Page() {\n  const raw = `~~~jsx title=\"${name}\"\n"
        "${fs.readFileSync(`./${name}`, 'utf8')}\n~~~`\n  return raw\n}\n\n# Title\n\nProse after the export.\n"
    )
    _, report, store = _build(tmp_path, {
        "next.config.mjs": "export default {}\n", "pages/_meta.json": "{}", "pages/page.mdx": page,
    }, docs="pages")
    assert store_rows(store, SECTIONS) == [("page.mdx", "Title", "# Title\n\nProse after the export.")]
    assert report["dialect"]["constructs"]["mdx export"]["converted"] == 1


def test_components_neither_imported_nor_in_mdx_components_are_named(tmp_path):
    page = ("import { Callout } from 'nextra/components'\n\n# Page\n\n<Callout>Imported.</Callout>\n\n"
            "<Provided>Given by mdx-components.</Provided>\n\n<Missing>Kept text.</Missing>\n\n<>A fragment.</>\n")
    _, report, store = _build(tmp_path, {
        "next.config.mjs": "export default {}\n", "pages/_meta.json": "{}", "pages/page.mdx": page,
        "mdx-components.tsx": "export function useMDXComponents(c) { return { Provided, ...c } }\n",
    }, docs="pages")
    assert [(u["construct"], u["detail"]) for u in report["dialect"]["unresolved"]] == [
        ("jsx component", "unknown component <Missing>: not imported and not provided by mdx-components,"
                          " its inner text kept")]
    text = store_rows(store, SECTIONS)[0][2]
    assert all(t in text for t in ("Note: Imported.", "Given by mdx-components.", "Kept text.", "A fragment."))


def test_nextra_2_translated_pages_take_their_locale_meta_title(tmp_path):
    _, _, store = _build(tmp_path, {
        "next.config.js": "module.exports = {}\n",
        "pages/_meta.en-US.json": '{"start": "Getting Started"}',
        "pages/_meta.es-ES.json": '{"start": "Comienza"}',
        "pages/start.en-US.mdx": "Text.\n", "pages/start.es-ES.mdx": "Texto.\n",
    }, docs="pages")
    assert [row[:2] for row in store_rows(store, DOCUMENTS)] == [("start.en-US.mdx", "Getting Started"),
                                                                ("start.es-ES.mdx", "Comienza")]
