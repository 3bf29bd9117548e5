"""Sphinx directives whose page shows a label before their body (issue 26, "Markup to meaning").

Version notes read as Sphinx renders them ("Added in version 2.0: ..."), ``seealso`` as "See
also", and a tab of sphinx-tabs or sphinx-design as its label then its body: tabs become
labelled parts, one after another, since a page of text has no tabs to click. Each returns an
``admonition`` node titled with its label, which ``rst.doctree`` writes as "Label: body". A
``glossary`` is its terms each before its definition, a definition list ("- term: body").
"""

from __future__ import annotations

from docutils import nodes, statemachine

from ...syntax.labels import VERSION_LABELS
from ..directive_names import glossary_entries
from .directives import NOTED, Base, code_node, note_at, parse_body


def _labelled(label: str | list[nodes.Node], body: list[nodes.Node]) -> nodes.admonition:
    node = nodes.admonition(classes=[NOTED])
    if isinstance(label, str):
        node += nodes.title(label, label)
    else:
        node += nodes.title("", "", *label)
    node.extend(body)
    return node


class VersionChange(Base):
    """``versionadded 2.0`` and its kin: "Added in version 2.0: ..." as Sphinx renders it."""

    required_arguments = 1
    optional_arguments = 1

    def run(self):
        note_at(self, f"rst {self.name}", "converted")
        label = VERSION_LABELS[self.name].format(self.arguments[0])
        body = []
        if len(self.arguments) > 1:
            inline, _messages = self.state.inline_text(self.arguments[1], self.lineno)
            body.append(nodes.paragraph("", "", *inline))
        body.extend(parse_body(self))
        return [_labelled(label, body)]


class SeeAlso(Base):
    def run(self):
        note_at(self, "rst seealso", "converted")
        body = parse_body(self)
        if self.arguments:
            inline, _messages = self.state.inline_text(self.arguments[0], self.lineno)
            body.insert(0, nodes.paragraph("", "", *inline))
        return [_labelled("See also", body)]


class Tab(Base):
    """A tab (sphinx-tabs, sphinx-design): its label, then its body, as a labelled part."""

    def run(self):
        note_at(self, "rst tab", "converted")
        label = self.arguments[0].strip() if self.arguments else self.name
        inline, _messages = self.state.inline_text(label, self.lineno)
        return [_labelled(inline, parse_body(self))]


class CodeTab(Base):
    """sphinx-tabs ``code-tab:: python [label]``: a labelled code block."""

    def run(self):
        note_at(self, "rst tab", "converted")
        words = (self.arguments[0] if self.arguments else "").split(None, 1)
        language = words[0] if words else ""
        label = words[1] if len(words) > 1 else language
        return [_labelled(label or "Code", [code_node("\n".join(self.content), language)])]


class Glossary(Base):
    """``glossary``: its entries by Sphinx's rule (``directive_names.glossary_entries``, which
    MyST shares), several terms of one entry joined by commas."""

    def run(self):
        note_at(self, "rst glossary", "converted")
        source = self.content.source(0) if self.content else None
        box = nodes.definition_list()
        for terms, definition in glossary_entries(list(self.content), "sorted" in self.options):
            term, _messages = self.state.inline_text(", ".join(terms), self.lineno)
            body = nodes.definition()
            if definition:
                lines = statemachine.StringList(definition, source)
                self.state.nested_parse(lines, self.content_offset, body)
            box += nodes.definition_list_item("", nodes.term("", "", *term), body)
        return [box] if box.children else []
