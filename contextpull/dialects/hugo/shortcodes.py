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

# A call's text between its delimiters longer than this is not a call (real ones are a line or
# a few): it bounds the work one unclosed "{{<" can cause.
MAX_TAG_CHARS = 10_000
_NAME = re.compile(r"[A-Za-z_][\w./-]*")
_CLOSERS = {"<": ">}}", "%": "%}}"}
# Private-use characters: never in a page's source, so a placeholder cannot collide with text.
_HOLD = "\ue000{}\ue001"
_HELD = re.compile("\ue000(\\d+)\ue001")


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


@dataclass(frozen=True)
class _Tag:
    start: int
    end: int
    delim: str  # "<" or "%"
    body: str  # the text between "{{<" and ">}}"


def _scan(text: str):
    """Every ``{{< ... >}}`` and ``{{% ... %}}`` in order, found with ``str.find`` so that the
    work stays linear in the text whatever it holds: an opener whose closer comes after another
    opener is not a tag, and once a closer is absent no later opener of its kind is tried."""
    pos = 0
    exhausted: set[str] = set()
    while True:
        i = text.find("{{", pos)
        if i == -1 or i + 2 >= len(text):
            return
        delim = text[i + 2]
        if delim not in _CLOSERS or delim in exhausted:
            pos = i + 2
            continue
        j = text.find(_CLOSERS[delim], i + 3)
        if j == -1:
            exhausted.add(delim)
            pos = i + 3
            continue
        again = text.find("{{", i + 3, j)
        if again != -1 or j - i > MAX_TAG_CHARS:
            pos = again if again != -1 else i + 3
            continue
        yield _Tag(i, j + 3, delim, text[i + 3 : j])
        pos = j + 3


def _escaped(tag: _Tag) -> bool:
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
        held.append("{{" + tag.delim + tag.body[2:-2] + _CLOSERS[tag.delim][0] + "}}")
        parts += [text[last : tag.start], _HOLD.format(len(held) - 1)]
        last = tag.end
    parts.append(text[last:])
    return "".join(parts)


def restore(text: str, held: list[str]) -> str:
    """Placeholders back to the literal calls they stand for."""
    if not held:
        return text
    return _HELD.sub(lambda m: held[int(m.group(1))], text)


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    delim: str
    closing: bool  # {{< /name >}}
    name: str
    args: str
    self_closing: bool  # {{< name />}}


def _token(tag: _Tag) -> _Token | None:
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
    return _Token(tag.start, tag.end, tag.delim, closing, m.group(0), args, self_closing)


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
    tokens = [t for t in map(_token, _scan(text)) if t is not None]
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
