"""Liquid, as a reader of a Jekyll page sees its result (issue 26, "Markup to meaning"; the Liquid
reference, shopify.github.io/liquid, and Jekyll's tags and filters).

No template is evaluated. Tags are read one at a time on the raw page (fenced code included, as
Jekyll renders Liquid before Markdown): ``raw`` is unwrapped into literal text that nothing later
touches, ``comment`` goes, ``highlight`` becomes a fenced block, control tags (``if``, ``for``,
``case``, ...) go while the text between them stays, ``assign`` and ``capture`` keep a value for
later output. An output ``{{ x | f }}`` is looked up through ``Scope.lookup`` (the dialect's job)
and the simple filters applied; one that cannot be resolved goes and is noted ``unresolved``:
the page shows a value there, a variable's name is not that value, and an agent quoting it would
present the name as a fact. The report names each one by line, so the author sees what was lost.
A tag no one defines (``Scope.defined``: Jekyll's build fails there) keeps the text between it
and its end tag and is noted ``unresolved`` too.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..syntax.fences import fenced
from ..syntax.line_map import LineMap
from ..syntax.template_tags import LIQUID, Lexer, end_tag, hold, restore

_TAG_NAME = re.compile(r"\s*(#|[A-Za-z_]\w*)")
CONTROL = frozenset("if elsif else endif unless endunless case when endcase for endfor break continue "
                    "tablerow endtablerow cycle increment decrement ifchanged endifchanged".split())
_OPENERS = frozenset("if unless case for tablerow".split())
_QUOTED = re.compile(r"""^(?:"([^"]*)"|'([^']*)')$""")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_BRACKETED_KEY = re.compile(r"""\[\s*["']([^"'\]]+)["']\s*\]""")  # site.data["a b"] -> site.data.a b


@dataclass
class Scope:
    """What outputs and tags may read, and where the dialect plugs in: ``lookup`` resolves a
    variable path (``site.data.ruby.min_version``) to a value or None; ``tag`` renders a tag
    the Liquid layer does not know (``include``, ``link``) or returns None."""

    lookup: Callable[[str], object]
    tag: Callable[[str, str, int], str | None]
    note: Callable[[str, str, int, str], None]
    names: dict = field(default_factory=dict)  # assign and capture
    held: list[str] = field(default_factory=list)  # raw text, restored last
    loops: dict = field(default_factory=dict)  # a for loop's variable -> what it iterates
    no_end: dict = field(default_factory=dict)  # (id(text), block name) -> start of a failed search
    # Whether the site defines a tag the layers above do not render: True, False (the build would
    # fail on it) or None (it cannot be told); None as a whole when the dialect cannot say.
    defined: Callable[[str], bool | None] | None = None
    line: int = 0  # the line of the tag or output being read, for notes made by ``lookup``

    def value(self, expr: str) -> object:
        """A literal or a variable path's value, None when unknown."""
        expr = expr.strip()
        quoted = _QUOTED.match(expr)
        if quoted:
            return quoted.group(1) if quoted.group(1) is not None else quoted.group(2)
        if _NUMBER.fullmatch(expr):
            return expr
        path = _BRACKETED_KEY.sub(r".\1", expr) if "[" in expr else expr
        head = path.split(".", 1)[0]
        if head in self.names:
            from ..data.values import dotted

            return self.names[head] if "." not in path else dotted(self.names[head], path.split(".", 1)[1])
        return self.lookup(path)


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    name: str | None  # a tag's name; None for an output
    body: str  # a tag's arguments, or an output's expression
    trim_left: bool  # {%- or {{-
    trim_right: bool  # -%} or -}}


def _next_token(lexer: Lexer, pos: int) -> _Token | None:
    """The first tag or output at or after ``pos``, ending at its first closer as Liquid's
    tokenizer reads it (``template_tags.LIQUID``)."""
    while (tag := lexer.next(pos)) is not None:
        body = tag.body
        trim_left, trim_right = body.startswith("-"), body.endswith("-") and len(body) > 1
        body = body[1 if trim_left else 0 : len(body) - 1 if trim_right else len(body)]
        if tag.kind == "{":
            return _Token(tag.start, tag.end, None, body, trim_left, trim_right)
        m = _TAG_NAME.match(body)
        if m is None:  # "{% %}" with no name is text to Liquid's lax reader; keep it
            pos = tag.end
            continue
        return _Token(tag.start, tag.end, m.group(1), body[m.end() :], trim_left, trim_right)
    return None


