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
import json
import re
from dataclasses import dataclass, field

from . import import_paths, jsx, provided
from ..api import Context, Included
from ..markup import dedent_block, strip_heading_attributes
from ..registry import NAMES, dialect
from ..syntax import labels
from ..syntax.labels import labelled
from ..syntax.fences import fenced
from ..syntax.line_map import LineMap
from .mdx_source import Import, blank_comments, exported_values, mask, take_esm, unmask

_BLOCK = "\x02"  # opens every block the rendering makes; removed before the text leaves
_SPACE_LINE = re.compile(r"^[^\S\n]+$", re.M)  # a line of spaces, &nbsp; ones too, is a blank line
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n)+")
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*(?:\n|\Z)", re.S)
_FORMAT = re.compile(r"""\bformat\s*:\s*['"](md|mdx|detect)['"]""")
_MEMBER = re.compile(r"\s*([A-Za-z_$][\w$]*)((?:\.[A-Za-z_$][\w$]*|\[\d+\])+)\s*")
_PROPS = re.compile(r"\s*props\.([A-Za-z_$][\w$]*)\s*")
_LANGUAGE = re.compile(r"\blanguage-([\w+-]+)")
# Elements whose whole meaning is drawn, not written: nothing of them reaches the text.
_DRAWN = frozenset({"img", "iframe", "hr", "video", "audio", "source", "input", "svg", "picture", "embed"})


@dataclass
class _Env:
    """One source being rendered: the document itself, or a partial inside it."""

    ctx: Context
    base: str  # the folder relative imports start from, relative to repo_root
    within: Included | None  # the partial being rendered (None for the document)
    line: int | None  # where a partial stands in the document: every note inside it is there
    codes: list[str]  # shared by the document and its partials, so code is unmasked once
    imports: dict[str, Import] = field(default_factory=dict)
    props: dict[str, str] = field(default_factory=dict)
    lines: LineMap | None = None  # the masked text's lines
    commonmark: bool = False  # a file the site reads as CommonMark: no ESM, braces are text
    data: dict = field(default_factory=dict)  # JSON imports read so far, by name; snippet variables
    bound: set = field(default_factory=set)  # names the source's import/export statements bind
    site_names: dict = field(default_factory=dict)  # what the site provides, read once per document
    esm: str = ""  # the source's import/export statements: what it exports

    def at(self, pos: int) -> int:
        if self.line is not None:
            return self.line
        return self.lines.line(pos)

    def note(self, construct: str, outcome: str, pos: int, detail: str = "") -> None:
        self.ctx.note(construct, outcome, self.at(pos), detail)


def prepare(text: str, ctx: Context) -> str:
    """MDX source (front matter already removed) in, Markdown for the shared parser out."""
    env = _Env(ctx, ctx.folder, None, None, [], commonmark=_commonmark(ctx))
    out = _SPACE_LINE.sub("", _render_source(text, env).replace(_BLOCK, ""))
    return unmask(_BLANK_RUN.sub("\n\n", out).strip("\n"), env.codes)


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


def site_folder(ctx: Context) -> str:
    """What ``@site/`` names: the folder of ``docusaurus.config.*``, relative to repo_root; without
    one (an ``.mdx`` file outside a Docusaurus site), the folder above DOCS, where it would be
    (``detect.site_folder``)."""
    return ctx.reader.site_folder


def _render_source(text: str, env: _Env) -> str:
    masked = strip_heading_attributes(blank_comments(mask(text, env.codes)))
    statements: list[tuple[str, int]] = []
    imports: list[Import] = []
    sources: list[str] = []  # each statement's source, in the order of ``statements``
    if not env.commonmark:
        masked, statements, imports = take_esm(masked, env.codes, sources)
        env.bound |= provided.bound_names(sources)
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
    for message, pos in problems:
        env.note("jsx", "unresolved", pos, message)
    return _render(tree, env)


