"""Hugo pages kept without their site (issue 36, "read as a new user would"): a project whose
documentation is rendered by a Hugo site in another repository keeps only ``docs/`` with its
pages (python-poetry/poetry: ``{{< tabs >}}``, ``{{% note %}}`` in 51 % of its sections, no
``hugo.toml`` anywhere in the repository). With ``auto`` and no generator configuration found,
such a folder is read as Hugo, and the report says it was guessed and from what.

The rule is strict, so a plain folder never reads differently: only shortcode calls count (a
``{{<`` or ``{{%`` tag with a name, closed by its own delimiter: ``template_tags.HUGO``, the
lexer the Hugo reading itself uses), only outside fenced code and inline code spans (a page
documenting Hugo shows them in code), and at least ``MIN_CALLS`` of them in the sample of the
first pages (``page_sample``). Liquid and Jinja tags (``{{ x }}``, ``{% x %}``) are not Hugo's.
"""

from __future__ import annotations

from ..page_sample import heads
from ..syntax.fences import outside_inline_code, split_code
from .shortcodes import calls

MIN_CALLS = 2
_OPENERS = (b"{{<", b"{{%")


def shortcodes_in(docs: str) -> str | None:
    """What shows the first pages under ``docs`` are Hugo's (module docstring), or None."""
    pages = found = 0
    for head in heads(docs, (".md", ".markdown")):
        if not any(opener in head for opener in _OPENERS):
            continue
        prose: list[str] = []
        for is_code, chunk in split_code(head.decode("utf-8", "replace")):
            if not is_code:
                outside_inline_code(chunk, lambda part: prose.append(part) or part)
        n = sum(1 for call in calls("\n".join(prose)) if not call.name.startswith("/"))
        if n:
            pages, found = pages + 1, found + n
    if found < MIN_CALLS:
        return None
    return f"{found} Hugo shortcode calls in {pages} of the first pages"
