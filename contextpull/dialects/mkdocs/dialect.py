"""The mkdocs dialect: mkdocs-material sites with pymdown extensions (issue 26).

Layers, in the generator's order (shared/style/dialects.md, proposal 3):

0. with mkdocs-macros enabled, the page as a Jinja template (``macros``): ``{% raw %}``
   unwrapped, comments gone, ``{{ extra.x }}`` printed where its value is known;
1. includes on raw text, fenced code too (``snippets``): pymdown ``--8<--``, FastAPI's
   ``{* file *}`` and ``{!file!}``;
2. Markdown extensions, never inside fenced code or an inline code span: admonitions, ``///``
   blocks, content tabs and mkdocstrings stubs (``blocks``), then the inline markup a page
   never shows: heading attributes ``{ #id }``, attr_list ``{ .class }`` / ``{: ...}``, icon
   shortcodes (``:material-check:``, ``:fontawesome-brands-github:``), keys (``++ctrl+q++``
   as ``Ctrl+Q``, ``keys``), HTML comments and tags (their text stays; ``<div markdown="1">``
   is a wrapper like any other), stylesheets, scripts and drawings (nothing of them).

``nav_title`` is the title ``nav`` gives a page (``config``; the rule that asks it is
``page_title``). A fence written in attr_list form (```` ```{ .python } ````) is rewritten by
``prepare`` to its language and title, so the parser reads it as any fence and the parsed
page needs no ``finish`` hook.
"""

from __future__ import annotations

import re

from ..api import Context
from ..site_reader import SiteReader
from . import pages
from ..syntax.markup import html_to_text, strip_heading_attributes, strip_html_comments, without_unshown_elements
from ..syntax import attributes, heading_label
from ..syntax.fences import closes, open_fence, outside_code, outside_inline_code
from ..syntax.line_map import Lines, joined
from .blocks import block_names, convert_blocks
from .config import extension_options, nav_titles, site_config
from .keys import CONSTRUCT as KEYS, Keys
from .macros import render as render_macros
from .snippets import expand_snippets, expand_variants

NAME = "mkdocs"

_ICON = re.compile(r"(?<![ \t])[ \t]*:(?:material|fontawesome|octicons|simple)-[\w-]+:")
# _ICON without its leading blanks (which may be empty): found exactly where _ICON is, and
# searched for much faster, since it starts with a character the regex engine can skip to.
_ICON_NAME = re.compile(_ICON.pattern.removeprefix(r"(?<![ \t])[ \t]*"))
_EMPTY_LINK = re.compile(r"!?\[[ \t]*\](?:\[[^\]\n]*\]|\([^)\n]*\))")

HEADING_ATTRIBUTES = "heading attributes"
ATTR_LIST = "attr_list"
ICON = "icon shortcode"
HTML = "html"


def _without_attr_lists(part: str) -> str:
    """attr_list after a link, image or emphasis (``](x){ width=300 }``), or after blanks or at
    the start (``{: .x }`` ending a block's line), followed by blanks, punctuation or the end:
    removed, with the blanks before it."""
    if "{" not in part:
        return part
    kept: list[str] = []
    last = 0
    for found in attributes.find_all(part):
        start, end = found.start, found.end
        if end < len(part) and part[end] not in " \t.,;:!?":
            continue
        while start > last and part[start - 1] in " \t":
            start -= 1
        if start == found.start and start > 0 and part[start - 1] not in ")]*_`":
            continue
        kept.append(part[last:start])
        last = end
    kept.append(part[last:])
    return "".join(kept)


