"""Starlight's components as a reader of the rendered page sees them (issue 36), one table for
both ways a page writes them: an MDX element (``<Aside type="tip">``, through the shared MDX
rules' ``SiteReader.mdx_components`` hook) and a Markdoc tag (``{% aside type="tip" %}``, read by
``markdoc``). Names are compared in lower case, as Markdoc writes them.

- ``Aside``: its ``title``, else its type's word ("Note", "Tip", "Caution", "Danger");
- ``Card`` and ``LinkCard``: the ``title`` as label, a link card's ``description`` as its text;
- ``TabItem``: its ``label``; ``Tabs``, ``CardGrid``, ``Steps``, ``FileTree``, ``LinkButton``:
  their text;
- ``Badge``: its ``text`` where it stands (a heading's badge reads as a word of the heading);
- ``Icon``: nothing (a picture);
- ``Code``: its ``code`` fenced in its ``lang``: a string, or in MDX the text of a ``?raw``
  import it names; any other JavaScript value is never run: nothing is kept, and it is named.
"""

from __future__ import annotations

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


# Its components as an MDX page writes them. ``Tabs`` and ``TabItem`` are left to the MDX rules'
# own reading, which is Starlight's (a tab labelled by its ``label``).
MDX_COMPONENTS = {name: _read for name in (
    "Aside", "Card", "LinkCard", "Badge", "Code", "CardGrid", "Steps", "FileTree", "LinkButton", "Icon")}


def aside_problem(kind: str) -> str | None:
    """Why an aside of ``kind`` is not one Starlight draws, or None."""
    if kind.lower() in ASIDE_TYPES:
        return None
    return f"{kind!r} is not a Starlight aside type ({', '.join(ASIDE_TYPES)}): its text kept, labelled"
