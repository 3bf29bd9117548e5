"""API reference pages read from the repository's Python source, never imported (issue 37).

mkdocstrings ``::: package.module`` lines and Sphinx ``automodule``/``autoclass``/``autofunction``/
``automethod``/``autoattribute``/``autosummary`` directives stand for text the site generator gets
by importing the code, which a CI builder must never do. This package reads the same objects
statically with griffe (``sources``: module files through the page's include door, visited, never
executed), chooses members as the site's options say (``options``), and renders them as the
Markdown of the page (``render``, ``signature``, ``docstrings``), bounded (``limits``). The two
hooks are the generators' own: ``mkdocstrings`` for ``:::`` lines and ``autodoc`` for Sphinx.

State that lives for a build is one ``sources.ApiReference``, made once per build with the site
(``ingest.engine.with_site``), never a module-level cache.
"""
