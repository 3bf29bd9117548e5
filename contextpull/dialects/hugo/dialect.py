"""The Hugo dialect: shortcodes turned into what the rendered page shows (issue 26, "Includes" and
"Markup to meaning").

Shortcodes are templates, and no template is ever run. What each common one renders was read
from the templates of the Hugo documentation site and of Hugo itself and is written here as a
rule: ``include`` (a page path under the content folder) and ``readfile`` (Docsy's: a path from
the page's folder, or from the content root when it starts with ``/``) bring their file through the build's guarded resolver; ``code-toggle`` and ``highlight``
become code blocks (``code_calls``); admonition-like calls, ``details``, ``new-in`` and ``deprecated-in`` become
labelled text; ``ref``/``relref`` their target; ``param`` its value from the page's front matter
or the site's ``[params]``. Any other call keeps its inner text, noted ``converted`` when a
template defines the shortcode and ``unresolved`` when none does (Hugo's build fails there;
``templates``); one that stands alone renders what only its template knows, so it goes and is
noted ``unresolved``.

Hugo renders ``> [!NOTE]`` callouts too; those are the shared ``callouts`` step's.
"""

from __future__ import annotations

import re

from . import hugo_data, templates
from ..api import Context, Included
from ..site_reader import SiteReader
from . import pages
from ..syntax.markup import dedent_block, html_to_text, shown_as_written, strip_heading_attributes, strip_html_comments
from ..syntax.callouts import callouts
from ..syntax.fences import fenced, open_fence, outside_code, split_code
from ..syntax import attributes
from ..syntax import labels
from ..syntax.labels import labelled
from ..syntax.line_map import numbered
from ..syntax.template_tags import restore
from . import code_calls, shortcodes
from .shortcodes import Call, calls, protect

NAME = "hugo"

ADMONITIONS = frozenset(
    "note notice info tip hint important warning caution danger alert callout admonition".split()
)
# Calls that stand for an embedded medium; what a reader gets from them is their caption.
MEDIA = frozenset("img figure image youtube vimeo qr".split())
# Calls that embed text from another site (a post, a gist): nothing is fetched, so it is lost.
EMBEDS = frozenset("instagram x twitter tweet gist".split())
_CAPTION_KEYS = ("caption", "title", "alt", "text")
# Calls inside calls deeper than this are kept as written: real pages nest two or three, and the
# bound keeps a page of ten thousand openers linear instead of a stack overflow.
MAX_NESTING = 20


def prepare(text: str, ctx: Context) -> str:
    """The page with every shortcode replaced by what it renders, escaped calls shown as written;
    then what Goldmark never shows goes (HTML comments, tags, heading attributes), outside code."""
    if "{{" in text:
        held: list[str] = []
        text = restore(_render(protect(text, held), ctx, 1, None, held), held)
    if not shown_as_written(text):  # no run of prose would change: the text need not be cut
        text = outside_code(text, _visible)
    if "{" in text and hugo_data.block_attributes(ctx):
        text = _drop_block_attributes(text, ctx)
    return _callouts(text, ctx)


def _visible(prose: str) -> str:
    return strip_heading_attributes(html_to_text(strip_html_comments(prose)))


def _drop_block_attributes(prose: str, ctx: Context) -> str:
    """Goldmark's block attributes (``{class="wide"}`` on the line after a block, switched on by
    ``markup.goldmark.parser.attribute.block``) style the block and are never shown; the line is
    left blank, so later lines keep their numbers."""
    if not _may_hold_attributes(prose):
        return prose  # no line can be one (the chunks below join back to the text)
    out: list[str] = []
    for first, is_code, chunk in numbered(split_code(prose)):
        lines = chunk.split("\n")
        if not is_code:
            for i, line in enumerate(lines):
                if line.startswith("{") and attributes.whole_line(line, kramdown=False):
                    lines[i] = ""
                    ctx.note("goldmark attributes", "converted", first + i)
        out.append("\n".join(lines))
    return "\n".join(out)


