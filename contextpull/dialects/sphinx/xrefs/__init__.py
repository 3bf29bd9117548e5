"""What a Sphinx cross-reference shows (issue 26, "Markup to meaning"): a ``:doc:``'s page title
(``doc_titles``), a ``:ref:``'s section title from the site's label table (``labels``, over the
line scan in ``label_scan``).
"""
