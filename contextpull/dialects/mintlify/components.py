"""Mintlify's components as a reader of the rendered page sees them (issue 36): the label each
one draws before its text, for the MDX renderer (``mdx.mdx``), which asks the site's reader
``mdx_label(name, attrs)`` for every element and renders a labelled block when it gets one.

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

The groups around them
(``<Tabs>``, ``<Steps>``, ``<AccordionGroup>``, ``<CardGroup>``, ``<CodeGroup>``) keep their
children's text. Attribute values are data: an expression (``default={10}``) counts only when
it is a plain literal.
"""

from __future__ import annotations

import re

from ..mdx import jsx

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
