"""The Docusaurus dialect (issue 26): its titles and callouts; the MDX it reads is ``dialects.mdx``.
"""
