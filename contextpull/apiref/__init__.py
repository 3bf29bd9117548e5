"""API reference pages read from the repository's Python source, never imported (issue 37).

mkdocstrings ``::: package.module`` lines and Sphinx ``automodule``/``autoclass``/``autofunction``/
``automethod``/``autoattribute``/``autosummary`` directives stand for text the site generator gets
by importing the code, which a CI builder must never do. This package reads the same objects
statically with griffe (``sources``: module files through the page's include door, visited, never
executed), chooses members as the site's options say (``options``), and renders them as the
Markdown of the page (``render``, ``signature``, ``docstrings``), bounded (``limits``). The two
hooks are the generators' own: ``mkdocstrings`` for ``:::`` lines and ``autodoc`` for Sphinx.

State that lives for a build is one ``sources.ApiReference``, kept by the site's reader
(``dialects.site_reader``) once per build and process, never a module-level cache. The two hooks'
glue is the generators' own: ``dialects/mkdocs/mkdocstrings.py`` and ``dialects/sphinx/autodoc.py``;
this room imports no dialect.
"""


def preload(now: bool = True) -> bool:
    """Whether API pages can be read from source here: False where griffelib is missing (it
    needs Python 3.11), and ``:::`` and autodoc lines are then read as when the setting is off.
    With ``now``, griffe and the renderers are imported in the process that starts the workers,
    so a forked worker does not import them again (0.1 s on fastapi)."""
    if not now:
        from importlib.util import find_spec

        return find_spec("griffe") is not None
    try:
        import griffe  # noqa: F401
    except ImportError:
        return False
    from . import render, sources  # noqa: F401

    return True
