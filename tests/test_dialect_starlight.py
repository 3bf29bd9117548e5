"""The Astro Starlight dialect (contextpull/dialects/starlight/): a site's pages stored as they
show (asides, components in MDX and Markdoc, partials through the guarded resolver, an aliased
import, the hero, titles), detection from ``astro.config.*``, its page rule, ``.mdoc`` a named
skip elsewhere, and bad input: unclosed asides and tags, a megabyte of openers, partials that
escape the repository or loop, a malformed configuration, each a named note, never a traceback.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from contextpull.dialects.api import Site
from contextpull.dialects.detect import detect_site
from contextpull.dialects.mdx import mdx
from contextpull.dialects.site_reader import open_site
from contextpull.dialects.starlight import asides, markdoc
from contextpull.dialects.context import MAX_LISTED

from memory_context import FakeContext
from site_build import build_json, write_site

CONFIG = """import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import markdoc from '@astrojs/markdoc';

export default defineConfig({ integrations: [markdoc(), starlight({ title: 'Garden' })] });
"""

PAGES = {
    "astro.config.mjs": CONFIG,
    "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["src/*"]}}}\n',
    "README.md": "# Repository notes\n",
    "settings.json": '{"water": "daily"}\n',
    "src/components/install.md": "Run `garden init` in a new folder.\n",
    "src/content/docs/index.mdx": """---
title: Garden
hero:
  title: Grow docs
  tagline: Everything <strong>you</strong> need.<br>Nothing more.
---
import { Card, CardGrid, LinkCard, Tabs, TabItem, Aside, Badge, Steps, Code } from '@astrojs/starlight/components';
import Install from '@/components/install.md';
import settings from '../../../settings.json?raw';

<CardGrid>
  <Card title="Fast" icon="rocket">
    Pages load quickly.
  </Card>
  <LinkCard title="Guides" href="/guide/" description="Learn the basics." />
</CardGrid>

## Install <Badge text="New" />

<Install />

<Tabs>
  <TabItem label="npm">
    Use npm.
  </TabItem>
  <TabItem label="pnpm">
    Use pnpm.
  </TabItem>
</Tabs>

<Aside type="caution">
  Back up the soil first.
</Aside>

<Steps>
1. Dig.
2. Plant.
</Steps>

<Code code="let x = 1;" lang="js" />

<Code code={importedCode} lang="js" />

<Code code={settings} lang="json" />

<Code code={`two
lines`} lang="sh" />

:::tip[Watering]
Water in the morning.
:::
""",
    "src/content/docs/guide.md": """---
title: Guide
sidebar:
  label: The guide
---
Intro. <!-- an editor's note -->

:::note
Soil is **alive**.
:::

:::caution[Mind the frost]
Cover the beds.

:::danger
Never in January.
:::
:::

```md
:::tip
This is how an aside is written.
:::
```
""",
    "src/content/docs/label-only.md": "---\nsidebar:\n  label: Only a label\n---\nText of a page without a title.\n",
    "src/content/docs/ref.mdoc": """---
title: Reference
---
{% aside type="tip" title="Before you start" %}
Read the guide.
{% /aside %}

{% tabs %}
{% tabitem label="Linux" %}
Use apt.
{% /tabitem %}
{% tabitem label="macOS" %}
Use brew.
{% /tabitem %}
{% /tabs %}

Status: {% badge text="Stable" /%}

{% partial file="./_shared.mdoc" /%}

{% if $beta %}
Beta text.
{% else /%}
Stable text.
{% /if %}

