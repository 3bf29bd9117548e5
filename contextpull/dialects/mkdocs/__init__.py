"""The mkdocs dialect (issue 26): Material's blocks, the configuration's navigation titles, and
pymdownx snippets.
"""
