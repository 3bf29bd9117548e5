"""MDX, read as its page shows it: the rules for every ``.mdx`` file in every dialect and for the
``.md`` of an MDX-based site (issue 26, "Formats" and "Markup to meaning").

What goes: ESM ``import``/``export`` lines, ``{/* comments */}``, HTML comments, heading ids
(``{#id}``), tag names, self-closing components a page draws but does not write (``<Logo />``).
What stays: the text inside every component; ``<Admonition>`` and ``:::tip[Title]`` as their
label and body; ``<Tabs>``/``<TabItem label>`` and ``<details><summary>`` as labelled parts;
``<CodeBlock>`` as fenced code, its text from a ``raw-loader`` import when it names one; and a
partial (``import Part from './_part.mdx'``, or ``@site/...``) rendered where ``<Part />`` stands,
read through ``ctx.include`` so the repository guard, depth and cycle limits hold. A ``{value}``
expression is JavaScript, which is never run: a string literal or a partial's string prop is its
text, anything else is dropped and reported ``unresolved``. On a Docusaurus site, a component the
page neither imports nor gets from the theme, and a ``:::name`` that is no admonition keyword,
keep their text and are reported ``unresolved`` (``provided``): the site would not render them.

Code (fenced blocks and inline spans) is masked first (``mdx_source.mask``) and never edited.
"""

from __future__ import annotations

import html
import re

from . import import_paths, jsx, provided, table_cells
from .expression_values import expression
from ..api import Context, Included
from ..syntax.markup import dedent_block, strip_heading_attributes
from ..registry import NAMES, dialect
from ..syntax import labels
from ..syntax.labels import labelled
from ..syntax.fences import fenced
from ...parsing.block_start import opens_block
from ..syntax.line_map import LineMap
from .mdx_source import Import, blank_comments, mask, take_esm, unmask
from .render_env import Env, component_source, include, site_folder

_BLOCK = "\x02"  # opens every block the rendering makes; removed before the text leaves
# A line of spaces, &nbsp; ones too, is a blank line. Searched for after a newline (and at the
# start on its own): a pattern that opens with ``^`` is tried at every position of the page.
_SPACE_LINE = re.compile(r"\n[^\S\n]+(?=\n|\Z)")
_FIRST_SPACE_LINE = re.compile(r"[^\S\n]+(?=\n|\Z)")
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n)+")
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*(?:\n|\Z)", re.S)
_FORMAT = re.compile(r"""\bformat\s*:\s*['"](md|mdx|detect)['"]""")
_LANGUAGE = re.compile(r"\blanguage-([\w+-]+)")
# Elements whose whole meaning is drawn, not written: nothing of them reaches the text.
_DRAWN = frozenset({"img", "iframe", "hr", "video", "audio", "source", "input", "svg", "picture", "embed"})


def prepare(text: str, ctx: Context) -> str:
    """MDX source (front matter already removed) in, Markdown for the shared parser out."""
    if getattr(ctx.reader, "mdx_code_blocks", False):
        from .code_blocks import unwrap

        text = unwrap(text)
    env = Env(ctx, ctx.folder, None, None, [], commonmark=_commonmark(ctx))
    out = _blank_space_lines(_render_source(text, env).replace(_BLOCK, ""))
    return unmask(_BLANK_RUN.sub("\n\n", out).strip("\n"), env.codes)


def _blank_space_lines(text: str) -> str:
    """Each line of nothing but white space emptied (its newline kept)."""
    text = _SPACE_LINE.sub("\n", text)
    first = _FIRST_SPACE_LINE.match(text)
    return text[first.end():] if first else text


def _commonmark(ctx: Context) -> bool:
    """Whether this file is CommonMark on its site: Docusaurus reads every file as MDX unless its
    configuration says ``markdown: {format: 'md'}`` (all files) or ``'detect'`` (``.md`` files).
    The configuration is JavaScript, so the setting is found as text, never run (read once per
    build by the site's reader; every page depends on the file already)."""
    if ctx.site.dialect != "docusaurus" or not ctx.site.config_file:
        return False
    m = _FORMAT.search(ctx.reader.config_text)
    if m is None:
        return False
    return m.group(1) == "md" or (m.group(1) == "detect" and not ctx.path.endswith(".mdx"))


