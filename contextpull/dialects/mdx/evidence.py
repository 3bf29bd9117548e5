"""Whether a ``.md`` page carries MDX, judged by its content (issue 36, "MDX-in-Markdown chosen
by content"): with the ``auto`` setting and no generator configuration found, a Markdown page
that shows MDX's own syntax is read through the MDX rules, and the report names the guess with
its evidence. Many Next.js and custom React sites keep MDX in ``.md`` files with no generator
configuration to say so.

The rule is strict, so plain Markdown never reads differently: only text outside fenced code,
inline code spans, HTML comments and indented code lines counts, and only these:

- **JSX components**: a tag whose name starts with a capital letter (``<Note>``, ``<Tabs.Tab>``)
  at the start of a line or after a space, ``(`` or ``>``, that is closed, by ``/>`` before the
  tag's next ``<`` or ``>``, or by a ``</Name>`` anywhere in the page. HTML is lower case, so
  ``<div>``, ``<br>`` and ``<details>`` are not evidence; neither is an unclosed ``<T>`` in prose
  (``List<String>``, ``<Enter>``).
- **{/* */} comments**: ``{/*`` closed by a later ``*/}``.
- **import lines**: a line at the margin that is an ESM statement MDX would take: ``import X
  from '...'``, ``import '...'``, ``export const|let|var|function|default``.

A byte pattern rules out most pages before anything is decoded, and every scan is one pass.
"""

from __future__ import annotations

import re

from ..page_sample import heads
from ..syntax.fences import outside_inline_code, split_code
from .mdx_source import blank_comments

JSX = "JSX components"
COMMENTS = "{/* */}"
IMPORTS = "import lines"
KINDS = (JSX, COMMENTS, IMPORTS)

_QUICK = re.compile(rb"<[A-Z]|\{/\*|^(?:import|export)\s", re.M)
_OPEN = re.compile(r"<([A-Z]\w*(?:\.[A-Za-z_]\w*)*)(?=[\s/>])")
_BEFORE_TAG = frozenset(" \t\n\r(>")
_SELF_CLOSED = re.compile(r"[^<>]*/>")
_CLOSE = re.compile(r"</([A-Z][\w]*(?:\.[A-Za-z_][\w]*)*)\s*>")
# These two are searched for in "\n" + text, each after a newline: a pattern that opens with ``^``
# is tried at every position, one that opens with a character is searched for (4x faster on
# react.dev). No match ends with a newline, so none takes the newline the next one opens with.
_ESM = re.compile(
    r"""\n(?:import\s[^\n]*?\bfrom\s*['"]|import\s*['"]|export\s+(?:const|let|var|function|default)\b)"""
)
_INDENTED = re.compile(r"\n(?: {4}|\t)[^\n]*")


def evidence(data: bytes) -> dict[str, int]:
    """{kind: how many} of the MDX evidence in one page's bytes (module docstring); {} for none."""
    if not _QUICK.search(data):
        return {}
    text = data.decode("utf-8", "replace")
    prose: list[str] = []
    for is_code, chunk in split_code(text):
        if not is_code:
            outside_inline_code(blank_comments(chunk), lambda part: prose.append(part) or part)
    return _count(_INDENTED.sub("\n", "\n" + "\n".join(prose))[1:])


def seen_in(docs: str) -> bool:
    """Whether one of the first pages under ``docs`` (``page_sample.heads``) shows MDX. It
    decides only whether a worker reads the site (``ingest.workers.workers_for``), never how a
    page is read, so a sample serves."""
    return any(evidence(head) for head in heads(docs))


def _count(text: str) -> dict[str, int]:
    found: dict[str, int] = {}
    closed = set(_CLOSE.findall(text)) if "</" in text else set()
    jsx = 0
    for m in _OPEN.finditer(text):
        at = m.start()
        if at and text[at - 1] not in _BEFORE_TAG:
            continue
        if m.group(1) in closed or _SELF_CLOSED.match(text, m.end()):
            jsx += 1
    if jsx:
        found[JSX] = jsx
    comments, i = 0, text.find("{/*")
    while i >= 0:
        end = text.find("*/}", i + 3)
        if end < 0:
            break  # no later opener can close either
        comments += 1
        i = text.find("{/*", end + 3)
    if comments:
        found[COMMENTS] = comments
    imports = len(_ESM.findall("\n" + text))
    if imports:
        found[IMPORTS] = imports
    return found


def summary(pages: int, by_kind: dict[str, int]) -> str:
    """``mdx guessed for 212 .md pages: JSX components (180), {/* */} (40), import lines (12)``:
    the pages read as MDX, and how many of them showed each kind of evidence."""
    kinds = ", ".join(f"{kind} ({by_kind[kind]})" for kind in KINDS if by_kind.get(kind))
    return f"mdx guessed for {pages} .md page{'s' if pages != 1 else ''}: {kinds}"
