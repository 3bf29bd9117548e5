"""JavaScript literals and JSONC read as data, never run (issue 35, "each mechanism exists
once"): the one reader behind Nextra's ``_meta.{js,ts}`` default export (``nextra.meta``), a
component's ``items={[...]}`` (``nextra.components``) and the ``tsconfig.json``/``jsconfig.json``
a site's import aliases come from (``mdx.import_paths``; JSON with comments and trailing commas); and where a module's nested
objects are (``property_objects``), so that a VitePress setting is found as the configuration's
own key and not a plugin's option of the same name (``vitepress.site_config``).

The scanner reads one literal with a stack of open brackets, one pass, each character looked at
a bounded number of times, nested at most ``MAX_DEPTH`` deep: keys are names, strings or
numbers; a value is a string (a template literal without ``${}``), a number, ``true``/``false``/
``null``, an array or an object of the same; ``//`` and ``/* */`` comments and a comma before a
closing bracket are allowed wherever JavaScript allows them. Anything else (JSX such as
``title: <b>New</b>``, a call, a variable) is not data: a lenient reading steps over it to the
next ``,`` or ``}`` at its own depth, so that key alone is lost; a strict one (JSONC, an
``items`` array) fails. A literal that ends early is a ``LiteralError`` saying so.
"""

from __future__ import annotations

import re

MAX_DEPTH = 32


class LiteralError(ValueError):
    """A literal that cannot be read as data, with why."""


IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_STRINGS = {q: re.compile(q + r"((?:[^" + q + r"\\\n]|\\.)*)" + q) for q in "\"'"}
_TEMPLATE = re.compile(r"`([^`$\\]*)`")
_SKIP_STOP = re.compile(r"""[,{}\[\]()"'`]|/[/*]""")
_ESCAPES = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)")
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}


def space_end(text: str, i: int) -> int:
    """The index after the whitespace and comments at ``i``."""
    return _SPACE.match(text, i).end()


def object_at(text: str, i: int, within: str) -> dict:
    """The literal object at ``text[i] == "{"``, lenient; ``within`` names it in errors."""
    return _Scanner(text, within=within).object_at(i)


def array_at(text: str, i: int, within: str) -> list:
    """The literal array at ``text[i] == "["``, lenient; ``within`` names it in errors."""
    return _Scanner(text, within=within).array_at(i, 0)[0]


def literal_array(source: str) -> list | None:
    """A JavaScript array literal (a component's ``items={[...]}``) as data; None when it is not
    one, or holds a value that is not data."""
    start = space_end(source, 0)
    if not source.startswith("[", start):
        return None
    try:
        values, end = _Scanner(source, strict=True).array_at(start, 0)
    except (LiteralError, RecursionError):
        return None
    return values if space_end(source, end) == len(source) else None


def jsonc(text: str) -> object:
    """A JSONC document (JSON with comments and trailing commas: ``tsconfig.json``) as data,
    strict; ``LiteralError`` says what is malformed."""
    scanner = _Scanner(text, strict=True, within="the document")
    start = space_end(text, 0)
    if start >= len(text):
        raise LiteralError("is empty")
    value, end = scanner.value(start, 0)
    if space_end(text, end) != len(text):
        raise LiteralError(f"unexpected {text[end:end + 10]!r} after the value")
    return value


# One token of a module's text for ``property_objects``: a string, template or comment (each may
# run unclosed to the end, so no token is ever tried twice), a brace, a run of other code.
_MODULE_TOKEN = re.compile(r"""'(?:[^'\\\n]|\\.)*'?|"(?:[^"\\\n]|\\.)*"?|`(?:[^`\\]|\\.)*`?"""
                           r"""|//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)|[{}]|\s+|[^\s'"`/{}]+|/""")