def _render_source(text: str, env: Env) -> str:
    wrapped = _past_plain(env.ctx)
    masked = strip_heading_attributes(blank_comments(mask(text, env.codes, wrapped)))
    statements: list[tuple[str, int]] = []
    imports: list[Import] = []
    sources: list[str] = []  # each statement's source, in the order of ``statements``
    if not env.commonmark:
        masked, statements, imports = take_esm(masked, env.codes, sources, wrapped)
        env.bound |= provided.bound_names(sources)
    if wrapped and not env.commonmark:
        masked, env.cells = table_cells.escape_rows(masked)
    env.lines = LineMap(masked)
    env.esm = "\n".join(sources)
    for (kind, line), source in zip(statements, sources):
        escapes = [spec for spec in import_paths.specifiers(source)
                   if import_paths.outside(spec, env.base, site_folder(env.ctx))]
        for spec in escapes:
            env.ctx.note(kind, "unresolved", env.line or line, f"outside the repository, not read: {spec}")
        if not escapes:
            env.ctx.note(kind, "converted", env.line or line)
    env.imports.update((imp.name, imp) for imp in imports)
    tree, problems = jsx.parse(masked, expressions=not env.commonmark)
    # One line lookup for all of them: a page of 166,000 unclosed tags made a call chain each.
    lines = [env.line] * len(problems) if env.line is not None else env.lines.lines([pos for _, pos in problems])
    for (message, _), line in zip(problems, lines):
        env.ctx.note("jsx", "unresolved", line, message)
    return _render(tree, env)


def _render(nodes: list, env: Env, tab_labels: dict[str, str] | None = None) -> str:
    parts = []
    for node in nodes:
        if isinstance(node, str):
            # MDX decodes character references (&nbsp;, &mdash;) in text; code is masked here.
            parts.append(html.unescape(node) if "&" in node else node)
        elif isinstance(node, jsx.Expr):
            parts.append(expression(node, env))
        elif isinstance(node, jsx.Directive):
            _note_directive(node, env)
            parts.append(_block(_labelled(node.title or labels.title(node.name), _body(node.children, env), env)))
        else:
            parts.append(_element(node, env, tab_labels))
    return "".join(parts)


def _block(text: str) -> str:
    """A block of its own; the mark tells ``_labelled`` that a body opening with it is a block."""
    return f"\n\n{_BLOCK}{text}\n\n"


def _labelled(label: str, body: str, env: Env) -> str:
    """``labels.labelled``, judged on the body's real text (its code is masked here) and with the
    label alone on its line when the body opens with a nested block (an admonition in a tab)."""
    first = unmask(body.split("\n", 1)[0], env.codes).split("\n", 1)[0]
    if body.startswith(_BLOCK) or opens_block(first):
        return f"{label.strip().rstrip(':')}:\n\n{body}"
    return labelled(label, body)


def _body(nodes: list, env: Env, tab_labels: dict[str, str] | None = None) -> str:
    """Children of a block element as a block. JSX indentation is not code in MDX, so the lines
    that start in this element's own text lose their common indentation; nested elements have
    already lost theirs."""
    width = _indentation(nodes)
    if width:
        nodes = [_dedent(n, width, k == 0) if isinstance(n, str) else n for k, n in enumerate(nodes)]
    return _render(nodes, env, tab_labels).strip()


# A line that holds more than white space (``\S`` is what ``str.strip`` keeps) and its
# indentation, after each newline: read by the pattern, not a Python step per line.
_LINE_LEAD = re.compile(r"\n([ \t]*)(?=[^\n]*\S)")


def _indentation(nodes: list) -> int:
    """The least indentation of the lines that start in the string children: lines with text,
    and the line before a nested element even when blank. A line at the margin answers it."""
    width = None
    last = len(nodes) - 1
    for k, node in enumerate(nodes):
        if not isinstance(node, str) or "\n" not in node:
            continue
        leads = _LINE_LEAD.findall(node)
        if k < last:
            tail = node[node.rfind("\n") + 1 :]
            leads.append(tail[: len(tail) - len(tail.lstrip(" \t"))])
        if leads:
            lead = min(map(len, leads))
            if lead == 0:
                return 0
            width = lead if width is None or lead < width else width
    return width or 0


def _dedent(text: str, width: int, first: bool) -> str:
    """Up to ``width`` blanks off every line after a newline, and off the first with ``first``."""
    out = re.sub(f"\n[ \t]{{1,{width}}}", "\n", text) if "\n" in text else text
    if first:
        lead = len(out) - len(out.lstrip(" \t"))
        out = out[min(lead, width) :]
    return out


