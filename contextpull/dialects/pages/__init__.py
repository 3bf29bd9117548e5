"""Which files of a site are pages (issue 26): the hook a dialect offers (``hook``) and the
page rules of the generators whose rules read front matter or navigation (``rules``: Hugo,
Jekyll, mdBook).
"""
