"""Where an ESM ``import``/``export`` statement of an MDX page ends (``mdx_source``: the
statement taken out, and the template literals inside one held). MDX reads one ESM block to a
blank line; the page reader ends a statement earlier, where its brackets balance and the next
line starts no continuation, so prose written right under an import is not lost.
"""

from __future__ import annotations

import re

# A line that goes on the statement above it: indented, or opening with a bracket or ``.``.
CONTINUES = re.compile(r"[ \t}\])(.]")
# Words after which a statement cannot have ended: a formatter that wraps
# ``import A from './a.md'; import`` / ``B from './b.md';`` (React Native's pages) leaves the
# second statement's name at the margin of the next line, still the same ESM block to MDX.
_UNFINISHED = frozenset({"import", "export", "from", "as", "type", "default", "const", "let", "var"})


def continues(line: str, following: str, wrapped: bool) -> bool:
    """Whether ``following`` (not blank) goes on the statement whose last line so far is
    ``line``: it starts with a continuation (an indent, a bracket, ``.``); with ``wrapped``,
    also when it starts with ``from`` or ``line`` stops on a word or sign that needs more
    (``import``, ``as``, ``,``, ``=``). ``--dialect plain`` reads without it: its stores stay
    what they were."""
    if CONTINUES.match(following):
        return True
    if not wrapped:
        return False
    if following.startswith(("from ", "from'", 'from"')):
        return True
    end = line.rstrip()
    if end.endswith((",", "=", "*")):
        return True
    last = end.rsplit(None, 1)[-1] if end else ""
    return last.rsplit(";", 1)[-1] in _UNFINISHED
