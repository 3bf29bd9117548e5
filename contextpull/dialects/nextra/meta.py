"""Nextra's ``_meta`` files read as data (issue 36): the titles the navigation gives the pages
and folders of one folder. A ``_meta.json`` is JSON; a ``_meta.{js,jsx,ts,tsx}`` is JavaScript,
which is never run: its default export is read only when it is a literal object, written in the
file (``export default {...}``) or named there (``const meta = {...}; export default meta``).

The scanner reads that object with a stack of open brackets, one pass, each character looked at
a bounded number of times: keys are names, strings or numbers; a value is a string (a template
literal without ``${}``), a number, ``true``/``false``/``null``, an array or an object of the
same; anything else (JSX such as ``title: <b>New</b>``, a call, a variable) is not data, and the
scanner steps over it to the next ``,`` or ``}`` at its own depth, so that key alone is lost.
A file with no literal default export, or one that ends inside it, gives a ``MetaError`` the
page's report names. A title is a key's string value, or the ``title`` string of its object.
"""

from __future__ import annotations

import json
import re

MAX_DEPTH = 32


class MetaError(ValueError):
    """A ``_meta`` file that gives no titles, with why."""


_DEFAULT = re.compile(r"\bexport\s+default\s+")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_STRINGS = {q: re.compile(q + r"((?:[^" + q + r"\\\n]|\\.)*)" + q) for q in "\"'"}
_TEMPLATE = re.compile(r"`([^`$\\]*)`")
_SKIP_STOP = re.compile(r"""[,{}\[\]()"'`]|/[/*]""")
_ESCAPES = re.compile(r"\\(.)")


def titles(text: str, name: str) -> dict[str, str]:
    """{key: title} of one ``_meta`` file's text; ``name`` says JSON or JavaScript."""
    if name.endswith(".json"):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise MetaError(f"malformed JSON: {exc}") from None
    else:
        data = read_default_object(text)
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
        return _Scanner(text).object_at(i)
    ident = _IDENT.match(text, i)
    if ident is None:
        raise MetaError("export default is not a literal object")
    binding = re.search(r"\b(?:const|let|var)\s+" + re.escape(ident.group(0)) + r"\b\s*(?::[^=\n]*)?=\s*", text)
    if binding is None or not text.startswith("{", binding.end()):
        raise MetaError(f"export default {ident.group(0)} is not a literal object in the file")
    return _Scanner(text).object_at(binding.end())


def literal_array(source: str) -> list | None:
    """A JavaScript array literal (a component's ``items={[...]}``) as data; None when it is not
    one, or holds a value that is not data."""
    start = _SPACE.match(source).end()
    if not source.startswith("[", start):
        return None
    try:
        values, end = _Scanner(source, strict=True).array_at(start, 0)
    except (MetaError, RecursionError):
        return None
    return values if _SPACE.match(source, end).end() == len(source) else None


class _Scanner:
    """One literal object (module docstring); ``object_at(i)`` with ``text[i] == "{"``."""

    def __init__(self, text: str, strict: bool = False):
        self.text = text
        self.strict = strict  # a value that is not data fails the whole literal

    def space(self, i: int) -> int:
        return _SPACE.match(self.text, i).end()

    def object_at(self, i: int, depth: int = 0) -> dict:
        if depth > MAX_DEPTH:
            raise MetaError(f"nested deeper than {MAX_DEPTH}")
        text, out = self.text, {}
        i = self.space(i + 1)
        while True:
            if i >= len(text):
                raise MetaError("ends inside its default export")
            if text[i] == "}":
                self.end = i + 1
                return out
            if text.startswith("...", i):  # a spread: not data, the keys written beside it are
                i = self.space(self.skip(i + 3))
                if text.startswith(",", i):
                    i = self.space(i + 1)
                continue
            key, i = self.key(i)
            i = self.space(i)
            if not text.startswith(":", i):
                raise MetaError(f"key {key!r} has no value")
            value, i = self.value(self.space(i + 1), depth)
            if value is not _NOT_DATA:
                out[key] = value
            i = self.space(i)
            if text.startswith(",", i):
                i = self.space(i + 1)
            elif i >= len(text):
                raise MetaError("ends inside its default export")
            elif not text.startswith("}", i):
                raise MetaError(f"unexpected {text[i:i + 10]!r} after key {key!r}")

    def key(self, i: int) -> tuple[str, int]:
        text = self.text
        c = text[i]
        if c in "\"'":
            m = _STRINGS[c].match(text, i)
            if m:
                return _unescape(m.group(1)), m.end()
        m = _IDENT.match(text, i) or _NUMBER.match(text, i)
        if m is None:
            raise MetaError(f"unexpected {text[i:i + 10]!r} where a key stands")
        return m.group(0), m.end()

    def value(self, i: int, depth: int):
        text = self.text
        if i >= len(text):
            raise MetaError("ends inside its default export")
        c = text[i]
        if c == "{":
            value = self.object_at(i, depth + 1)
            return value, self.end
        if c == "[":
            return self.array_at(i, depth + 1)
        if c in "\"'":
            m = _STRINGS[c].match(text, i)
            if m:
                return _unescape(m.group(1)), m.end()
        if c == "`":
            m = _TEMPLATE.match(text, i)
            if m:
                return m.group(1), m.end()
        for word, value in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, i) and not _IDENT.match(text, i + len(word)):
                return value, i + len(word)
        m = _NUMBER.match(text, i)
        if m and not _IDENT.match(text, m.end()):
            return float(m.group(0)), m.end()
        if self.strict:
            raise MetaError("a value that is not data")
        return _NOT_DATA, self.skip(i)

    def array_at(self, i: int, depth: int) -> tuple[list, int]:
        if depth > MAX_DEPTH:
            raise MetaError(f"nested deeper than {MAX_DEPTH}")
        text, out = self.text, []
        i = self.space(i + 1)
        while True:
            if i >= len(text):
                raise MetaError("ends inside its default export")
            if text[i] == "]":
                return out, i + 1
            value, i = self.value(i, depth)
            if value is not _NOT_DATA:
                out.append(value)
            i = self.space(i)
            if text.startswith(",", i):
                i = self.space(i + 1)
            elif i >= len(text):
                raise MetaError("ends inside its default export")
            elif not text.startswith("]", i):
                raise MetaError(f"unexpected {text[i:i + 10]!r} in an array")

    def skip(self, i: int) -> int:
        """The index of the ``,``, ``}`` or ``]`` that ends a value which is not data, at its own
        depth: brackets are counted, strings and comments stepped over, once each."""
        text, depth = self.text, 0
        while True:
            m = _SKIP_STOP.search(text, i)
            if m is None:
                raise MetaError("ends inside its default export")
            j, c = m.start(), m.group(0)
            if c in ",}]" and depth == 0:
                return j
            if c in "{[(":
                depth += 1
            elif c in "}])":
                depth -= 1
            if c in "\"'":
                s = _STRINGS[c].match(text, j)
                i = s.end() if s else j + 1
            elif c == "`":
                end = text.find("`", j + 1)
                i = end + 1 if end > 0 else len(text)
            elif c == "//":
                end = text.find("\n", j)
                i = end if end > 0 else len(text)
            elif c == "/*":
                end = text.find("*/", j + 2)
                i = end + 2 if end > 0 else len(text)
            else:
                i = j + 1


_NOT_DATA = object()


def _unescape(s: str) -> str:
    return _ESCAPES.sub(lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s) if "\\" in s else s
