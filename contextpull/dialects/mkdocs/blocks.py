"""mkdocs' block extensions turned into what a reader of the page sees (issue 26, "Markup to meaning").

- Python-Markdown admonitions ``!!! note "Title"``, ``!!! note ""`` (no title), and pymdown
  details ``??? note`` / ``???+ note`` (collapsible; the body is on the page either way): the
  indented body, dedented, behind its label (``Note: ...``; the custom title is the label).
- pymdown blocks ``/// name | title`` ... ``///`` (the closing line has as many slashes as the
  opening one, so blocks nest by count): admonition types as above, ``details`` behind its
  summary, ``tab`` as a labelled part, ``html`` and ``caption`` as their body. A name no blocks
  extension registers (``block_names``) is not a block to pymdown: the page shows its lines as
  text; its body is kept and it is noted ``unresolved``. The indented ``key: value`` options
  under the header configure rendering and go.
- content tabs ``=== "Label"``: the label as a line, the indented content dedented below it.
- mkdocstrings ``::: package.module`` (and its indented options): the API text it stands for,
  read from the repository's source without importing it (``mkdocstrings.py``); a build
  without API reference drops the line and reports it unresolved.
- abbreviation definitions ``*[HTML]: ...``: a tooltip, not text on the page.

Fenced code is copied as it is (only the container's indentation is taken off its lines), so no
rewrite here ever edits code. Every line is carried with the source line it came from, for notes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..api import Context
from ..syntax.markup import dedent_block
from ..syntax import labels
from ..syntax.containers import MAX_NESTING, SLASH_OPTION, Opener, admonition, fence_end, indented_end, slash_close, slashes, tab, width
from ..syntax.labels import labelled
from ..syntax.fences import open_fence
from ..syntax.line_map import Lines, joined
from .config import entries, extension_options


# mkdocstrings' own pattern: hashes before ``:::`` give the root's heading level and show it.
_MKDOCSTRINGS = re.compile(r"^([ \t]*)(?:(#{1,6})[ \t]*)?:::[ \t]*([A-Za-z_][\w.:-]*)[ \t]*$")
_ABBREVIATION = re.compile(r"^\*\[[^\]]+\]:")
# What a line that opens anything ``convert_blocks`` reads starts with, after blanks: a fence,
# ``!!!``/``???``, ``///``, ``===``, an abbreviation's ``*[`` (a ``:::`` line is tested apart).
_OPENERS = frozenset("`~!?/=*")

ADMONITION = "admonition"
BLOCK = "pymdown block"
TAB = "content tab"
MKDOCSTRINGS = "mkdocstrings"
ABBREVIATION = "abbreviation"

# Containers nest ``MAX_NESTING`` deep at most (syntax/containers); deeper openers are kept as
# text, which bounds the recursion and the rescans of unclosed blocks.

# pymdown's block extensions and the names they register by default (pymdownx/blocks/*.py).
_BLOCK_EXTENSIONS = frozenset(
    f"pymdownx.blocks.{n}" for n in "admonition details tab html definition caption figure".split()
)
_BLOCK_NAMES = frozenset(
    "admonition details tab html define caption figure-caption table-caption figure"
    " note attention caution danger error tip hint warning".split()
)

# Block names that are not admonition types: their label (if any) is not the name.
_UNLABELLED = {"html", "caption", "define"}


def block_names(config: dict) -> frozenset[str] | None:
    """The ``///`` names pymdown's block extensions register for this site: each extension's own
    name, its default types and the ``types`` the configuration gives it (a name or a mapping
    with ``name``). Every extension is counted whether or not it is enabled, so a block is called
    unknown only for a name none of them has; a blocks extension this table does not know may
    register anything, and then no name is (None)."""
    names = set(_BLOCK_NAMES)
    for entry in entries(config.get("markdown_extensions") if isinstance(config, dict) else None):
        ext = next(iter(entry), "") if isinstance(entry, dict) else entry
        if not isinstance(ext, str) or "blocks" not in ext:
            continue
        if ext not in _BLOCK_EXTENSIONS:
            return None
        options = extension_options(config, ext) or {}
        types = options.get("types")
        for kind in types if isinstance(types, list) else []:
            name = kind.get("name") if isinstance(kind, dict) else kind
            if isinstance(name, str):
                names.add(name.lower())
    return frozenset(names)


class _Texts(Sequence[str]):
    """The texts of ``Lines`` as the container rules read them, without a copy per container."""

    def __init__(self, lines: Lines) -> None:
        self._lines = lines

    def __len__(self) -> int:
        return len(self._lines)

    def __getitem__(self, i):  # an index only: the rules never slice
        return self._lines[i][1]


def _dedented(lines: Lines, width: int) -> Lines:
    texts = dedent_block(joined(lines), width).split("\n")
    return [(origin, text) for (origin, _), text in zip(lines, texts)]


def _trimmed(body: Lines) -> Lines:
    """The body without its leading and trailing blank lines."""
    start, end = 0, len(body)
    while start < end and not body[start][1].strip():
        start += 1
    while end > start and not body[end - 1][1].strip():
        end -= 1
    return body[start:end]


def _emit(out: Lines, origin: int, indent: str, text: str) -> None:
    for piece in text.split("\n"):
        out.append((origin, indent + piece if piece else piece))


def _labelled(out: Lines, origin: int, indent: str, label: str, body: Lines) -> None:
    """The body behind its label, or the body alone without one. The label and the body's first
    line share a line, so later lines keep their own origin only when there is no label."""
    if not label:
        out.extend((o, indent + t if t else t) for o, t in body)
        return
    _emit(out, origin, indent, labelled(label, joined(body)))


def _part(out: Lines, origin: int, indent: str, label: str, body: Lines) -> None:
    """A tab: its label on a line of its own, then its content."""
    if label:
        out.append((origin, indent + label))
        out.append((origin, ""))
    out.extend((o, indent + t if t else t) for o, t in _trimmed(body))


def convert_blocks(lines: Lines, ctx: Context, depth: int = 0, names: frozenset | None = None) -> Lines:
    """``lines`` with every container replaced by what the page shows; ``names`` are the ``///``
    block names the site's extensions register (``block_names``), None when not all are known."""
    if depth >= MAX_NESTING:
        detail = f"containers nested deeper than {MAX_NESTING} are kept as text"
        ctx.note(BLOCK, "unresolved", lines[0][0] if lines else 0, detail)
        return lines
    out: Lines = []
    i, n = 0, len(lines)
    while i < n:
        origin, text = lines[i]
        if text.lstrip(" \t")[:1] not in _OPENERS and ":::" not in text:
            out.append(lines[i])  # most lines: no rule below can match them
            i += 1
            continue
        fence = open_fence(text)
        if fence is not None:
            end = fence_end(_Texts(lines), i, fence)
            out.extend(lines[i:end])
            i = end
            continue
        m = admonition(text)
        if m is not None:
            indent, kind, title = m.indent, m.name, m.title
            end, body = _nested_body(lines, i, indent, ctx, depth, names)
            label = labels.title(kind) if title is None else title
            _labelled(out, origin, indent, label, body)
            ctx.note(ADMONITION, "converted", origin)
            i = end
            continue
        m = slashes(text)
        if m is not None:
            i = _block(lines, i, m, out, ctx, depth, names)
            continue
        m = tab(text)
        if m is not None:
            indent, label = m.indent, m.title
            end, body = _nested_body(lines, i, indent, ctx, depth, names)
            _part(out, origin, indent, label, body)
            ctx.note(TAB, "converted", origin)
            i = end
            continue
        m = _MKDOCSTRINGS.match(text) if ":::" in text else None
        if m is not None:
            end = indented_end(_Texts(lines), i + 1, width(m.group(1)) + 1)
            rendered = None
            if ctx.reader.api_reference() is not None:  # else the API modules are never imported (12 ms)
                from .mkdocstrings import render_identifier

                heading = len(m.group(2)) if m.group(2) else None
                rendered = render_identifier(ctx, m.group(3), [t for _, t in lines[i + 1 : end]], origin, heading)
            if rendered is None:
                detail = f"API text of {m.group(3)} comes from code the build never imports"
                ctx.note(MKDOCSTRINGS, "unresolved", origin, detail)
            else:  # docstrings are the site's Markdown: its admonitions and tabs read alike
                shown = [(origin, m.group(1) + t if t else t) for t in rendered]
                out.extend(convert_blocks(shown, ctx, depth + 1, names))
            i = end
            continue
        if text.startswith("*[") and _ABBREVIATION.match(text):
            ctx.note(ABBREVIATION, "converted", origin)
            i += 1
            continue
        out.append((origin, text))
        i += 1
    return out


