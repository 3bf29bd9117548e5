"""Which directive and role names mean what, for the time of one docutils parse (issue 26).

What a name means is ``directive_names``' tables, which the MyST reader shares; this module maps
each meaning to its docutils stand-in.

docutils keeps its registries in module globals, so Sphinx's names are put in while one document
is parsed and the registries are restored afterwards, as Sphinx's ``docutils_namespace()`` does;
``rst.read`` holds a lock around it. A name nobody lists here still parses: its body is kept
(``Unknown``), so no directive turns a page into an error message.
"""

from __future__ import annotations

import contextlib

from docutils.parsers.rst import Directive, directives, roles

from .. import directive_names as names
from . import roles as rst_roles
from .directives import (
    Autodoc, Centered, CodeBlock, Date, Describe, Dropped, Highlight, Kept, Only, Productions,
    Raw, TestCode, ExampleCode, Unknown,
)
from .includes import Include, LiteralInclude, SafeCSVTable
from ...syntax.labels import VERSION_LABELS
from .labelled import CodeTab, Glossary, SeeAlso, Tab, VersionChange

def _table() -> dict[str, type[Directive]]:
    """Each name of ``directive_names``' shared tables to its stand-in, then the names whose
    rendering is rst's own."""
    table: dict[str, type[Directive]] = {}
    for name in names.DROPPED:
        table[name] = Dropped
    for name in names.AUTODOC:
        table[name] = Autodoc
        table[f"py:{name}"] = Autodoc
    for name in names.OBJECTS:
        table[name] = Describe
        for domain in names.OBJECT_DOMAINS:
            table[f"{domain}:{name}"] = Describe
    for name in names.KEPT:
        table[name] = Kept
    for name in names.CODE:
        table[name] = TestCode
    table["click:example"] = ExampleCode
    table.update({
        "code-block": CodeBlock, "sourcecode": CodeBlock, "code": CodeBlock,
        "literalinclude": LiteralInclude, "include": Include, "raw": Raw,
        "csv-table": SafeCSVTable, "date": Date, "highlight": Highlight,
        "seealso": SeeAlso, "only": Only, "code-tab": CodeTab, "centered": Centered,
        "productionlist": Productions, "glossary": Glossary,
    })
    for name in names.TABS:
        table[name] = Tab
    for name in VERSION_LABELS:
        table[name] = VersionChange
    table.update(_collapsible_admonitions())
    return table


def _collapsible_admonitions() -> dict[str, type[Directive]]:
    """docutils' admonitions taking Sphinx 8.2's ``:collapsible:`` option: docutils alone refuses
    an option it does not know, and the whole admonition, body and all, was lost."""
    from docutils.parsers.rst.directives import admonitions

    out: dict[str, type[Directive]] = {}
    for name in ("admonition", "attention", "caution", "danger", "error", "hint", "important", "note", "tip", "warning"):
        base = getattr(admonitions, name.capitalize())
        out[name] = type(base.__name__, (base,), {"option_spec": {**base.option_spec, "collapsible": directives.unchanged}})
    return out


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

