"""A page too large for docutils, read line by line into Markdown (issue 34, the size rule).

Why a second reader: docutils' time is linear in a page once it parses in windows
(``rst.chunks``), but its constant is large: about 8 s of CPU and 150 MB per MB of a page of
short sections with lists, tables, notes and code, so a 10 MB generated reference page would
take well over a minute and a gigabyte. Pages over ``DOCUTILS_LIMIT`` are read here instead, in
one pass: titles become headings at the depth of their adornment style (in the order the page
first uses them, as docutils does), code blocks (``code-block``, ``::``) become fences,
admonitions become "Label: body", targets, comments, substitution definitions and directives
that show no text are dropped, inline roles, literals and links become their text, and the
rest is handed to the Markdown parser as it stands. The page is named in the construct report,
so the user sees which page was read the simpler way and why.
"""

from __future__ import annotations

import re

from ...syntax.containers import MAX_NESTING, rst, rst_body
from ...syntax.fences import fenced
from ...syntax.labels import SPHINX_ADMONITIONS, VERSION_LABELS, sphinx_labelled, sphinx_title
from ..directive_names import TABS
from ...syntax.options import field
from ..role_text import display, escaped

# Characters of a page read by docutils; a larger one is read here.
DOCUTILS_LIMIT = 1024 * 1024

_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+\Z")
_EXPLICIT = re.compile(r"(\s*)\.\.(?:\s|\Z)")
# Each pattern tries a bounded amount at each place it may start, so a line costs time linear in
# its length: a role's name is at most 64 characters (``:py:meth:`` is 9), and a link's text is
# taken whole and its trailing blanks cut afterwards, not by a lazy group before ``\s*``, which
# retried the blanks at every step (0.25 s for one line of 9,000 spaces).
_ROLE = re.compile(r":([\w.:+-]{1,64}):`([^`]*)`")
# A role whose text runs onto the next line (``:ref:`(connect timeout,`` / ``read timeout) <t>```):
# the line break is a space inside it, so the line-by-line reading reads the role whole.
_ROLE_OVER_LINES = re.compile(r"(:[\w.:+-]{1,64}:`[^`\n]*)\n[ \t]*(?=[^`\n]*`)")
_LINK = re.compile(r"`([^`<]*)<[^<>`]*>`__?")
_REF = re.compile(r"`([^`]*)`__?")
_LITERAL = re.compile(r"``([^`]+)``")
_CODE = {"code-block", "code", "sourcecode", "highlight-block"}
_ADMONITIONS = {*SPHINX_ADMONITIONS, *VERSION_LABELS, "admonition", "todo"}
_SILENT = {"toctree", "image", "raw", "include", "literalinclude", "meta", "highlight", "index",
           "contents", "sectnum", "autosummary", "automodule", "autoclass", "autofunction",
           "automethod", "autodata", "autoattribute", "default-role", "role", "only-html", "figure"}


def to_markdown(text: str, config: dict | None = None, depth: int = 0, plain: bool = False) -> str:
    """The page as Markdown, in one pass over its lines (module docstring); ``config`` is the
    site's ``conf.py`` read as data, for what its roles show (``extlinks``,
    ``add_function_parentheses``). A directive's body is read by this same pass, ``depth``
    levels in (``_nested``); with ``plain`` (``--dialect plain``) each of its lines is its text,
    as this reader always read them."""
    config = config or {}
    if ":`" in text:
        text = _ROLE_OVER_LINES.sub(r"\1 ", text)
    lines = text.split("\n")
    out: list[str] = []
    styles: list[tuple[str, bool]] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < n else ""
        after = lines[i + 2] if i + 2 < n else ""
        if _ADORNMENT.match(line) and nxt.strip() and after.rstrip() == line.rstrip() and not nxt[:1].isspace():
            out.append(_heading(nxt.strip(), (line[0], True), styles, config))
            i += 3
            continue
        if line.strip() and not line[:1].isspace() and _ADORNMENT.match(nxt.rstrip()) and len(nxt.rstrip()) >= len(line.rstrip()) \
                and not _EXPLICIT.match(line):
            out.append(_heading(line.strip(), (nxt[0], False), styles, config))
            i += 2
            continue
        if _ADORNMENT.match(line.rstrip()) and len(line.rstrip()) >= 4 and not line[:1].isspace():
            i += 1  # a transition
            continue
        directive = rst(line)
        if directive is not None or _EXPLICIT.match(line):
            i = _explicit(lines, i, directive, out, config, MAX_NESTING if plain else depth)
            continue
        stripped = line.strip()
        if stripped.endswith("::") and not stripped.startswith(".."):
            out.append(_inline(line.lstrip()[:-2].rstrip() + (":" if stripped != "::" and not stripped.endswith(" ::") else ""), config))
            body, i = rst_body(lines, i + 1, _indent(line))
            while body and not body[0].strip() and not plain:  # the blank line after "::" is not code
                body.pop(0)
            if body:
                out += ["", *fenced("\n".join(body), "").split("\n"), ""]
            continue
        out.append(_inline(line.lstrip(), config))
        i += 1
    return "\n".join(out)


