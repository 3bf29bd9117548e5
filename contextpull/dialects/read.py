"""One document read under its site's dialect (issue 26): the dispatch every worker runs for a
non-plain dialect and for the kinds added with it (``.mdx``, ``.rst``, ``.ipynb``).

- markdown and mdx: front matter off (``ctx.front_matter``); MDX rules when the file is ``.mdx``
  or the site is Docusaurus (``mdx.mdx.prepare``), because there the dialect, not the extension,
  decides that a ``.md`` carries JSX; then the dialect's ``prepare``; the shared Markdown parser
  as a dialect reads it (``markdown_blocks``), with the blocks a hook placed (``embedded``) spliced in; the dialect's ``finish``; the generic
  finish.
- rst: ``sphinx.rst.read.parse_rst``, then the generic finish.
- ipynb: ``read_ipynb.to_markdown``, then as markdown.

A dialect's hooks are methods of the site's reader (``site_reader``), opened once per build and
handed in; the three shared readers are modules imported by their path when a document first
needs one; a path that does not import raises. A dialect that fails on a document is a named ``unresolved`` note and the document
is read without it: one generator's odd page must not lose the page. The generic finish is the
title rule of issue 26: front-matter ``title``, else the title the generator's navigation gives
(``page_title``: one rule, asking the dialect's ``label_title`` and ``nav_title``), else the
first heading of any level, else the file stem; every heading path starts with it; a front-matter ``description`` is the document's offline summary.
"""

from __future__ import annotations

import html
import importlib
from dataclasses import dataclass

from ..parsing.blocks import Heading, Paragraph, ParsedDocument, ParseError
from ..parsing.parse import decode_text
from ..parsing.parse_markdown import normalize_newlines, parse_markdown
from . import markdown_blocks
from .api import Note, Site
from .context import DocumentContext
from .data.front_matter import scalar, split_front_matter
from .embedded import Embedded
from .page_title import navigation_title
from .registry import DIALECTS, NAMES, dialect, reads_kind
from .site_reader import SiteReader, open_site


@dataclass(frozen=True)
class ReadResult:
    parsed: ParsedDocument
    deps: tuple[tuple[str, str], ...]  # (repository path, sha256 or includes.MISSING), sorted
    notes: tuple[Note, ...]
    description: str | None = None  # front-matter description: the offline summary's sentence


def read_document(
    data: bytes, kind: str, stem: str, path: str, site: Site, reader: SiteReader | None = None
) -> ReadResult:
    """``ParseError`` for a file that is empty or binary, as ``parse_file``; otherwise a result.
    ``reader`` is the site opened for the build (``site_reader.open_site``); without one the
    site is opened for this document alone."""
    if not reads_kind(site.dialect, kind):
        owners = " or ".join(d.name for d in DIALECTS if kind in d.own_kinds)
        raise ParseError(f"{kind.capitalize()} (.{path.rpartition('.')[2]}) is read on a {owners} site only"
                         f" (--dialect {owners}), not in a {site.dialect} build")
    if reader is None:
        reader = open_site(site)
    text = normalize_newlines(decode_text(data))
    config, problem = reader.configuration
    ctx = DocumentContext(site, path, config, reader=reader)
    if problem is not None:
        ctx.note("configuration", "unresolved", 0, problem)
    if site.dialect != "plain":
        _guarded(ctx, site.dialect, lambda: reader.config_notes(ctx), None)
    nav = None
    if kind == "rst":
        parsed = _rst(text, stem, ctx)
    else:
        if kind == "ipynb":
            text = _step("read_ipynb", "read_ipynb", "to_markdown", text, ctx)
        parsed, nav = _markdown(text, kind, stem, ctx, reader)
    parsed, description = finish(parsed, ctx, stem, nav)
    deps = dict(ctx.deps)
    for key, sha in reader.config_deps:
        deps.setdefault(key, sha)
    return ReadResult(parsed, tuple(sorted(deps.items())), ctx.listed_notes(), description)