`{% aside %}` in a code span is text.
""",
    "src/content/docs/_shared.mdoc": "---\ntitle: ignored\n---\n{% aside %}\nShared words.\n{% /aside %}\n",
}


def _sections(store: Path) -> str:
    with sqlite3.connect(store) as con:
        rows = con.execute(
            "SELECT d.path, d.title, s.heading_path, s.text FROM sections s JOIN documents d USING (doc_id)"
            " ORDER BY d.path, s.ordinal").fetchall()
    return "\n".join(f"== {path} [{title}] | {heading}\n{text}\n" for path, title, heading, text in rows)


def test_a_starlight_site_stores_what_its_pages_show(tmp_path, file_regression, data_regression):
    root = write_site(tmp_path / "repo", PAGES)
    report = build_json(root, tmp_path / "out")
    assert report["dialect"]["name"] == "starlight"
    file_regression.check(_sections(tmp_path / "out" / "store.sqlite"), extension=".txt")
    data_regression.check({
        "constructs": report["dialect"]["constructs"],
        "unresolved": [(u["path"], u["construct"], u["line"], u["detail"]) for u in report["dialect"]["unresolved"]],
    })


@pytest.mark.parametrize("name", ["astro.config.mjs", "astro.config.js", "astro.config.ts", "astro.config.mts",
                                  "astro.config.cjs"])
@pytest.mark.parametrize("docs", ["", "src/content/docs"])
def test_starlight_is_detected_from_any_astro_config_above_docs(tmp_path, name, docs):
    root = write_site(tmp_path / "repo", {name: CONFIG, "src/content/docs/index.md": "---\ntitle: Home\n---\nHi.\n"})
    site = detect_site(root / docs if docs else root)
    assert (site.dialect, site.config_file) == ("starlight", name)


def test_files_outside_the_docs_collection_and_underscored_ones_are_not_pages(tmp_path):
    root = write_site(tmp_path / "repo", {"astro.config.mjs": CONFIG, "src/content/docs/a.md": "A\n"})
    reader = open_site(detect_site(root))
    assert reader.skip("src/content/docs/a.md") is None
    assert reader.skip("src/content/docs/sub/b.mdoc") is None
    assert reader.skip("README.md").startswith("outside src/content/docs/")
    assert reader.skip("src/content/docs/_part.mdx").startswith("a name starting with _")
    assert reader.skip("src/content/docs/_parts/x.md").startswith("a name starting with _")
    assert reader.skip("src/content/docs/image.png") is None  # not a page kind: the build's business


def test_a_forced_starlight_dialect_without_configuration_reads_docs_as_the_collection(tmp_path):
    root = write_site(tmp_path / "repo", {"docs/a.md": "A\n"})
    reader = open_site(Site("starlight", None, str((root / "docs").resolve()), str(root.resolve())))
    assert reader.skip("a.md") is None


@pytest.mark.parametrize("extra", [(), ("--dialect", "mkdocs")])
def test_markdoc_is_a_named_skip_outside_a_starlight_site(tmp_path, extra):
    root = write_site(tmp_path / "repo", {"docs/index.md": "# Home\n", "docs/page.mdoc": "{% aside %}x{% /aside %}\n"})
    report = build_json(root / "docs", tmp_path / "out", "--dialect", "plain", *extra)
    skipped = {s["path"]: s["reason"] for s in report["manifest"]["skipped"]}
    assert skipped["page.mdoc"].startswith("Markdoc (.mdoc) is read on a starlight site only")


# ---- bad input ----------------------------------------------------------------------------
def _ctx(files=None, path="src/content/docs/page.md") -> FakeContext:
    return FakeContext(files or {}, path=path, docs="", dialect="starlight", config_file="astro.config.mjs")


def _unresolved(ctx) -> list[tuple[str, int, str]]:
    return [(n.construct, n.line, n.detail) for n in ctx.notes if n.outcome == "unresolved"]


def test_unclosed_and_stray_asides_and_tags_are_named_with_their_lines(data_regression):
    aside_ctx, tag_ctx = _ctx(), _ctx(path="src/content/docs/page.mdoc")
    aside_out = asides.convert(":::note\nA.\n:::tip[Inner]\nB.\n\n:::\n:::\n:::mystery\nC.\n", aside_ctx)
    tag_out = markdoc.convert('{% tabs %}\n{% tabitem label="A" %}\nx\n{% /tabs %}\n{% /aside %}\n'
                              '{% mystery %}y{% /mystery %}\n{% $flag %}\n{% aside %}\nz\n', tag_ctx)
    data_regression.check({
        "asides": {"out": aside_out, "unresolved": _unresolved(aside_ctx)},
        "markdoc": {"out": tag_out, "unresolved": _unresolved(tag_ctx)},
    })


MEGABYTE = 1_000_000


@pytest.mark.parametrize(("kind", "line", "construct", "unresolved"), [
    ("md", ":::" * (MEGABYTE // 3), "starlight aside", 1),  # one line: one aside opened, never closed
    ("md", ":::note\n" * (MEGABYTE // 8), "starlight aside", MEGABYTE // 8),  # nested to the bound, the rest text
    ("md", ":::\n" * (MEGABYTE // 4), "starlight aside", MEGABYTE // 4),  # closers that close nothing
    ("mdoc", "{%" * (MEGABYTE // 2), None, 0),  # openers, none closed: text
    ("mdoc", "{%" * (MEGABYTE // 2) + " aside %}", "markdoc tag", 1),  # one tag after them all, never closed
    ("mdoc", "{% aside %}" * (MEGABYTE // 11), "markdoc tag", MEGABYTE // 11),  # 20 deep, the rest dropped
    ("mdoc", "{% /tabs %}" * (MEGABYTE // 11), "markdoc tag", MEGABYTE // 11),  # closers that close nothing
    ("mdx", "<Tabs>" * (MEGABYTE // 6), "jsx", MEGABYTE // 6),  # JSX openers never closed
])
def test_a_megabyte_of_openers_is_bounded_and_named(kind, line, construct, unresolved):
    ctx = _ctx(path=f"src/content/docs/page.{kind}")
    if kind == "mdx":
        out = mdx.prepare(line, ctx)
    else:
        out = open_site(ctx.site).prepare(line, ctx)
    assert len(out) <= 2 * len(line)
    if not unresolved:  # no tag at all: text, nothing to name
        assert out == line
    listed = [(n.construct, n.detail) for n in ctx.listed_notes() if n.outcome == "unresolved"]
    # every problem named or counted: a hundred listed, one more note counting the rest
    assert len(listed) == min(unresolved, MAX_LISTED + 1)
    assert {c for c, _ in listed} == ({construct} if unresolved else set())
    if unresolved > MAX_LISTED:
        assert listed[-1][1] == f"{unresolved - MAX_LISTED} more on this page, from here on, not listed"


def test_partials_that_escape_the_repository_loop_or_are_missing_are_named_and_dropped():
    files = {
        "src/content/docs/a.mdoc": '{% partial file="./b.mdoc" /%}',
        "src/content/docs/b.mdoc": 'B {% partial file="./a.mdoc" /%}',
    }
    ctx = _ctx(files, path="src/content/docs/page.mdoc")
    out = markdoc.convert('{% partial file="../../../../etc/passwd" /%}\n{% partial file="./gone.mdoc" /%}\n'
                          '{% partial /%}\n{% partial file="./a.mdoc" /%}\n', ctx)
    assert "{%" not in out and out.split() == ["B"]
    details = [d for c, _, d in _unresolved(ctx) if c == "markdoc partial"]
    assert [d.split(":")[0] for d in details] == [
        "outside the repository", "target missing", "{% partial %} names no file", "include cycle"]


@pytest.mark.parametrize(("config", "tsconfig", "named"), [
    ("export default {};\n", None, "names no @astrojs/starlight integration"),
    ("\x00\x01binary", None, "is not text"),
])
def test_a_malformed_astro_config_is_named_and_the_site_read(tmp_path, config, tsconfig, named):
    files = {"astro.config.mjs": config, "src/content/docs/index.md": "---\ntitle: Home\n---\n:::tip\nHi.\n:::\n",
             "src/content/docs/other.md": "---\ntitle: Other\n---\nText.\n"}
    if tsconfig is not None:
        files["tsconfig.json"] = tsconfig
    root = write_site(tmp_path / "repo", files)
    report = build_json(root, tmp_path / "out")
    assert report["dialect"]["name"] == "starlight"
    problems = [u for u in report["dialect"]["unresolved"] if u["construct"] == "starlight configuration"]
    assert [u["path"] for u in problems] == ["src/content/docs/index.md"]
    assert named in problems[0]["detail"]
    assert report["dialect"]["constructs"]["starlight aside"]["converted"] == 1


def test_a_jsonc_tsconfig_gives_its_aliases_as_on_every_site():
    from contextpull.dialects.mdx.import_paths import aliased, read_aliases

    text = '{\n  // comment\n  "compilerOptions": { "paths": { "~/*": ["./src/*"], }, },\n}\n'
    assert aliased("~/parts/x.md", read_aliases(text, "docs")) == "docs/src/parts/x.md"


def test_an_aliased_import_with_a_tsconfig_that_is_not_json_is_named(tmp_path):
    root = write_site(tmp_path / "repo", {
        "astro.config.mjs": CONFIG, "tsconfig.json": "{ not json, no paths",
        "src/content/docs/page.mdx": "---\ntitle: Page\n---\nimport P from '@/parts/p.md';\n\nText.\n\n<P />\n",
    })
    report = build_json(root, tmp_path / "out")
    details = [u["detail"] for u in report["dialect"]["unresolved"] if u["construct"] == "tsconfig paths"]
    assert details and details[0].startswith("tsconfig.json: malformed JSON")


def test_a_directive_line_with_text_after_its_label_is_a_paragraph():
    ctx = _ctx()
    out = asides.convert(":::caution[Heads up] Text on the line.\nMore. :::\n\n:::tip{icon=\"star\"}\nA.\n:::\n", ctx)
    assert out.startswith(":::caution[Heads up] Text on the line.\nMore. :::\n") and "Tip: A." in out
    assert [(n.outcome, n.line) for n in ctx.notes] == [("converted", 4)]


def test_a_markdown_partial_of_an_mdx_page_is_read_as_markdown(tmp_path):
    root = write_site(tmp_path / "repo", {
        "astro.config.mjs": CONFIG,
        "src/parts/out.md": "<pre><code>{value} and <strong>bold</strong></code></pre>\n",
        "src/content/docs/page.mdx": "---\ntitle: Page\n---\nimport Out from '../../parts/out.md';\n\n<Out />\n",
    })
    report = build_json(root, tmp_path / "out")
    assert report["dialect"]["constructs"]["mdx partial"]["resolved"] == 1
    assert "mdx expression" not in report["dialect"]["constructs"]  # braces in Markdown are text
    with sqlite3.connect(tmp_path / "out" / "store.sqlite") as db:
        (text,) = db.execute("SELECT group_concat(text, '\n') FROM sections").fetchone()
    assert "{value} and bold" in text


COMMAND_TABS = """---
import { Tabs, TabItem, Code } from '@astrojs/starlight/components';
interface Props { npm?: string; yarn?: string; cargo?: string }
const { npm, yarn, cargo } = Astro.props;
---