def _inline(text: str, origin: int, ctx: Context, keys: Keys | None = None) -> str:
    """One prose line with the inline markup a page never shows removed, each kind noted. A
    heading's ``data-toc-label`` list is kept at its end, for ``markdown_blocks`` to make the
    label the heading's (``heading_label``)."""
    if text.startswith("#") and text.rstrip().endswith("}"):
        bare, written, label = heading_label.split(text)
        if label is not None:
            ctx.note(HEADING_ATTRIBUTES, "converted", origin)
            return f"{_inline(bare, origin, ctx, keys)} {written}"
    if text.startswith("#") and "{" in text:
        bare = strip_heading_attributes(text)
        if bare != text:
            ctx.note(HEADING_ATTRIBUTES, "converted", origin)
            text = bare
    if "{" in text:
        bare = outside_inline_code(text, _without_attr_lists)
        if bare != text:
            ctx.note(ATTR_LIST, "converted", origin)
            text = bare.rstrip() if bare.strip() else ""
    if ":" in text and _ICON_NAME.search(text):
        # An icon-only link ("[:octicons-file-code-24:][ref]") shows nothing once its icon goes.
        bare = outside_inline_code(text, lambda part: _EMPTY_LINK.sub("", _ICON.sub("", part)))
        text = bare if text[:1].isspace() else bare.lstrip()
        text = text if text.strip() else ""
        ctx.note(ICON, "converted", origin)
    if keys is not None and "++" in text:
        bare = outside_inline_code(text, keys.read)
        if bare != text:
            ctx.note(KEYS, "converted", origin)
            text = bare
    if "<" in text or "&" in text:
        bare = html_to_text(text)
        if bare != text:
            if bare.count("<") < text.count("<"):  # a tag went, not only an entity
                ctx.note(HTML, "converted", origin)
            text = bare if bare.strip() else ""
    return text


def _inline_pass(lines: Lines, ctx: Context, keys: Keys | None = None) -> list[str]:
    out: list[str] = []
    fence = None
    for origin, text in lines:
        if fence is not None:
            out.append(text)
            if closes(text, fence):
                fence = None
            continue
        fence = open_fence(text) if ("`" in text or "~" in text) else None  # the test inline: most lines
        if fence is not None:
            out.append(_fence_opener(fence, origin, ctx) if fence.info.lstrip().startswith("{") else text)
            continue
        if "<!--" in text:
            ctx.note("html comment", "converted", origin)
        out.append(_inline(text, origin, ctx, keys))
    return out


def _fence_opener(fence, origin: int, ctx: Context) -> str:
    """A fence whose info string is an attr_list (superfences': ```` ```{ .python .annotate
    hl_lines="3" title="app.py" } ````) as the language the page highlights it in, with its
    ``title``, which the page shows above the code; the other options only style it."""
    found = attributes.read(fence.info.lstrip(), 0, words=True, attr_list=True)
    if found is None:
        return fence.lead + fence.marker + fence.info
    ctx.note(ATTR_LIST, "converted", origin)
    lang = found.classes[0] if found.classes else ""
    title = found.pairs.get("title", "")
    return fence.lead + fence.marker + lang + (f' title="{title}"' if title else "")


def _without_unshown(lines: Lines, ctx: Context) -> Lines:
    """Stylesheets, scripts and drawings that open a line gone (``markup``), before the line
    pass takes their tags off and would leave their CSS and path data as prose: an SVG a
    snippet pastes in shows its picture, never its source. Their lines stay, emptied."""
    text = joined(lines)
    if "<s" not in text and "<S" not in text:
        return lines
    bare_text = outside_code(text, without_unshown_elements)
    bare = bare_text.split("\n")
    if bare_text == text or len(bare) != len(lines):
        return lines
    for (origin, old), new in zip(lines, bare):
        if new != old and old.lstrip()[:1] == "<":
            ctx.note(HTML, "converted", origin)
    return [(origin, new) for (origin, _), new in zip(lines, bare)]


def prepare(text: str, ctx: Context) -> str:
    lines = list(enumerate(text.split("\n"), start=1))
    config = site_config(ctx)
    lines = render_macros(lines, ctx, config)  # mkdocs-macros renders the raw page first
    lines = expand_snippets(lines, ctx, config)
    lines = expand_variants(lines, ctx)
    lines = convert_blocks(lines, ctx, names=block_names(config))
    lines = _without_unshown(lines, ctx)
    options = extension_options(config, "pymdownx.keys")
    keys = None if options is None else ctx.reader.once((__name__, "keys"), lambda: Keys(options))
    return outside_code("\n".join(_inline_pass(lines, ctx, keys)), strip_html_comments)


def nav_title(ctx: Context) -> str | None:
    """The title ``nav`` gives the page (mkdocs' page title), for a page that shows no H1 and
    names none in front matter (``page_title``)."""
    title = nav_titles(site_config(ctx, report=False)).get(ctx.path)
    if title:
        ctx.note("nav title", "resolved", 0)
    return title


class Reader(SiteReader):
    """mkdocs's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    prepare = staticmethod(prepare)
    nav_title = staticmethod(nav_title)
    page_rule = staticmethod(pages.skip)
