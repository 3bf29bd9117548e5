"""The one tokeniser rule shared by the writer and every reader (store-format.txt, "Tokenisation").

The FTS table treats ``-``, ``_`` and ``.`` as token characters so that identifiers such as
``tx-4419``, ``3.12`` and ``tool.uv.sources`` stay whole. Punctuation that merely touches a word
(``--no-cache``, ``cache.``) must not become part of the token, so the writer normalises the
indexed columns and readers normalise query text with the same function.
"""

from __future__ import annotations

import re

# A run of token characters as unicode61 sees them with tokenchars '-_.'.
_TOKEN_RUN = re.compile(r"[\w.\-]+")
_EDGE = "-_."
# store-format.txt: query tokens are a letter or digit followed by letters, digits, . _ -
QUERY_TOKEN = re.compile(r"[^\W_][\w.\-]*")


def _strip_edges(match: re.Match[str]) -> str:
    return match.group(0).strip(_EDGE)


def normalize_for_fts(text: str) -> str:
    """Remove every run of ``-``, ``_``, ``.`` at the start or end of a token.

    A token made only of those characters disappears; its surrounding whitespace is kept, so
    positions of the other tokens, and snippets built from them, are unaffected.
    """
    return _TOKEN_RUN.sub(_strip_edges, text)


def query_tokens(text: str) -> list[str]:
    """Tokens of a query as store-format "Tokenisation" defines them, in order, duplicates kept."""
    out = []
    for raw in QUERY_TOKEN.findall(normalize_for_fts(text.lower())):
        token = raw.strip(_EDGE)
        if token:
            out.append(token)
    return out
