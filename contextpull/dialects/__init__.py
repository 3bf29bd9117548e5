"""Dialects: what a site generator's source means to a reader of its rendered page (issue 26).

A dialect is one generator's reading of the shared formats (Markdown, MDX, reStructuredText,
notebooks): which files it includes, which markup it renders and how, where its titles come from.
Each dialect is a small module that turns its syntax into the one block stream of
``contextpull.parsing`` (pandoc's readers and filters, shared/style/dialects.md), registered by its
path in one table (``registry``). What every dialect shares is here; what one generator or format
family alone reads is in its sub-package (``sphinx``, ``mdx``, ``mkdocs``, ``mdbook``, ``hugo``,
``jekyll``, ``docusaurus``). Every file a dialect reads beyond the document goes through one resolver
(``includes``) with the repository-root guard; nothing is executed, rendered or fetched.

``plain`` is the published writer's reading, byte for byte; a folder without a generator's
configuration gets it under ``auto``.
"""
