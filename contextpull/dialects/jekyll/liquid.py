"""Liquid, as a reader of a Jekyll page sees its result (issue 26, "Markup to meaning"; the Liquid
reference, shopify.github.io/liquid, and Jekyll's tags and filters).

Conditions are not evaluated. Tags are read one at a time on the raw page (fenced code included,
as Jekyll renders Liquid before Markdown): ``raw`` is unwrapped into literal text that nothing
later touches, ``comment`` goes, ``highlight`` becomes a fenced block, a ``for`` loop over a list
the page can read (``site.data``, front matter, an include's parameter) is written once per item
(``_loop``), other control tags (``if``, ``case``, a loop over what cannot be read, ...) go while
the text between them stays, ``assign`` and ``capture`` keep a value for later output. An output
``{{ x | f }}`` is looked up through ``Scope.lookup`` (the dialect's job) and the simple filters
applied (``liquid_filters``); one that cannot be resolved goes and is noted ``unresolved``:
the page shows a value there, a variable's name is not that value, and an agent quoting it would
present the name as a fact. The report names each one by line, so the author sees what was lost.
A tag no one defines (``Scope.defined``: Jekyll's build fails there) keeps the text between it
and its end tag and is noted ``unresolved`` too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..data.values import dotted
from ..syntax.fences import fenced
from ..syntax.template_tags import LIQUID, Lexer, end_tag, hold, restore
from .liquid_tokens import Token, Tokens, next_token
from .liquid_filters import apply, arguments, split_filters

CONTROL = frozenset("if elsif else endif unless endunless case when endcase for endfor break continue "
                    "tablerow endtablerow cycle increment decrement ifchanged endifchanged".split())
_OPENERS = frozenset("if unless case for tablerow".split())
_QUOTED = re.compile(r"""^(?:"([^"]*)"|'([^']*)')$""")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_PROPERTIES = frozenset(("size", "first", "last"))  # what Liquid reads of a list, not a key
_BRACKETED_KEY = re.compile(r"""\[\s*(?:["']([^"'\]]+)["']|(\d+))\s*\]""")  # site.data["a b"] -> site.data.a b, pair[0] -> pair.0


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
    budget: int = 0  # characters loops have read and written on this page (``LOOP_CHARS``)
    depth: int = 0  # loops being written, one inside the other (``LOOP_DEPTH``)
    blocks: dict = field(default_factory=dict)  # id(text) -> (text, its loops: ``_block``)
    tokens: dict = field(default_factory=dict)  # id(text) -> its tokens (``liquid_tokens.Tokens``)
    data: dict = field(default_factory=dict)  # the dialect's values read once per page (``site.data``)

    def value(self, expr: str) -> object:
        """A literal or a variable path's value, None when unknown."""
        expr = expr.strip()
        quoted = _QUOTED.match(expr)
        if quoted:
            return quoted.group(1) if quoted.group(1) is not None else quoted.group(2)
        if _NUMBER.fullmatch(expr):
            return expr
        path = _BRACKETED_KEY.sub(lambda k: "." + (k.group(1) or k.group(2)), expr) if "[" in expr else expr
        head = path.split(".", 1)[0]
        if head in self.names:
            if "." not in path:
                return self.names[head]
            base, rest = self.names[head], path.split(".", 1)[1]
            found = dotted(base, rest)
            if found is None and isinstance(base, (dict, list)) and rest.rsplit(".", 1)[-1] not in _PROPERTIES:
                return ""  # a key a known value lacks is nil, which Liquid writes as nothing
            return found
        return self.lookup(path)


def _tokens(text: str, scope: Scope) -> Tokens:
    """The text's tokens for this page: the entry holds the text, so its id names no other
    string while it lives (as ``_block``'s)."""
    entry = scope.tokens.get(id(text))
    if entry is None or entry.text is not text:
        entry = scope.tokens[id(text)] = Tokens(text)
    return entry


def render(text: str, scope: Scope, first_line: int, fixed_line: bool = False) -> str:
    """``text`` with its Liquid read as described above; raw text is held as placeholders until
    ``restore``."""
    if "{%" not in text and "{{" not in text:
        return text
    out: list[str] = []
    pos = 0
    tokens = _tokens(text, scope)
    while (tok := tokens.next(pos)) is not None:
        before = text[pos : tok.start]
        out.append(before.rstrip(" \t") if tok.trim_left else before)
        line = first_line if fixed_line else tokens.line(tok.start, first_line)
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


def _tag(text: str, m: Token, scope: Scope, line: int, first_line: int, fixed: bool) -> tuple[str, int]:
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
    if name == "for":
        written = _loop(text, m, scope, line, first_line, fixed)
        if written is not None:
            return written
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


# Characters the loops of one page may read and write, each item charged its body before it is
# written; past it a loop is read as if not evaluated (its text once). A loop writes its body once
# per item, so nested loops multiply: this keeps a page's work in proportion to this bound and to
# its own length, even for bodies that write nothing. Loops nest at most LOOP_DEPTH deep.
LOOP_CHARS = 1 << 20
LOOP_DEPTH = 8
_LOOP = re.compile(r"(\w+)\s+in\s+(\S+)((?:\s+(?:reversed|limit:\s*\S+|offset:\s*\S+))*)\s*$")


