"""The line scan behind the site's label table (issue 26, "Markup to meaning"; ``labels.py``):
the labels one ``.rst`` or MyST ``.md`` document defines and what a ref to each shows.

A scan, not a parse, so a site's whole source costs one cheap pass: ``.. _label:`` and the
``:name:`` option (rst), ``(label)=`` and a directive's ``:name:`` (MyST, ``eval-rst`` bodies as
rst), each with the element that follows it, as Sphinx's standard domain reads it: a section
title, a figure's caption, a table's or captioned code block's title, a rubric; anything else
shows nothing (Sphinx's "undefined label" for a ref without a title of its own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ....scan.inline_links import links_as_text
from ...syntax.containers import Opener, myst, myst_close, rst
from ...syntax.options import fields
from .doc_titles import ADORNMENT, code_as_text, plain_title

_RST_TARGET = re.compile(r"^(\s*)\.\.\s+_(?:`(?P<quoted>[^`]+)`|(?P<name>[^`_\s].*?)):\s*$")
_RST_FIELD = re.compile(r"^\s*:((?:[^:`\\]|\\.)+):(?:\s|$)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+\u2022\u2023\u2043]|\(?(?:\d+|[a-zA-Z]|#)[.)])(?:\s|$)")
_MYST_TARGET = re.compile(r"^\s{0,3}\(([^()\s][^()]*)\)=\s*$")
_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)(?:\s+#+)?\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_MYST_ROLE = re.compile(r"\{[\w:.+-]+\}`([^`]*?)(?:\s*<[^`]*>)?`")

# Directives whose label shows a caption or title (Sphinx's enumerable nodes, and rubric).
_CAPTION_OPTION = ("code-block", "code", "sourcecode", "literalinclude")
_TITLE_ARGUMENT = ("table", "list-table", "csv-table", "rubric")


@dataclass(frozen=True)
class Label:
    """Where one label stands and what a ref to it shows (None: nothing, "undefined label")."""

    path: str  # repository path of the document that defines it
    line: int  # 1-based
    title: str | None  # as the link shows it: plain text (Sphinx's ``clean_astext``), no code type


def normalize(name: str) -> str:
    """A label as Sphinx looks it up: docutils' ``fully_normalize_name``."""
    return " ".join(name.lower().split())


def scan(text: str, path: str) -> list[tuple[str, Label]]:
    """The labels one document defines, in order; MyST when ``path`` is ``.md``."""
    lines = text.split("\n")
    if path.endswith(".md"):
        return _scan_myst(lines, path)
    return _scan_rst(lines, path)


def _scan_rst(lines: list[str], path: str) -> list[tuple[str, Label]]:
    out: list[tuple[str, Label]] = []
    pending: list[tuple[str, int]] = []
    for i, line in enumerate(lines):
        target = _RST_TARGET.match(line) if ".. _" in line else None
        if target is not None:
            name = target.group("quoted") or target.group("name").replace("\\:", ":")
            pending.append((normalize(name), i + 1))
            continue
        if not line.strip():
            continue
        directive = rst(line)
        if pending:
            if directive is not None:
                title = _directive_title(lines, i, directive)
            else:
                title = _rst_title(lines, i) or _first_term(lines, i)
            out.extend((name, Label(path, number, title)) for name, number in pending)
            pending = []
        if directive is not None:
            options = _options(lines, i)
            if options.get("name"):
                out.append((normalize(options["name"]), Label(path, i + 1, _directive_title(lines, i, directive))))
    out.extend((name, Label(path, number, None)) for name, number in pending)
    return out


def _rst_title(lines: list[str], i: int) -> str | None:
    """The section title that starts at line ``i`` (underlined, or over- and underlined)."""
    line = lines[i]
    following = lines[i + 1] if i + 1 < len(lines) else ""
    if line[:1].isspace():
        return None
    if ADORNMENT.match(line.rstrip()) and i + 2 < len(lines):
        text, under = lines[i + 1].strip(), lines[i + 2].rstrip()
        if text and ADORNMENT.match(under) and not ADORNMENT.match(text):
            return _shown(text)
        return None
    if ADORNMENT.match(following.rstrip()) and not ADORNMENT.match(line.strip()):
        return _shown(line.strip())
    return None


def _options(lines: list[str], i: int) -> dict[str, str]:
    return fields(lines, i + 1, indented=True)[0]


