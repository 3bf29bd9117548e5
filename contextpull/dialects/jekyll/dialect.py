"""The Jekyll dialect: Liquid and kramdown read as the rendered page shows them (issue 26,
"Includes" and "Markup to meaning"; Jekyll's docs on includes, data files and variables).

Each text, the page and every file it includes, goes through kramdown's extensions
(``kramdown.py``) and then Liquid (``liquid.py``). This module supplies what Liquid looks up:
``site.*`` from ``_config.yml`` (``ctx.config``), ``site.data.*`` from the ``_data`` folder
through ``ctx.read_data`` (so a data file is a dependency of the page that prints it), ``page.*``
from front matter, ``include.*`` from the include's own parameters; and the tags that read files:
``include`` from ``_includes/`` and ``include_relative`` from the page's folder, both through
``ctx.include``. A name with ``..`` is refused before any read, as Jekyll refuses it.
``link`` and ``post_url`` print their target as written.
"""

from __future__ import annotations

import html
import posixpath
import re

from . import kramdown, liquid, tags
from ..api import Context, Included
from ..site_reader import SiteReader
from . import pages
from ..data.values import dotted, note_object_tags, note_unreadable, parse_data
from ..syntax.markup import html_to_text, strip_html_comments
from ..syntax.fences import outside_code
from ..syntax.options import arguments
from ..syntax.template_tags import restore

NAME = "jekyll"

DATA_EXTENSIONS = (".yml", ".yaml", ".json", ".csv", ".tsv")


def prepare(text: str, ctx: Context) -> str:
    """The page as Jekyll renders its text: includes in place, data printed, markup gone."""
    out = text
    if "{" in text:
        scope = _scope(ctx, None, {})
        out = restore(_read(text, ctx, scope, 1, False), scope.held)
    return outside_code(out, _visible) if "<" in out or "&" in out else out


def _visible(prose: str) -> str:
    """kramdown passes HTML through to the page, which shows its text, never its comments; an
    HTML ``<code>`` element is shown as code, so it becomes a code span (its entities decoded,
    since ``html_to_text`` leaves code spans as written)."""
    prose = strip_html_comments(prose)
    if "<code" in prose:
        prose = _code_elements(prose)
    return html_to_text(prose)


def _code_elements(prose: str) -> str:
    """Each ``<code>...</code>`` (shortest; ``<code class="...">`` too, as Jekyll's reference
    tables write their examples) as a code span; a find loop, so a page of openers with no
    closer is read once (a lazy ``.*?`` scanned to the end from every opener)."""
    out, at, look, gt = [], 0, 0, 0
    while (start := prose.find("<code", look)) >= 0:
        after = prose[start + 5 : start + 6]
        if after != ">" and not (after and after.isspace()):
            look = start + 5
            continue
        if gt < start + 5:  # the next ">" is found once for every opener before it
            gt = prose.find(">", start + 5)
            if gt < 0:
                break  # no opener after this one can close
        opened = gt
        end = prose.find("</code>", opened + 1)
        if end < 0:
            break
        out += [prose[at:start], _code_span(prose[opened + 1 : end])]
        at = look = end + 7
    return "".join(out) + prose[at:]


def _code_span(inner: str) -> str:
    code = html.unescape(re.sub(r"<[^<>]*>", "", inner)).replace("\n", " ")
    if not code.strip():
        return ""  # an empty element shows nothing (a loop variable that was not printed)
    ticks = "``" if "`" in code else "`"
    return f"{ticks}{code}{ticks}"


def _read(text: str, ctx: Context, scope: liquid.Scope, line: int, fixed: bool) -> str:
    return liquid.render(kramdown.prepare(text, ctx, line, fixed), scope, line, fixed)