def _may_hold_attributes(prose: str) -> bool:
    """Whether a line of ``prose`` starts with "{" and not "{{" (a shortcode's opener, never an
    attribute block's), as a block attribute line must; ``str.find`` finds the candidates."""
    if prose.startswith("{") and not prose.startswith("{{"):
        return True
    at = prose.find("\n{")
    while at >= 0:
        if prose[at + 2 : at + 3] != "{":
            return True
        at = prose.find("\n{", at + 2)
    return False


def _callouts(text: str, ctx: Context) -> str:
    """Hugo renders GitHub-style callouts, titled ones too (its extended alert syntax), so they
    read as every dialect reads them."""
    return callouts(text, ctx, extended=True)


def _render(text: str, ctx: Context, first_line: int, within: Included | None, held: list[str],
            depth: int = 0) -> str:
    if depth > MAX_NESTING:
        ctx.note("hugo shortcode", "unresolved", first_line, f"calls nested deeper than {MAX_NESTING}: kept as written")
        return text
    found = calls(text) if "{{" in text else []
    if not found:
        return text
    parts: list[str] = []
    last = 0
    # Calls come in order, so each one's line is the last one's plus the newlines between them:
    # a map of the whole text's lines cost more than the calls read from it. Inside an included
    # file every call is reported at the including directive's line.
    line, counted = first_line, 0
    for call in found:
        if within is None:
            line += text.count("\n", counted, call.start)
            counted = call.start
        parts.append(text[last : call.start])
        rendered = _one(call, ctx, line, within, held, depth)
        parts.append(_indent_like(rendered, text, call.start))
        last = call.end
    parts.append(text[last:])
    return "".join(parts)


def _one(call: Call, ctx: Context, line: int, within: Included | None, held: list[str], depth: int) -> str:
    name = call.name
    if name.startswith("/"):
        ctx.note("hugo shortcode", "converted", line, f"closing tag {name} without an opening one")
        return ""
    if name == "tabpane" and call.inner is not None:  # its tabs are read by it, not as calls of their own
        return _tabpane(call, ctx, line, within, held, depth)
    inner = None if call.inner is None else _render(call.inner, ctx, line, within, held, depth + 1)
    if name in ("include", "readfile"):
        return _include(call, ctx, line, within, held)
    if name == "get-page-desc":
        return _page_description(call, ctx, line, within)
    if name == "glossary-term":
        return _glossary(call, ctx, line, within, held)
    if name in ("code-toggle", "highlight", "hl", "code"):
        return code_calls.render(call, ctx, line)
    if name in ("new-in", "deprecated-in"):
        word = "New in" if name == "new-in" else "Deprecated in"
        version = call.arg("version", 0).lstrip("vV")
        ctx.note("hugo version badge", "converted", line, name)
        label = f"{word} v{version}" if version else word
        return labelled(label, dedent_block(inner).strip()) if inner and inner.strip() else label
    if name in ADMONITIONS or name == "details":
        label = call.arg("title") or call.arg("summary") or labels.title(call.arg("type", 0) or name)
        if name == "details" and not call.arg("summary"):
            label = "Details"
        ctx.note("hugo admonition", "converted", line, name)
        return labelled(label, dedent_block(inner or "").strip())
    if name in ("ref", "relref"):
        ctx.note("hugo ref", "converted", line, name)
        return call.arg("path", 0)
    if name == "param":
        return _param(call, ctx, line)
    if name == "eturl":
        return _eturl(call, ctx, line)
    if name in EMBEDS:
        ctx.note("hugo media", "unresolved", line, f"{name}: embedded from another site, never fetched")
        return next((call.named[k] for k in _CAPTION_KEYS if call.named.get(k)), "")
    if name in MEDIA:
        ctx.note("hugo media", "converted", line, name)
        return next((call.named[k] for k in _CAPTION_KEYS if call.named.get(k)), "")
    return _other(call, ctx, line, inner)


