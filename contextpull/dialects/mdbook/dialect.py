"""The mdBook dialect: a book with ``book.toml`` and ``SUMMARY.md`` (issue 26).

``prepare`` runs mdBook's order: the links preprocessor on raw text (``links``), then what
the HTML renderer does to a page: lines of a Rust block that start with ``# `` (or are ``#``)
are hidden, ``##`` shows one ``#``; HTML comments and tags go, their text stays. The Rust book's
``<Listing number="2-1" file-name="src/main.rs" caption="...">`` wrapper (the trpl-listing
preprocessor) becomes what its figure shows: ``Filename: src/main.rs`` above the code and
``Listing 2-1: ...`` below it.

mdBook (0.5 on) renders GitHub-style callouts, ``> [!NOTE]``, as titled boxes: the shared
``callouts`` step reads them.

``nav_title`` gives a chapter that shows no H1 the name ``SUMMARY.md`` shows for it in the
navigation (many chapters begin at ``##`` and would otherwise be titled with their file stem or
a subheading; a chapter's own H1 is what its reader sees, so it stays: the shared rule,
``page_title``); ``finish`` gives a code block whose info string carries mdBook's attributes
(``rust,ignore,noplayground``) the language before the comma.
"""

from __future__ import annotations

import html
import posixpath
import re

from ...parsing.blocks import Code, ParsedDocument
from ..api import Context
from ..site_reader import SiteReader
from ...system.bounded_read import CONFIG_FILE_LIMIT
from . import pages
from ..syntax.callouts import callouts
from ..syntax.markup import html_to_text, strip_heading_attributes, strip_html_comments
from ..syntax.fences import open_fence, split_code
from ..syntax.line_map import numbered
from ..syntax.options import arguments
from .links import expand_links

NAME = "mdbook"

# Attribute values may hold ">" (a caption naming `Point<T>`), so quoted values are read whole.
_LISTING_OPEN = re.compile(r"^[ \t]*<Listing\b((?:\"[^\"]*\"|[^\">])*)>[ \t]*$")
_LISTING_CLOSE = re.compile(r"^[ \t]*</Listing>[ \t]*$")
# A chapter's name may hold one level of brackets ("[`Vec<T>` and [] slices](x.md)"); with no
# other way to match a bracket, a malformed line costs what it weighs.
_SUMMARY_LINK = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(([^)\s]+\.md)(?:#[^)]*)?\)[ \t]*$"
)


def _rust(info: str) -> bool:
    return info.split(",", 1)[0].lower() == "rust"


def _hide_rust_lines(code: str, ctx: Context, origin: int) -> str:
    """One fenced block as the renderer shows it: hidden lines of a Rust block dropped."""
    lines = code.split("\n")
    opened = open_fence(lines[0])
    if opened is None or not _rust(opened.language) or len(lines) < 2:
        return code
    kept, hidden = [lines[0]], 0
    for line in lines[1:]:
        bare = line.lstrip()
        if bare == "#" or bare.startswith("# "):
            hidden += 1
            continue
        kept.append(line.replace("##", "#", 1) if bare.startswith("##") else line)
    if hidden:
        ctx.note("rust hidden lines", "converted", origin)
    return "\n".join(kept)


def _listings(prose: str, ctx: Context, stack: list[dict[str, str]], first: int) -> str:
    if "<Listing" not in prose and "</Listing>" not in prose:
        return prose  # no line opens or closes one: the loop below would give the chunk back as it is
    out = []
    for k, line in enumerate(prose.split("\n")):
        opened = _LISTING_OPEN.match(line) if "<Listing" in line else None
        if opened is not None:
            ctx.note("trpl listing", "converted", first + k)
            attrs = {a.name: html.unescape(a.raw[1:-1]) for a in arguments(opened.group(1))
                     if a.name is not None and len(a.raw) >= 2 and a.raw[0] == a.raw[-1] == '"'}
            stack.append(attrs)
            if attrs.get("file-name"):
                out.append(f"Filename: {attrs['file-name']}")
            continue
        if "</Listing>" in line and _LISTING_CLOSE.match(line) and stack:
            attrs = stack.pop()
            number, caption = attrs.get("number"), attrs.get("caption")
            if number or caption:
                label = f"Listing {number}" if number else "Listing"
                out.append(f"{label}: {caption}" if caption else label)
            continue
        out.append(line)
    return "\n".join(out)


def _page(text: str, ctx: Context) -> str:
    """The renderer's view of the expanded text: code blocks' hidden lines, then prose markup."""
    parts, stack = [], []
    for line, is_code, chunk in numbered(split_code(text)):
        if is_code:
            parts.append(_hide_rust_lines(chunk, ctx, line))
        else:
            prose = _heading_attributes(_listings(chunk, ctx, stack, line), ctx, line)
            parts.append(html_to_text(strip_html_comments(prose)))
    return "\n".join(parts)


def _heading_attributes(prose: str, ctx: Context, first: int) -> str:
    """ATX headings without the ``{#id .class}`` list that ends them (mdBook's heading
    attributes): an anchor and a style, which its reader never sees in the heading."""
    if "{" not in prose:
        return prose
    rows = prose.split("\n")
    for k, row in enumerate(rows):
        if row.startswith("#") and row.rstrip().endswith("}"):
            bare = strip_heading_attributes(row)
            if bare != row:
                ctx.note("heading attributes", "converted", first + k)
                rows[k] = bare
    return "\n".join(rows)


def prepare(text: str, ctx: Context) -> str:
    """Links resolved, then the page as the renderer shows it. Notes of the second step name the
    line in the expanded text, which is the source line until the first multi-line include."""
    if "{{" in text:
        _unknown_directives(text, ctx)
    return callouts(_page(expand_links(text, ctx, ctx.folder), ctx), ctx)


