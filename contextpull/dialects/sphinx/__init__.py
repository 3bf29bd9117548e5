"""The Sphinx dialect (issue 26): its hooks (``dialect``), reStructuredText through docutils with
Sphinx's names (``rst``), MyST Markdown (``myst``), and what both syntaxes share: the directive
names (``directive_names``), what a role shows (``role_text``), ``literalinclude``'s slicing
(``literal_include``), autodoc read from source (``autodoc``), cross-references (``xrefs``) and the
sources a site excludes (``pages``).
"""
