"""Hugo shortcode syntax read into values: calls, their arguments and their inner text (issue 26,
"Markup to meaning"; the Hugo dialect's template layer).

Hugo reads shortcodes on the raw page, fenced code included, so this works on raw text too. A call
is ``{{< name args >}}`` (inner text as written) or ``{{% name args %}}`` (inner text as Markdown),
closed by ``{{< /name >}}``, self-closed by ``/>}}``, or standing alone. Hugo knows from the
template whether a call takes inner text; a reader of the source does not, so a call with a
matching closing tag later in the text is paired and any other stands alone.

``{{</* name */>}}`` is Hugo's escape: the page shows ``{{< name >}}`` literally. Escapes are set
aside first (``protect``) and put back last (``restore``), so no later step reads them as calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..syntax.options import arguments
from ..syntax.template_tags import HUGO, Lexer, Tag, hold

_NAME = re.compile(r"[A-Za-z_][\w./-]*")
_CLOSE_MARK = {"<": ">", "%": "%"}


@dataclass(frozen=True)
class Call:
    """One shortcode call as written: where it stands, what it says, what it encloses."""

    name: str
    positional: tuple[str, ...]
    named: dict
    markdown: bool  # {{% %}}: the inner text is Markdown
    start: int  # offset of the opening tag
    end: int  # offset after the closing tag (or the opening one when it stands alone)
    inner: str | None  # None when the call stands alone or self-closes

    def arg(self, name: str, position: int | None = None) -> str:
        """A named argument, else the positional one at ``position``; "" when neither is given."""
        if name in self.named:
            return self.named[name]
        if position is not None and position < len(self.positional):
            return self.positional[position]
        return ""


def _scan(text: str):
    """Every ``{{< ... >}}`` and ``{{% ... %}}`` in order (``template_tags.HUGO``: an opener
    whose closer comes after another ``{{`` is not a tag)."""
    lexer = Lexer(text, HUGO)
    pos = 0
    while (tag := lexer.next(pos)) is not None:
        yield tag
        pos = tag.end


def _escaped(tag: Tag) -> bool:
    return tag.body.startswith("/*") and tag.body.endswith("*/") and len(tag.body) >= 4


def protect(text: str, held: list[str]) -> str:
    """``text`` with each escaped call replaced by a placeholder; ``held`` gets the literal text
    the page shows for it."""
    if "/*" not in text:
        return text
    parts: list[str] = []
    last = 0
    for tag in _scan(text):
        if not _escaped(tag):
            continue
        literal = "{{" + tag.kind + tag.body[2:-2] + _CLOSE_MARK[tag.kind] + "}}"
        parts += [text[last : tag.start], hold(held, literal)]
        last = tag.end
    parts.append(text[last:])
    return "".join(parts)


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    delim: str
    closing: bool  # {{< /name >}}
    name: str
    args: str
    self_closing: bool  # {{< name />}}


def token(tag: Tag) -> _Token | None:
    body = tag.body.strip()
    body = body[1:].lstrip() if body.startswith("-") else body  # {{<- trims whitespace in Hugo
    body = body[:-1].rstrip() if body.endswith("-") else body
    closing = body.startswith("/")
    if closing:
        body = body[1:].lstrip()
    m = _NAME.match(body)
    if m is None:
        return None
    rest = body[m.end() :]
    if rest and not rest[0].isspace() and rest[0] != "/":
        return None
    self_closing = rest.rstrip().endswith("/")
    args = rest.rstrip()[:-1] if self_closing else rest
    return _Token(tag.start, tag.end, tag.kind, closing, m.group(0), args, self_closing)


def parse_args(raw: str) -> tuple[tuple[str, ...], dict]:
    """Positional and named arguments; quotes go, as Hugo's parser drops them."""
    positional: list[str] = []
    named: dict = {}
    for argument in arguments(raw):
        if argument.name is not None:
            named[argument.name] = argument.value
        else:
            positional.append(argument.value)
    return tuple(positional), named


def calls(text: str) -> list[Call]:
    """The outermost calls of ``text`` in order, each paired with its closing tag when one
    follows (nesting of the same name counted). Closing tags with no opener are calls named
    ``/name`` so the caller can drop them."""
    tokens = [t for t in map(token, _scan(text)) if t is not None]
    pairs = _pairs(tokens)
    out: list[Call] = []
    k = 0
    while k < len(tokens):
        t = tokens[k]
        if t.closing:
            out.append(Call("/" + t.name, (), {}, t.delim == "%", t.start, t.end, None))
            k += 1
            continue
        positional, named = parse_args(t.args)
        close = pairs.get(k)
        if close is None:
            out.append(Call(t.name, positional, named, t.delim == "%", t.start, t.end, None))
            k += 1
            continue
        closer = tokens[close]
        inner = text[t.end : closer.start]
        out.append(Call(t.name, positional, named, t.delim == "%", t.start, closer.end, inner))
        k = close + 1
    return out


def _pairs(tokens: list[_Token]) -> dict[int, int]:
    """Opening token index -> its closing token index: a closing tag closes the nearest open
    call of its name (one stack per name, so the pairing is linear)."""
    open_calls: dict[str, list[int]] = {}
    pairs: dict[int, int] = {}
    for j, t in enumerate(tokens):
        if t.closing:
            stack = open_calls.get(t.name)
            if stack:
                pairs[stack.pop()] = j
        elif not t.self_closing:
            open_calls.setdefault(t.name, []).append(j)
    return pairs


def passed_on(body: str, call: Call) -> str:
    """A site's ``include`` that passes its arguments on (opentelemetry.io's: ``{{% include
    "exporters/outro.md" URL %}}``) prints each where the included text writes ``{{ $1 }}`` (the
    first position after the path) or ``{{ $name }}``; any other ``{{ ... }}`` stays as written.
    A closer found for one ``{{`` serves every later one before it, so the text is read once."""
    values = {str(i): v for i, v in enumerate(call.positional) if i} | dict(call.named)
    parts: list[str] = []
    last = at = 0
    shut = -1
    while (at := body.find("{{", at)) >= 0:
        if shut < at + 2:
            shut = body.find("}}", at + 2)
            if shut < 0:
                break
        name = body[at + 2 : shut].strip()
        if name.startswith("$") and name[1:] in values:
            parts += [body[last:at], values[name[1:]]]
            last = at = shut + 2
        else:
            at += 2
    return "".join(parts) + body[last:]