def _heading(title: str, style: tuple[str, bool], styles: list[tuple[str, bool]], config: dict) -> str:
    if style not in styles:
        styles.append(style)
    return "\n" + "#" * min(styles.index(style) + 1, 6) + " " + _inline(title, config) + "\n"


def _explicit(lines: list[str], i: int, directive, out: list[str], config: dict, depth: int) -> int:
    """Read the explicit markup at line ``i`` and its indented body; the next line's index."""
    indent = _indent(lines[i])
    body, end = rst_body(lines, i + 1, indent)
    if directive is None:
        return end  # a comment, target, footnote or substitution definition
    name, argument = directive.name.lower(), directive.title.strip()
    if name.startswith(("|",)) or name in _SILENT or name.startswith(("auto", "py:", "c:", "cpp:", "js:")):
        return end
    while body and field(body[0]) is not None:
        body.pop(0)
    while body and not body[0].strip():
        body.pop(0)
    if name in _CODE:
        out += ["", *fenced("\n".join(body), argument.split()[0] if argument else "").split("\n"), ""]
    elif name in _ADMONITIONS:
        if name in VERSION_LABELS:  # as rst.labelled reads it: "Added in version 2.0: ..."
            version, _, rest = argument.partition(" ")
            label, first = VERSION_LABELS[name].format(version), rest.strip()
        else:
            label = argument if name == "admonition" else sphinx_title(name)
            first = argument if name != "admonition" and argument else ""
        if depth >= MAX_NESTING:  # plain, or too deep: the body's lines as text
            text = [_inline(b.strip(), config) for b in body]
            out += ["", f"{label}: " + (_inline(first, config) if first else (text.pop(0) if text else "")), *text, ""]
        else:
            body = _nested(body, config, depth)
            out += ["", *sphinx_labelled(label, [_inline(first, config), *body] if first else body), ""]
    elif name in TABS and argument and depth < MAX_NESTING:  # its label, as ``rst.labelled`` reads it
        out += ["", *sphinx_labelled(_inline(argument, config), _nested(body, config, depth)), ""]
    else:
        out += ["", *_nested(body, config, depth), ""]
    return end


def _nested(body: list[str], config: dict, depth: int) -> list[str]:
    """A directive's body (dedented) read as a page is, so a ``code-block`` or a ``::`` block in
    a note or a tab is code (pytest's hook docstrings), not its lines stripped. Past
    ``MAX_NESTING`` levels each line is its text: each level reads its lines once more, so the
    bound keeps the time linear."""
    if depth >= MAX_NESTING:
        return [_inline(b.strip(), config) for b in body]
    return to_markdown("\n".join(body), config, depth + 1).strip("\n").split("\n")


def _role_text(match: re.Match, config: dict) -> str:
    """A role as the page shows it, by the rule docutils' and MyST's readings share
    (``role_text.display``: ``~a.b.C`` shows ``C``, ``:meth:`` adds parentheses), in code type
    where Sphinx sets it so."""
    shown, code = display(match.group(1), escaped(match.group(2)), config)
    return f"`{shown}`" if code and shown else shown


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _inline(text: str, config: dict) -> str:
    if ":`" in text:
        text = _ROLE.sub(lambda m: _role_text(m, config), text)
    text = _LITERAL.sub(r"`\1`", text)
    text = _LINK.sub(lambda m: m.group(1).rstrip(), text)
    return _REF.sub(lambda m: m.group(0) if m.group(0).startswith("``") else m.group(1), text)