def render(text: str, scope: Scope, first_line: int, fixed_line: bool = False) -> str:
    """``text`` with its Liquid read as described above; raw text is held as placeholders until
    ``restore``."""
    if "{%" not in text and "{{" not in text:
        return text
    out: list[str] = []
    pos = 0
    lines = None if fixed_line else LineMap(text, first_line)
    lexer = Lexer(text, LIQUID)
    while (tok := _next_token(lexer, pos)) is not None:
        before = text[pos : tok.start]
        out.append(before.rstrip(" \t") if tok.trim_left else before)
        line = first_line if lines is None else lines.line(tok.start)
        scope.line = line
        if tok.name is None:
            rendered, pos = _output(tok.body, scope, line), tok.end
        else:
            rendered, pos = _tag(text, tok, scope, line, first_line, fixed_line)
        if rendered and out and out[-1] and out[-1][-1].isalnum() and _starts_with_word(rendered):
            rendered = " " + rendered  # a trimmed space between two words: the page shows a gap
        out.append(rendered)
        if tok.trim_right:
            while pos < len(text) and text[pos] in " \t":
                pos += 1
    out.append(text[pos:])
    return "".join(out)


def _starts_with_word(rendered: str) -> bool:
    visible = re.sub(r"<[^<>]*>", "", rendered).lstrip()
    return visible[:1].isalnum()


def _tag(text: str, m: _Token, scope: Scope, line: int, first_line: int, fixed: bool) -> tuple[str, int]:
    name, args = m.name, m.body.strip()
    if name == "#":
        return "", m.end
    if name in ("raw", "comment"):
        end = _end(text, name, m.end, scope)
        if end is None:
            scope.note(f"liquid {name}", "unresolved", line, f"{{% {name} %}} never closed: the rest kept as written")
            rest = text[m.end :]
            return hold(scope.held, rest) if name == "raw" else rest, len(text)
        inner = text[m.end : end[0]]
        if name == "comment":
            return "", end[1]
        scope.note("liquid raw", "converted", line)
        return hold(scope.held, inner), end[1]
    if name in ("highlight", "capture"):
        end = _end(text, name, m.end, scope)
        if end is None:
            scope.note(f"liquid {name}", "unresolved", line, f"{{% {name} %}} never closed")
            return "", m.end
        start_line = first_line if fixed else line + text.count("\n", m.start, m.end)
        inner = render(text[m.end : end[0]], scope, start_line, fixed)
        if name == "capture":
            scope.names[args.split()[0] if args else ""] = restore(inner, scope.held).strip()
            return "", end[1]
        scope.note("liquid highlight", "converted", line)
        lang = args.split()[0] if args else ""
        body = inner.strip("\n")
        return fenced(body, lang), end[1]
    if name == "assign":
        target, _, expr = args.partition("=")
        value = evaluate(expr, scope)
        if value is not None:
            scope.names[target.strip()] = value
        return "", m.end
    if name in ("for", "tablerow"):
        loop = re.match(r"(\w+)\s+in\s+(\S+)", args)
        if loop:
            scope.loops[loop.group(1)] = loop.group(2)
    if name in CONTROL or name.startswith("end"):
        if name in _OPENERS:
            scope.note(f"liquid {name}", "converted", line)
        return "", m.end
    rendered = scope.tag(name, args, line)
    if rendered is not None:
        return rendered, m.end
    has_end = _end(text, name, m.end, scope) is not None
    if scope.defined is not None and scope.defined(name) is False:
        kept = "its inner text kept" if has_end else "nothing kept"
        scope.note("liquid tag", "unresolved", line,
                   f"unknown Liquid tag {{% {name} %}}: not defined by Liquid, Jekyll or the site's plugins, {kept}")
        return "", m.end
    if has_end:
        scope.note("liquid tag", "converted", line, name)  # a plugin block: its text stays
        return "", m.end
    scope.note("liquid tag", "unresolved", line, f"{name}: rendered by a plugin alone")
    return "", m.end


def _end(text: str, name: str, start: int, scope: Scope) -> tuple[int, int] | None:
    """The closing tag of block ``name`` after ``start``; a search that failed is remembered,
    so a page of unclosed openers is searched once, not once per opener."""
    key = (id(text), name)
    if key in scope.no_end and start >= scope.no_end[key]:
        return None
    found = end_tag(text, start, name, "{%", "%}")
    if found is None:
        scope.no_end[key] = start
    return found