def _render(nodes: list, env: _Env, tab_labels: dict[str, str] | None = None) -> str:
    parts = []
    for node in nodes:
        if isinstance(node, str):
            # MDX decodes character references (&nbsp;, &mdash;) in text; code is masked here.
            parts.append(html.unescape(node) if "&" in node else node)
        elif isinstance(node, jsx.Expr):
            parts.append(_expression(node, env))
        elif isinstance(node, jsx.Directive):
            _note_directive(node, env)
            parts.append(_block(_labelled(node.title or labels.title(node.name), _body(node.children, env), env)))
        else:
            parts.append(_element(node, env, tab_labels))
    return "".join(parts)


def _block(text: str) -> str:
    """A block of its own; the mark tells ``_labelled`` that a body opening with it is a block."""
    return f"\n\n{_BLOCK}{text}\n\n"


def _labelled(label: str, body: str, env: _Env) -> str:
    """``labels.labelled``, judged on the body's real text (its code is masked here) and with the
    label alone on its line when the body opens with a nested block (an admonition in a tab)."""
    first = unmask(body.split("\n", 1)[0], env.codes)
    if body.startswith(_BLOCK) or (first.strip() and labelled(label, first).endswith(":\n\n" + first.strip("\n"))):
        return f"{label.strip().rstrip(':')}:\n\n{body}"
    return labelled(label, body)


def _body(nodes: list, env: _Env, tab_labels: dict[str, str] | None = None) -> str:
    """Children of a block element as a block. JSX indentation is not code in MDX, so the lines
    that start in this element's own text lose their common indentation; nested elements have
    already lost theirs."""
    width = _indentation(nodes)
    if width:
        nodes = [_dedent(n, width, k == 0) if isinstance(n, str) else n for k, n in enumerate(nodes)]
    return _render(nodes, env, tab_labels).strip()


def _line_starts(nodes: list):
    """(text, followed_by_node) for every line of the string children that starts a line."""
    for k, node in enumerate(nodes):
        if isinstance(node, str):
            segments = node.split("\n")
            followed = k + 1 < len(nodes)
            for j, seg in enumerate(segments[1:], 1):
                yield seg, followed and j == len(segments) - 1


def _indentation(nodes: list) -> int:
    widths = [
        len(seg) - len(seg.lstrip(" \t"))
        for seg, followed in _line_starts(nodes)
        if seg.strip() or followed
    ]
    return min(widths, default=0)


def _dedent(text: str, width: int, first: bool) -> str:
    lines = text.split("\n")
    for j in range(0 if first else 1, len(lines)):
        line = lines[j]
        lead = len(line) - len(line.lstrip(" \t"))
        lines[j] = line[min(lead, width) :]
    return "\n".join(lines)


def _expression(node: jsx.Expr, env: _Env) -> str:
    if env.commonmark:
        return "{" + node.source + "}"
    if node.comment:
        env.note("mdx comment", "converted", node.pos)
        return ""
    source = unmask(node.source, env.codes)
    literal = jsx.Expr(source, node.pos).literal
    if literal is not None:
        return literal
    prop = _PROPS.fullmatch(source)
    if prop is not None and prop.group(1) in env.props:
        env.note("mdx expression", "resolved", node.pos)
        return env.props[prop.group(1)]
    if source.strip() in env.props:  # a partial's prop by its bare name (Mintlify's snippets)
        env.note("mdx expression", "resolved", node.pos)
        return env.props[source.strip()]
    value = _variable(source.strip(), env, node.pos)
    if value is not None:
        return value
    member = _MEMBER.fullmatch(source)
    imp = env.imports.get(member.group(1)) if member else None
    if imp is not None and imp.kind == "json":
        value = _json_value(imp, member.group(2), env, node.pos)
        if value is not None:
            return value
        why = "not read" if env.data.get(imp.name) is None else "has no such value"
        env.note("mdx expression", "unresolved", node.pos, f"{{{source.strip()[:60]}}}: {imp.spec} {why}")
        return ""
    env.note("mdx expression", "unresolved", node.pos, f"{{{source.strip()[:60]}}} is JavaScript, not text")
    return ""


