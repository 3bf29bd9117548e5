"""Liquid's filters as a Jekyll page's outputs use them: the simple text filters, ``relative_url``
and ``absolute_url`` from the site's configuration, and the list filters a release page asks of a
data list. A filter not here leaves the value as it was: it is still the closest text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable


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


def arguments(raw: str) -> list[str]:
    return [a for a in re.findall(r"""\s*("[^"]*"|'[^']*'|[^,]+)\s*,?""", raw) if a.strip()]


def apply(name: str, value: object, args: list, lookup: Callable[[str], object]) -> object:
    """Filter ``name`` applied to ``value`` with its evaluated ``args``; ``lookup`` reads the
    site's variables (``site.baseurl``, ``site.url``)."""
    if name == "default":
        return (args[0] if args else "") if value in (None, "", False, [], {}) else value
    if value is None:
        return None
    if isinstance(value, list) and name in _LIST_FILTERS:
        return _LIST_FILTERS[name](value, args)
    text = value if isinstance(value, str) else None
    first = "" if not args or args[0] is None else str(args[0])
    if name in ("relative_url", "absolute_url") and text is not None:
        base = str(lookup("site.baseurl") or "").rstrip("/")
        path = text if text.startswith(("/", "#", "?")) or "://" in text else "/" + text
        if "://" in text:
            return text
        url = base + path
        return (str(lookup("site.url") or "").rstrip("/") + url) if name == "absolute_url" else url
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
        "split": lambda: text.split(first) if first else list(text),  # a list: a loop's items
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
