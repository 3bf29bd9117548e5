"""Which Liquid tags a Jekyll site defines, so one no one defines is named (issue 26, "A construct
report" and "Bad input": unknown directives).

Jekyll stops at a tag no one registered ("Liquid syntax error: Unknown tag"), so the page does not
exist as written. A tag is defined by Liquid, by Jekyll, by a plugin gem the site loads
(``plugins:``, the older ``gems:``, a Gemfile's ``jekyll_plugins`` group, or the ``theme:`` gem's
own dependencies; what each gem registers is written in ``GEMS``), or by a Ruby file in the
site's ``_plugins`` folder that calls ``register_tag`` with a literal name. The plugin files are
read as text, never run. When a plugin may register names this module cannot read (a gem not in
``GEMS``, a ``register_tag`` with a computed name), ``SiteTags.defined`` answers None and no tag
is called unknown.
"""

from __future__ import annotations

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


class SiteTags:
    """One page's view of the tags its site defines. The gem list and the plugin files are read
    once per page, when a name first needs them, rather than once per tag name asked about: each
    read counts against the page's include budget, and a page of many unknown tags read every
    plugin file again for each."""

    def __init__(self, ctx: Context, site_root: str, plugins_dir: str):
        self.ctx, self.site_root = ctx, site_root
        self.folder = posixpath.join(site_root, plugins_dir).strip("/")
        self._gems: tuple[frozenset[str], bool] | None = None
        self._plugins: tuple[frozenset[str], bool] | None = None
        self._answers: dict[str, bool | None] = {}

    def defined(self, name: str) -> bool | None:
        """True, False, or None when a plugin may register tags this module cannot read. The
        plugin files read are dependencies of the page; for a tag found nowhere, so is the file
        a plugin of its name would conventionally be (``_plugins/<name>.rb``)."""
        if name in LIQUID or name in JEKYLL:
            return True
        if name not in self._answers:
            self._answers[name] = self._look_up(name)
        return self._answers[name]

    def _look_up(self, name: str) -> bool | None:
        if self._gems is None:
            self._gems = _gem_tags(self.ctx, self.site_root)
        if name in self._gems[0]:
            return True
        if self._plugins is None:
            self._plugins = _plugin_tags(self.ctx, self.folder)
        if name in self._plugins[0]:
            return True
        self.ctx.read_data(f"{self.folder}/{name}.rb")
        return False if self._gems[1] and self._plugins[1] else None


def _gem_tags(ctx: Context, site_root: str) -> tuple[frozenset[str], bool]:
    """The tags the site's gems register, and whether every gem is one ``GEMS`` knows."""
    gems = _gems(ctx, site_root)
    return frozenset(t for g in gems for t in GEMS.get(g, ())), all(g in GEMS for g in gems)


def _plugin_tags(ctx: Context, folder: str) -> tuple[frozenset[str], bool]:
    """The literal names the plugin files register, and False when one registers a computed
    name (it may be any)."""
    names: set[str] = set()
    complete = True
    for rel in _plugin_files(ctx.reader.files, folder):
        data = ctx.read_data(rel)
        for m in _REGISTER.finditer(data.decode("utf-8", "replace") if data is not None else ""):
            if m.group(3) is not None:
                complete = False
            else:
                names.add(m.group(1) or m.group(2))
    return frozenset(names), complete


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


def _plugin_files(door, folder: str) -> list[str]:
    """The ``.rb`` files of the plugins folder, inside the repository (the site's door), in name
    order, bounded."""
    out: list[str] = []
    for rel, dirs, files in door.walk(folder or "."):
        dirs.sort()
        for file in sorted(files):
            if file.endswith(".rb"):
                out.append(f"{folder}/{file}" if rel == "." else f"{folder}/{rel}/{file}")
                if len(out) >= MAX_PLUGIN_FILES:
                    return out
    return out
