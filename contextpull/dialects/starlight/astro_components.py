"""A site's own Astro component that a page imports and that draws Starlight tabs, read from its
template (never run) so the page's text keeps each tab's label:

- a tab of code per prop: Tauri's ``<CommandTabs npm="npm install x" yarn="yarn add x" />``,
  whose template is ``<TabItem label="npm"><Code code={npm} lang="sh" /></TabItem>`` per prop.
  The MDX rules alone knew nothing of the file and dropped the element, and with it the commands
  of every install step (199 elements on 101 of Tauri's pages);
- a tab per named slot: Astro's ``<PackageManagerTabs>`` with ``<Fragment slot="npm">`` children,
  whose template is ``<TabItem label="npm"><slot name="npm" /></TabItem>`` per slot. The MDX
  rules kept each child's text but not the tab it is under.

Each ``<Code code={prop}>`` or ``<slot name="...">`` inside a ``<TabItem label="...">`` is one tab,
in the template's order; a tab is shown when the element gives its prop as a string, or a child
for its slot (a conditional ``{npm && (...)}`` around it draws nothing otherwise). Only an empty
element given a string, or one whose every child fills a named slot, is a candidate, and only
its component's file is read (and is from then on a dependency of the page): a component around
other children draws them where they are, which the MDX rules already keep. A component whose
template draws no such tab, or no tab for one of the slots the element fills (Starlight's own
docs: ``<Preview>`` draws its ``preview`` slot beside its tabs), is left to the MDX rules.
"""

from __future__ import annotations

import re

from ..mdx import jsx, site_components

# An opening or closing tag of the components a tab is made of; ``[^<>]*`` stops at the next
# tag, so each character is read a bounded number of times.
_TAG = re.compile(r"<(/?)(TabItem|Code|slot)\b([^<>]*)>")
# A name starts where no name character is before it: a long run of them is tried once.
_ATTR = re.compile(r"""(?<![\w-])([\w-]+)[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)'|\{[ \t]*([A-Za-z_$][\w$]*)[ \t]*\})""")
MAX_TABS = 32


def tabs(source: str) -> tuple[tuple[str, str, str, str], ...]:
    """(label, kind, name, language) of each tab the component's template draws: kind "code"
    (``name`` the prop its code is) or "slot" (``name`` the slot's)."""
    template = source
    if source.lstrip().startswith("---"):  # the component script, between its fences
        start = source.index("---")
        end = source.find("\n---", start + 3)
        template = source[end + 4:] if end >= 0 else ""
    found: list[tuple[str, str, str, str]] = []
    label = None
    for m in _TAG.finditer(template):
        if len(found) >= MAX_TABS:
            break
        closing, tag = m.group(1), m.group(2)
        if tag == "TabItem":
            label = None
            if not closing:
                attrs = _attrs(m.group(3))
                label = attrs.get("label") if isinstance(attrs.get("label"), str) else None
        elif label and not closing:
            attrs = _attrs(m.group(3))
            if tag == "Code" and isinstance(attrs.get("code"), tuple):
                lang = attrs.get("lang")
                found.append((label, "code", attrs["code"][1], lang if isinstance(lang, str) else ""))
            elif tag == "slot" and isinstance(attrs.get("name"), str):
                found.append((label, "slot", attrs["name"], ""))
    return tuple(found)


def _attrs(text: str) -> dict:
    """A tag's attributes: a string, or ("{", name) for ``{name}``."""
    return {a.group(1): a.group(2) if a.group(2) is not None else a.group(3) if a.group(3) is not None
            else ("{", a.group(4)) for a in _ATTR.finditer(text)}


def read(node, source, env) -> str | None:
    """The element as its page shows it (``SiteReader.mdx_imported_component``), or None."""
    kids = [c for c in node.children if not (isinstance(c, str) and not c.strip())]
    if not kids:
        attrs = site_components.literal_attrs(node.attrs, env)
        if not any(isinstance(v, str) for v in attrs.values()):
            return None
        drawn = _drawn(source, "code")
        shown = [(label, attrs[prop], lang) for label, prop, lang in drawn if isinstance(attrs.get(prop), str)]
        if not drawn:
            return None
        env.note("jsx component", "converted", node.pos)
        return site_components.code_tabs(shown, env)
    if not all(isinstance(c, jsx.Element) and isinstance(c.attrs.get("slot"), str) for c in kids):
        return None
    drawn = _drawn(source, "slot")
    labels = {name: label for label, name, _ in reversed(drawn)}  # a slot drawn twice: its first tab
    if not drawn or any(c.attrs["slot"] not in labels for c in kids):
        return None  # a slot drawn outside a tab (a preview beside the code): the MDX rules' reading
    env.note("jsx component", "converted", node.pos)
    order = {name: k for k, (_, name, _) in enumerate(drawn)}
    kids.sort(key=lambda c: order[c.attrs["slot"]])  # stable: the template's order of its tabs
    # A <Fragment slot> is only its children; any other element is drawn in its tab (an aside).
    return site_components.block("".join(
        site_components.labelled_block(labels[c.attrs["slot"]], c.children if c.name == "Fragment" else [c], env)
        for c in kids))


def _drawn(source, kind: str) -> list[tuple[str, str, str]]:
    text = source()
    return [(label, name, lang) for label, k, name, lang in (tabs(text) if text is not None else ()) if k == kind]
