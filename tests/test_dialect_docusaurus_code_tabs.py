"""Code blocks a Docusaurus site's remark plugins draw as tabs (contextpull/dialects/docusaurus/
code_tabs.py): ``npm2yarn`` blocks as npm, Yarn, pnpm (and Bun) tabs with converted commands
(``npm_commands``, npm-to-yarn's rules), tab-blocks' ``tab`` blocks under their labels, each
labelled as the MDX rules label a hand-written ``<Tabs>``; the plugins' options read as data."""

from __future__ import annotations

import pytest

from contextpull.dialects.docusaurus import code_tabs, npm_commands
from site_build import SECTIONS, build_json, store_rows, write_site

CONFIG = """const npm2yarn = require('@docusaurus/remark-plugin-npm2yarn');
module.exports = {
  presets: [['classic', { docs: {
    remarkPlugins: [
      [npm2yarn, {sync: true, converters: ['yarn', 'pnpm', 'bun', ['Turbo', code => code]]}],
      [require('docusaurus-remark-plugin-tab-blocks').default, {labels: [['py', 'Python']]}],
    ],
  } }]],
};
"""

PAGE = """# Install

```bash npm2yarn
npm install --save-dev jest
```

```bash npm2yarn
npm ci
```

```js tab title="a.js"
module.exports = 1;
```

```py tab
x = 1
```

```ts tab={"span":2} title="b.ts"
export const b = 1;
```

```ts title="b.test.ts"
test(b);
```

Apart:

```js title="c.js"
c();
```
"""

HAND_WRITTEN = """# Install

import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';

<Tabs groupId="npm2yarn">
<TabItem value="npm">

```bash
npm install --save-dev jest
```

</TabItem>
<TabItem value="yarn" label="Yarn">

```bash
yarn add --dev jest
```

</TabItem>
<TabItem value="pnpm" label="pnpm">

```bash
pnpm add --save-dev jest
```

</TabItem>
<TabItem value="bun" label="Bun">

```bash
bun add --dev jest
```

</TabItem>
</Tabs>
"""


def _text(root, tmp_path, name):
    report = build_json(root / "docs", tmp_path / name)
    return "\n\n".join(t for _, _, t in store_rows(tmp_path / name / "store.sqlite", SECTIONS)), report


def test_plugin_code_blocks_read_as_the_tabs_the_site_draws(tmp_path):
    # Jest: 15 sections on 9 pages showed `bash npm2yarn` blocks as npm alone, 66 sections on 5
    # pages `js tab`/`ts tab` blocks without the labels their tabs show
    root = write_site(tmp_path / "repo", {"website/docusaurus.config.js": CONFIG, "docs/install.md": PAGE,
                                          "docs/by-hand.mdx": HAND_WRITTEN})
    text, report = _text(root, tmp_path, "out")
    by_hand, page = text.split("# Install")[1], text.split("# Install")[2]
    tabs = by_hand.strip()
    assert tabs.startswith("npm:\n\n```bash\nnpm install --save-dev jest\n```\n\nYarn:\n\n```bash\nyarn add --dev jest\n```")
    assert page.strip().startswith(tabs)  # read as the hand-written <Tabs> reads
    assert "npm:\n\n```bash\nnpm ci\n```\n\nJavaScript:" in page  # npm ci is not understood: npm alone
    assert "JavaScript:\n\n```js title=\"a.js\"\nmodule.exports = 1;\n```\n\nPython:\n\n```py\nx = 1\n```" in page
    assert "TypeScript:\n\n```ts title=\"b.ts\"\nexport const b = 1;\n```\n\n```ts title=\"b.test.ts\"\ntest(b);\n```\n\nApart:" in page
    assert "Apart:\n\n```js title=\"c.js\"" in page and "Turbo" not in page
    constructs = report["dialect"]["constructs"]
    assert constructs["npm2yarn"] == {"resolved": 0, "converted": 1, "unresolved": 1}
    assert constructs["code tabs"]["converted"] == 1


def test_without_the_plugins_the_blocks_stay_as_written(tmp_path):
    root = write_site(tmp_path / "repo", {"website/docusaurus.config.js": "module.exports = {};\n", "docs/install.md": PAGE})
    text, _ = _text(root, tmp_path, "out")
    assert "```bash npm2yarn\nnpm install --save-dev jest\n```" in text and '```js tab title="a.js"' in text


def test_the_plugins_options_are_read_as_data():
    assert code_tabs.plugins("remarkPlugins: [[require('@docusaurus/remark-plugin-npm2yarn'), {sync: true}]]") == \
        code_tabs.Plugins(("yarn", "pnpm"), None)
    assert code_tabs.plugins(CONFIG) == code_tabs.Plugins(("yarn", "pnpm", "bun"),
                                                          {"js": "JavaScript", "ts": "TypeScript", "py": "Python"})
    unread = code_tabs.plugins("[require('@docusaurus/remark-plugin-npm2yarn'), {converters: makeThem()}]")
    assert unread.converters == () and "not a literal list" in unread.problem
    assert code_tabs.plugins("module.exports = {}") == code_tabs.Plugins(None, None)
    assert code_tabs.plugins("import n2y from '@docusaurus/remark-plugin-npm2yarn'\n[n2y, {converters: ['bun']}]").converters == ("bun",)


@pytest.mark.parametrize(("npm", "yarn", "pnpm", "bun"), [
    ("npm install x", "yarn add x", "pnpm add x", "bun add x"),
    ("npm i -D x", "yarn add --dev x", "pnpm add -D x", "bun add --dev x"),
    ("npm install -g x", "yarn global add x", "pnpm add -g x", "bun add --global x"),
    ("npm install", "yarn install", "pnpm install", "bun install"),
    ("npm uninstall x", "yarn remove x", "pnpm remove x", "bun remove x"),
    ("npm run build", "yarn build", "pnpm run build", "bun run build"),
    ("npm test -- --runInBand", "yarn test --runInBand", "pnpm test --runInBand", "bun run test --runInBand"),
    ("npm init jest@latest", "yarn create jest", "pnpm create jest", "bunx create-jest"),
    ("npx jest", "yarn dlx jest", "pnpm dlx jest", "bun x jest"),
    ("# comment\nnpm i x && npm start", "# comment\nyarn add x && yarn start", "# comment\npnpm add x && pnpm start",
     "# comment\nbun add x && bun start"),
    ("npm ci", None, None, None),  # the library cannot convert it: the npm tab alone
    ("pnpm install", None, None, None),  # npm inside a word
    ("see npmjs.com", None, None, None),
])
def test_npm_commands_convert_as_npm_to_yarn_does(npm, yarn, pnpm, bun):
    assert [npm_commands.convert(npm, to) for to in ("yarn", "pnpm", "bun")] == [yarn, pnpm, bun]


def test_a_long_run_of_npm_and_fences_is_read_once():
    import time

    started = time.process_time()
    assert npm_commands.convert("npm " * 200_000 + "i x", "yarn") is None
    assert npm_commands.convert("npmnpm" * 200_000, "yarn") is None
    assert code_tabs.plugins("require('@docusaurus/remark-plugin-npm2yarn')" + " ," * 200_000) == code_tabs.Plugins(("yarn", "pnpm"), None)
    assert time.process_time() - started < 2.0