def _markdown(
    text: str, kind: str, stem: str, ctx: DocumentContext, reader: SiteReader
) -> tuple[ParsedDocument, str | None]:
    """The parsed document, and the title its generator's navigation gives it (``page_title``)."""
    fm = split_front_matter(text)
    ctx.front_matter = fm.data
    for note in fm.notes:  # through the context, so its listing counts them too
        ctx.note(note.construct, note.outcome, note.line, note.detail)
    text = fm.body
    if kind == "mdx" or (ctx.site.dialect in NAMES and dialect(ctx.site.dialect).markdown_is_mdx):
        text = _step("mdx", "mdx.mdx", "prepare", text, ctx)
    if ctx.site.dialect != "plain":
        ctx.embedded = Embedded(text)
        text = _guarded(ctx, ctx.site.dialect, lambda: reader.prepare(text, ctx), text)
    parsed = markdown_blocks.parse(text, stem, ctx)
    if ctx.embedded is not None:
        parsed = ctx.embedded.splice(parsed, stem)
    nav = None
    if ctx.site.dialect != "plain":
        parsed = _guarded(ctx, ctx.site.dialect, lambda: reader.finish(parsed, ctx), parsed)
        nav = _guarded(ctx, ctx.site.dialect, lambda: navigation_title(reader, parsed, ctx), None)
    return parsed, nav


def _rst(text: str, stem: str, ctx: DocumentContext) -> ParsedDocument:
    parsed = _step("rst", "sphinx.rst.read", "parse_rst", text, ctx, fallback=None)
    if parsed is None:
        parsed = parse_markdown(text, stem)
    return parsed


def load_module(path: str):
    """The module ``contextpull.dialects.<path>``: the readers of the kinds every dialect reads
    (``.rst``, ``.ipynb``, ``.mdx``), named where they are used. A path that does not import
    raises, as any import does: a typo must not read a whole kind as the identity."""
    return importlib.import_module(f"{__package__}.{path}")


def _step(name: str, path: str, func: str, text: str, ctx: DocumentContext, fallback=...):
    """``func`` of the module at ``path`` on ``text``; a failure is a note named ``name``."""
    module = load_module(path)
    return _guarded(ctx, name, lambda: getattr(module, func)(text, ctx), text if fallback is ... else fallback)


def _guarded(ctx: DocumentContext, name: str, call, fallback):
    """``call()``; a failure is a note and ``fallback`` instead, except ``ParseError``: a reader
    saying the file is not what its name claims (a notebook that is not JSON) makes it a named
    skip, as any parser's does, rather than its bytes read as Markdown."""
    try:
        return call()
    except ParseError:
        raise
    except Exception as exc:  # noqa: BLE001 - a dialect's bug must not lose the document
        ctx.note(f"{name} dialect", "unresolved", 0, f"failed, read without it ({type(exc).__name__}: {exc})")
        return fallback


def finish(
    parsed: ParsedDocument, ctx: DocumentContext, stem: str, nav: str | None = None
) -> tuple[ParsedDocument, str | None]:
    """The generic title rule and the description (module docstring); ``nav`` is the title a
    dialect's navigation gave."""
    fm = ctx.front_matter
    title = scalar(fm.get("title"))
    if title and "&" in title and ctx.site.dialect in NAMES and dialect(ctx.site.dialect).html_titles:
        title = html.unescape(title)
    title = title or nav or _first_heading(parsed.blocks) or stem
    description = scalar(fm.get("description"))
    blocks = list(parsed.blocks)
    if description and not any(_has_text(b) for b in blocks):
        # A page of front matter alone (a Hugo section's _index.md): its description is the
        # only prose it has, and the page and the lists that link to it show it.
        blocks = [Paragraph(description)]
    # Heading paths start with the title: a document whose headings start below its own H1 gets
    # one carrying the title, as the page shows it. One without headings needs none (its only
    # section is already named by the title).
    headed = any(isinstance(b, Heading) for b in blocks)
    if headed and not (isinstance(blocks[0], Heading) and blocks[0].level == 1):
        blocks.insert(0, Heading(1, title))
    return ParsedDocument(title, blocks), description


def _has_text(block) -> bool:
    if isinstance(block, Heading):
        return False
    return bool((getattr(block, "text", None) or getattr(block, "raw", "")).strip())


def _first_heading(blocks) -> str | None:
    for block in blocks:
        if isinstance(block, Heading) and block.text.strip():
            return block.text.strip()
    return None