def _nested_body(lines: Lines, i: int, indent: str, ctx: Context, depth: int,
                 names: frozenset | None) -> tuple[int, Lines]:
    """(the index after, the converted body) of the container opening at ``i``: an admonition's
    or a content tab's body is the lines indented four past its opener, read one level down."""
    need = width(indent) + 4
    end = indented_end(_Texts(lines), i + 1, need)
    return end, convert_blocks(_dedented(lines[i + 1 : end], need), ctx, depth + 1, names)


def _block(lines: Lines, i: int, m: Opener, out: Lines, ctx: Context, depth: int,
           names: frozenset | None) -> int:
    """One ``/// name | title`` block into ``out``; returns the index after its closing line."""
    origin = lines[i][0]
    indent, count, name, title = m.indent, len(m.marker), m.name.lower(), m.title
    start = i + 1
    while start < len(lines) and SLASH_OPTION.match(lines[start][1]) and width(lines[start][1]) >= width(indent) + 4:
        start += 1
    close = slash_close(_Texts(lines), start, count)
    body = convert_blocks(_dedented(lines[start:close], width(indent)), ctx, depth + 1, names)
    if names is not None and name not in names:
        ctx.note(BLOCK, "unresolved", origin, f"unknown block /// {name}: no pymdown blocks extension of the site"
                                              " defines it, so the page shows it as text; its body kept")
    elif close == len(lines):
        ctx.note(BLOCK, "converted", origin, f"/// {name} is never closed; it runs to the end")
    else:
        ctx.note(BLOCK, "converted", origin)
    if name == "tab":
        _part(out, origin, indent, title or "", body)
    elif name in _UNLABELLED:
        _labelled(out, origin, indent, "", body)
    elif name == "admonition":
        _labelled(out, origin, indent, title or "", body)
    else:  # an admonition type, or details (its summary, else "Details")
        _labelled(out, origin, indent, labels.title(name) if title is None else title, body)
    if close + 1 < len(lines) and lines[close + 1][1].strip():
        out.append((origin, ""))  # the block ends a paragraph: text right after it is a new one
    return close + 1