def _loop(text: str, m: Token, scope: Scope, line: int, first_line: int, fixed: bool) -> tuple[str, int] | None:
    """A ``for`` loop written as Jekyll writes it: its body once per item of a list (a mapping's
    items as ``[key, value]`` pairs), with the variable and ``forloop`` set, honouring
    ``reversed``, ``limit`` and ``offset``. None, and the loop is read as before, when the list
    cannot be read, the body holds ``else``, ``break`` or ``continue`` (their effect depends on
    conditions, which are not evaluated), or the page's loops have written ``LOOP_CHARS``."""
    found = _LOOP.match(m.body.strip())
    if found is None or scope.depth >= LOOP_DEPTH:
        return None
    var, source, params = found.groups()
    items = scope.value(source)
    if isinstance(items, dict):
        items = [[key, value] for key, value in items.items()]
    elif isinstance(items, str):  # Liquid's rule: nil (a key the item lacks) or "" is no item, a string one
        items = [items] if items else []
    if not isinstance(items, list):
        return None
    block = _block(text, m.end, scope)
    if block is None:
        return None
    body_end, end = block
    offset = re.search(r"offset:\s*(\S+)", params)
    limit = re.search(r"limit:\s*(\S+)", params)
    start = _count(scope.value(offset.group(1))) if offset else 0
    stop = _count(scope.value(limit.group(1))) if limit else len(items)
    if start is None or stop is None:
        return None  # a bound that cannot be read: which items show is not known
    items = items[start:start + stop]
    if "reversed" in params:
        items = items[::-1]
    body = text[m.end:body_end]
    body_line = first_line if fixed else line + text.count("\n", m.start, m.end)
    saved = {name: scope.names[name] for name in (var, "forloop") if name in scope.names}
    out: list[str] = []
    scope.depth += 1
    try:
        for i, item in enumerate(items):
            scope.budget += len(body) + 1
            if scope.budget > LOOP_CHARS:
                scope.note("liquid for", "unresolved", line,
                           f"{source}: past {LOOP_CHARS:,} characters of loops on the page, written once")
                return None
            scope.names[var] = item
            scope.names["forloop"] = {"index": i + 1, "index0": i, "rindex": len(items) - i,
                                      "rindex0": len(items) - i - 1, "first": i == 0,
                                      "last": i == len(items) - 1, "length": len(items)}
            out.append(render(body, scope, body_line, fixed))
            scope.budget += len(out[-1])
    finally:
        scope.depth -= 1
        for name in (var, "forloop"):
            scope.names.pop(name, None)
        scope.names.update(saved)
    scope.note("liquid for", "resolved", line, source)
    return "".join(out), end


def _count(value: object) -> int | None:
    return int(value) if isinstance(value, (int, str)) and str(value).isdigit() else None


def _block(text: str, start: int, scope: Scope) -> tuple[int, int] | None:
    """(where the body ends, where ``endfor`` ends) of the loop whose body starts at ``start``,
    or None (``_for_blocks``). A text's loops are matched once, in one pass, whatever the number
    of its openers; the entry holds the text, so its id names no other string while it lives."""
    entry = scope.blocks.get(id(text))
    if entry is None or entry[0] is not text:
        entry = scope.blocks[id(text)] = (text, _for_blocks(text))
    return entry[1].get(start)


def _for_blocks(text: str) -> dict[int, tuple[int, int] | None]:
    """Each ``for`` body's start -> (body end, ``endfor`` end), loops nested in it counted and
    ``raw`` and ``comment`` skipped; None for a loop that never closes, that holds its own
    ``else`` (one outside any ``if``, ``unless`` or ``case`` of its level), or ``break`` or
    ``continue`` (their effect depends on conditions, which are not evaluated).

    Not ``syntax/tag_blocks.TagWalk``, the paired-tag walk of Markdoc and GitBook: that walk reads
    tags outside code into a tree it renders, where Liquid runs before Markdown, over code too,
    and ``render`` needs only each loop's extent, found again for every item it writes."""
    found: dict[int, tuple[int, int] | None] = {}
    frames: list[list] = []  # per open loop: [body start, its if/unless/case depth, writable]
    lexer, pos = Lexer(text, LIQUID), 0
    while (tok := next_token(lexer, pos)) is not None:
        pos, name = tok.end, tok.name
        if name in ("raw", "comment"):
            closed = end_tag(text, tok.end, name, "{%", "%}")
            if closed is None:
                break
            pos = closed[1]
        elif name == "for":
            frames.append([tok.end, 0, True])
        elif not frames:
            continue
        elif name == "endfor":
            body, _, writable = frames.pop()
            found[body] = (tok.start, tok.end) if writable else None
        elif name in ("if", "unless", "case"):
            frames[-1][1] += 1
        elif name in ("endif", "endunless", "endcase"):
            frames[-1][1] -= 1
        elif name in ("break", "continue") or (name == "else" and frames[-1][1] <= 0):
            frames[-1][2] = False
    for body, _, _ in frames:
        found[body] = None
    return found


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


def evaluate(expr: str, scope: Scope) -> object:
    """An output expression's value with its simple filters applied; None when the variable is
    unknown. An unknown filter leaves the value as it was: it is still the closest text."""
    head, *filters = split_filters(expr)
    value = scope.value(head)
    for spec in filters:
        name, _, raw_args = spec.partition(":")
        args = [scope.value(a) for a in arguments(raw_args)]
        value = apply(name.strip(), value, args, scope.lookup)
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
