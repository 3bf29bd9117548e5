"""Which Liquid tags a Jekyll site defines, so one no one defines is named (issue 26, "A construct
report" and "Bad input": unknown directives).

Jekyll stops at a tag no one registered ("Liquid syntax error: Unknown tag"), so the page does not
exist as written. A tag is defined by Liquid, by Jekyll, by a plugin gem the site loads
(``plugins:``, the older ``gems:``, a Gemfile's ``jekyll_plugins`` group, or the ``theme:`` gem's
own dependencies; what each gem registers is written in ``GEMS``), or by a Ruby file in the
site's ``_plugins`` folder that calls ``register_tag`` with a literal name. The plugin files are
read as text, never run. When a plugin may register names this module cannot read (a gem not in
``GEMS``, a ``register_tag`` with a computed name), ``defined`` answers None and no tag is
called unknown.
"""

from __future__ import annotations

import os
import posixpath
import re

from ..api import Context

LIQUID = frozenset(
    "assign capture case comment cycle decrement echo for if ifchanged include increment liquid raw"
    " render tablerow unless break continue when else elsif".split()
)
JEKYLL = frozenset("highlight include include_relative link post_url".split())
# Plugin gems -> the tags they register (an empty set: filters, generators, hooks only).
GEMS: dict[str, frozenset[str]] = {name: frozenset(tags.split()) for name, tags in {
    "jekyll-seo-tag": "seo", "jekyll-feed": "feed_meta", "jekyll-avatar": "avatar",
    "jekyll-gist": "gist", "jekyll-include-cache": "include_cached",
    "jekyll-last-modified-at": "last_modified_at", "jekyll-twitter-plugin": "twitter",
    "github-pages": "seo feed_meta avatar gist include_cached github_edit_link",
    "jekyll-mentions": "", "jekyll-redirect-from": "", "jekyll-sitemap": "", "jemoji": "",
    "jekyll-github-metadata": "", "jekyll-remote-theme": "", "jekyll-paginate": "",
    "jekyll-paginate-v2": "", "jekyll-relative-links": "", "jekyll-optional-front-matter": "",
    "jekyll-readme-index": "", "jekyll-default-layout": "", "jekyll-titles-from-headings": "",
    "jekyll-coffeescript": "", "jekyll-commonmark-ghpages": "", "jekyll-commonmark": "",
    "jekyll-sass-converter": "", "jekyll-archives": "", "jekyll-toc": "", "jekyll-target-blank": "",
    "jekyll-data": "", "jekyll-environment-variables": "", "jekyll-minifier": "", "jekyll-postcss": "",
}.items()}
# Theme gems -> the plugin gems Jekyll loads with them (a theme's runtime dependencies).
THEMES: dict[str, tuple[str, ...]] = {
    "minima": ("jekyll-feed", "jekyll-seo-tag"),
    "just-the-docs": ("jekyll-seo-tag", "jekyll-include-cache"),
}
_REGISTER = re.compile(r"register_tag\s*\(?\s*(?:[\"']([\w-]+)[\"']|:(\w+)|(\S))")
_GEM = re.compile(r"""^\s*gem\s+["']([\w.-]+)["']""", re.M)
MAX_PLUGIN_FILES = 200


def defined(ctx: Context, name: str, site_root: str, plugins_dir: str) -> bool | None:
    """True, False, or None when a plugin may register tags this module cannot read. The plugin
    files read are dependencies of the page; for a tag found nowhere, so is the file a plugin of
    its name would conventionally be (``_plugins/<name>.rb``)."""
    if name in LIQUID or name in JEKYLL:
        return True
    complete = True
    for gem in _gems(ctx, site_root):
        tags = GEMS.get(gem)
        if tags is None:
            complete = False
        elif name in tags:
            return True
    folder = posixpath.join(site_root, plugins_dir).strip("/")
    for rel in _plugin_files(ctx.site.repo_root, folder):
        data = ctx.read_data(rel)
        text = data.decode("utf-8", "replace") if data is not None else ""
        for m in _REGISTER.finditer(text):
            if m.group(3) is not None:
                complete = False  # a computed name: it may be this one
            elif name in (m.group(1), m.group(2)):
                return True
    ctx.read_data(f"{folder}/{name}.rb")
    return False if complete else None


def _gems(ctx: Context, site_root: str) -> list[str]:
    config = ctx.config if isinstance(ctx.config, dict) else {}
    found = [g for key in ("plugins", "gems") if isinstance(config.get(key), list) for g in config[key]]
    theme = config.get("theme")
    if isinstance(theme, str) and theme.strip():
        # GitHub Pages' own themes load jekyll-seo-tag; another theme gem, what THEMES says or
        # anything (its name is then a gem GEMS does not know).
        found.extend(("jekyll-seo-tag",) if theme.startswith("jekyll-theme-") else THEMES.get(theme, (theme,)))
    for folder in dict.fromkeys((site_root, "")):
        data = ctx.read_data(posixpath.join(folder, "Gemfile").lstrip("/"))
        text = data.decode("utf-8", "replace") if data is not None else ""
        if "jekyll_plugins" in text:  # every gem of such a Gemfile counts: generous, never short
            found.extend(_GEM.findall(text))
    return [g for g in found if isinstance(g, str)]


def _plugin_files(repo_root: str, folder: str) -> list[str]:
    """The ``.rb`` files of the plugins folder, inside the repository, in name order, bounded."""
    full = os.path.join(repo_root, *folder.split("/")) if folder else repo_root
    real = os.path.realpath(full)
    if not (real == repo_root or real.startswith(repo_root.rstrip(os.sep) + os.sep)) or not os.path.isdir(full):
        return []
    out: list[str] = []
    for top, dirs, files in os.walk(full):
        dirs.sort()
        rel = os.path.relpath(top, full).replace(os.sep, "/")
        for file in sorted(files):
            if file.endswith(".rb"):
                out.append(f"{folder}/{file}" if rel == "." else f"{folder}/{rel}/{file}")
                if len(out) >= MAX_PLUGIN_FILES:
                    return out
    return out