def _variable(name: str, env: _Env, pos: int) -> str | None:
    """A string the page exports (``export const name = 'text'``) or imports from a snippet
    (``import { name } from '/snippets/vars.mdx'``), read from that file's ``export const``."""
    imp = env.imports.get(name)
    if imp is not None and imp.kind == "value":
        if ("value", imp.spec) not in env.data:
            included = _include(imp, env, pos, "mdx snippet value")
            env.data[("value", imp.spec)] = exported_values(included.text) if included is not None else {}
        value = env.data[("value", imp.spec)].get(imp.exported)
    else:
        if ("exports",) not in env.data:
            env.data[("exports",)] = exported_values(env.esm)
        value = env.data[("exports",)].get(name)
    if value is not None:
        env.note("mdx expression", "resolved", pos)
    return value


def _json_value(imp: Import, path: str, env: _Env, pos: int) -> str | None:
    """The scalar at ``path`` (``.a.b[0]``) in an imported JSON file, read once per source."""
    if imp.name not in env.data:
        included = _include(imp, env, pos, "mdx json import")
        try:
            env.data[imp.name] = json.loads(included.text) if included is not None else None
        except ValueError:
            env.note("mdx json import", "unresolved", pos, f"{imp.spec} is not JSON")
            env.data[imp.name] = None
    value = env.data[imp.name]
    for key in re.findall(r"\.([A-Za-z_$][\w$]*)|\[(\d+)\]", path):
        if isinstance(value, dict) and key[0] in value:
            value = value[key[0]]
        elif isinstance(value, list) and key[1] and int(key[1]) < len(value):
            value = value[int(key[1])]
        else:
            return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, (str, int, float)) else None


def _text(value: str | jsx.Expr | bool | None) -> str | None:
    return value if isinstance(value, str) else None


def _element(node: jsx.Element, env: _Env, tab_labels: dict[str, str] | None) -> str:
    name, attrs = node.name, node.attrs
    if name in env.imports:
        return _imported(node, env)
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


def _undefined(name: str, env: _Env) -> bool:
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


def _note_directive(node: jsx.Directive, env: _Env) -> None:
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


def _resolve(spec: str, env: _Env, pos: int = 0) -> tuple[str, str] | None:
    """(base, target) for ``ctx.include``, or None for a module path that names no file here."""
    if spec.startswith("@site/"):
        return site_folder(env.ctx), spec[len("@site/") :]
    absolute = import_paths.site_absolute(spec, site_folder(env.ctx))
    if absolute is not None:
        return absolute
    if spec.startswith(("./", "../")):
        return env.base, spec
    aliases = import_paths.site_aliases(env.ctx, lambda problem: env.note("tsconfig paths", "unresolved", pos, problem))
    target = import_paths.aliased(spec, aliases)
    return ("", target) if target is not None else None


def _include(imp: Import, env: _Env, pos: int, construct: str) -> Included | None:
    where = _resolve(imp.spec, env, pos)
    if where is None:
        env.note(construct, "unresolved", pos, f"{imp.spec}: not a path inside the site")
        return None
    base, target = where
    return env.ctx.include(target, base=base, line=env.at(pos), construct=construct, within=env.within)


def _imported(node: jsx.Element, env: _Env) -> str:
    """A partial rendered where it is used, its string props available to ``{props.x}``."""
    imp = env.imports[node.name]
    if imp.kind != "partial":
        env.note("mdx raw import", "unresolved", node.pos, f"<{node.name} /> renders raw text outside <CodeBlock>")
        return ""
    included = _include(imp, env, node.pos, "mdx partial")
    return "" if included is None else partial(included, node, env)


def partial(included: Included, node: jsx.Element, env: _Env) -> str:
    """A partial's text rendered where ``node`` stands, its string props available to ``{props.x}``
    (also for a component that renders a file, Mintlify's ``<Snippet file>``)."""
    props = {k: v for k, v in node.attrs.items() if isinstance(v, str)}
    inner = _Env(env.ctx, included.folder, included, env.at(node.pos), env.codes, props=props,
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


def _code_block(node: jsx.Element, env: _Env) -> str:
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
            included = _include(imp, env, expr.pos, "mdx raw import")
            code = None if included is None else included.text.rstrip("\n")
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
