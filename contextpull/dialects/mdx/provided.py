"""What an MDX page may use without defining it, on a Docusaurus site (issue 26, "A construct
report" and "Bad input": unknown directives).

MDX compiles ``<Name>`` to a reference to ``Name``: the page must import it, define it in an
``export``, or get it from the site's ``MDXProvider``, which Docusaurus fills with its theme's
``MDXComponents`` (``Head``, ``Details``, ``Mermaid`` and the HTML elements it restyles) and a site
may extend by swizzling ``src/theme/MDXComponents``. Any other name fails to render ("Expected
component to be defined"). A ``:::name`` container is an admonition only for a keyword of
Docusaurus or of the configuration's ``admonitions.keywords``; any other one is not drawn as one,
unless a remark plugin of the configuration handles it (which the build cannot tell).

Everything here reads source as text: an ESM statement's identifiers, the configuration's and the
swizzled file's words. That over-counts what is defined (a word in a comment counts), never
under-counts, so a component a site does define is never reported as unknown.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from ..api import Context


class Shown(NamedTuple):
    """What a generator's own component shows (``site_components.shown`` renders it for a reader
    of ``SiteReader.mdx_components``): its body under ``label`` (none: the body alone), after ``text`` taken from its attributes (a card's
    description, a badge's text); or, with ``code_from`` set, the code that attribute gives
    (a string, or the text of a raw import it names) fenced with ``language``."""

    label: str | None = None
    text: str = ""
    code_from: str = ""
    language: str = ""

# theme-classic's MDXComponents: the names a page may use without importing them.
DOCUSAURUS_COMPONENTS = frozenset({"Head", "Details", "Mermaid"})
# The default admonition keywords (mdx-loader), with the ones Docusaurus 2 also had.
DEFAULT_KEYWORDS = frozenset({"note", "tip", "info", "warning", "danger", "caution", "secondary",
                              "important", "success"})
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_STRING = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`]*`""")
_KEYWORDS = re.compile(r"\bkeywords\s*:\s*\[([^\]]*)\]")
_REMARK_PLUGINS = re.compile(r"\b(?:beforeDefaultRemarkPlugins|remarkPlugins)\s*:(?!\s*\[\s*\])")
_SWIZZLED = tuple(f"src/theme/MDXComponents{ext}" for ext in (".js", ".jsx", ".ts", ".tsx", "/index.js",
                                                               "/index.jsx", "/index.ts", "/index.tsx"))


def bound_names(statements: list[str]) -> set[str]:
    """Every identifier of the page's ``import``/``export`` statements, outside string literals."""
    return {word for source in statements for word in _IDENTIFIER.findall(_STRING.sub(" ", source))}


def applies(ctx: Context) -> bool:
    """Docusaurus says which components it provides, and so does a Nextra site with an
    ``mdx-components`` file; on another site (Astro) its own provider is unknown here, so
    nothing is called undefined."""
    return ctx.site.dialect in ("docusaurus", "nextra")


def has_keywords(ctx: Context) -> bool:
    """Only Docusaurus draws ``:::name`` containers as admonitions of known keywords."""
    return ctx.site.dialect == "docusaurus"


def provider(ctx: Context) -> str:
    """Who provides the components a page need not import, as the report names it."""
    return "mdx-components" if ctx.site.dialect == "nextra" else "Docusaurus"


# Nextra 4 and Next.js' ``@next/mdx`` take a site's MDX components from this file, at the site
# folder or in ``src/``; it merges the theme's (``useMDXComponents``), whose names appear in it.
_NEXTRA_PROVIDER = tuple(f"{folder}mdx-components{ext}" for folder in ("", "src/")
                         for ext in (".js", ".jsx", ".ts", ".tsx"))


def provided_components(ctx: Context) -> frozenset[str] | None:
    """Docusaurus' own, and every word of a swizzled ``MDXComponents`` (read as a dependency);
    on a Nextra site every word of its ``mdx-components`` file, None (anything may be provided)
    when it has none (Nextra 2 and 3 take them from the theme's configuration, not read here)."""
    folder = ctx.reader.site_folder
    if ctx.site.dialect == "nextra":
        for rel in _NEXTRA_PROVIDER:
            data = ctx.read_data(posixpath.join(folder, rel).lstrip("/"))
            if data is not None:
                return frozenset(_IDENTIFIER.findall(data.decode("utf-8", "replace")))
        return None
    for rel in _SWIZZLED:
        data = ctx.read_data(posixpath.join(folder, rel).lstrip("/"))
        if data is not None:
            return DOCUSAURUS_COMPONENTS | set(_IDENTIFIER.findall(data.decode("utf-8", "replace")))
    return DOCUSAURUS_COMPONENTS


def admonition_keywords(ctx: Context) -> frozenset[str] | None:
    """The keywords ``:::name`` may use; None when the configuration sets admonitions in a way
    not written as a literal list in it, or adds remark plugins (one may handle any directive):
    then no keyword is called unknown. Worked out once per build from the configuration's text
    (every page depends on the file already)."""
    return ctx.reader.once((__name__, "admonitions"), lambda: _keywords(ctx.reader.config_text))


def _keywords(text: str) -> frozenset[str] | None:
    if _REMARK_PLUGINS.search(text):
        return None
    if "admonitions" not in text:
        return DEFAULT_KEYWORDS
    lists = _KEYWORDS.findall(text)
    if not lists:
        return None
    return DEFAULT_KEYWORDS | {m.strip("'\"`") for found in lists for m in _STRING.findall(found)}