def property_objects(text: str) -> list[tuple[int, int]]:
    """The spans of the outermost object literals in a module's ``text`` that are a property's
    value (``pwa: { srcDir: '.vitepress/' }``), in order: a setting found by a search of the text
    belongs to the configuration only outside them, where the key is the configuration's own
    and not a plugin's option of the same name. One pass; an object never closed runs to the end."""
    spans: list[tuple[int, int]] = []
    stack: list[bool] = []  # per open brace: is it, or an object around it, a property's value
    start = 0
    last = ""  # the last character of code before this token (comments and blanks left out)
    for m in _MODULE_TOKEN.finditer(text):
        token = m.group()
        inside = bool(stack) and stack[-1]
        if token == "{":
            if last == ":" and not inside:
                start = m.start()
            stack.append(inside or last == ":")
        elif token == "}":
            if inside and not (len(stack) > 1 and stack[-2]):
                spans.append((start, m.end()))
            if stack:
                stack.pop()
        elif token.isspace() or token.startswith(("//", "/*")):
            continue
        last = token[-1]
    if stack and stack[-1]:
        spans.append((start, len(text)))
    return spans


class _Scanner:
    """One literal (module docstring); ``object_at(i)`` with ``text[i] == "{"``."""

    def __init__(self, text: str, strict: bool = False, within: str = "the literal"):
        self.text = text
        self.strict = strict  # a value that is not data fails the whole literal
        self.within = within

    def space(self, i: int) -> int:
        return _SPACE.match(self.text, i).end()

    def early_end(self) -> LiteralError:
        return LiteralError(f"ends inside {self.within}")

    def object_at(self, i: int, depth: int = 0) -> dict:
        if depth > MAX_DEPTH:
            raise LiteralError(f"nested deeper than {MAX_DEPTH}")
        text, out = self.text, {}
        i = self.space(i + 1)
        while True:
            if i >= len(text):
                raise self.early_end()
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
                raise LiteralError(f"key {key!r} has no value")
            value, i = self.value(self.space(i + 1), depth)
            if value is not _NOT_DATA:
                out[key] = value
            i = self.after_item(i, "}", f"after key {key!r}")

    def after_item(self, i: int, closer: str, where: str) -> int:
        """Past the comma after an object's or an array's item, or at its ``closer``; anything
        else ends the literal with an error saying ``where``."""
        text = self.text
        i = self.space(i)
        if text.startswith(",", i):
            return self.space(i + 1)
        if i >= len(text):
            raise self.early_end()
        if not text.startswith(closer, i):
            raise LiteralError(f"unexpected {text[i:i + 10]!r} {where}")
        return i

    def key(self, i: int) -> tuple[str, int]:
        text = self.text
        c = text[i]
        if c in "\"'":
            m = _STRINGS[c].match(text, i)
            if m:
                return _unescape(m.group(1)), m.end()
        m = IDENT.match(text, i) or _NUMBER.match(text, i)
        if m is None:
            raise LiteralError(f"unexpected {text[i:i + 10]!r} where a key stands")
        return m.group(0), m.end()

    def value(self, i: int, depth: int):
        text = self.text
        if i >= len(text):
            raise self.early_end()
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
            if text.startswith(word, i) and not IDENT.match(text, i + len(word)):
                return value, i + len(word)
        m = _NUMBER.match(text, i)
        if m and not IDENT.match(text, m.end()):
            return float(m.group(0)), m.end()
        if self.strict:
            raise LiteralError(f"unexpected {text[i:i + 10]!r} where a value stands")
        return _NOT_DATA, self.skip(i)

    def array_at(self, i: int, depth: int) -> tuple[list, int]:
        if depth > MAX_DEPTH:
            raise LiteralError(f"nested deeper than {MAX_DEPTH}")
        text, out = self.text, []
        i = self.space(i + 1)
        while True:
            if i >= len(text):
                raise self.early_end()
            if text[i] == "]":
                return out, i + 1
            value, i = self.value(i, depth)
            if value is not _NOT_DATA:
                out.append(value)
            i = self.after_item(i, "]", "in an array")

    def skip(self, i: int) -> int:
        """The index of the ``,``, ``}`` or ``]`` that ends a value which is not data, at its own
        depth: brackets are counted, strings and comments stepped over, once each."""
        text, depth = self.text, 0
        while True:
            m = _SKIP_STOP.search(text, i)
            if m is None:
                raise self.early_end()
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
    """A string literal's text: JSON's and JavaScript's escapes (``\\n``, ``\\u00e9``); any
    other escaped character is itself, as JavaScript reads it."""
    if "\\" not in s:
        return s
    return _ESCAPES.sub(lambda m: chr(int(m.group(1)[1:], 16)) if len(m.group(1)) == 5
                        else _ESCAPED.get(m.group(1), m.group(1)), s)
