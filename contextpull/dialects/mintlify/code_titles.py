"""Code block titles (issue 36): Mintlify draws a fence's meta after the language as the block's
header (```` ```bash npm ````, ```` ```javascript helloWorld.js ````), and inside a
``<CodeGroup>`` as the tab that selects it, so the title is the label a reader sees above the
code. Options on the same line are not shown as text: ``wrap``, ``lines``, ``expandable``,
``{1,3-4}`` line highlights and ``key=value`` settings (``icon="js"``, ``highlight={2}``);
``title="x"`` names the title too.

Runs after the MDX rules, on Markdown: every fenced block found by the shared scanner
(``syntax.fences``) whose title is not empty gets a line ``Title:`` before it, at its indentation;
the code itself is never edited.
"""

from __future__ import annotations

import re

from ..syntax.fences import open_fence, split_code

# Anchored at a word's start and braces closed before the next opener, so each character is tried
# once: a run of 60,000 word characters took 20 s when every position in it was a start.
_OPTION = re.compile(r"""(?<![\w-])([\w-]+)=(?:"([^"\n]*)"|'([^'\n]*)'|\{[^{}\n]*\}|\S*)|\{[^{}\n]*\}""")
_FLAGS = frozenset({"wrap", "lines", "expandable"})


def title(info: str) -> str:
    """The title a fence's info string shows ('' for none): the words after the language."""
    words = info.split(None, 1)
    if len(words) < 2:
        return ""
    rest = words[1]
    named = ""

    def option(m: re.Match) -> str:
        nonlocal named
        if m.group(1) == "title":
            named = m.group(2) if m.group(2) is not None else (m.group(3) or "")
        return " "

    rest = _OPTION.sub(option, rest)
    if named.strip():
        return " ".join(named.split())
    return " ".join(w for w in rest.split() if w not in _FLAGS)


def label_code(text: str) -> str:
    if "```" not in text and "~~~" not in text:
        return text
    out = []
    for is_code, chunk in split_code(text):
        if is_code:
            first = chunk.split("\n", 1)[0]
            fence = open_fence(first)
            name = title(fence.info) if fence is not None and not fence.lead.strip() else ""
            if name:
                out.append(f"\n{fence.lead}{name}:\n\n{chunk}")
                continue
        out.append(chunk)
    return "\n".join(out)
