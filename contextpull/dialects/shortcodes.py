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

# An escaped call, shown literally: {{</* x */>}} -> {{< x >}}.
_ESCAPED = re.compile(r"\{\{([<%])/\*(.*?)\*/([>%])\}\}", re.S)
# A call or a closing tag; arguments may span lines and hold quoted ">}}".
_CALL = re.compile(
    r"\{\{([<%])-?\s*(/)?\s*([A-Za-z_][\w./-]*)((?:\"(?:[^\"\\]|\\.)*\"|`[^`]*`|[^\"`])*?)\s*(/)?\s*-?([>%])\}\}",
    re.S,
)
_ARG = re.compile(r"(?:([A-Za-z_][\w-]*)=)?(\"(?:[^\"\\]|\\.)*\"|`[^`]*`|'[^']*'|\S+)")
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

    def arg(self, name: str, position: int | None = None, default: str = "") -> str:
        """A named argument, else the positional one at ``position``."""
        if name in self.named:
            return self.named[name]
        if position is not None and position < len(self.positional):
            return self.positional[position]
        return default


def protect(text: str, held: list[str]) -> str:
    """``text`` with each escaped call replaced by a placeholder; ``held`` gets the literal text
    the page shows for it."""
    if "/*" not in text:
        return text

    def hold(m: re.Match) -> str:
        held.append("{{" + m.group(1) + m.group(2) + m.group(3) + "}}")
        return _HOLD.format(len(held) - 1)

    return _ESCAPED.sub(hold, text)


def restore(text: str, held: list[str]) -> str:
    """Placeholders back to the literal calls they stand for."""
    if not held:
        return text
    return _HELD.sub(lambda m: held[int(m.group(1))], text)


def parse_args(raw: str) -> tuple[tuple[str, ...], dict]:
    """Positional and named arguments; quotes go, as Hugo's parser drops them."""
    positional: list[str] = []
    named: dict = {}
    for m in _ARG.finditer(raw):
        value = m.group(2)
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"`'":
            value = value[1:-1]
            if m.group(2)[0] == '"':
                value = value.replace('\\"', '"')
        if m.group(1):
            named[m.group(1)] = value
        else:
            positional.append(value)
    return tuple(positional), named


def calls(text: str) -> list[Call]:
    """The outermost calls of ``text`` in order, each paired with its closing tag when one
    follows (nesting of the same name counted). Closing tags with no opener are calls named
    ``/name`` so the caller can drop them."""
    tokens = []
    for m in _CALL.finditer(text):
        if {"<": ">", "%": "%"}[m.group(1)] != m.group(6):
            continue
        tokens.append(m)
    out: list[Call] = []
    k = 0
    while k < len(tokens):
        m = tokens[k]
        name = m.group(3)
        if m.group(2):
            out.append(Call("/" + name, (), {}, m.group(1) == "%", m.start(), m.end(), None))
            k += 1
            continue
        positional, named = parse_args(m.group(4))
        markdown = m.group(1) == "%"
        close = None if m.group(5) else _closing(tokens, k, name)
        if close is None:
            out.append(Call(name, positional, named, markdown, m.start(), m.end(), None))
            k += 1
            continue
        closer = tokens[close]
        inner = text[m.end() : closer.start()]
        out.append(Call(name, positional, named, markdown, m.start(), closer.end(), inner))
        k = close + 1
    return out


def _closing(tokens: list, k: int, name: str) -> int | None:
    depth = 0
    for j in range(k + 1, len(tokens)):
        t = tokens[j]
        if t.group(3) != name:
            continue
        if t.group(2):
            if depth == 0:
                return j
            depth -= 1
        elif not t.group(5):
            depth += 1
    return None
