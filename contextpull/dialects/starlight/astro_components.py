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

An empty element of a component that draws no tab is read from its template when all the
template prints is text, its props and the site's UI strings (``printed``): Astro's
``<Since v="4.2.0" />`` is ``<span><strong>{Astro.locals.t('since.addedIn')}</strong>
<code>{pkg}@{v}</code> ...</span>``, "Added in: astro@4.2.0" on 577 of its pages, where the MDX
rules kept nothing (an element without children). A prop's value is the element's string, else
the default its ``Astro.props`` destructuring writes; ``{cond && <Badge />}`` is drawn only when
something the build never runs says so, and is read as nothing (Since's "New" badge, which
depends on the package's latest version on npm). Any other expression, or a component in the
template, leaves the element to the MDX rules.
"""

from __future__ import annotations

import html
import re
from typing import NamedTuple

from ..mdx import jsx, site_components
from ..syntax.markup import html_to_text
from . import ui_strings

# An opening or closing tag of the components a tab is made of; ``[^<>]*`` stops at the next
# tag, so each character is read a bounded number of times.
_TAG = re.compile(r"<(/?)(TabItem|Code|slot)\b([^<>]*)>")
# A name starts where no name character is before it: a long run of them is tried once.
_ATTR = re.compile(r"""(?<![\w-])([\w-]+)[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)'|\{[ \t]*([A-Za-z_$][\w$]*)[ \t]*\})""")
MAX_TABS = 32
# ``const { v, pkg = 'astro' } = Astro.props``: the props and their literal defaults.
_PROPS = re.compile(r"\b(?:const|let|var)[ \t]*\{([^{}]*)\}[ \t]*=[ \t]*Astro\.props\b")
_PROP = re.compile(r"""([A-Za-z_$][\w$]*)(?:[ \t\r\n]*=[ \t\r\n]*(?:'([^'\\\n]*)'|"([^"\\\n]*)"))?""")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_UI_STRING = re.compile(r"""Astro\.locals\.t\([ \t]*(?:'([^'\\\n]*)'|"([^"\\\n]*)")[ \t]*\)""")
# What a template holds that is not text around HTML: a component's tag, a script or a style.
_NOT_TEXT = re.compile(r"</?[A-Z]|<(?:[Ss][Cc][Rr][Ii][Pp][Tt]|[Ss][Tt][Yy][Ll][Ee])\b")
MAX_TEMPLATE = 4096


def tabs(source: str) -> tuple[tuple[str, str, str, str], ...]:
    """(label, kind, name, language) of each tab the component's template draws: kind "code"
    (``name`` the prop its code is) or "slot" (``name`` the slot's)."""
    template = _split(source)[1]  # past the component script
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
        component = source()
        drawn = _drawn(component, "code", env)
        shown = [(label, attrs[prop], lang) for label, prop, lang in drawn if isinstance(attrs.get(prop), str)]
        if not drawn:
            reading = None if component is None else \
                env.ctx.reader.once((__name__, "template", component), lambda: template(component))
            text = printed(reading, attrs, env.ctx)
            if text is None:
                return None
            env.note("jsx component", "converted", node.pos)
            return site_components.block(text) if node.block else text
        env.note("jsx component", "converted", node.pos)
        return site_components.code_tabs(shown, env)
    if not all(isinstance(c, jsx.Element) and isinstance(c.attrs.get("slot"), str) for c in kids):
        return None
    drawn = _drawn(source(), "slot", env)
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


def _drawn(text: str | None, kind: str, env) -> list[tuple[str, str, str]]:
    """The tabs of ``kind`` the component's template draws, worked out once a build for each
    component (its source, read through every page's door, is the key: each page still records
    the file as its dependency), however many elements and pages use it."""
    if text is None:
        return []
    found = env.ctx.reader.once((__name__, "tabs", text), lambda: tabs(text))
    return [(label, name, lang) for label, k, name, lang in found if k == kind]


class Template(NamedTuple):
    """What an empty element's text is made of, read from its component once a build: the
    props with their defaults, and the template split at its expressions (``printed`` fills
    them per element, since the element's props and the page's language differ)."""

    props: dict[str, str | None]
    texts: tuple[str, ...]  # the template between its expressions
    expressions: tuple[str, ...]  # each expression's source, in the template's order
    text_only: bool  # no brace, component, script or style outside the expressions


def template(source: str) -> Template | None:
    """The component ``source``'s ``Template``, or None when its props are more than names and
    string defaults, or its template is too long to be read as text."""
    script, body = _split(source)
    props = _props(script)
    if props is None or len(body) > MAX_TEMPLATE:
        return None
    ends = jsx.brace_ends(body) if "{" in body else {}
    texts: list[str] = []
    expressions: list[str] = []
    i = 0
    for start in sorted(ends):
        if start < i:
            continue  # inside an expression already read
        texts.append(body[i:start])
        expressions.append(body[start + 1 : ends[start] - 1].strip())
        i = ends[start]
    texts.append(body[i:])
    text_only = not any("{" in t or "}" in t or _NOT_TEXT.search(t) is not None for t in texts)
    return Template(props, tuple(texts), tuple(expressions), text_only)


def printed(reading: Template | None, attrs: dict, ctx) -> str | None:
    """The text an empty element prints with ``attrs`` from its component's ``template``
    (module docstring), or None when the template prints anything the build cannot read as
    text. Every expression is read before the text around them is judged, so the page's UI
    strings are its dependency whenever the template asks for one."""
    if reading is None:
        return None
    values: list[str] = []
    for source in reading.expressions:
        value = _expression(source, attrs, reading.props, ctx)
        if value is None:
            return None
        values.append(html.escape(value, quote=False))
    if not reading.text_only:
        return None  # a brace that never closes, a component, a script or a style
    markup = "".join(t + v for t, v in zip(reading.texts, [*values, ""]))
    return " ".join(html_to_text(markup).split()) or None


def _split(source: str) -> tuple[str, str]:
    """(the component script between its ``---`` fences, the template after them)."""
    if not source.lstrip().startswith("---"):
        return "", source
    start = source.index("---")
    end = source.find("\n---", start + 3)
    return (source[start + 3 : end], source[end + 4 :]) if end >= 0 else (source[start + 3 :], "")


def _props(script: str) -> dict[str, str | None] | None:
    """Each prop ``Astro.props`` is destructured into, with its literal default (None: none);
    None when a destructuring is more than names and string defaults."""
    found: dict[str, str | None] = {}
    for m in _PROPS.finditer(script):
        for item in m.group(1).split(","):
            if not item.strip():
                continue
            prop = _PROP.fullmatch(item.strip())
            if prop is None:
                return None
            found[prop.group(1)] = prop.group(2) if prop.group(2) is not None else prop.group(3)
    return found


def _expression(source: str, attrs: dict, props: dict[str, str | None], ctx) -> str | None:
    """What ``{source}`` prints: a prop's string, a UI string, nothing for a JSX drawn on a
    condition; None for anything else."""
    if _NAME.fullmatch(source) is not None:
        if source not in props:
            return None
        value = attrs.get(source, props[source])
        return value if isinstance(value, str) else None
    key = _UI_STRING.fullmatch(source)
    if key is not None:
        return ui_strings.lookup(key.group(1) if key.group(1) is not None else key.group(2), ctx)
    condition, _, drawn = source.rpartition("&&")
    if condition.strip() and drawn.strip().startswith("<"):
        return ""
    return None