def _scope(ctx: Context, within: Included | None, params: dict, page: liquid.Scope | None = None) -> liquid.Scope:
    """What Liquid reads in one text. An include's scope takes its ``page``'s raw text, tag
    definitions, ``site.data`` values and loop bound, so a tag's definition is looked up in the
    plugin files, and a ``site.data`` path in the data folder, once per page, not once per
    include or per use (a megabyte of loops over one missing list probed six files for each),
    and loops in includes count against the page's bound."""
    data = {} if page is None else page.data

    def lookup(path: str) -> object:
        head, _, rest = path.partition(".")
        if head == "include":
            return dotted(params, rest, exact=True) if rest else None
        if head == "page":
            front = getattr(ctx, "front_matter", None) or {}
            return dotted(front, rest, exact=True) if rest else None
        if head == "site":
            if rest.startswith("data."):
                if rest not in data:
                    data[rest] = _data(ctx, rest[len("data.") :], scope.line)
                return data[rest]
            config = ctx.config if isinstance(ctx.config, dict) else {}
            if rest in ("baseurl", "url") and rest not in config:
                return ""
            return dotted(config, rest, exact=True) if rest else None
        return None

    def tag(name: str, args: str, line: int) -> str | None:
        if name in ("include", "include_relative"):
            return _include(name, args, line, ctx, scope, within)
        if name in ("link", "post_url"):
            ctx.note(f"liquid {name}", "converted", line)
            return args.split()[0] if args else ""
        return None

    if page is None:
        defined = tags.SiteTags(ctx, _site_root(ctx), _setting(ctx, "plugins_dir", "_plugins")).defined
        scope = liquid.Scope(lookup, tag, ctx.note, {}, [], defined=defined, data=data)
    else:
        scope = liquid.Scope(lookup, tag, ctx.note, dict(page.names), page.held, defined=page.defined,
                             data=data, budget=page.budget, depth=page.depth)
    return scope


def _include(name: str, args: str, line: int, ctx: Context, scope: liquid.Scope,
             within: Included | None) -> str:
    construct = f"jekyll {name}"
    file, params = _include_args(args, scope)
    if not file:
        ctx.note(construct, "unresolved", line, f"no file name: {args}")
        return ""
    if ".." in file.split("/") or re.search(r"[./]{2,}", file) or file.startswith("/"):
        ctx.note(construct, "unresolved", line, f"{file}: Jekyll refuses a name that leaves its folder")
        return ""
    if name == "include":
        base = posixpath.join(_site_root(ctx), _setting(ctx, "includes_dir", "_includes"))
    else:
        base = within.folder if within is not None else ctx.folder
    got = ctx.include(file, base=base.strip("/"), line=line, construct=construct, within=within)
    if got is None:
        return ""
    inner = _scope(ctx, got, params, scope)
    body = _read(got.text, ctx, inner, line, True)
    scope.budget = inner.budget  # the include's loops counted against the page's bound
    return body.strip("\n")


def _include_args(args: str, scope: liquid.Scope) -> tuple[str, dict]:
    """The file name (a ``{{ variable }}`` is looked up) and the ``key=value`` parameters."""
    args = args.strip()
    m = re.match(r"\{\{(.*?)\}\}", args)
    if m:
        value = liquid.evaluate(m.group(1), scope)
        file, rest = (str(value) if value is not None else ""), args[m.end() :]
    else:
        file, _, rest = args.partition(" ")
    params = {}
    for argument in arguments(rest, spaced=True):
        if argument.name is not None:
            value = scope.value(argument.raw)
            params[argument.name] = value if value is not None else ""
    return file, params


def _data(ctx: Context, path: str, line: int) -> object:
    """``site.data.a.b.c``: the first of ``_data/a.yml`` (key ``b.c``), ``_data/a/b.yml`` (key
    ``c``), ... that exists; Jekyll reads a data folder as nested tables the same way. A file
    that is not data (an alias bomb, malformed YAML) is named with why, at ``line``."""
    parts = [p for p in path.split(".") if p]
    folder = posixpath.join(_site_root(ctx), _setting(ctx, "data_dir", "_data")).strip("/")
    for i in range(1, len(parts) + 1):
        stem = posixpath.join(folder, *parts[:i])
        for ext in DATA_EXTENSIONS:
            found = ctx.read_data_with_sha(stem + ext)
            if found is None:
                continue
            raw, digest = found
            note_object_tags(ctx, raw, stem + ext, ext)
            kind = ".csv" if ext == ".tsv" else ext
            value = parse_data(raw, kind, digest, ctx)
            if value is None:
                note_unreadable(ctx, raw, stem + ext, kind, line, digest)
            return dotted(value, ".".join(parts[i:]), exact=True) if i < len(parts) else value
    return None


def _setting(ctx: Context, key: str, default: str) -> str:
    value = ctx.config.get(key) if isinstance(ctx.config, dict) else None
    return value if isinstance(value, str) and value.strip("/") else default


def _site_root(ctx: Context) -> str:
    """The Jekyll source folder, relative to the repository root: where ``_config.yml`` is, DOCS
    without one (``detect.site_folder``)."""
    return ctx.reader.site_folder


class Reader(SiteReader):
    """jekyll's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    prepare = staticmethod(prepare)
    page_rule = staticmethod(pages.skip)
