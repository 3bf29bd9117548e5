"""Markup every dialect shares, turned into what a reader of the rendered page sees (issue 26).

Two rules hold for all of it. Code keeps its text exactly: a rewrite of Markdown-extension syntax
never edits inside a fenced block or an inline code span (``split_code``, ``outside_code``; the
same masking docusaurus-plugin-llms does before its regexes). And what a page does not show goes
(HTML comments, heading ids, tag names) while what it shows stays (the text between tags, the body
of a callout behind its label).
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable

# A line opening a fenced block; group 1 is its marker (mkdocs matches its containers by it too).
FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}|~{3,})")
# A heading's attribute block at the end of an ATX line: { #id }, {#id .class key=v}, {: #id}.
_HEADING_ATTRS = re.compile(r"^(#{1,6}\s.*?)\s*\{:?\s*(?:[#.][\w:.-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|\S+))(?:\s+(?:[#.][\w:.-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|\S+)))*\s*\}\s*$")
# A tag a browser would treat as one: a letter after < (so "a < b" and "<https://x>" are not).
# Written so that no white space can be read two ways: the form with ``\s+[^<>]*?`` then
# ``\s*/?>`` took time cubic in a run of blanks after ``<a`` (60 s for 4,000 of them).
_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s[^<>]*|/)?>")
_BLOCK_START = re.compile(r"(?:[ \t]*(?:`{3,}|~{3,}|[-*+]\s|\d{1,9}[.)]\s|\||#{1,6}\s))")


def split_code(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into (is_code, chunk) runs; a code chunk is a whole fenced block, fences
    included, so joining the chunks gives back ``text`` exactly. An unclosed fence runs to the
    end, as the shared parser reads it. Fences are found by searching the text, not by walking
    its lines: every dialect cuts every page this way, several times, and most lines are prose."""
    if "```" not in text and "~~~" not in text:
        return [(False, text)]  # no line can open a fence: most included files, most chunks
    out: list[tuple[bool, str]] = []
    pos, end = 0, len(text)  # pos: where the first line not yet cut starts (past end: none left)
    while pos <= end:
        opener = FENCE_OPEN.match(text) if pos == 0 else None
        if opener is None:
            # from the newline that ends the line before: a pattern that starts with a literal
            # character is searched for quickly, one that starts with ``^`` is tried everywhere
            opener = _FENCE_LINE.search(text, max(pos - 1, 0))
            if opener is None:
                break
        start = text.rfind("\n", 0, opener.start(1)) + 1
        if start > pos:
            out.append((False, text[pos : start - 1]))  # the prose lines before, without their last newline
        line_end = text.find("\n", opener.end())
        closer = None if line_end < 0 else _closer(opener.group(1)).search(text, line_end)
        stop = end if closer is None else closer.end()
        out.append((True, text[start:stop]))
        pos = stop + 1
    if pos <= end or not out:
        out.append((False, text[pos:]))
    return out


# A line that opens a fence, found from the newline before it (``FENCE_OPEN`` is the rule for one
# line, and for the text's first).
_FENCE_LINE = re.compile(r"\n[ \t]*(`{3,}|~{3,})")


def _closer(marker: str) -> re.Pattern[str]:
    """The line that closes a fence opened by ``marker``, found from the newline before it: only
    the marker's character, at least as many, white space around (``str.isspace``, as ``re``'s
    ``\\s`` is). ``re`` keeps the few compiled ones (a marker's character and length)."""
    return re.compile(rf"\n[^\S\n]*{re.escape(marker[0])}{{{len(marker)},}}[^\S\n]*(?=\n|\Z)")


def fence(code: str, language: str) -> str:
    """``code`` as a fenced block whose fence is longer than any backtick run inside it, so the
    code cannot close it: the one rule for every dialect that writes code out as Markdown."""
    longest = max((len(run) for run in re.findall(r"`{3,}", code)), default=2)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{language}\n{code}\n{marks}"


def outside_code(text: str, fn: Callable[[str], str]) -> str:
    """``fn`` applied to every run of ``text`` outside fenced code; code runs untouched."""
    return "\n".join(chunk if is_code else fn(chunk) for is_code, chunk in split_code(text))


def outside_inline_code(text: str, fn: Callable[[str], str]) -> str:
    """``fn`` applied between inline code spans (```x```), the spans kept as written."""
    if "`" not in text:
        return fn(text)
    parts: list[str] = []
    last = 0
    for start, end in code_spans(text):
        parts.append(fn(text[last:start]))
        parts.append(text[start:end])
        last = end
    parts.append(fn(text[last:]))
    return "".join(parts)


