"""mkdocs-macros: a page that is a Jinja template, as a reader of the rendered page sees it (issue
26, "Liquid/Jinja ``{% raw %}`` is unwrapped"; mkdocs-macros-plugin, and zensical's port of it,
the ``zensical.extensions.macros`` Markdown extension, which FastAPI's site uses).

Only when the site enables it (``plugins: [macros]``, or the zensical extension): without it a
page that shows ``{% raw %}`` shows it literally, and nothing here runs. The plugin renders the
raw page, fenced code included, before any Markdown extension, so this is the first layer of
``prepare``; no template is evaluated, each construct is read on its own:

- ``{% raw %}...{% endraw %}`` shows its inside as written: the markers go (a line that held
  only a marker is left empty, as Jinja leaves it), the inside stays and is not read again;
- ``{# comment #}`` goes;
- ``{{ name }}``, ``{{ extra.a.b }}``, ``{{ config.site_name }}``, ``{{ page.meta.x }}`` and a
  string or number literal print their value, from ``extra:`` in mkdocs.yml (its keys are also
  top-level names), the plugin's ``include_yaml`` data files (read through ``ctx.read_data``,
  so they are dependencies of the page) and the page's front matter, which wins; a value that is
  missing, not a scalar or behind a filter or call stays as written, which is what the plugin
  shows by default (``on_undefined: keep``), and is an ``unresolved`` note;
- any other ``{% ... %}`` (``for``, ``if``, ``set``, ``include``, a macro call) stays as written,
  ``unresolved``: only a template engine knows what it produces.

A ``{% raw %}``, ``{{``, ``{%`` or ``{#`` never closed is a template error: the plugin then
leaves the page unrendered, so the page is kept as written, with one note. ``render_macros: false`` in front matter, or
``render_by_default: false`` without ``render_macros: true``, keeps a page as written too.
"""

from __future__ import annotations

import posixpath
import re

from ..api import Context
from ..data.values import parse_data, scalar
from ..syntax.line_map import LineMap, Lines, joined
from ..syntax.template_tags import Lexer, end_tag, jinja
from .config import config_folder, entries, extension_options, listed_options

ZENSICAL = "zensical.extensions.macros"
RAW = "macros raw"
COMMENT = "macros comment"
VARIABLE = "macros variable"
STATEMENT = "macros statement"
TEMPLATE = "macros template"

_LITERAL = re.compile(r"""^(?:"([^"\\]*)"|'([^'\\]*)'|(-?\d+(?:\.\d+)?))$""")
_PATH = re.compile(r"""^[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*|\s*\[\s*(?:"[^"\]]*"|'[^']*'|\d+)\s*\])*$""")
_FOR = re.compile(r"^for\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+in\b")
_PART = re.compile(r"""[A-Za-z_]\w*|\[\s*(?:"([^"\]]*)"|'([^']*)'|(\d+))\s*\]""")


def options(config: dict) -> dict | None:
    """The macros options when the site renders its pages as Jinja templates, else None."""
    found = listed_options(config, "plugins", "macros")
    if found is None:
        found = extension_options(config, ZENSICAL)
    if found is None or found.get("enabled") is False:
        return None
    return found


def render(lines: Lines, ctx: Context, config: dict) -> Lines:
    """The page's (origin, text) lines with its template constructs read (module docstring);
    as many lines as came in, each keeping its origin."""
    opts = options(config)
    if opts is None or not lines:
        return lines
    marks = _marks(opts)
    text = joined(lines)
    if not any(m in text for m in (marks["var"][0], marks["block"][0], marks["comment"][0])):
        return lines
    fm = ctx.front_matter if isinstance(ctx.front_matter, dict) else {}
    if fm.get("render_macros") is False or (opts.get("render_by_default") is False and fm.get("render_macros") is not True):
        return lines
    renderer = _Renderer(text, lines, ctx, marks, _variables(ctx, config, opts, fm))
    out = renderer.run()
    if out is None:
        return lines
    rendered = out.split("\n")
    if len(rendered) != len(lines):  # never: every construct keeps its line breaks
        return lines
    return [(origin, new) for (origin, _), new in zip(lines, rendered)]


def _marks(opts: dict) -> dict[str, tuple[str, str]]:
    def pick(key: str, default: str) -> str:
        value = opts.get(key)
        return value if isinstance(value, str) and value else default

    return {
        "var": (pick("j2_variable_start_string", "{{"), pick("j2_variable_end_string", "}}")),
        "block": (pick("j2_block_start_string", "{%"), pick("j2_block_end_string", "%}")),
        "comment": (pick("j2_comment_start_string", "{#"), pick("j2_comment_end_string", "#}")),
    }


def _variables(ctx: Context, config: dict, opts: dict, fm: dict) -> dict:
    """The names a page's outputs may print, in the plugin's order: ``extra``, data files, page."""
    names: dict = {"config": config}
    extra = config.get("extra")
    if isinstance(extra, dict):
        names["extra"] = extra
        names.update(extra)
    folder = config_folder(ctx)
    for key, path in _yaml_files(opts.get("include_yaml")):
        target = posixpath.normpath(posixpath.join(folder, path))
        raw = ctx.read_data(target)
        value = parse_data(raw, posixpath.splitext(target)[1].lower(), ctx=ctx) if raw is not None else None
        if raw is None or value is None:
            ctx.note(VARIABLE, "unresolved", 0, f"include_yaml {target}: missing or not readable data")
            continue
        if key is not None:
            names[str(key)] = value
        elif isinstance(value, dict):
            names.update(value)
    names["page"] = {"meta": fm, "title": fm.get("title")}
    names.update(fm)
    return names