<Tabs syncKey="cmd">
  {npm && (<TabItem label="npm"><Code code={npm} lang="sh" frame="none" /></TabItem>)}
  {yarn && (
    <TabItem label="yarn">
      <Code code={yarn} lang="sh" theme="css-variables" />
    </TabItem>
  )}
  {cargo && (<TabItem label='cargo'><Code lang="sh" code={ cargo } /></TabItem>)}
</Tabs>
"""


def test_a_site_component_drawing_tabs_of_code_from_its_props_shows_each_command(tmp_path, file_regression):
    # Tauri's src/components/CommandTabs.astro: its commands were dropped with the element on
    # every install step; a component that draws no tab of code keeps the MDX rules' reading.
    root = write_site(tmp_path / "repo", {
        "astro.config.mjs": CONFIG,
        "tsconfig.json": '{"compilerOptions": {"paths": {"@components/*": ["src/components/*"]}}}\n',
        "src/components/CommandTabs.astro": COMMAND_TABS,
        "src/components/Box.astro": "---\n---\n<div class=\"box\"><slot /></div>\n",
        "src/content/docs/install.mdx": """---
title: Install
---
import CommandTabs from '@components/CommandTabs.astro';
import Box from '../../components/Box.astro';

<Steps>

1. Add the CLI:

    <CommandTabs
      npm="npm install -D @tauri-apps/cli"
      cargo='cargo install tauri-cli --version "^2.0.0"'
    />

    Then run it:

    ```sh
    npm run tauri
    ```

