"""The Sphinx dialect (issue 26): reStructuredText through docutils with Sphinx's names, and
MyST Markdown (``dialect``).
"""
