"""Sphinx roles reduced to the text the rendered page shows (issue 26, "Markup to meaning").

``:func:`~flask.Flask.url_for``` shows ``url_for()`` in code type; ``:ref:`text <label>``` shows
"text"; ``:rfc:`2616``` shows "RFC 2616". A ``:ref:`` without a title shows the title of the
section its label stands before, found in this document or in the site's label table
(``xrefs.labels``); a ``:doc:`` without one, the title of the document it names
(``xrefs.doc_titles``). A role nobody here knows keeps its text (the explicit title when there
is one), noted ``converted``. What each role shows is ``role_text``'s rule, which MyST shares.
"""

from __future__ import annotations

from docutils import nodes, utils

from ..role_text import display, explicit
from ..xrefs.doc_titles import doc_path, doc_title, outside

# The attribute of a ``:ref:`` without a title: the label whose section title the page shows.
REF_LABEL = "contextpull-ref"
REF_LINE = "contextpull-ref-line"


def _literal(rawtext: str, text: str) -> nodes.Node:
    return nodes.literal(rawtext, text)


def _role(name: str):
    def role(role_name, rawtext, text, lineno, inliner, options=None, content=None):
        state = inliner.document.settings.contextpull
        effective = name or state.default_role
        shown, code = display(effective or "title-reference", text, state.config)
        source, line = inliner.reporter.get_source_and_line(lineno)
        # ``external+python:ref``: intersphinx's, whose titles are in an inventory never fetched.
        local = not name.startswith("external")
        titled = explicit(text) is not None
        ref = local and name.rsplit(":", 1)[-1] == "ref" and not titled
        if name and not ref:  # a ref is noted when it is resolved (rst.doctree)
            state.note("rst role", "converted", source, line)
        if local and name.rsplit(":", 1)[-1] == "doc" and not titled:
            target = utils.unescape(text).strip()
            if outside(doc_path(target, state.doc_folder, state.source_dir)):
                state.note("rst role", "unresolved", source, line, f":doc: outside the repository, not read: {target}")
            title = doc_title(state.ctx, target, state.doc_folder, state.source_dir, state.doc_titles)
            shown = title or shown
        if ref:
            # The page shows the title of the section the label names, in this document or
            # another: rst.doctree resolves it once the document is whole (REF_LABEL).
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