def _other(call: Call, ctx: Context, line: int, inner: str | None) -> str:
    """A shortcode no rule here knows keeps its inner text. One no template defines fails
    Hugo's build, so it is named as unknown (``templates``); one that stands alone renders what
    only its template knows."""
    name = call.name
    known = templates.defined(ctx, name)
    if known is False:
        opener, closer = ("{{%", "%}}") if call.markdown else ("{{<", ">}}")
        written = f"{opener} {name} {closer}"
        kept = "its inner text kept" if inner is not None else "nothing kept"
        ctx.note("hugo shortcode", "unresolved", line,
                 f"unknown shortcode {written}: no template in layouts/_shortcodes or layouts/shortcodes, {kept}")
        return inner or ""
    form = templates.shape(ctx, name) if known else None
    if form is not None and form[0] == "code" and call.inner is not None:
        ctx.note("hugo shortcode", "converted", line, f"{name}: its template highlights its inner text")
        lang = call.arg("lang") or call.arg("language")
        return fenced(dedent_block(call.inner).strip("\n"), lang)
    if form is not None and form[0] == "text":
        ctx.note("hugo shortcode", "resolved", line, f"{name}: its template is text alone")
        return form[1]
    if form is not None and form[0] == "param":
        value = hugo_data.param(ctx, form[1])
        if value is not None:
            ctx.note("hugo shortcode", "resolved", line, f"{name}: the site parameter {form[1]}")
            return value
    if inner is not None:
        ctx.note("hugo shortcode", "converted", line, name)
        return inner
    ctx.note("hugo shortcode", "unresolved", line, f"{name}: rendered by its template alone")
    return ""


def _include(call: Call, ctx: Context, line: int, within: Included | None, held: list[str]) -> str:
    """``include``: a page path under the content folder, tried as the page's own relative path
    first and then from the content root (the docs site's ``GetPage`` order); ``readfile``: where
    Docsy's shortcode reads (``hugo_data.file_candidates``), as code when it says ``code="true"``. A missing or refused target leaves nothing: Hugo fails the build there,
    and the resolver has already reported it with its line."""
    target = call.arg("file", 0) if call.name == "readfile" else call.arg("path", 0)
    if not target:
        ctx.note(f"hugo {call.name}", "unresolved", line, "no path given")
        return ""
    if call.name == "readfile":
        candidates = hugo_data.file_candidates(ctx, target)
        chosen = hugo_data.choose(ctx, candidates) or hugo_data.named(ctx, candidates)
    else:
        candidates = hugo_data.page_candidates(ctx, target, within)
        chosen = (hugo_data.choose(ctx, candidates) or hugo_data.choose(ctx, hugo_data.snippet_candidates(ctx, target))
                  or candidates[0])
    got = ctx.include(chosen, base="", line=line, construct=f"hugo {call.name}", within=within)
    if got is None:
        return ""
    if call.name == "readfile" and call.arg("code") == "true":  # Docsy's: the file as highlighted code
        return fenced(got.text.rstrip("\n"), call.arg("lang"))
    body = hugo_data.drop_front_matter(got.text, ctx) if call.name == "include" else got.text
    if call.name == "include" and (len(call.positional) > 1 or set(call.named) - {"path", "file"}):
        body = shortcodes.passed_on(body, call)
    body = protect(body, held)
    return _render(body, ctx, line, got, held).strip("\n")


def _glossary(call: Call, ctx: Context, line: int, within: Included | None, held: list[str]) -> str:
    """The docs site renders a term's page from ``quick-reference/glossary/``."""
    term = call.arg("term", 0)
    slug = re.sub(r"[^\w-]+", "-", term.strip().lower()).strip("-")
    candidates = hugo_data.page_candidates(ctx, f"/quick-reference/glossary/{slug}", within)
    chosen = hugo_data.choose(ctx, candidates)
    if chosen is None:
        ctx.note("hugo glossary-term", "unresolved", line, f"no glossary page for {term!r}")
        return term
    got = ctx.include(chosen, base="", line=line, construct="hugo glossary-term", within=within)
    if got is None:
        return term
    body = protect(hugo_data.drop_front_matter(got.text, ctx), held)
    return _render(body, ctx, line, got, held).strip("\n")


