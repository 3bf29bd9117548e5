"""Sphinx's ``literalinclude`` options as one ordered chain over an included file (issue 26).

The order is Sphinx's (``LiteralIncludeReader``, shared/style/dialects.md section 2): the Python
object first, then the start and end markers, then line numbers (counted in what is left), then
dedent, prepend and append. Conflicting options are refused before anything is cut, as Sphinx
refuses them, so a page never shows a slice its author did not ask for. Line ranges go through
``selection.lines_between``, the one range rule of every dialect. A plain ``include`` cuts
only at its two markers (``between_markers``), in rst and MyST alike.
"""

from __future__ import annotations

import ast
import textwrap

from ..selection import lines_between, whole

# Sphinx's ``LiteralIncludeReader.INVALID_OPTIONS_PAIR`` among the options read here. ``:pyobject:``
# with ``:lines:`` is no conflict: the lines count within the object (aiohttp's cookbook, ``2-``);
# ``--dialect plain`` still refuses the pair, as it always did.
_CONFLICTS = (("start-after", "start-at"), ("end-before", "end-at"))
_PLAIN_CONFLICTS = (*_CONFLICTS, ("pyobject", "lines"))


class LiteralIncludeError(ValueError):
    """Options the file cannot satisfy (a marker it lacks, an object it does not define)."""


def select_lines(text: str, options: dict, plain: bool = False) -> str:
    """The part of ``text`` that ``options`` (the directive's, as strings) select."""
    for a, b in _PLAIN_CONFLICTS if plain else _CONFLICTS:
        if a in options and b in options:
            raise LiteralIncludeError(f"cannot use both :{a}: and :{b}:")
    text = whole(text)
    if options.get("pyobject"):
        text = _pyobject(text, options["pyobject"].strip())
    text = _start(text, options)
    text = _end(text, options)
    if options.get("lines"):
        text = _lines(text, options["lines"])
    if "dedent" in options:
        text = dedent(text, options.get("dedent"))
    if options.get("prepend"):
        text = f"{options['prepend']}\n{text}"
    if options.get("append"):
        text = f"{text}\n{options['append']}"
    return text


def between_markers(text: str, after: str | None, before: str | None) -> str:
    """An ``include``'s ``:start-after:``/``:end-before:`` as docutils reads them: the text after
    the first ``after`` (nothing when it is absent), up to the first ``before`` (to the end when
    it is absent)."""
    if after:
        text = text.partition(after)[2]
    if before:
        text = text.partition(before)[0]
    return text


def _start(text: str, options: dict) -> str:
    for key, keep in (("start-after", False), ("start-at", True)):
        marker = options.get(key)
        if marker:
            lines = text.split("\n")
            for i, line in enumerate(lines):
                if marker in line:
                    return "\n".join(lines[i if keep else i + 1 :])
            raise LiteralIncludeError(f":{key}: {marker!r} not found")
    return text


def _end(text: str, options: dict) -> str:
    for key, keep in (("end-before", False), ("end-at", True)):
        marker = options.get(key)
        if marker:
            lines = text.split("\n")
            for i, line in enumerate(lines):
                if marker in line:
                    return "\n".join(lines[: i + 1 if keep else i])
            raise LiteralIncludeError(f":{key}: {marker!r} not found")
    return text


def _lines(text: str, spec: str) -> str:
    """Sphinx's ``1,3,5-10,20-``: ranges in order, each 1-based and inclusive."""
    parts = []
    for item in spec.replace(" ", "").split(","):
        if not item:
            continue
        first, dash, last = item.partition("-")
        try:
            start = int(first) if first else 1
            end = (int(last) if last else None) if dash else start
        except ValueError:
            raise LiteralIncludeError(f"invalid :lines: {spec!r}") from None
        if start < 1 or (end is not None and end < start):
            raise LiteralIncludeError(f"invalid :lines: {spec!r}")
        part = lines_between(text, start, end)
        if part or start <= text.count("\n") + 1:
            parts.append(part)
    if not parts:
        raise LiteralIncludeError(f":lines: {spec!r} selects nothing")
    return "\n".join(parts)


def dedent(text: str, value) -> str:
    """Sphinx's ``:dedent:``: a width cut off every line, or the common indent when empty."""
    if value in (None, ""):
        return textwrap.dedent(text)
    try:
        width = int(value)
    except ValueError:
        raise LiteralIncludeError(f"invalid :dedent: {value!r}") from None
    return "\n".join(line[width:] if not line[:width].strip() else line.lstrip()
                     for line in text.split("\n"))


def _pyobject(text: str, name: str) -> str:
    """The source of a class or function (``Class.method`` for a nested one), decorators
    included, found by parsing the file as Python: it is never imported or run."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise LiteralIncludeError(f":pyobject: {name}: the file is not Python") from None
    scope: list[ast.stmt] = tree.body
    found = None
    for part in name.split("."):
        found = next((n for n in scope if isinstance(n, (ast.ClassDef, ast.FunctionDef,
                      ast.AsyncFunctionDef)) and n.name == part), None)
        if found is None:
            raise LiteralIncludeError(f":pyobject: {name} not found")
        scope = found.body
    first = min([found.lineno] + [d.lineno for d in found.decorator_list])
    return lines_between(text, first, found.end_lineno)