def _text(value: str | jsx.Expr | bool | None) -> str | None:
    return value if isinstance(value, str) else None


def _element(node: jsx.Element, env: Env, tab_labels: dict[str, str] | None) -> str:
    name, attrs = node.name, node.attrs
    if name in env.imports:
        text = _imported(node, env)
        if text is not None:
            return text
    # components the site's generator draws its own way (``SiteReader.mdx_components``); a file
    # read as CommonMark has none
    site_reading = None if env.commonmark else env.ctx.reader.mdx_components.get(name)
    if site_reading is not None:
        return site_reading(node, env)
    if name == "Admonition":
        env.note("admonition", "converted", node.pos)
        label = _text(attrs.get("title")) or labels.title(_text(attrs.get("type")) or "note")
        return _block(_labelled(label, _body(node.children, env), env))
    if name == "Tabs":
        env.note("tabs", "converted", node.pos)
        return _block(_body(node.children, env, _tab_values(attrs.get("values"))))
    if name == "TabItem":
        value = _text(attrs.get("value"))
        label = _text(attrs.get("label")) or (tab_labels or {}).get(value or "") or value or "Tab"
        return _block(_labelled(label, _body(node.children, env), env))
    if name == "details":
        env.note("details", "converted", node.pos)
        summary = next((c for c in node.children if isinstance(c, jsx.Element) and c.name == "summary"), None)
        rest = [c for c in node.children if c is not summary]
        label = " ".join(_render(summary.children, env).split()) if summary else "Details"
        return _block(_labelled(label, _body(rest, env), env))
    if name == "CodeBlock":
        return _code_block(node, env)
    construct = "html element" if name[:1].islower() else "jsx component"
    if construct == "jsx component" and _undefined(name, env):
        kept = "its inner text kept" if node.children else "nothing kept"
        env.note(construct, "unresolved", node.pos,
                 f"unknown component <{name}>: not imported and not provided by {provided.provider(env.ctx)}, {kept}")
    else:
        env.note(construct, "converted", node.pos)
    if name in ("br", "hr") and table_cells.in_cell(env.cells, node.pos):
        return table_cells.CELL_BREAK  # a line inside one table cell: the row must stay one line
    if name == "br":
        return "\n"
    if name in _DRAWN or not node.children:
        return ""
    title = _text(attrs.get("title"))
    if node.block and title and not name[:1].islower():
        return _block(_labelled(title, _body(node.children, env), env))
    if node.block:
        return _block(_body(node.children, env))
    return _render(node.children, env)


def _undefined(name: str, env: Env) -> bool:
    """A component the page neither imports nor defines and its site does not provide: MDX
    fails to render the page there (``provided``)."""
    if env.commonmark or not provided.applies(env.ctx):
        return False
    root = name.split(".", 1)[0]
    if not root or root in env.bound:  # a fragment, <>...</>, is JSX's own
        return False
    if "components" not in env.site_names:
        env.site_names["components"] = provided.provided_components(env.ctx)
    known = env.site_names["components"]
    return known is not None and root not in known


def _note_directive(node: jsx.Directive, env: Env) -> None:
    """``:::name`` is an admonition for a keyword the site has; any other is not drawn as one."""
    if "keywords" not in env.site_names:
        env.site_names["keywords"] = provided.admonition_keywords(env.ctx) if provided.has_keywords(env.ctx) else None
    keywords = env.site_names["keywords"]
    if keywords is not None and node.name.lower() not in keywords:
        env.note("admonition", "unresolved", node.pos,
                 f"unknown admonition :::{node.name}: not a Docusaurus keyword nor in admonitions.keywords,"
                 " its text kept")
        return
    env.note("admonition", "converted", node.pos)


def _tab_values(values: str | jsx.Expr | bool | None) -> dict[str, str]:
    """Docusaurus' older ``<Tabs values={[{label: 'npm', value: 'npm'}]}>``: value -> label."""
    if not isinstance(values, jsx.Expr):
        return {}
    out = {}
    for item in re.finditer(r"\{([^{}]*)\}", values.source):
        fields = dict(re.findall(r"""(label|value)\s*:\s*['"]([^'"]*)['"]""", item.group(1)))
        if "value" in fields:
            out[fields["value"]] = fields.get("label", fields["value"])
    return out