</Steps>

Inline <CommandTabs yarn="yarn add x" /> too.

<Box title="A box">Boxed words.</Box>
""",
    })
    report = build_json(root, tmp_path / "out")
    text = _sections(tmp_path / "out" / "store.sqlite")
    assert "npm:\n\n```sh\nnpm install -D @tauri-apps/cli\n```" in text
    assert 'cargo:\n\n```sh\ncargo install tauri-cli --version "^2.0.0"\n```' in text
    assert "yarn add x" in text and "Boxed words." in text and "yarn:" not in text.split("Inline")[0]
    assert report["dialect"]["constructs"]["jsx component"]["unresolved"] == 0
    with sqlite3.connect(tmp_path / "out" / "store.sqlite") as con:
        reads = con.execute("SELECT value FROM meta WHERE key = 'dialect_reads'").fetchone()[0]
    assert "src/components/CommandTabs.astro" in reads and "Box.astro" not in reads  # a box draws its children
    file_regression.check(text, extension=".txt")


@pytest.mark.parametrize("hostile", [
    "<TabItem label='a'>" * 50_000, "<Code code={a}" * 50_000, "<Code " + "a" * 1_000_000,
    "<TabItem label=\"" + "a" * 1_000_000, "<Code code=" + "{" * 1_000_000, "---\n" + "<Code a=b " * 100_000,
])
def test_a_component_template_is_read_in_one_pass(hostile):
    import time

    from contextpull.dialects.starlight import astro_components

    started = time.process_time()
    tabs = astro_components.tabs(hostile)
    assert time.process_time() - started < 2.0
    assert len(tabs) <= astro_components.MAX_TABS
    assert astro_components.tabs(COMMAND_TABS) == (
        ("npm", "code", "npm", "sh"), ("yarn", "code", "yarn", "sh"), ("cargo", "code", "cargo", "sh"))


def test_a_site_component_drawing_a_tab_per_named_slot_labels_each_child(tmp_path, file_regression):
    # Astro's src/components/tabs/PackageManagerTabs.astro: each <Fragment slot="npm"> child
    # kept its text but lost the tab it is under. A slot whose tab label is JavaScript keeps its
    # text unlabelled; a component given content outside its slots keeps the MDX rules' reading,
    # and so does one whose template draws a slot the element fills outside any tab.
    tabs = """---
