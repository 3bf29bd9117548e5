"""Shiki's code notation, which VitePress renders: a comment ending a code line,
``# [!code highlight]``, ``<!-- [!code focus] -->``, ``// [!code word:Hello]``, marks the line and
is not shown. Those that only emphasise (``highlight``, ``focus``, ``word:``) go, and a line that
held nothing but one goes too. Those that say something of the line stay as written: ``++`` and
``--`` (the page shows ``+`` and ``-`` before the line, a diff an agent needs to read), ``warning``
and ``error`` (the line's colour); so does a comment that says more than its marker.

One pattern a line, anchored at its end, with bounded parts: linear in the block.
"""

from __future__ import annotations

import re

CONSTRUCT = "code notation"
# Tried only where a run of blanks begins (the look-behind): searched from each blank of a long
# run, the leading ``[ \t]*`` made a line of blanks quadratic.
_MARKER = re.compile(
    r"(?<![ \t])[ \t]*(?://|#|--|;|%|<!--|/\*|\{/\*)[ \t]*\[!code[ \t]+(?:highlight|hl|focus|word:[^\]\n]{1,80})(?::\d{1,4})?\]"
    r"[ \t]*(?:-->|\*/\}|\*/)?[ \t]*\Z"
)


def strip(raw: str) -> tuple[str, int]:
    """The fenced block ``raw`` without its notation comments, and how many there were. The
    fence lines themselves are never read."""
    lines = raw.split("\n")
    out = [lines[0]]
    count = 0
    for line in lines[1:]:
        found = _MARKER.search(line) if "[!code" in line else None
        if found is None:
            out.append(line)
            continue
        count += 1
        rest = line[: found.start()]
        if rest.strip():
            out.append(rest)
    return "\n".join(out), count