def _imported(node: jsx.Element, env: Env) -> str | None:
    """A partial rendered where it is used, its string props available to ``{props.x}``; a
    component of the site's as its generator reads it, or None when it does not."""
    imp = env.imports[node.name]
    if imp.kind == "component":
        read = None if env.commonmark else env.ctx.reader.mdx_imported_component
        return None if read is None else read(node, lambda: component_source(imp, env), env)
    if imp.kind != "partial":
        env.note("mdx raw import", "unresolved", node.pos, f"<{node.name} /> renders raw text outside <CodeBlock>")
        return ""
    included = include(imp, env, node.pos, "mdx partial")
    return "" if included is None else partial(included, node, env)


def partial(included: Included, node: jsx.Element, env: Env) -> str:
    """A partial's text rendered where ``node`` stands, its string props available to ``{props.x}``
    (also for a component that renders a file, Mintlify's ``<Snippet file>``)."""
    props = {k: v for k, v in node.attrs.items() if isinstance(v, str)}
    inner = Env(env.ctx, included.folder, included, env.at(node.pos), env.codes, props=props,
                 site_names=env.site_names, commonmark=env.commonmark or _markdown_partial(included, env.ctx))
    return _block(_render_source(_FRONT_MATTER.sub("", included.text, count=1), inner).strip("\n"))


def _markdown_partial(included: Included, ctx: Context) -> bool:
    """Whether a partial is CommonMark where it is read: a ``.md`` file on a site whose
    generator compiles ``.md`` as Markdown, not MDX (Astro: braces in it are text, and an
    ``import`` line is prose). Docusaurus reads every file as MDX, and a plain site's generator
    is not known, so theirs stay MDX."""
    if not included.path.endswith(".md") or ctx.site.dialect not in NAMES:
        return False
    return not dialect(ctx.site.dialect).markdown_is_mdx


def _past_plain(ctx: Context) -> bool:
    """Whether this build reads MDX past what ``--dialect plain`` reads: a plain build's stores
    stay byte-identical, so readings added since (an import wrapped over lines, a code block's
    template literal) are a generator's or ``auto``'s, MDX guessed by content included."""
    return ctx.site.dialect != "plain" or ctx.site.guess_mdx


def _template_text(source: str) -> str | None:
    """The text of a template literal with ``${...}`` in it (no backtick inside, so no nested
    template), interpolations as written; None for any other expression."""
    inner = source.strip()
    if len(inner) < 2 or inner[0] != "`" or inner[-1] != "`" or "`" in inner[1:-1] or "${" not in inner:
        return None
    return inner[1:-1]


def _code_block(node: jsx.Element, env: Env) -> str:
    """``<CodeBlock language="js">`` as the fenced block its page shows."""
    attrs = node.attrs
    language = _text(attrs.get("language")) or ""
    if not language:
        m = _LANGUAGE.search(_text(attrs.get("className")) or "")
        language = m.group(1) if m else ""
    kids = [c for c in node.children if not (isinstance(c, str) and not c.strip())]
    code: str | None
    if len(kids) == 1 and isinstance(kids[0], jsx.Expr):
        expr = kids[0]
        source = unmask(expr.source, env.codes)
        literal = jsx.Expr(source, expr.pos).literal
        imp = env.imports.get(source.strip())
        if literal is not None:
            code = dedent_block(literal.strip("\n"))
        elif imp is not None and imp.kind == "raw":
            included = include(imp, env, expr.pos, "mdx raw import")
            code = None if included is None else included.text.rstrip("\n")
        elif _past_plain(env.ctx) and (template := _template_text(source)) is not None:
            # React Native's ``{`npx ... init App --version ${getCurrentVersion()}`}``: the
            # command is the page's, the value JavaScript no build runs; the block keeps its
            # text with each ``${...}`` as written, rather than the whole command going.
            env.note("code block component", "unresolved", node.pos,
                     f"{{{source.strip()[:60]}}}: its ${{...}} is JavaScript, kept as written")
            code = dedent_block(template.strip("\n"))
        else:
            env.note("code block component", "unresolved", node.pos, f"{{{source.strip()[:60]}}} is JavaScript")
            code = None
    else:
        code = dedent_block(unmask(_render(node.children, env), env.codes).strip("\n"))
    if code is None:
        return ""
    env.note("code block component", "converted", node.pos)
    title = _text(attrs.get("title"))
    info = f'{language} title="{title}"' if language and title and '"' not in title else language
    return _block(mask(fenced(code, info), env.codes))