# mdBook's own directives (its links preprocessor's); any other ``{{#name}}`` is left as written.
_KNOWN = frozenset(("include", "rustdoc_include", "playground", "title"))
_DIRECTIVE = re.compile(r"(\\)?\{\{[ \t]*#([A-Za-z_][\w-]*)")


def _unknown_directives(text: str, ctx: Context) -> None:
    """An ``unresolved`` note, with its line, for each ``{{#name ...}}`` in prose that mdBook
    does not know: the page shows it as written, which its author will want to know. Code
    blocks and code spans are left out, where such text is most often an example of a template
    language (Handlebars' ``{{#each}}``)."""
    for line, is_code, chunk in numbered(split_code(text)):
        if not is_code and "{{" in chunk:
            for k, row in enumerate(chunk.split("\n")):
                if "{{" not in row:
                    continue
                row = _blank_code_spans(row)
                for m in _DIRECTIVE.finditer(row):
                    if m.group(1) is None and m.group(2) not in _KNOWN:
                        ctx.note("mdbook directive", "unresolved", line + k,
                                 f"unknown directive {{{{#{m.group(2)}}}}}, kept as written")


def _blank_code_spans(row: str) -> str:
    """``row`` with each code span blanked: a run of backticks, text without one, the same run
    (what ``(`+)[^`]*?\\1`` matched). Read left to right with ``str.find``: a run of ``m`` that
    the next run does not close still pairs its own first ``2 * (m // 2)`` backticks, as that
    pattern's backtracking did after retrying every width, which cost a long run its square."""
    if "`" not in row:
        return row
    out, last, n = [], 0, len(row)
    at = row.find("`")
    while at >= 0:
        run_end = at + 1
        while run_end < n and row[run_end] == "`":
            run_end += 1
        m = run_end - at
        close = row.find("`", run_end)
        if close >= 0 and row.startswith("`" * m, close):
            end = close + m
        elif m >= 2:
            end = at + 2 * (m // 2)
        else:
            break  # one backtick and none after it: nothing closes
        out += [row[last:at], " " * (end - at)]
        last = end
        at = row.find("`", end)
    return "".join(out) + row[last:]


def _book_src(ctx: Context) -> str:
    """The book's source folder relative to the repository root (``[book] src``, default src, in
    the site folder); DOCS itself without ``book.toml`` (``detect.site_folder``, as the pages rule)."""
    if not ctx.site.config_file:
        return ctx.reader.docs_folder or "."
    return posixpath.normpath(posixpath.join(ctx.reader.site_folder, src_name(ctx.config)))


def src_name(config: object) -> str:
    """``[book] src`` of ``book.toml`` as written, relative to its folder (default ``src``)."""
    book = config.get("book") if isinstance(config, dict) else None
    src = book.get("src") if isinstance(book, dict) else None
    return src if isinstance(src, str) and src.strip() else "src"


def parse_summary(text: str) -> dict[str, str]:
    """SUMMARY.md's chapters: {path relative to src: the name the navigation shows}. Prefix,
    numbered and suffix chapters all count; a draft chapter (``[x]()``) has no file."""
    titles: dict[str, str] = {}
    for is_code, chunk in split_code(text):
        if is_code:
            continue
        for line in chunk.split("\n"):
            m = _SUMMARY_LINK.match(line) if "](" in line else None
            if m is not None:
                path = posixpath.normpath(m.group(2).replace("%20", " "))
                if m.group(1).strip():
                    titles.setdefault(path, m.group(1).strip())
    return titles


def _summary(ctx: Context, src: str) -> dict[str, str]:
    path = posixpath.join(src, "SUMMARY.md") if src != "." else "SUMMARY.md"
    found = ctx.read_data_with_sha(path)
    if found is None:
        return {}
    data, key = found
    # parsed once per build and version of SUMMARY.md, which every page still reads (a dependency)
    return ctx.reader.once((__name__, key), lambda: parse_summary(data.decode("utf-8", "replace")))


def finish(doc: ParsedDocument, ctx: Context) -> ParsedDocument:
    for block in doc.blocks:
        if isinstance(block, Code) and "," in block.lang:
            block.lang = block.lang.split(",", 1)[0]
    return doc


def nav_title(ctx: Context) -> str | None:
    """The name ``SUMMARY.md`` gives the chapter (``page_title`` asks it of a chapter without an
    H1 or a front-matter title)."""
    src = _book_src(ctx)
    doc_path = ctx.repo_path
    if src not in (".", "") and not doc_path.startswith(src + "/"):
        return None
    rel = doc_path[len(src) + 1 :] if src not in (".", "") else doc_path
    title = _summary(ctx, src).get(rel)
    if title:
        ctx.note("summary title", "resolved", 0)
    return title


class Reader(SiteReader):
    """mdbook's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    prepare = staticmethod(prepare)
    finish = staticmethod(finish)
    nav_title = staticmethod(nav_title)
    page_rule = staticmethod(pages.skip)

    # the book's navigation, which its page rule (``pages``) asks of every file
    def book_src(self) -> str:
        """The book's source folder as ``book.toml`` names it (``src``)."""
        return src_name(self.config)

    def chapters(self, summary: str) -> frozenset[str] | None:
        """The chapter files ``summary`` (absolute: SUMMARY.md) lists, or None when there is none
        to go by (every file a page): read through the site's door once per build."""
        def listed() -> frozenset[str] | None:
            try:
                text = self.files.read(summary, CONFIG_FILE_LIMIT).decode("utf-8", "replace")
            except OSError:
                return None
            return frozenset(parse_summary(text)) or None
        return self.once((__name__, "chapters", summary), listed)