def _yaml_files(include) -> list[tuple[str | None, str]]:
    """``include_yaml`` as (key, path) pairs: a path's data is merged at the top (key None), a
    ``key: path`` entry's data is put under its key; the option is a list of either, or a mapping."""
    out: list[tuple[str | None, str]] = []
    for entry in entries(include):
        if isinstance(entry, str):
            out.append((None, entry))
        elif isinstance(entry, dict):
            out += [(str(key), path) for key, path in entry.items() if isinstance(path, str)]
    return out


class _Renderer:
    def __init__(self, text: str, lines, ctx: Context, marks: dict, names: dict) -> None:
        self.text, self.ctx, self.marks, self.names = text, ctx, marks, names
        self.lines = LineMap(text)
        self.origins = [origin for origin, _ in lines]
        self.loop_names: set[str] = set()  # names a {% for %} binds: only the engine knows them

    def line(self, pos: int) -> int:
        return self.origins[min(self.lines.index(pos), len(self.origins) - 1)]

    def run(self) -> str | None:
        """The page with each construct read; None when the template does not parse (an opener
        never closed): the plugin then leaves the page as written."""
        text, out, pos = self.text, [], 0
        marks = self.marks
        lexer = Lexer(text, jinja(marks["block"], marks["var"], marks["comment"]))
        while True:
            tag = lexer.next(pos)
            if tag is None:
                out.append(text[pos:])
                return "".join(out)
            at, end, kind = tag.start, tag.end, tag.kind
            out.append(text[pos:at])
            if end < 0:
                self.ctx.note(TEMPLATE, "unresolved", self.line(at),
                              f"{marks[kind][0]} never closed: a template error, the page kept as written")
                return None
            body = tag.body.strip("-+ \t\n")
            if kind == "comment":
                self.ctx.note(COMMENT, "converted", self.line(at))
                out.append(_blank(text, at, end))
                pos = end
            elif kind == "var":
                out.append(self.output(body, text[at:end], self.line(at)))
                pos = end
            elif body.split(None, 1)[:1] == ["raw"]:
                closing = self.endraw(end)
                if closing is None:
                    self.ctx.note(RAW, "unresolved", self.line(at), "{% raw %} never closed: a template error, the page kept as written")
                    return None
                inner_end, after = closing
                self.ctx.note(RAW, "converted", self.line(at))
                out.append(_blank(text, at, end) + text[end:inner_end] + _blank(text, inner_end, after))
                pos = after
            else:
                name = body.split(None, 1)[0] if body else ""
                loop = _FOR.match(body)
                if loop:
                    self.loop_names.update(n.strip() for n in loop.group(1).split(","))
                self.ctx.note(STATEMENT, "unresolved", self.line(at),
                              f"{{% {name} %}}: only the template engine knows what it shows; kept as written")
                out.append(text[at:end])
                pos = end

    def endraw(self, pos: int) -> tuple[int, int] | None:
        """Where the ``endraw`` tag after ``pos`` starts and ends."""
        start, end = self.marks["block"]
        return end_tag(self.text, pos, "raw", start, end, trims="-+")

    def output(self, expr: str, written: str, line: int) -> str:
        value, why = self.value(expr)
        if why:
            self.ctx.note(VARIABLE, "unresolved", line, f"{expr}: {why}; kept as written")
            return written
        self.ctx.note(VARIABLE, "resolved", line, expr)
        return value

    def value(self, expr: str) -> tuple[str, str]:
        """(the text ``expr`` prints, "") or ("", why it cannot be known)."""
        literal = _LITERAL.match(expr)
        if literal:
            return next(g for g in literal.groups() if g is not None), ""
        if not _PATH.match(expr):
            return "", "an expression (a filter, call or operator), not a name"
        if _PART.match(expr).group(0) in self.loop_names:
            return "", "a {% for %} loop's variable, known to the template engine only"
        value: object = self.names
        for part in _PART.finditer(expr):
            key = part.group(0) if part.group(0)[0] != "[" else next(g for g in part.groups() if g is not None)
            if isinstance(value, list) and key.isdigit():
                value = value[int(key)] if int(key) < len(value) else None
            elif isinstance(value, dict) and key in value:
                value = value[key]
            else:
                return "", "not defined in extra, the data files or the page"
        shown = _jinja_scalar(value)
        if shown is None:
            return "", "a list or mapping, not text" if isinstance(value, (dict, list)) else "not text"
        return shown, ""


def _jinja_scalar(value: object) -> str | None:
    """A value as Jinja prints it (Python's ``str``): ``True``, ``None``, ``3.5``."""
    if value is None or isinstance(value, bool):
        return str(value)
    return scalar(value)


def _blank(text: str, start: int, end: int) -> str:
    """What a removed construct leaves: the line breaks it spanned, so lines keep their origins."""
    return "\n" * text.count("\n", start, end)
