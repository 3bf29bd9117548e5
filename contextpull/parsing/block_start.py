"""Which text opens with a block the shared parser reads as one: a fence, a list item, a table
row, a heading. A label written before such a body (an admonition's, a docstring section's)
must stand on a line of its own, or the parser would read the block as the label's sentence.

It lives beside the parser, as ``fence_rule`` does, so that both writers of labels reach the one
rule: the dialects (``dialects/syntax/labels``) and the API pages, whose room imports no dialect
(``apiref/docstrings``).
"""

from __future__ import annotations

import re

_BLOCK_START = re.compile(r"[ \t]*(?:`{3,}|~{3,}|[-*+]\s|\d{1,9}[.)]\s|\||#{1,6}\s)")


def opens_block(text: str) -> bool:
    """True when ``text``'s first line is the start of a block (above), not of a sentence."""
    return _BLOCK_START.match(text) is not None
