"""Nextra's ``_meta`` files read as data (issue 36): the titles the navigation gives the pages
and folders of one folder. A ``_meta.json`` is JSON; a ``_meta.{js,jsx,ts,tsx}`` is JavaScript,
which is never run: its default export is read only when it is a literal object, written in the
file (``export default {...}``) or named there (``const meta = {...}; export default meta``).

The object is read by the shared literal reader (``data.js_literal``), leniently: a value that
is not data (JSX such as ``title: <b>New</b>``, a call, a variable) loses that key alone. A file
with no literal default export, or one that ends inside it, gives a ``MetaError`` the page's
report names. A title is a key's string value, or the ``title`` string of its object.
"""

from __future__ import annotations

import json
import re

from ..data.js_literal import IDENT, LiteralError, object_at


class MetaError(ValueError):
    """A ``_meta`` file that gives no titles, with why."""


_DEFAULT = re.compile(r"\bexport\s+default\s+")
WITHIN = "its default export"


def titles(text: str, name: str) -> dict[str, str]:
    """{key: title} of one ``_meta`` file's text; ``name`` says JSON or JavaScript."""
    if name.endswith(".json"):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise MetaError(f"malformed JSON: {exc}") from None
    else:
        try:
            data = read_default_object(text)
        except LiteralError as exc:
            raise MetaError(str(exc)) from None
    if not isinstance(data, dict):
        raise MetaError("is not an object of pages")
    out = {}
    for key, value in data.items():
        title = value.get("title") if isinstance(value, dict) else value
        if isinstance(title, str) and title.strip():
            out[str(key)] = " ".join(title.split())
    return out


def read_default_object(text: str) -> dict:
    """The default export of JavaScript source as data (module docstring)."""
    m = _DEFAULT.search(text)
    if m is None:
        raise MetaError("has no export default")
    i = m.end()
    if text.startswith("{", i):
        return object_at(text, i, WITHIN)
    ident = IDENT.match(text, i)
    if ident is None:
        raise MetaError("export default is not a literal object")
    binding = re.search(r"\b(?:const|let|var)\s+" + re.escape(ident.group(0)) + r"\b\s*(?::[^=\n]*)?=\s*", text)
    if binding is None or not text.startswith("{", binding.end()):
        raise MetaError(f"export default {ident.group(0)} is not a literal object in the file")
    return object_at(text, binding.end(), WITHIN)
