"""Markdown inline links and images as the text they show, in one pass (issue 35, "Linear time").

``[text](url)`` and ``![alt](src)`` become ``text`` and ``alt``: the matches of
``!?\\[([^\\]]*)\\]\\([^)]*\\)`` replaced by their first group, found with ``str.find``. From a ``[``
the text runs to the first ``]``, which a ``(`` must follow, and the target to the first ``)``;
a later ``[`` before that ``]`` meets the same ``]``, so it fails where this one did, and with
no ``]`` or ``)`` left nothing after closes either. The pattern tried every ``[`` of a run to the
end of the text. Used by the Sphinx label table (titles) and the summary cleaner.
"""

from __future__ import annotations


def links_as_text(text: str) -> str:
    out: list[str] = []
    last = at = 0  # copied up to ``last``; the next link may start at ``at``
    while (bracket := text.find("[", at)) >= 0:
        close = text.find("]", bracket + 1)
        if close < 0:
            break
        if not text.startswith("(", close + 1):
            at = close + 1
            continue
        end = text.find(")", close + 2)
        if end < 0:
            break
        start = bracket - 1 if bracket > at and text[bracket - 1] == "!" else bracket
        out += [text[last:start], text[bracket + 1 : close]]
        last = at = end + 1
    return "".join(out) + text[last:]
