"""Dialects: what a site generator's source means to a reader of its rendered page (issue 26).

A dialect is one generator's reading of the shared formats (Markdown, MDX, reStructuredText,
notebooks): which files it includes, which markup it renders and how, where its titles come from.
Each dialect is a small module that turns its syntax into the one block stream of
``contextpull.parsing`` (pandoc's readers and filters, shared/style/dialects.md), registered by its
path in one table (``registry``). What every dialect shares is here; what one generator or format
family alone reads is in its sub-package (``sphinx``, ``mdx``, ``mkdocs``, ``mdbook``, ``hugo``,
``jekyll``, ``docusaurus``). A generator is one row of the ``registry`` table and one ``Reader``
object (``site_reader``), opened once per build and holding what the build works out about the
site. Every file a build reads beside a page goes through the repository-root guard: a
document's own reads through ``includes`` (which records them as its dependencies), the site's
(configuration, page rules, folder walks, probes) through ``door``; nothing is executed,
rendered or fetched.

``plain`` is the published writer's reading, byte for byte; a folder without a generator's
configuration gets it under ``auto``.
"""