import { Tabs, TabItem } from '@astrojs/starlight/components';
---
<Tabs syncKey="package-managers">
\t<TabItem label="npm"><slot name="npm" /></TabItem>
\t{Astro.slots.has('yarn') && (<TabItem label="Yarn">
\t\t<slot name="yarn" />
\t</TabItem>)}
\t<TabItem label={Astro.locals.t('ssr')}><slot name="ssr" /></TabItem>
</Tabs>
<slot name="after" />
"""
    preview = "---\n---\n<figure><slot /><div><slot name=\"preview\" /></div></figure>\n"
    root = write_site(tmp_path / "repo", {
        "astro.config.mjs": CONFIG,
        "tsconfig.json": '{"compilerOptions": {"paths": {"~/*": ["src/*"]}}}\n',
        "src/components/tabs/PackageManagerTabs.astro": tabs,
        "src/components/preview.astro": preview,
        "src/content/docs/install.mdx": """---
title: Install
---
import PackageManagerTabs from '~/components/tabs/PackageManagerTabs.astro';
import Preview from '~/components/preview.astro';

<PackageManagerTabs>
  <Fragment slot="yarn">
  ```shell
  yarn create astro
  ```
  </Fragment>
  <Fragment slot="npm">
  ```shell
  npm create astro@latest
  ```
  </Fragment>
</PackageManagerTabs>

<PackageManagerTabs>
  <Fragment slot="ssr">Server words.</Fragment>
  <Fragment slot="after">After words.</Fragment>
</PackageManagerTabs>

<Preview>
Shown as written.
<Fragment slot="preview">Previewed words.</Fragment>
</Preview>

<PackageManagerTabs>
<Aside slot="npm">Careful with npm.</Aside>
<Aside slot="yarn" title="Yarn 1">Classic.</Aside>
</PackageManagerTabs>
""",
    })
    build_json(root, tmp_path / "out")
    text = _sections(tmp_path / "out" / "store.sqlite")
    assert "npm:\n\n```shell\nnpm create astro@latest\n```\n\nYarn:\n\n```shell\nyarn create astro\n```" in text
    assert "Server words." in text and "After words." in text and "Previewed words." in text
    assert "npm: Note Careful with npm.\n\nYarn: Yarn 1 Classic." in text  # one-line asides read inline
    with sqlite3.connect(tmp_path / "out" / "store.sqlite") as con:
        reads = con.execute("SELECT value FROM meta WHERE key = 'dialect_reads'").fetchone()[0]
    assert "PackageManagerTabs.astro" in reads and "preview.astro" not in reads
    file_regression.check(text, extension=".txt")


SINCE = """---
import Badge from '~/components/Badge.astro';
import { getLatestNPMVersion } from '~/util/getLatestNPMVersion';
export interface Props {
\tpkg?: string;
\tv: string;
}

const { v, pkg = 'astro' } = Astro.props as Props;
const featureStatus = await getFeatureStatus(v);
---

<span>
\t<strong>{Astro.locals.t('since.addedIn')}</strong>
\t<code>{pkg}@{v}</code>
\t{featureStatus === 'new' && <Badge text={Astro.locals.t('since.new')} />}
</span>
"""


def test_a_site_component_printing_its_props_and_ui_strings_shows_that_text(tmp_path):
    # Astro's src/components/Since.astro: 577 <Since v="4.2.0" /> on 67 pages kept nothing (an
    # element without children); the page shows its label from src/content/i18n/en.yml and the
    # version. A component that prints a value its script computes keeps the MDX rules' reading.
    page = """---
