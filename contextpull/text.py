"""The one tokeniser rule shared by the writer and every reader (store-format.txt, "Tokenisation").

The FTS table treats ``-``, ``_`` and ``.`` as token characters so that identifiers such as
``tx-4419``, ``3.12`` and ``tool.uv.sources`` stay whole. Punctuation that merely touches a word
(``--no-cache``, ``cache.``) must not become part of the token, so the writer normalises the
indexed columns and readers normalise query text with the same function.
"""

from __future__ import annotations

import re

_EDGE = "-_."
# A maximal run of the edge characters, and a letter or digit (a word character that is not one).
_EDGE_RUN = re.compile(r"[-_.]+")
_WORD = re.compile(r"[^\W_]")
# store-format.txt: query tokens are a letter or digit followed by letters, digits, . _ -
QUERY_TOKEN = re.compile(r"[^\W_][\w.\-]*")


def normalize_for_fts(text: str) -> str:
    """Strip runs of ``-``, ``_``, ``.`` where they touch a word on one side only.

    Each maximal run of those characters is judged by its two neighbours (never edge
    characters themselves; the text's ends count as non-word):

    - a letter or digit on both sides: the run is inside a token (``tx-4419``, ``3.12``) and stays;
    - a letter or digit on one side only: the run is a token's edge (``--no-cache``, ``cache.``)
      and is removed;
    - neither (``|---|``, ``- item``, `` `.` ``): the run is a token of its own and stays as it
      is, except that a run holding an underscore becomes a single ``_``.

    This is what the published 0.2.1 writer indexes, which store-format "Tokenisation" words as
    "every run at the start or end of a token is removed"; docs/agreement.md has why the
    punctuation-only tokens stay. Removing a run never touches another run's neighbours, so the
    runs can be judged independently; whitespace is never touched, so the positions of the other
    tokens, and the snippets built from them, are as in the verbatim text.
    """
    if "-" not in text and "_" not in text and "." not in text:
        return text
    end = len(text)

    def judge(run: re.Match[str]) -> str:
        start, stop = run.span()
        before = start > 0 and _WORD.match(text, start - 1) is not None
        after = stop < end and _WORD.match(text, stop) is not None
        if before and after:
            return run.group(0)
        if before or after:
            return ""
        return "_" if "_" in run.group(0) else run.group(0)

    return _EDGE_RUN.sub(judge, text)


def query_tokens(text: str) -> list[str]:
    """Tokens of a query as store-format "Tokenisation" defines them, in order, duplicates kept."""
    out = []
    for raw in QUERY_TOKEN.findall(normalize_for_fts(text.lower())):
        token = raw.strip(_EDGE)
        if token:
            out.append(token)
    return out