def _output(expr: str, scope: Scope, line: int) -> str:
    value = evaluate(expr, scope)
    if value is None:
        head = re.split(r"[.\[|\s]", expr.strip(), maxsplit=1)[0]
        why = f": a variable of {{% for {head} in {scope.loops[head]} %}}, not evaluated" if head in scope.loops else ""
        scope.note("liquid output", "unresolved", line, expr.strip() + why)
        return ""
    if isinstance(value, (dict, list)):
        scope.note("liquid output", "unresolved", line, f"{expr.strip()}: a list or table, not text")
        return ""
    head = expr.split("|", 1)[0].strip()
    if not _QUOTED.match(head):
        scope.note("liquid output", "resolved", line, head)
    return str(value)


def split_filters(expr: str) -> list[str]:
    """``a | f: x, "y|z"`` -> ``["a", "f: x, \"y|z\""]``: pipes inside quotes are text.
    Without a quote every pipe splits, and ``str.split`` does that for the many outputs that are
    a variable alone (Jekyll's history page prints ``{{ site.repository }}`` 3,000 times)."""
    if '"' not in expr and "'" not in expr:
        return [part.strip() for part in expr.split("|")]
    parts, current, quote = [], [], ""
    for ch in expr:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "|":
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts


def evaluate(expr: str, scope: Scope) -> object:
    """An output expression's value with its simple filters applied; None when the variable is
    unknown. An unknown filter leaves the value as it was: it is still the closest text."""
    head, *filters = split_filters(expr)
    value = scope.value(head)
    for spec in filters:
        name, _, raw_args = spec.partition(":")
        args = [scope.value(a) for a in _args(raw_args)]
        value = _filter(name.strip(), value, args, scope)
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _args(raw: str) -> list[str]:
    return [a for a in re.findall(r"""\s*("[^"]*"|'[^']*'|[^,]+)\s*,?""", raw) if a.strip()]


def _filter(name: str, value: object, args: list, scope: Scope) -> object:
    if name == "default":
        return (args[0] if args else "") if value in (None, "", False, [], {}) else value
    if value is None:
        return None
    if isinstance(value, list) and name in _LIST_FILTERS:
        return _LIST_FILTERS[name](value, args)
    text = value if isinstance(value, str) else None
    first = "" if not args or args[0] is None else str(args[0])
    if name in ("relative_url", "absolute_url") and text is not None:
        base = str(scope.lookup("site.baseurl") or "").rstrip("/")
        path = text if text.startswith(("/", "#", "?")) or "://" in text else "/" + text
        if "://" in text:
            return text
        url = base + path
        return (str(scope.lookup("site.url") or "").rstrip("/") + url) if name == "absolute_url" else url
    if text is None:
        return value
    simple = {
        "prepend": lambda: first + text, "append": lambda: text + first,
        "upcase": text.upper, "downcase": text.lower, "capitalize": lambda: text[:1].upper() + text[1:],
        "strip": text.strip, "lstrip": text.lstrip, "rstrip": text.rstrip,
        "escape": lambda: text, "xml_escape": lambda: text, "escape_once": lambda: html.unescape(text),
        "strip_html": lambda: strip_html(text), "strip_newlines": lambda: text.replace("\n", ""),
        "replace": lambda: text.replace(first, "" if len(args) < 2 or args[1] is None else str(args[1])),
        "remove": lambda: text.replace(first, ""),
    }
    return simple[name]() if name in simple else value


def _where(items: list, args: list) -> list:
    """Jekyll's ``where: "key", "value"``: the items whose ``key`` reads as ``value`` (Jekyll
    compares them as strings: ``version: 2.7`` is found by "2.7")."""
    if len(args) < 2 or args[0] is None:
        return []
    key, wanted = str(args[0]), "" if args[1] is None else str(args[1])
    return [item for item in items if isinstance(item, dict) and _text(item.get(key)) == wanted]


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


# What a release page asks of a data list: ``site.data.releases | where: "version", "3.2.0" | first``.
_LIST_FILTERS = {
    "where": _where,
    "first": lambda items, args: items[0] if items else None,
    "last": lambda items, args: items[-1] if items else None,
    "size": lambda items, args: str(len(items)),
}


def strip_html(text: str) -> str:
    """Liquid's ``strip_html``: each ``<`` through the next ``>`` removed. A find loop: with no
    ``>`` left, no later ``<`` can close either, where a pattern rescanned to the end from each."""
    out, at = [], 0
    while (start := text.find("<", at)) >= 0:
        end = text.find(">", start + 1)
        if end < 0:
            break
        out.append(text[at:start])
        at = end + 1
    return "".join(out) + text[at:]
