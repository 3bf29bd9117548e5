"""Starlight's components as a reader of the rendered page sees them (issue 36), one table for
both ways a page writes them: an MDX element (``<Aside type="tip">``, through the shared MDX
rules' ``SiteReader.mdx_components`` hook) and a Markdoc tag (``{% aside type="tip" %}``, read by
``markdoc``). Names are compared in lower case, as Markdoc writes them.

- ``Aside``: its ``title``, else its type's word ("Note", "Tip", "Caution", "Danger");
- ``Card`` and ``LinkCard``: the ``title`` as label, a link card's ``description`` as its text;
- ``TabItem``: its ``label``; ``Tabs``, ``CardGrid``, ``Steps``, ``FileTree``, ``LinkButton``:
  their text; ``Steps``' ordered list with the numbers the page draws (``numbered``);
- ``Badge``: its ``text`` where it stands (a heading's badge reads as a word of the heading);
- ``Icon``: nothing (a picture);
- ``Code``: its ``code`` fenced in its ``lang``: a string, or in MDX the text of a ``?raw``
  import it names; any other JavaScript value is never run: nothing is kept, and it is named.
"""

from __future__ import annotations

import re

from ..mdx import jsx
from ..mdx.provided import Shown
from ..mdx.site_components import literal_attrs
from ..mdx.site_components import shown as show
from ..syntax import labels

ASIDE_TYPES = ("note", "tip", "caution", "danger")
_BODY_ONLY = frozenset(("tabs", "cardgrid", "steps", "filetree", "linkbutton", "icon"))
# Components shown in the line they stand in, not as blocks of their own.
INLINE = frozenset(("badge", "icon"))


def _text(attrs: dict, key: str) -> str:
    value = attrs.get(key)
    return value.strip() if isinstance(value, str) else ""


def shown(name: str, attrs: dict) -> Shown | None:
    """How Starlight shows the component ``name`` (any case) with ``attrs`` (string values are
    literal text; anything else is JavaScript, never run), or None when it is not Starlight's."""
    key = name.lower()
    if key == "aside":
        return Shown(_text(attrs, "title") or labels.title(_text(attrs, "type") or "note"))
    if key in ("card", "linkcard"):
        return Shown(_text(attrs, "title") or None, _text(attrs, "description"))
    if key == "tabitem":
        return Shown(_text(attrs, "label") or "Tab")
    if key == "badge":
        return Shown(None, _text(attrs, "text"))
    if key == "code":
        return Shown(code_from="code", language=_text(attrs, "lang"))
    if key in _BODY_ONLY:
        return Shown()
    return None


def _read(node, env) -> str:
    """An MDX element of Starlight's as its reader sees it (``SiteReader.mdx_components``)."""
    return show(node, shown(node.name, literal_attrs(node.attrs, env)), env)


# An ordered list item's marker at the start of a line (searched after a newline; the first line
# of a piece apart): its indentation, number and delimiter.
_ITEM = re.compile(r"\n([ \t]*)(\d{1,9})([.)])(?=[ \t\n]|\Z)")


def numbered(pieces: list) -> tuple[list, int]:
    """``<Steps>``' children with its ordered list's items numbered as the page draws them, and
    how many items that renumbered. Starlight counts the steps itself, from the list's first
    number: a site that writes every step ``1.`` (Tauri's 29 steps on 12 pages) shows 1, 2, 3,
    and the shared reading ends a list item at the first block that is not indented (a step's
    second paragraph, the tabs inside it), after which ``1.`` reads as a new list's first item.
    Only the list's own items are counted: those of the least indentation in the element's own
    text (a nested list is deeper; another element's list is not its text)."""
    found = [(k, m) for k, piece in enumerate(pieces) if isinstance(piece, str)
             for m in _ITEM.finditer(piece if k else "\n" + piece)]
    if not found:
        return pieces, 0
    least = min(len(m.group(1)) for _, m in found)
    items = [(k, m) for k, m in found if len(m.group(1)) == least]
    start = int(items[0][1].group(2))
    out = list(pieces)
    changed = 0
    for n, (k, m) in reversed(list(enumerate(items))):
        if int(m.group(2)) == start + n:
            continue
        offset = 0 if k else -1  # the first piece was searched with a newline before it
        piece = out[k]
        out[k] = piece[: m.start(2) + offset] + str(start + n) + piece[m.end(2) + offset :]
        changed += 1
    return out, changed


def _steps(node, env) -> str:
    kids, changed = numbered(node.children)
    if changed:
        env.note("steps", "converted", node.pos, f"{changed} steps numbered as the page shows them")
    steps = jsx.Element(node.name, node.attrs, node.pos, node.block, node.source, kids)
    return show(steps, Shown(), env)


# Its components as an MDX page writes them. ``Tabs`` and ``TabItem`` are left to the MDX rules'
# own reading, which is Starlight's (a tab labelled by its ``label``).
MDX_COMPONENTS = {name: _read for name in (
    "Aside", "Card", "LinkCard", "Badge", "Code", "CardGrid", "FileTree", "LinkButton", "Icon")}
MDX_COMPONENTS["Steps"] = _steps


def aside_problem(kind: str) -> str | None:
    """Why an aside of ``kind`` is not one Starlight draws, or None."""
    if kind.lower() in ASIDE_TYPES:
        return None
    return f"{kind!r} is not a Starlight aside type ({', '.join(ASIDE_TYPES)}): its text kept, labelled"
