"""A site's own Astro component that a page imports and draws as Starlight tabs of code, one
per prop: Tauri's ``<CommandTabs npm="npm install x" yarn="yarn add x" />``, whose template is
``<TabItem label="npm"><Code code={npm} lang="sh" /></TabItem>`` for each prop. Its page shows
each command under its tab's label; the MDX rules alone knew nothing of the file and dropped the
element, and with it the commands of every install step (60 of Tauri's English pages).

The template is read, never run: each ``<Code code={prop}>`` under the last ``<TabItem
label="...">`` before it is one tab, in the template's order; a tab is shown when the element
gives its prop as a string (a conditional ``{npm && (...)}`` around it draws nothing otherwise).
A component whose template draws no such tab is left to the MDX rules' own reading.
"""

from __future__ import annotations

import re

from ..mdx import site_components

# An opening tag of the two components a tab of code is made of; ``[^<>]*`` stops at the next
# tag, so each character is read a bounded number of times.
_TAG = re.compile(r"<(TabItem|Code)\b([^<>]*)>")
# A name starts where no name character is before it: a long run of them is tried once.
_ATTR = re.compile(r"""(?<![\w-])([\w-]+)[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)'|\{[ \t]*([A-Za-z_$][\w$]*)[ \t]*\})""")
MAX_TABS = 32


def code_tabs(source: str) -> tuple[tuple[str, str, str], ...]:
    """(label, prop, language) of each tab of code the component's template draws from a prop."""
    template = source
    if source.lstrip().startswith("---"):  # the component script, between its fences
        start = source.index("---")
        end = source.find("\n---", start + 3)
        template = source[end + 4:] if end >= 0 else ""
    tabs: list[tuple[str, str, str]] = []
    label = None
    for m in _TAG.finditer(template):
        attrs = {a.group(1): a.group(2) if a.group(2) is not None else a.group(3) if a.group(3) is not None
                 else ("{", a.group(4)) for a in _ATTR.finditer(m.group(2))}
        if m.group(1) == "TabItem":
            label = attrs.get("label") if isinstance(attrs.get("label"), str) else None
        elif label and isinstance(attrs.get("code"), tuple) and len(tabs) < MAX_TABS:
            lang = attrs.get("lang")
            tabs.append((label, attrs["code"][1], lang if isinstance(lang, str) else ""))
    return tuple(tabs)


def read(node, source, env) -> str | None:
    """The element as its page shows it (``SiteReader.mdx_imported_component``), or None. Only
    an empty element given a string is a candidate, and only its component's file is read (a
    component around children draws them: the MDX rules keep them without the file)."""
    if any(not (isinstance(c, str) and not c.strip()) for c in node.children):
        return None
    attrs = site_components.literal_attrs(node.attrs, env)
    if not any(isinstance(v, str) for v in attrs.values()):
        return None
    text = source()
    tabs = code_tabs(text) if text is not None else ()
    if not tabs:
        return None
    shown = [(label, attrs[prop], lang) for label, prop, lang in tabs if isinstance(attrs.get(prop), str)]
    env.note("jsx component", "converted", node.pos)
    return site_components.code_tabs(shown, env)
