"""Reading time against a page's size, per format (issue 34): one build of a site holding one
generated page, at each size, for every format and dialect; prints seconds (wall and CPU) and
peak RSS per row. Linear reading means each row's seconds per MB stay flat as the size grows.

    .venv/bin/python benchmarks/format_scaling.py                 # 1, 4 and 10 MB, every format
    .venv/bin/python benchmarks/format_scaling.py --sizes 0.25 1 --formats rst "md mkdocs"
    .venv/bin/python benchmarks/format_scaling.py --checkout /work/main --formats rst   # before

The pages are realistic, not hostile: short sections, each with a paragraph holding links and
inline code, a bullet list, a table, a code block and the dialect's own admonition (a MkDocs
``!!! note``, a Docusaurus ``:::note``, a MyST ``{note}`` fence, an rst ``.. note::``, a
GitHub ``> [!NOTE]`` callout, a Hugo shortcode, a kramdown attribute list), and no includes.
Each build runs the CLI as a subprocess (interpreter start included); peak RSS is from wait4.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "contextpull"]

# format -> (dialect, page name, configuration files)
FORMATS = {
    "md plain": ("plain", "page.md", {}),
    "md mkdocs": ("mkdocs", "docs/page.md", {"mkdocs.yml": "site_name: S\nmarkdown_extensions:\n  - admonition\n"}),
    "md hugo": ("hugo", "content/page.md", {"hugo.toml": "title = 'S'\n"}),
    "md jekyll": ("jekyll", "page.md", {"_config.yml": "title: S\n"}),
    "md mdbook": ("mdbook", "src/page.md", {"book.toml": "[book]\ntitle = 'S'\n", "src/SUMMARY.md": "- [Page](page.md)\n"}),
    "md sphinx": ("sphinx", "page.md", {"conf.py": "project = 'S'\nextensions = ['myst_parser']\n"}),
    "md docusaurus": ("docusaurus", "docs/page.md", {"docusaurus.config.js": "module.exports = {title: 'S'};\n"}),
    "md vitepress": ("vitepress", "docs/page.md", {"docs/.vitepress/config.ts": "export default {title: 'S'}\n"}),
    "mdx": ("docusaurus", "docs/page.mdx", {"docusaurus.config.js": "module.exports = {title: 'S'};\n"}),
    "mdx mintlify": ("mintlify", "page.mdx", {"docs.json": '{"name": "S", "navigation": {"pages": ["page"]}}\n'}),
    "rst": ("sphinx", "page.rst", {"conf.py": "project = 'S'\n"}),
    "ipynb": ("plain", "page.ipynb", {}),
    "md starlight": ("starlight", "src/content/docs/page.md", {"astro.config.mjs": "import starlight from '@astrojs/starlight';\n"}),
    "mdoc": ("starlight", "src/content/docs/page.mdoc", {"astro.config.mjs": "import starlight from '@astrojs/starlight';\n"}),
}

_NOTES = {
    "plain": "> **Note:** the value {n} is kept between runs.\n",
    "mkdocs": '!!! note "Keep it"\n    The value {n} is kept between runs.\n',
    "hugo": "{{{{< note >}}}}\nThe value {n} is kept between runs.\n{{{{< /note >}}}}\n",
    "jekyll": "The value {n} is kept between runs.\n{{: .note }}\n",
    "mdbook": "> [!NOTE]\n> The value {n} is kept between runs.\n",
    "sphinx": "```{{note}}\nThe value {n} is kept between runs.\n```\n",
    "docusaurus": ":::note\n\nThe value {n} is kept between runs.\n\n:::\n",
    "vitepress": "::: tip Keep it\nThe value {n} is kept between runs <Badge text=\"new\" />.\n:::\n",
    "starlight": ":::note[Keep it]\nThe value {n} is kept between runs.\n:::\n",
    "markdoc": '{{% aside type="note" %}}\nThe value {n} is kept between runs.\n{{% /aside %}}\n',
    "mintlify": "<Note>\nThe value {n} is kept between runs.\n</Note>\n",
}


def markdown_section(n: int, dialect: str) -> str:
    return (
        f"## Setting {n}\n\nThe `option_{n}` setting decides how [the cache](guide/cache-{n % 50}.md) "
        f"treats entry {n}; see [the reference](https://example.com/ref/{n}) for *every* value.\n\n"
        f"- first: `on` keeps it\n- second: `off` drops it\n  - nested detail {n}\n\n"
        f"| name | default | meaning |\n|---|---|---|\n| option_{n} | {n} | how long |\n| other_{n} | no | whether |\n\n"
        f"```python\ndef handler_{n}(value):\n    return value * {n}\n```\n\n"
        + _NOTES[dialect].format(n=n) + "\n"
    )


def rst_section(n: int) -> str:
    title = f"Setting {n}"
    return (
        f"{title}\n{'-' * len(title)}\n\nThe ``option_{n}`` setting decides how `the cache <guide/cache-{n % 50}.html>`_ "
        f"treats entry {n}; see `the reference <https://example.com/ref/{n}>`_ for *every* value.\n\n"
        f"- first: ``on`` keeps it\n- second: ``off`` drops it\n\n  - nested detail {n}\n\n"
        f"=========== ======= =======\nname        default meaning\n=========== ======= =======\n"
        f"option_{n:<4} {n:<7} how\n=========== ======= =======\n\n"
        f".. note::\n\n   The value {n} is kept between runs.\n\n"
        f".. code-block:: python\n\n   def handler_{n}(value):\n       return value * {n}\n\n"
    )


def page(fmt: str, size: int) -> str:
    """A page of about ``size`` bytes in ``fmt``."""
    dialect = FORMATS[fmt][0]
    parts, total, n = [], 0, 0
    head = "Big page\n========\n\n" if fmt == "rst" else "# Big page\n\n"
    if fmt == "mdx":
        head = "import Tabs from '@theme/Tabs';\n\n" + head
    parts.append(head)
    cells = []
    while total < size:
        if fmt == "rst":
            piece = rst_section(n)
        else:
            piece = markdown_section(n, {"mdx": "docusaurus", "mdoc": "markdoc"}.get(fmt, dialect))
            if fmt == "mdx" and n % 10 == 0:
                piece += f'<Tabs groupId="g{n}">\n\nTabbed text {n}.\n\n</Tabs>\n\n'
        if fmt == "ipynb":
            md, _, code = piece.partition("```python\n")
            code, _, rest = code.partition("```\n")
            cells += [{"cell_type": "markdown", "metadata": {}, "source": md + rest},
                      {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": code}]
        parts.append(piece)
        total += len(piece)
        n += 1
    if fmt == "ipynb":
        return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    return "".join(parts)


def build(site: Path, out: Path, dialect: str, checkout: Path = ROOT) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak RSS MB, exit code) of one build by the code at ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    start = time.perf_counter()
    proc = subprocess.Popen(CLI + ["build", str(site), "--out", str(out), "--dialect", dialect],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=site)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.stderr.write(proc.stderr.read().decode(errors="replace")[-2000:])
    proc.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1, 4, 10], help="page sizes in MB")
    ap.add_argument("--formats", nargs="+", default=list(FORMATS), help="formats: " + ", ".join(FORMATS))
    ap.add_argument("--checkout", type=Path, default=ROOT, help="the code to build with (another checkout, to compare)")
    args = ap.parse_args(argv)
    unknown = [f for f in args.formats if f not in FORMATS]
    if unknown:
        ap.error(f"unknown format(s) {unknown}; known: {', '.join(FORMATS)}")
    print(f"{'format':<15} {'MB':>6} {'wall s':>8} {'cpu s':>8} {'cpu s/MB':>9} {'RSS MB':>8} exit")
    for fmt in args.formats:
        dialect, name, config = FORMATS[fmt]
        for mb in args.sizes:
            with tempfile.TemporaryDirectory() as tmp:
                site = Path(tmp) / "site"
                for rel, text in {**config, name: page(fmt, int(mb * 1024 * 1024))}.items():
                    (site / rel).parent.mkdir(parents=True, exist_ok=True)
                    (site / rel).write_text(text, encoding="utf-8")
                real_mb = (site / name).stat().st_size / 1024 / 1024
                wall, cpu, rss, code = build(site, Path(tmp) / "out", dialect, args.checkout)
                print(f"{fmt:<15} {real_mb:>6.2f} {wall:>8.2f} {cpu:>8.2f} {cpu / real_mb:>9.2f} {rss:>8.0f} {code}",
                      flush=True)
                shutil.rmtree(site, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
