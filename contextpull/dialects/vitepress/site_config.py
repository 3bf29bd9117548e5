"""What a VitePress site's ``.vitepress/config.*`` says, read as text and never run (issue 36).

The configuration is JavaScript or TypeScript: only settings written as literals are read, each
found by a search of the text that reads every character one way.

- ``srcDir: 'src'``: the source root, relative to the project root (the folder holding
  ``.vitepress``), where pages are and where ``@/`` points; default the project root;
- ``srcExclude: ['**/drafts/*', 'README.md']``: globs (relative to the source root) of Markdown
  files VitePress renders no page for;
- ``customContainers`` or a container plugin: the site registers ``:::`` names of its own;
  ``vitepress-plugin-tabs``: ``::: tabs`` is one;
- sidebar and nav entries ``{ text: 'Title', link: '/guide/page' }`` (in either order, both plain
  string literals), for the titles of pages that show no H1 and no front-matter title;
- ``attrs: { leftDelimiter: '%{', rightDelimiter: '}%' }``: the delimiters of heading attributes;
- ``transformerTwoslash(...)`` in ``codeTransformers``: Shiki runs twoslash on the site's code.

A configuration split over modules it imports from beside it (``./shared``) is read with them,
for what a page shows (``Reader.page_settings``); what decides which files are pages (``srcDir``,
``srcExclude``) is read from the configuration file itself, and only where the key is the
configuration's own: outside every object that is a property's value (a plugin's ``pwa: {
srcDir }``; ``data.js_literal.property_objects``).

A setting that is present but not a literal (computed, a variable, a spread) is not read, and
says so (``problems``): the build reads the site with the default, and the report names it.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from ..data.js_literal import property_objects

_STRING = r"""(?:'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`\\$\n]*)`)"""
_SRC_DIR = re.compile(r"\bsrcDir[ \t]*:[ \t]*")
_LITERAL = re.compile(_STRING)
_EXCLUDE = re.compile(r"\bsrcExclude[ \t]*:[ \t]*")
_LIST_ITEM = re.compile(r"\s*" + _STRING + r"\s*,?")
_COMMENT = re.compile(r"\s*//[^\n]*")
_TEXT_LINK = re.compile(r"\btext[ \t]*:[ \t]*" + _STRING + r"[ \t]*,\s*link[ \t]*:[ \t]*" + _STRING)
_LINK_TEXT = re.compile(r"\blink[ \t]*:[ \t]*" + _STRING + r"[ \t]*,\s*text[ \t]*:[ \t]*" + _STRING)
_EXPORT = re.compile(r"\bexport[ \t]+default\b|\bmodule\.exports\b|\bdefineConfig\b")
_OWN_CONTAINERS = ("customContainers", "plugin-container", "markdown-it-container")
# markdown-it-attrs' delimiters (``markdown: { attrs: { leftDelimiter: '%{', rightDelimiter: '}%' } }``).
_LEFT = re.compile(r"\bleftDelimiter[ \t]*:[ \t]*" + _STRING)
_RIGHT = re.compile(r"\brightDelimiter[ \t]*:[ \t]*" + _STRING)
# A module the configuration imports from beside it (``import { enConfig } from './en'``).
_LOCAL_IMPORT = re.compile(r"""\b(?:from|import)[ \t]*['"](\.\.?/[^'"\n]{1,200})['"]""")
MAX_EXCLUDES = 200


def _value(m: re.Match, first: int = 1) -> str:
    return next(g for g in m.groups()[first - 1 : first + 2] if g is not None)


@dataclass
class SiteConfig:
    src_dir: str = "."  # relative to the project root, as written
    src_exclude: tuple[str, ...] = ()
    own_containers: bool = False
    tabs: bool = False  # vitepress-plugin-tabs: ``::: tabs`` with ``== Label`` lines
    nav_titles: dict[str, str] = field(default_factory=dict)  # link path (no extension) -> text
    attr_delimiters: tuple[str, str] = ("{", "}")  # markdown-it-attrs' left and right delimiters
    twoslash: bool = False  # ``@shikijs/vitepress-twoslash``'s transformer is configured
    problems: list[str] = field(default_factory=list)


def read(text: str, name: str) -> SiteConfig:
    """The settings of the configuration file ``name`` (its text ``text``) that are literals."""
    config = SiteConfig()
    if not text.strip():
        config.problems.append(f"{name} is empty: the site is read with VitePress's defaults")
        return config
    if _EXPORT.search(text) is None:
        config.problems.append(f"{name} exports no configuration (no export default, module.exports "
                               "or defineConfig): the site is read with VitePress's defaults")
    nested = property_objects(text)
    m = _own_setting(_SRC_DIR, text, nested)
    if m is not None:
        lit = _LITERAL.match(text, m.end())
        if lit is None:
            config.problems.append(f"{name}: srcDir is not a string literal: the project root is read as the source root")
        else:
            src = posixpath.normpath(_value(lit).strip() or ".")
            if src.startswith(("..", "/")):
                config.problems.append(f"{name}: srcDir {_value(lit)!r} leaves the project: the project root is read")
            else:
                config.src_dir = src
    m = _own_setting(_EXCLUDE, text, nested)
    if m is not None:
        config.src_exclude = _exclude_list(text, m.end(), name, config.problems)
    left, right = _LEFT.search(text), _RIGHT.search(text)
    if left is not None or right is not None:
        delimiters = (_value(left) if left else "{", _value(right) if right else "}")
        if all(delimiters):
            config.attr_delimiters = delimiters
    config.own_containers = any(word in text for word in _OWN_CONTAINERS)
    config.tabs = "vitepress-plugin-tabs" in text
    config.twoslash = "transformerTwoslash" in text
    for pattern, text_group, link_group in ((_TEXT_LINK, 1, 4), (_LINK_TEXT, 4, 1)):
        for found in pattern.finditer(text):
            title, link = _value(found, text_group), _value(found, link_group)
            key = link_key(link)
            if key is not None and title.strip():
                config.nav_titles.setdefault(key, " ".join(title.split()))
    return config


def _own_setting(pattern: re.Pattern[str], text: str, nested: list[tuple[int, int]]) -> re.Match | None:
    """The first ``pattern`` key outside every object that is a property's value (``nested``):
    VueUse's ``pwa: { srcDir: '.vitepress/' }`` is the service worker's folder, not the source
    root, and reading it as one left the whole site outside its source root."""
    spans = iter(nested)
    span = next(spans, None)
    for m in pattern.finditer(text):
        while span is not None and span[1] <= m.start():
            span = next(spans, None)
        if span is None or m.start() < span[0]:
            return m
    return None


def local_imports(text: str) -> list[str]:
    """The relative specifiers (``./en``, ``../shared.ts``) of the modules ``text`` imports, in
    order, each once: a configuration split over files (``config/index.ts`` spreading
    ``sharedConfig`` from ``./shared``) keeps its settings there."""
    return list(dict.fromkeys(m.group(1) for m in _LOCAL_IMPORT.finditer(text)))


def _exclude_list(text: str, at: int, name: str, problems: list[str]) -> tuple[str, ...]:
    """The strings of a literal list at ``at``, or () with a problem when it is not one."""
    if text[at : at + 1] != "[":
        problems.append(f"{name}: srcExclude is not a literal list: no file is excluded")
        return ()
    out: list[str] = []
    pos = at + 1
    while len(out) <= MAX_EXCLUDES:
        comment = _COMMENT.match(text, pos)
        if comment is not None and comment.end() > pos and text[pos:comment.end()].strip():
            pos = comment.end()
            continue
        item = _LIST_ITEM.match(text, pos)
        if item is None or item.end() == pos:
            break
        out.append(_value(item))
        pos = item.end()
    rest = text[pos : pos + 200].lstrip()
    if not rest.startswith("]"):
        problems.append(f"{name}: srcExclude is not a list of string literals: no file is excluded")
        return ()
    return tuple(out)


def link_key(link: str) -> str | None:
    """A sidebar link as a page path without extension, relative to the source root
    (``/guide/`` -> ``guide/index``); None for an external link or an anchor alone."""
    link = link.split("#", 1)[0].split("?", 1)[0].strip()
    if not link or "://" in link or link.startswith(("mailto:", "//")):
        return None
    link = link.lstrip("/")
    if not link or link.endswith("/"):
        link += "index"
    for ext in (".html", ".md"):
        if link.endswith(ext):
            link = link[: -len(ext)]
    return posixpath.normpath(link)
