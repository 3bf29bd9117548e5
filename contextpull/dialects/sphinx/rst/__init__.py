"""reStructuredText as a Sphinx site renders it (issue 26, "Formats"): docutils' parse
(``read``) in windows of lines (``chunks``), with Sphinx's directives (``directives``,
``includes``, ``labelled``) and roles (``roles``) registered for the parse (``registry``), its
doctree written as the shared block stream (``doctree``); a page too large for docutils read line
by line (``lines``).
"""
