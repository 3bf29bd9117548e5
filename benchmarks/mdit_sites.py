"""The six issue-26 sites and the markdown-it-py parser each dialect would need (issue 35).

Shared by ``mdit_reading.py`` (speed, linear time) and ``mdit_stores.py`` (the prototype's
sections against the stores): one place says which pages a site has and which mdit-py-plugins
a generator's syntax asks for, so the figures of both scripts are about the same parsers.

markdown-it-py and mdit-py-plugins are not dependencies of the project: these scripts are an
evaluation, run in a venv where both are installed (``pip install markdown-it-py mdit-py-plugins``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

CORPORA = Path("/work/corpora/six")
STORES = Path("/work/notes/six-main")  # main's stores of the six sites, built with --dialect auto

# name -> DOCS folder inside the site's tree (as /work/notes/six_sha.sh builds them)
DOCS = {
    "fastapi": "docs/en/docs",
    "book": "src",
    "hugoDocs": "content",
    "jekyll": "docs",
    "flask": "docs",
    "redux": "docs",
}

# Which plugins each generator's syntax needs (what a plugin exists for; a generator's syntax
# with no plugin, such as pymdown ``///`` blocks, Hugo shortcodes or mdBook ``{{#include}}``,
# would be a rule still to write). "all" is every plugin at once, the widest parser, used for
# the linear-time cases so each opener meets every rule that could claim it.
PLUGINS = {
    "mkdocs": ("front_matter", "admon", "attrs", "attrs_block", "deflist", "tasklists", "footnote"),
    "mdbook": ("footnote", "tasklists"),
    "hugo": ("front_matter", "attrs_block", "deflist", "footnote", "tasklists"),
    "jekyll": ("front_matter", "attrs_block", "deflist", "footnote"),
    "docusaurus": ("front_matter", "colon_fence", "footnote", "tasklists"),
    "commonmark": (),
    "all": (
        "front_matter", "admon", "attrs", "attrs_block", "deflist", "tasklists", "footnote",
        "myst_role", "myst_block", "dollarmath", "colon_fence", "container",
    ),
}


def markdown_it(dialect: str, *, inline: bool = True):
    """CommonMark with GFM tables and strikethrough, plus the dialect's plugins. ``inline=False``
    stops after the block rules (the core ``inline`` rule off): block tokens with line maps and
    the raw inline text, which is all a sectioner needs."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.admon import admon_plugin
    from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
    from mdit_py_plugins.colon_fence import colon_fence_plugin
    from mdit_py_plugins.container import container_plugin
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin
    from mdit_py_plugins.myst_blocks import myst_block_plugin
    from mdit_py_plugins.myst_role import myst_role_plugin
    from mdit_py_plugins.tasklists import tasklists_plugin

    table = {
        "front_matter": front_matter_plugin,
        "admon": admon_plugin,
        "attrs": attrs_plugin,
        "attrs_block": attrs_block_plugin,
        "deflist": deflist_plugin,
        "tasklists": tasklists_plugin,
        "footnote": footnote_plugin,
        "myst_role": myst_role_plugin,
        "myst_block": myst_block_plugin,
        "dollarmath": dollarmath_plugin,
        "colon_fence": colon_fence_plugin,
        "container": lambda md: container_plugin(md, "note"),
    }
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    # "+name": CommonMark with that one plugin (``mdit_reading.py blame``)
    for name in PLUGINS[dialect] if not dialect.startswith("+") else (dialect[1:],):
        md.use(table[name])
    if not inline:
        md.disable("inline")
    return md


@dataclass(frozen=True)
class Page:
    path: str  # store path, relative to DOCS
    kind: str
    data: bytes


def pages(site: str) -> list[Page]:
    """Every document main's store of ``site`` holds, read from the site's tree: the pages a
    build reads, without rerunning discovery and the generators' page rules."""
    docs = CORPORA / site / DOCS[site]
    con = sqlite3.connect(STORES / site / "store.sqlite")
    try:
        rows = con.execute("SELECT path, kind FROM documents ORDER BY path").fetchall()
    finally:
        con.close()
    return [Page(p, k, (docs / p).read_bytes()) for p, k in rows]


def docs_path(site: str) -> Path:
    return CORPORA / site / DOCS[site]
