"""The HTML GitBook writes into a space's Markdown, as a reader of the published page sees it
(issue 36): GitBook stores what its editor cannot say in Markdown as HTML.

- ``<pre class="language-x"><code class="lang-x">...</code></pre>`` (a code block with bold or
  linked parts): a fenced block in ``x``, the tags inside it gone, entities as characters;
- tables (``<table data-view="cards">`` and plain ones): a row a line, its non-empty cells
  joined by `` | ``; ``<br>`` a line break; ``<p>``, ``<figure>``, ``<figcaption>`` blocks apart;
- every other tag goes and its text stays, entities become characters (``&#x20;``), as the
  shared reading of HTML does (``syntax.markup.html_to_text``).

Every pattern is bounded and each ``<pre>`` is found once with ``str.find``: linear in the page.
"""

from __future__ import annotations

import html
import re

from ..syntax.fences import fenced, outside_code
from ..syntax.markup import html_to_text

CONSTRUCT = "gitbook html"
_LANGUAGE = re.compile(r"""class\s*=\s*["'](?:[^"'<>]*\s)?(?:language|lang)-([\w+#.-]{1,40})""")
_TAG = re.compile(r"<[^<>]{0,2000}>")
_ROW_END = re.compile(r"</tr\s*>", re.I)
_CELL_END = re.compile(r"</t[dh]\s*>", re.I)
_BREAK = re.compile(r"<br\s*/?>", re.I)
_BLOCK_END = re.compile(r"</(?:p|figure|figcaption|table|thead|tbody|div)\s*>", re.I)
# A run of bars and blanks is tried from its first character only (the look-behind): from each
# of its characters it took time quadratic in a line of "| | | ... x".
_EMPTY_CELLS = re.compile(r"(?<![ \t|])(?:[ \t]*\|)+[ \t]*(?=\n|\Z)|^[ \t]*(?:\|[ \t]*)+", re.M)
_INNER_BARS = re.compile(r"\|(?:[ \t]*\|)+")


def read(text: str, ctx) -> str:
    """The page's HTML outside fenced code, as the page shows it (module docstring)."""
    if "<" not in text and "&" not in text:
        return text
    return outside_code(text, lambda prose: _prose(prose, ctx))


def _prose(text: str, ctx) -> str:
    text = _code_blocks(text, ctx) if "<pre" in text else text
    if "<t" in text:
        text = _ROW_END.sub("\n", text)
        text = _CELL_END.sub(" | ", text)
    if "<br" in text:
        text = _BREAK.sub("\n", text)
    if "</" in text:
        text = _BLOCK_END.sub("\n\n", text)
    shown = html_to_text(text)
    if shown != text:
        ctx.note(CONSTRUCT, "converted", 0)
    if "|" in shown:
        shown = _INNER_BARS.sub("|", _EMPTY_CELLS.sub("", shown))
    return shown


def _code_blocks(text: str, ctx) -> str:
    """Each ``<pre>...</pre>`` holding a ``<code>`` as a fenced block."""
    parts: list[str] = []
    last = 0
    at = text.find("<pre")
    while at != -1:
        end = text.find("</pre>", at)
        if end == -1:
            break
        block = text[at:end]
        code_at = block.find("<code")
        opened = block.find(">", code_at) if code_at != -1 else -1
        if opened == -1:
            at = text.find("<pre", at + 4)
            continue
        body = block[opened + 1 :]
        body = body[: body.rfind("</code>")] if "</code>" in body else body
        language = _LANGUAGE.search(block[:opened])
        code = html.unescape(_TAG.sub("", body)).strip("\n")
        parts += [text[last:at], "\n\n" + fenced(code, language.group(1) if language else "") + "\n\n"]
        ctx.note(CONSTRUCT, "converted", 0, "code block")
        last = end + len("</pre>")
        at = text.find("<pre", last)
    parts.append(text[last:])
    return "".join(parts)
