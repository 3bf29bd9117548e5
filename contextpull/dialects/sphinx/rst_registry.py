"""Which directive and role names mean what, for the time of one docutils parse (issue 26).

docutils keeps its registries in module globals, so Sphinx's names are put in while one document
is parsed and the registries are restored afterwards, as Sphinx's ``docutils_namespace()`` does;
``read_rst`` holds a lock around it. A name nobody lists here still parses: its body is kept
(``Unknown``), so no directive turns a page into an error message.
"""

from __future__ import annotations

import contextlib

from docutils.parsers.rst import Directive, directives, roles

from . import rst_roles
from .rst_directives import (
    Autodoc, CodeBlock, Date, Describe, Dropped, Highlight, Include, Kept, LiteralInclude, Only,
    Raw, SafeCSVTable, Unknown,
)
from .rst_labelled import VERSION_LABELS, CodeTab, SeeAlso, Tab, VersionChange

_DROPPED = (
    "toctree", "index", "currentmodule", "module", "py:module", "py:currentmodule",
    "default-domain", "sectionauthor", "moduleauthor", "codeauthor", "tabularcolumns",
    "contents", "sectnum", "section-numbering", "header", "footer", "meta", "title",
    "target-notes", "program", "spelling:word-list", "spelling", "todolist",
    "graphviz", "graph", "digraph", "inheritance-diagram", "uml", "plantuml", "mermaid",
    "testsetup", "testcleanup", "toc", "include-toc", "image", "figure-placeholder",
    "ifconfig-hidden", "role-hidden", "todo",
)
_AUTODOC = (
    "automodule", "autoclass", "autoexception", "autofunction", "automethod",
    "autoattribute", "autodata", "autoproperty", "autodecorator", "autosummary",
    "autoflask", "click", "argparse", "autoprogram", "autoenum", "autopydantic_model",
)
_OBJECTS = (
    "function", "class", "method", "staticmethod", "classmethod", "attribute", "data",
    "exception", "decorator", "decoratormethod", "property", "type", "envvar", "describe",
    "object", "option", "cmdoption", "confval", "setting", "event", "opcode", "pdbcommand",
    "2to3fixer", "rst:directive", "rst:role", "rst:directive:option",
    "macro", "member", "var", "struct", "union", "enum", "enumerator", "namespace", "concept",
    "fixture",
)
_DOMAINS = ("py", "c", "cpp", "js", "std", "rst")
_KEPT = (
    "glossary", "hlist", "tabs", "tab-set", "grid", "grid-item", "grid-item-card", "card",
    "ifconfig", "centered", "rst-class", "cssclass", "container", "div", "doctest",
    "testcode", "testoutput", "productionlist", "tab-set-code",
)


def _table() -> dict[str, type[Directive]]:
    table: dict[str, type[Directive]] = {}
    for name in _DROPPED:
        table[name] = Dropped
    for name in _AUTODOC:
        table[name] = Autodoc
        table[f"py:{name}"] = Autodoc
    for name in _OBJECTS:
        table[name] = Describe
        for domain in _DOMAINS:
            table[f"{domain}:{name}"] = Describe
    for name in _KEPT:
        table[name] = Kept
    table.update({
        "code-block": CodeBlock, "sourcecode": CodeBlock, "code": CodeBlock,
        "literalinclude": LiteralInclude, "include": Include, "raw": Raw,
        "csv-table": SafeCSVTable, "date": Date, "highlight": Highlight,
        "seealso": SeeAlso, "only": Only, "tab": Tab, "group-tab": Tab, "tab-item": Tab,
        "dropdown": Tab, "code-tab": CodeTab,
    })
    for name in VERSION_LABELS:
        table[name] = VersionChange
    return table


TABLE = _table()


def _lookup(original):
    def directive(name, language_module, document):
        key = name.lower()
        if key in TABLE:
            return TABLE[key], []
        found, messages = original(name, language_module, document)
        if found is not None:
            return found, messages
        return Unknown, []

    return directive


@contextlib.contextmanager
def registered():
    """docutils' registries with Sphinx's names for the time of one parse, then as they were."""
    saved_directives = dict(directives._directives)
    saved_roles = dict(roles._roles)
    original_directive, original_role = directives.directive, roles.role
    directives.directive = _lookup(original_directive)
    roles.role = rst_roles.lookup(original_role)
    try:
        yield
    finally:
        directives.directive, roles.role = original_directive, original_role
        directives._directives.clear()
        directives._directives.update(saved_directives)
        roles._roles.clear()
        roles._roles.update(saved_roles)