def code_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each inline code span, left to right: the matches of
    ``(`+)(?:(?!\\1).)+?\\1`` (a run of backticks, one character or more none of which starts
    the same run, then the same run), found with ``str.find`` instead of by that pattern, which
    is slower on every page and takes time cubic in a long run of backticks (19 s for a line
    of 1,000 of them).

    Why the same spans: from a position ``m`` backticks before the end of its run, a width
    ``w <= m / 2`` fails at once (the run itself would start the content), and a wider one can
    close only after the run, so it closes exactly when a later run is ``w`` long or longer, at
    the first ``w`` backticks after the run. The pattern tries the widest first; a width no later
    run reaches is remembered, so it is not searched for again. In a run longer than
    ``_SHORT_RUN`` the first position that closes is found directly: the first where
    ``m < 2 * longest`` (``longest`` the longest later run), at width ``min(m, longest)``."""
    if "`" not in text:
        return []
    out: list[tuple[int, int]] = []
    unreached: dict[int, int] = {}  # width -> a position after which no run is that wide
    longest_after = None
    n = len(text)
    at = text.find("`")
    while at != -1:
        run_end = at + 1
        while run_end < n and text[run_end] == "`":
            run_end += 1
        m = run_end - at
        if m > _SHORT_RUN:
            if longest_after is None:
                longest_after = _LongestRunAfter(text)
            longest = longest_after(run_end)
            if longest == 0:
                break  # no backtick after this run: nothing can close
            if m >= 2 * longest:
                at, m = run_end - (2 * longest - 1), 2 * longest - 1
            width = min(m, longest)
            close = text.find("`" * width, run_end)
            out.append((at, close + width))
            at = text.find("`", close + width)
            continue
        for width in range(m, m // 2, -1):
            if unreached.get(width, n + 1) <= run_end:
                continue
            close = text.find("`" * width, run_end)
            if close == -1:
                unreached[width] = run_end
                continue
            out.append((at, close + width))
            at = text.find("`", close + width)
            break
        else:
            at = text.find("`", at + 1)
    return out


_SHORT_RUN = 8
_TICKS = re.compile("`+")


class _LongestRunAfter:
    """The length of the longest run of backticks that starts at or after a position, from one
    pass over the text's runs (made only for a text with a long run)."""

    def __init__(self, text: str):
        runs = [(m.start(), m.end() - m.start()) for m in _TICKS.finditer(text)]
        self._starts = [start for start, _ in runs]
        self._longest = [0] * (len(runs) + 1)
        for i in range(len(runs) - 1, -1, -1):
            self._longest[i] = max(runs[i][1], self._longest[i + 1])

    def __call__(self, position: int) -> int:
        return self._longest[bisect.bisect_left(self._starts, position)]


def strip_html_comments(text: str) -> str:
    """HTML comments go (a page never shows them); an unclosed one runs to the end, as in HTML:
    closed ones first, left to right, then from the first opener left in what remains. Found
    with ``str.find``: the pattern ``<!--.*?-->`` searched again from every later opener once
    one had no closer (and then none has), quadratic in a page of openers (6 s for 16,000)."""
    if "<!--" not in text:
        return text
    kept: list[str] = []
    at = 0
    while True:
        start = text.find("<!--", at)
        end = -1 if start < 0 else text.find("-->", start + 4)
        if end < 0:
            break
        kept.append(text[at:start])
        at = end + 3
    kept.append(text[at:])
    rest = "".join(kept)
    unclosed = rest.find("<!--")
    return rest if unclosed < 0 else rest[:unclosed]


def strip_heading_attributes(text: str) -> str:
    """``## Title { #custom-id }`` -> ``## Title``: the id is an anchor, not text (attr_list,
    kramdown, Docusaurus and Hugo write it alike)."""
    if "{" not in text or (not text.startswith("#") and "\n#" not in text):
        return text  # no heading line, or none that could end in attributes
    return "\n".join(
        _HEADING_ATTRS.sub(r"\1", line) if line.startswith("#") else line for line in text.split("\n")
    )


def html_to_text(text: str) -> str:
    """Inline and block HTML tags go, the text between them stays; entities become characters.
    Inline code spans are kept as written (``<div>`` in backticks is code)."""
    if "<" not in text and "&" not in text:
        return text

    def plain(part: str) -> str:
        if "<" in part:
            part = _TAG.sub("", part)
        if "&" in part:
            part = html.unescape(part)
        return part

    return outside_inline_code(text, plain)


def dedent_block(text: str, width: int | None = None) -> str:
    """Lines of ``text`` with ``width`` leading columns removed (tabs count as four), or the
    common indentation of its non-blank lines when ``width`` is None."""
    lines = [line.replace("\t", "    ") for line in text.split("\n")]
    if width is None:
        indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
        width = min(indents, default=0)
    out = []
    for line in lines:
        lead = len(line) - len(line.lstrip(" "))
        out.append(line[min(lead, width) :])
    return "\n".join(out)


def labelled(label: str, body: str) -> str:
    """An admonition, callout or tab as a reader sees it: ``Label: body``. When the body starts
    with a block the shared parser must still see (a fence, a list, a table, a heading) or is
    empty, the label stands alone on its line, followed by a blank line, so the block survives."""
    label = label.strip().rstrip(":")
    body = body.strip("\n")
    if not body.strip():
        return f"{label}:"
    if _BLOCK_START.match(body):
        return f"{label}:\n\n{body}"
    return f"{label}: {body.lstrip()}"


def title_case(kind: str) -> str:
    """``note`` -> ``Note``, ``see-also`` -> ``See also``: the default title an admonition shows."""
    words = kind.replace("_", " ").replace("-", " ").split()
    return " ".join(words).capitalize() if words else ""
