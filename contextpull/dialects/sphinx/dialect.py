"""The Sphinx dialect: its Markdown is MyST (issue 26, "Formats"; MyST-Parser 5.1).

A Sphinx site's ``.rst`` goes through docutils (``rst.read``); its ``.md`` is MyST, Markdown
whose extensions are Sphinx's directives and roles in Markdown clothing. ``prepare`` (``myst``)
turns them into the plain Markdown the shared parser reads, with the same meanings ``rst.read``
gives their rst forms, so a page reads the same whichever syntax its author chose: what a
directive name means is ``directive_names``' tables and what a role shows is ``role_text``'s rule,
both shared with the rst reader.

- directive fences (```` ```{note} ````, ``:::{admonition} Title``) by name: admonitions and
  tabs as labelled text, ``code-block`` as a fence, ``include``/``literalinclude`` through
  ``ctx.include``, ``toctree`` and other navigation dropped, ``eval-rst`` through docutils, any
  other name keeping its body (noted ``converted``, or ``unresolved`` when no one defines it:
  ``directive_names``);
- roles (``{ref}`text <label>```) reduced to their text, as ``rst.roles`` reduces them, a
  ``{ref}`` without a title to its section's title (``xrefs.labels``);
- ``(label)=`` targets, ``%`` comments, ``+++`` breaks, HTML comments and raw HTML's tags (its
  text stays), which a reader never sees, dropped; ``{{ name }}`` substitutions resolved from
  ``myst_substitutions`` in conf.py.

Code fences are copied untouched: Markdown-extension syntax never edits code (the contract).
"""

from __future__ import annotations

from ..api import Context
from ..site_reader import SiteReader
from . import pages
from .pages import config_notes  # noqa: F401 - what conf.py left unread, said once (read.py)
from .myst.converter import Converter
from .myst.lines import squeeze, without_html_comments

NAME = "sphinx"


def prepare(text: str, ctx: Context) -> str:
    """MyST Markdown ``text`` as the Markdown the shared parser reads."""
    if "<!--" in text:
        text = without_html_comments(text)
    lines = text.split("\n")
    out = Converter(ctx).convert(lines, 1, None, None)
    return "\n".join(squeeze(out))


class Reader(SiteReader):
    """sphinx's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    prepare = staticmethod(prepare)
    page_rule = staticmethod(pages.skip)
    config_notes = staticmethod(config_notes)