def _first_term(lines: list[str], i: int) -> str | None:
    """A definition list's first term, or a field list's first field name: what Sphinx shows
    for a label before either (``.. _fvset:`` above ```` ``'fvset'`` ```` and its definition)."""
    line = lines[i]
    field = _RST_FIELD.match(line)
    if field is not None:
        return _shown(field.group(1))
    if _LIST_ITEM.match(line) or line.lstrip().startswith(".."):
        return None  # a list's item or a comment continued on indented lines: no term
    following = lines[i + 1] if i + 1 < len(lines) else ""
    indent = len(line) - len(line.lstrip())
    if following.strip() and len(following) - len(following.lstrip()) > indent:
        return _shown(line.strip().split(" : ", 1)[0])  # a term's classifiers are not shown
    return None


def _directive_title(lines: list[str], i: int, directive: Opener) -> str | None:
    name = directive.name.lower().rsplit(":", 1)[-1]
    argument = directive.title.strip()
    if name in _TITLE_ARGUMENT:
        return _shown(argument) if argument else None
    if name in _CAPTION_OPTION or name == "toctree":
        caption = _options(lines, i).get("caption")
        return _shown(caption) if caption else None
    if name == "figure":
        return _figure_caption(lines, i)
    return None


def _figure_caption(lines: list[str], i: int) -> str | None:
    """A figure's caption: the first paragraph of its body, after its options."""
    j = i + 1 + len(_options(lines, i))
    while j < len(lines) and not lines[j].strip():
        j += 1
    caption = []
    while j < len(lines) and lines[j].strip() and lines[j][:1].isspace():
        caption.append(lines[j].strip())
        j += 1
    return _shown(" ".join(caption)) if caption else None


def _scan_myst(lines: list[str], path: str) -> list[tuple[str, Label]]:
    out: list[tuple[str, Label]] = []
    pending: list[tuple[str, int]] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        target = _MYST_TARGET.match(line)
        if target is not None:
            pending.append((normalize(target.group(1)), i + 1))
            i += 1
            continue
        if not line.strip():
            i += 1
            continue
        opener = myst(line)  # a directive or code fence, read as the MyST page reads it
        if opener is None:
            if pending:
                out.extend((name, Label(path, number, _myst_title(lines, i))) for name, number in pending)
                pending = []
            i += 1
            continue
        end = min(myst_close(lines, i, opener), n - 1)
        directive = opener.name
        if directive is not None and directive.lower() in ("eval-rst", "rst"):
            out.extend((name, Label(path, label.line + i + 1, label.title))
                       for name, label in _scan_rst(lines[i + 1 : end], path))
        elif directive is not None:
            options, body = _myst_options(lines[i + 1 : end])
            title = _myst_directive_title(directive, opener.title.strip(), options, body)
            out.extend((name, Label(path, number, title)) for name, number in pending)
            pending = []
            if options.get("name"):
                out.append((normalize(options["name"]), Label(path, i + 1, title)))
        out.extend((name, Label(path, number, None)) for name, number in pending)
        pending = []
        i = end + 1
    out.extend((name, Label(path, number, None)) for name, number in pending)
    return out


def _myst_options(body: list[str]) -> tuple[dict[str, str], list[str]]:
    """A MyST directive's ``:key: value`` options and the content after them."""
    options, j = fields(body)
    return options, body[j:]


def _myst_directive_title(name: str, argument: str, options: dict[str, str], body: list[str]) -> str | None:
    base = name.lower().rsplit(":", 1)[-1]
    if base in _TITLE_ARGUMENT:
        return _myst_plain(argument) if argument else None
    if base in _CAPTION_OPTION:
        return _myst_plain(options["caption"]) if options.get("caption") else None
    if base == "figure":
        caption = []
        for line in body:
            if line.strip():
                caption.append(line.strip())
            elif caption:
                break
        return _myst_plain(" ".join(caption)) if caption else None
    return None


def _myst_title(lines: list[str], i: int) -> str | None:
    heading = _ATX.match(lines[i])
    if heading is not None:
        return _myst_plain(heading.group(2))
    if i + 1 < len(lines) and _SETEXT.match(lines[i + 1]):
        return _myst_plain(lines[i].strip())
    return None


def _myst_plain(title: str) -> str:
    """A MyST heading as the page shows it: roles as their text, links as their text."""
    title = _MYST_ROLE.sub(lambda m: m.group(1).lstrip("~!"), title)
    title = code_as_text(links_as_text(title))
    return re.sub(r"\*{1,2}([^*]+)\*{1,2}", r"\1", title).strip()


def _shown(rst: str) -> str:
    """An rst title as a ref's link shows it: its inline markup as plain text."""
    return code_as_text(plain_title(rst)).strip()
