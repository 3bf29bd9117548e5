"""The Jekyll dialect (issue 26): Liquid, and kramdown's extensions to Markdown.
"""
