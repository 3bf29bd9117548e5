"""Sphinx roles reduced to the text the rendered page shows (issue 26, "Markup to meaning").

``:func:`~flask.Flask.url_for``` shows ``url_for()`` in code type; ``:ref:`text <label>``` shows
"text"; ``:rfc:`2616``` shows "RFC 2616". A ``:ref:`` without a title shows the title of the
section its label stands before, found in this document or in the site's label table
(``xrefs.labels``); a ``:doc:`` without one, the title of the document it names
(``xrefs.doc_titles``). A role nobody here knows keeps its text (the explicit title when there
is one), noted ``converted``.
"""

from __future__ import annotations

import re

from docutils import nodes, utils

from .xrefs.doc_titles import doc_title

# The attribute of a ``:ref:`` without a title: the label whose section title the page shows.
REF_LABEL = "contextpull-ref"
REF_LINE = "contextpull-ref-line"

_EXPLICIT = re.compile(r"^(.+?)\s*<([^<>]*)>$", re.DOTALL)

# Roles the page shows in code type (Sphinx's xref roles for code objects and the literal ones).
_CODE = {
    "func", "meth", "class", "attr", "data", "exc", "mod", "obj", "const", "type", "member",
    "macro", "var", "struct", "union", "enum", "enumerator", "envvar", "option", "file", "samp",
    "kbd", "code", "literal", "token", "keyword", "expr", "texpr", "any", "confval", "setting",
    "directive", "role", "program", "command", "makevar", "regexp", "mimetype", "newsgroup",
    "fixture", "event",
}
_CALLABLE = {"func", "meth"}
_OBJECT_ROLES = _CODE - {"file", "samp", "kbd", "code", "literal", "program", "command"}


def display(name: str, text: str, config: dict) -> tuple[str, bool]:
    """(what the page shows, whether in code type) for role ``name`` on ``text``."""
    base = name.lower().rsplit(":", 1)[-1]
    match = _EXPLICIT.match(text)
    if match and base not in ("abbr", "samp", "kbd", "math", "code", "literal"):
        return match.group(1).strip(), base in _CODE
    if base in ("pep", "rfc"):
        return f"{base.upper()} {text.split('#', 1)[0].strip()}", False
    if base == "abbr":
        return text, False
    if base == "menuselection":
        return text.replace("-->", ">").replace("&", ""), False
    if base == "guilabel":
        return text.replace("&&", "\0").replace("&", "").replace("\0", "&"), False
    if base == "samp":
        return text.replace("{", "").replace("}", ""), True
    extlinks = config.get("extlinks")
    if isinstance(extlinks, dict) and isinstance(extlinks.get(base), (tuple, list)):
        spec = extlinks[base]
        caption = spec[1] if len(spec) > 1 else None
        if isinstance(caption, str) and "%s" in caption:
            return caption.replace("%s", text), False
        return text, False
    shown = text
    if base in _OBJECT_ROLES or base in ("ref", "doc", "term", "numref", "download", "any"):
        if shown.startswith("!"):
            shown = shown[1:]
        if shown.startswith("~"):
            shown = shown[1:].rsplit(".", 1)[-1]
        elif shown.startswith(".") and base in _OBJECT_ROLES:  # ".Request": a search modifier
            shown = shown[1:]
    if base in _CALLABLE and config.get("add_function_parentheses", True) is not False:
        if not shown.endswith(")"):
            shown += "()"
    return shown, base in _CODE


def _literal(rawtext: str, text: str) -> nodes.Node:
    return nodes.literal(rawtext, text)


def _role(name: str):
    def role(role_name, rawtext, text, lineno, inliner, options=None, content=None):
        state = inliner.document.settings.contextpull
        effective = name or state.default_role
        shown, code = display(effective or "title-reference", utils.unescape(text), state.config)
        source, line = inliner.reporter.get_source_and_line(lineno)
        # ``external+python:ref``: intersphinx's, whose titles are in an inventory never fetched.
        local = not name.startswith("external")
        ref = local and name.rsplit(":", 1)[-1] == "ref" and _EXPLICIT.match(text) is None
        if name and not ref:  # a ref is noted when it is resolved (rst_nodes)
            state.note("rst role", "converted", source, line)
        if local and name.rsplit(":", 1)[-1] == "doc" and _EXPLICIT.match(text) is None:
            title = doc_title(state.ctx, utils.unescape(text).strip(), state.doc_folder,
                              state.source_dir, state.doc_titles)
            shown = title or shown
        if ref:
            # The page shows the title of the section the label names, in this document or
            # another: rst_nodes resolves it once the document is whole (REF_LABEL).
            node = nodes.inline(rawtext, shown)
            node[REF_LABEL] = shown
            node[REF_LINE] = state.line_in_document(source, line)
            return [node], []
        return [_literal(rawtext, shown) if code else nodes.Text(shown)], []

    return role


# docutils' own roles that already show what the page shows.
_NATIVE = {"emphasis", "strong", "literal", "subscript", "sub", "superscript", "sup",
           "title-reference", "title", "t", "math", "raw"}


def lookup(original):
    """``roles.role`` with Sphinx's names, and every unknown name keeping its text."""

    def role(role_name, language_module, lineno, reporter):
        from docutils.parsers.rst import roles

        normname = role_name.lower()
        if normname in roles._roles or normname in _NATIVE:  # a `role` directive's, or docutils'
            return original(role_name, language_module, lineno, reporter)
        return _role(normname), []

    return role
