"""Mintlify's components as a reader of the rendered page sees them (issue 36): the label each
one draws before its text. The MDX rules ask the site's reader for the components it draws its
own way (``Reader.mdx_components``, ``readers`` here) and read each as a labelled block.

- callouts (``<Note>``, ``<Warning>``, ``<Info>``, ``<Tip>``, ``<Check>``, ``<Danger>``): the
  page draws an icon and a coloured box; the word is what the icon says;
- API fields (``<ParamField query="limit" type="integer" required default="10">``,
  ``<ResponseField name="id" type="string">``): the page shows the name, the type, a
  "required" badge and the default on one line above the description, so the label is
  ``limit`` (integer, required, default: 10) and the description follows it;
- ``<Frame caption>``, ``<Update label description>``, ``<RequestExample>`` and
  ``<ResponseExample>``: the caption, the changelog entry's date and version, the panel's name.

- ``<Tab>``, ``<Step>``, ``<Accordion>``, ``<Card>``, ``<Expandable>``: their ``title``, also
  where the text follows the tag on its line (the MDX renderer's shared rule labels only an
  element whose tag stands alone).

- ``<Snippet file="x.mdx" />``, the older snippet element: the file from the site's snippet
  folder (``Reader.snippet_path``), read as a partial through the shared resolver.

An element of these names without what its label needs (a field without a name, a tab without
a title) keeps its text as any component does. The groups around them
(``<Tabs>``, ``<Steps>``, ``<AccordionGroup>``, ``<CardGroup>``, ``<CodeGroup>``) keep their
children's text. Attribute values are data: an expression (``default={10}``) counts only when
it is a plain literal.
"""

from __future__ import annotations

import re

from ..mdx import jsx
from ..mdx.mdx import partial
from ..mdx.render_env import site_folder
from ..mdx.site_components import block, body, labelled_or_label, render

CALLOUTS = {"Note": "Note", "Warning": "Warning", "Info": "Info", "Tip": "Tip", "Check": "Check",
            "Danger": "Danger"}
# ``<ParamField>`` names its parameter by where it goes; ``<ResponseField>`` by ``name``.
PARAM_PLACES = ("path", "query", "body", "header", "cookie", "name")
# Components whose ``title`` the page draws as the heading of their text, inline or not.
TITLED = {"Tab": "mintlify tab", "Step": "mintlify step", "Accordion": "mintlify accordion",
          "Expandable": "mintlify expandable", "Card": "mintlify card"}
PANELS = {"RequestExample": "Request example", "ResponseExample": "Response example"}
_SIMPLE = re.compile(r"\s*(-?\d+(?:\.\d+)?|true|false|null)\s*")


def value(attr) -> str | None:
    """An attribute as the page prints it: a string, a literal in braces, None otherwise."""
    if isinstance(attr, str):
        return " ".join(attr.split()) or None
    if isinstance(attr, jsx.Expr):
        literal = attr.literal
        if literal is not None:
            return " ".join(literal.split()) or None
        m = _SIMPLE.fullmatch(attr.source)
        return m.group(1) if m else None
    return None


def field_label(attrs: dict) -> str | None:
    """``name`` (type, required, default: x) for an API field; None without a name."""
    name = next((value(attrs[k]) for k in PARAM_PLACES if value(attrs.get(k))), None)
    if name is None:
        return None
    facts = [value(attrs.get("type")) or ""]
    if attrs.get("required") is True or value(attrs.get("required")) == "true":
        facts.append("required")
    if attrs.get("deprecated") is True:
        facts.append("deprecated")
    default = value(attrs.get("default"))
    if default is not None:
        facts.append(f"default: {default}")
    shown = ", ".join(f for f in facts if f)
    tick = "``" if "`" in name else "`"
    return f"{tick}{name}{tick}" + (f" ({shown})" if shown else "")


def label(name: str, attrs: dict) -> tuple[str, str] | None:
    """(construct, label) for an element Mintlify draws with a label, None for any other."""
    if name in CALLOUTS:
        return "mintlify callout", CALLOUTS[name]
    if name in ("ParamField", "ResponseField"):
        found = field_label(attrs)
        return ("mintlify field", found) if found else None
    if name == "Frame":
        caption = value(attrs.get("caption"))
        return ("mintlify frame", caption) if caption else None
    if name == "Update":
        parts = [p for p in (value(attrs.get("label")), value(attrs.get("description"))) if p]
        return ("mintlify update", " ".join(parts)) if parts else None
    if name in TITLED:
        title = value(attrs.get("title"))
        return (TITLED[name], title) if title else None
    if name in PANELS:
        return "mintlify example", PANELS[name]
    return None


def labelled(node: jsx.Element, env) -> str:
    """A component Mintlify draws with a label (``label``), or its text when it has none."""
    found = label(node.name, node.attrs)
    if found is None:
        env.note("jsx component", "converted", node.pos)
        return block(body(node.children, env)) if node.block else render(node.children, env)
    env.note(found[0], "converted", node.pos)
    return labelled_or_label(found[1], node.children, env)


def readers(reader) -> dict:
    """name -> ``read(element, env) -> text`` for ``Reader.mdx_components``."""
    names = (*CALLOUTS, "ParamField", "ResponseField", "Frame", "Update", *PANELS, *TITLED)
    out = {name: labelled for name in names}
    out["Snippet"] = lambda node, env: snippet(reader, node, env)
    return out


def snippet(reader, node: jsx.Element, env) -> str:
    """``<Snippet file="x.mdx" />``: the file's text where the element stands; a missing or
    refused file is the resolver's ``mdx snippet`` note."""
    file = value(node.attrs.get("file"))
    if not file:
        env.note("mdx snippet", "unresolved", node.pos, "<Snippet> names no file: nothing shown")
        return ""
    included = env.ctx.include(reader.snippet_path(file), base=site_folder(env.ctx), line=env.at(node.pos),
                               construct="mdx snippet", within=env.within)
    return "" if included is None else partial(included, node, env)
