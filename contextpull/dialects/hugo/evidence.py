"""Hugo pages kept without their site (issue 36, "read as a new user would"): a project whose
documentation is rendered by a Hugo site in another repository keeps only ``docs/`` with its
pages (python-poetry/poetry: ``{{< tabs >}}``, ``{{% note %}}`` in 51 % of its sections, no
``hugo.toml`` anywhere in the repository). With ``auto`` and no generator configuration found,
such a folder is read as Hugo, and the report says it was guessed and from what.

The rule is strict, so a plain folder never reads differently: only shortcode calls count (a
``{{<`` or ``{{%`` tag opening a call by name: ``shortcodes.token``, the reading Hugo's pages
get), only outside fenced code and inline code spans (``fences.tags_outside_code``: a page
documenting Hugo shows them in code), and at least ``MIN_CALLS`` of them in the sample of the
first pages (``page_sample``). Liquid and Jinja tags (``{{ x }}``, ``{% x %}``) are not Hugo's.
"""

from __future__ import annotations

from ..page_sample import heads
from ..syntax.fences import tags_outside_code
from ..syntax.template_tags import HUGO
from .shortcodes import token

MIN_CALLS = 2
_OPENERS = (b"{{<", b"{{%")


def shortcodes_in(docs: str) -> str | None:
    """What shows the first pages under ``docs`` are Hugo's (module docstring), or None."""
    pages = found = 0
    for head in heads(docs, (".md", ".markdown")):
        if not any(opener in head for opener in _OPENERS):
            continue
        n = sum(1 for _ in tags_outside_code(head.decode("utf-8", "replace"), HUGO, _call))
        if n:
            pages, found = pages + 1, found + n
    if found < MIN_CALLS:
        return None
    return f"{found} Hugo shortcode calls in {pages} of the first pages"


def _call(tag):
    """The tag when it opens a call (``{{< /x >}}`` closes one)."""
    opened = token(tag)
    return opened if opened is not None and not opened.closing else None
