"""MDX as its page shows it (issue 26, "Markup to meaning"): read in every dialect for ``.mdx``
files, and for every Markdown page of a Docusaurus site.
"""
