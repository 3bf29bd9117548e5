"""Nextra's built-in components (``nextra/components``, ``nextra-theme-docs``) as the text a
reader of the rendered page sees (issue 36, "Markup to meaning"). Each is read from the MDX tree
(``mdx.jsx``) by the MDX rules, which ask the site's reader for them (``Reader.mdx_components``);
the text inside every one stays.

- ``<Callout type="warning" emoji="...">``: its body labelled with its type ("Warning"; the default
  type, which shows only an emoji, reads "Note"); the emoji is decoration and goes.
- ``<Tabs items={['pnpm', 'npm']}>`` with ``<Tabs.Tab>`` (or ``<Tab>``) children: each tab's body
  labelled with the item at its position, the way the tab bar shows it; a tab past the end of
  ``items``, or ``items`` that is not a literal list of strings, reads "Tab N".
- ``<Steps>``: its body; its ``###`` headings stay headings, the steps a reader follows.
- ``<Cards>`` and ``<Cards.Card title>`` (``<Card>``): a card shows its title, and its body when
  it has one; the link and the icon are not text.
- ``<FileTree>`` with ``<FileTree.Folder name>`` and ``<FileTree.File name>``: the tree as a
  nested list of names, folders marked with ``/``.
"""

from __future__ import annotations

from ..data.js_literal import literal_array
from ..mdx import jsx
from ..mdx.site_components import block, body, labelled_block, render
from ..syntax import labels

_TAB_NAMES = frozenset({"Tabs.Tab", "Tab"})
_FOLDER_NAMES = frozenset({"FileTree.Folder", "Folder"})
_FILE_NAMES = frozenset({"FileTree.File", "File"})
_CARD_NAMES = frozenset({"Cards.Card", "Card"})
_CALLOUT_WORDS = {"default": "Note"}
MAX_TREE_DEPTH = 32


def _text(value) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def callout(node: jsx.Element, env) -> str:
    kind = _text(node.attrs.get("type")) or "default"
    env.note("callout", "converted", node.pos)
    return labelled_block(_CALLOUT_WORDS.get(kind, labels.title(kind)), node.children, env)


def items(value) -> list[str] | None:
    """``items={['a', {label: 'b'}]}`` as its labels, read as data (``data.js_literal.literal_array``);
    None when it is not a literal list of strings and ``{label}`` objects."""
    if not isinstance(value, jsx.Expr):
        return None
    found = literal_array(value.source)
    if found is None:
        return None
    labels_found = [v if isinstance(v, str) else v.get("label") if isinstance(v, dict) else None for v in found]
    return labels_found if all(isinstance(v, str) for v in labels_found) else None


def tabs(node: jsx.Element, env) -> str:
    names = items(node.attrs.get("items"))
    if node.attrs.get("items") is not None and names is None:
        env.note("tabs", "unresolved", node.pos, "items is not a literal list of strings: tabs read as Tab N")
    else:
        env.note("tabs", "converted", node.pos)
    names = names or []
    parts, k = [], 0
    for child in node.children:
        if isinstance(child, jsx.Element) and child.name in _TAB_NAMES:
            label = names[k] if k < len(names) else _text(child.attrs.get("title")) or f"Tab {k + 1}"
            parts.append(labelled_block(label, child.children, env))
            k += 1
        else:
            parts.append(render([child], env))
    return block("".join(parts).strip("\n"))


def tab(node: jsx.Element, env) -> str:
    """A tab outside ``<Tabs>``: its body."""
    return block(body(node.children, env))


def steps(node: jsx.Element, env) -> str:
    env.note("steps", "converted", node.pos)
    return block(body(node.children, env))


def cards(node: jsx.Element, env) -> str:
    env.note("cards", "converted", node.pos)
    return block(body(node.children, env))


def card(node: jsx.Element, env) -> str:
    title = _text(node.attrs.get("title"))
    has_body = any(not isinstance(c, str) or c.strip() for c in node.children)
    if title and has_body:
        return labelled_block(title, node.children, env)
    if title:
        return block(title)
    return block(body(node.children, env)) if has_body else ""


def file_tree(node: jsx.Element, env) -> str:
    env.note("file tree", "converted", node.pos)
    lines: list[str] = []
    _tree(node.children, 0, lines, env)
    return block("\n".join(lines)) if lines else ""


def _tree(nodes: list, depth: int, lines: list[str], env) -> None:
    for child in nodes:
        if not isinstance(child, jsx.Element):
            continue
        name = _text(child.attrs.get("name")) or ""
        if child.name in _FOLDER_NAMES:
            lines.append("  " * depth + f"- {name}/")
            if depth < MAX_TREE_DEPTH:
                _tree(child.children, depth + 1, lines, env)
        elif child.name in _FILE_NAMES:
            lines.append("  " * depth + f"- {name}")


def tree_part(node: jsx.Element, env) -> str:
    """A folder or file outside ``<FileTree>``: read as a tree of its own."""
    return file_tree(jsx.Element("FileTree", {}, node.pos, True, "", [node]), env)


COMPONENTS = {
    "Callout": callout,
    "Tabs": tabs,
    **{name: tab for name in _TAB_NAMES},
    "Steps": steps,
    "Cards": cards,
    **{name: card for name in _CARD_NAMES},
    "FileTree": file_tree,
    **{name: tree_part for name in _FOLDER_NAMES | _FILE_NAMES},
}
