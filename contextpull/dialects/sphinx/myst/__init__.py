"""MyST Markdown, the Sphinx dialect's ``prepare`` (issue 26): a page's lines converted
(``converter``), its directives by name (``directives``), over the line rules MyST takes from
CommonMark (``lines``).
"""