def _page_description(call: Call, ctx: Context, line: int, within: Included | None) -> str:
    """The docs site prints another page's front-matter ``description``."""
    target = call.arg("path", 0)
    candidates = hugo_data.page_candidates(ctx, target, within)
    chosen = hugo_data.choose(ctx, candidates) or candidates[0]
    if chosen == ctx.repo_path:  # a shared snippet asking for its own page's
        own = hugo_data.scalar((getattr(ctx, "front_matter", None) or {}).get("description"))
        ctx.note("hugo get-page-desc", "resolved" if own else "unresolved", line, "the page's own description")
        return own or ""
    got = ctx.include(chosen, base="", line=line, construct="hugo get-page-desc", within=within)
    if got is None:
        return ""
    description = hugo_data.front_matter_value(got.text, "description", ctx)
    if description is None:
        ctx.note("hugo get-page-desc", "unresolved", line, f"{target}: no description")
        return ""
    return description


def _tabpane(call: Call, ctx: Context, line: int, within: Included | None, held: list[str], depth: int) -> str:
    """Docsy's ``tabpane``: each ``tab`` as ``header:`` and its body. A tab's body is code,
    highlighted in the tab's ``lang``, the pane's, or its header with ``langEqualsHeader``,
    unless the tab or the pane says ``text=true``: then it is the page's Markdown. A
    ``disabled`` tab is a label alone; what stands between the tabs is not shown."""
    text_pane = call.arg("text") == "true"
    parts: list[str] = []
    for tab in calls(call.inner):
        if tab.name != "tab":
            continue
        header = tab.arg("header", 0)
        if tab.arg("disabled") == "true" or tab.inner is None:
            parts.append(labelled(header, "") if header else "")
            continue
        text = tab.arg("text") == "true" or (text_pane and tab.arg("text") != "false")
        body = _render(tab.inner, ctx, line, within, held, depth + 1)  # nested calls, as Hugo's .Inner
        if text:
            block = dedent_block(body).strip()
        else:
            lang = tab.arg("lang") or call.arg("lang") or (header if call.arg("langEqualsHeader") == "true" else "")
            block = fenced(dedent_block(body).strip("\n"), lang.lower())
        parts.append(labelled(header, block) if header else block)
    ctx.note("hugo tabpane", "converted", line, f"{len(parts)} tabs")
    return "\n\n".join(p for p in parts if p)


def _param(call: Call, ctx: Context, line: int) -> str:
    """A page's own parameter first, then the site's, as Hugo's ``param`` looks them up. An
    unknown one keeps its name in the text: the sentence around it still reads."""
    key = call.arg("name", 0)
    value = hugo_data.param(ctx, key)
    if value is None:
        ctx.note("hugo param", "unresolved", line, f"{key}: in neither the front matter nor [params]")
        return key
    ctx.note("hugo param", "resolved", line, key)
    return value


def _eturl(call: Call, ctx: Context, line: int) -> str:
    name = call.arg("filename", 0)
    url = hugo_data.embedded_template_url(ctx, name, line)
    if url is None:
        ctx.note("hugo eturl", "unresolved", line, f"{name}: not in data/embedded_template_urls")
        return name
    ctx.note("hugo eturl", "resolved", line, name)
    return url


def _indent_like(rendered: str, text: str, start: int) -> str:
    """A multi-line replacement indented as the call's own line, so an include or a code block
    inside a list item stays inside it."""
    if "\n" not in rendered:
        return rendered
    line_start = text.rfind("\n", 0, start) + 1
    lead = text[line_start:start]
    if lead.strip():
        if open_fence(rendered.lstrip().partition("\n")[0]) or rendered.startswith(tuple("-*+#|")):
            return "\n" + rendered  # a block needs its own line
        return rendered
    lines = rendered.split("\n")
    return "\n".join([lines[0], *(lead + part if part.strip() else "" for part in lines[1:])])


class Reader(SiteReader):
    """hugo's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    prepare = staticmethod(prepare)
    page_rule = staticmethod(pages.skip)