title: {title}
---
import Since from '~/components/Since.astro';
import Status from '~/components/Status.astro';

**Type:** `boolean`<br />
<Since v="4.2.0" />

<p><Since pkg="@astrojs/rss" v="2.1.0" /></p>

<Status v="1" />
"""
    root = write_site(tmp_path / "repo", {
        "astro.config.mjs": CONFIG,
        "tsconfig.json": '{"compilerOptions": {"paths": {"~/*": ["src/*"]}}}\n',
        "src/components/Since.astro": SINCE,
        "src/components/Status.astro": "---\nconst { v } = Astro.props;\nconst s = v + '!';\n---\n<b>{s}</b>\n",
        "src/content/i18n/en.yml": "since.addedIn: 'Added in:'\nsince.new: New\n",
        "src/content/i18n/de.yml": "since.addedIn: 'Hinzugefügt in:'\n",
        "src/content/docs/en/config.mdx": page.replace("{title}", "Config"),
        "src/content/docs/de/config.mdx": page.replace("{title}", "Konfiguration"),
        "src/content/docs/fr/config.mdx": page.replace("{title}", "Configuration"),
    })
    build_json(root, tmp_path / "out")
    text = _sections(tmp_path / "out" / "store.sqlite")
    en, de, fr = (text.split(f"docs/{lang}/config.mdx [")[1].split("\n== ")[0] for lang in ("en", "de", "fr"))
    assert "**Type:** `boolean`\n\nAdded in: astro@4.2.0\n\nAdded in: @astrojs/rss@2.1.0" in en
    assert "Hinzugefügt in: astro@4.2.0" in de and "Added in: astro@4.2.0" in fr  # no fr.yml: the default's
    assert "!" not in en and "New" not in en
    with sqlite3.connect(tmp_path / "out" / "store.sqlite") as con:
        reads = con.execute("SELECT value FROM meta WHERE key = 'dialect_reads'").fetchone()[0]
    assert "src/content/i18n/en.yml" in reads and "src/content/i18n/de.yml" in reads


@pytest.mark.parametrize(("template", "shown"), [
    ("<i>{v}</i> and {w}\n", "1 and x"),  # the element's string, else the default written
    ("{v && <Badge />}<b>{v}</b>", "1"),  # drawn on a condition the build never runs: nothing
    ("<b>{" * 2000, None), ("{a}" * 1300, None), ("<B>{v}</B>", None), ("<script>x</script>{v}", None),
    ("{v.trim()}", None), ("{v}}", None), ("<slot />{x}", None),
])
def test_a_template_printing_more_than_text_is_not_read(template, shown):
    from contextpull.dialects.starlight import astro_components

    source = "---\nconst { v, w = 'x' } = Astro.props;\n---\n" + template
    assert astro_components.printed(astro_components.template(source), {"v": "1"}, None) == shown


def test_steps_are_numbered_as_the_page_draws_them(tmp_path):
    # Tauri writes every step `1.`; Starlight numbers them 1, 2, 3. A block inside a step (tabs,
    # a second paragraph) ends the list item in the shared reading, after which `1.` read as a
    # new list's first step: 29 steps on 12 pages showed the wrong number.
    root = write_site(tmp_path / "repo", {
        "astro.config.mjs": CONFIG,
        "src/content/docs/setup.mdx": """---
title: Setup
---
import { Steps, Tabs, TabItem } from '@astrojs/starlight/components';

<Steps>

1.  ##### Configure

    Then run:

    <Tabs>
    <TabItem label="npm">
    ```sh
    1. npm run dev
    ```
    </TabItem>
    </Tabs>

    1. a sub-step
    1. another

1.  ##### Build

1.  ##### Ship

</Steps>

<Steps>
3. Third
4. Fourth
</Steps>
""",
    })
    report = build_json(root, tmp_path / "out")
    text = _sections(tmp_path / "out" / "store.sqlite")
    assert "1.  ##### Configure" in text and "2.  ##### Build" in text and "3.  ##### Ship" in text
    assert "npm:\n\n```sh\n1. npm run dev\n```" in text  # code and the tabs' own text untouched
    assert "1. a sub-step\n    1. another" in text  # a nested list keeps its numbers
    assert "3. Third\n4. Fourth" in text
    assert report["dialect"]["constructs"]["steps"] == {"resolved": 0, "converted": 1, "unresolved": 0}
