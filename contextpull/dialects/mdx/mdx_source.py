"""The parts of MDX source no page shows, taken out line for line before the JSX tree is read
(issue 26, "Markup to meaning"): code masked so nothing edits it, ESM ``import``/``export``
statements, HTML comments.

Every step keeps the text's line count, so a construct's note names the line it stands on in the
document. Code (fenced blocks and inline spans, found by ``syntax.fences``) is held behind
placeholders: a fenced block at the margin whole, with a mark on each further line (``_MORE_MARK``);
any other code one placeholder per line, keeping the line's indentation, so a block dedented
inside ``<TabItem>`` moves its code with it. ``unmask`` puts the code back exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..syntax.fences import closes, code_spans, open_fence, outside_inline_code, split_code
from ..syntax.template_tags import hold, hold_lines, hold_openers, restore
from .esm_ends import CONTINUES as _CONTINUES, continues as _continues

# MDX reads a line starting with one of these at the top level as ESM (micromark-extension-mdxjs-esm).
_ESM_START = re.compile(
    r"(?:import(?:\s+type)?(?:\s*[{*'\"]|\s+[\w$]+\s*(?:,|from\b))|export\s+(?:(?:const|let|var|function|async|default|class|type|interface)\b|[{*]))"
)
# ``import { a, b as c } from '...'``: the names between braces, no brace inside them, so a
# search from each ``import {`` stops at the next brace (a page of openers costs what it weighs).
_NAMED_IMPORT = re.compile(r"""import\s*(?:[A-Za-z_$][\w$]*\s*,\s*)?\{([^{}]*)\}\s*from\s*(['"])([^'"\n]*)\2""")
_EXPORT_STRING = re.compile(
    r"""^export\s+const\s+([A-Za-z_$][\w$]*)\s*=\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`$]*`)""", re.M)
_DEFAULT_IMPORT = re.compile(r"""import\s+([A-Za-z_$][\w$]*)\s*(?:,\s*\{[^}]*\}\s*)?from\s*(['"])(.*?)\2""", re.S)
_STRING = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`]*`""")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
# Runs taken whole, as an atomic group written for Python 3.10 (a lookahead that captures the run,
# then the run by reference: nothing is given back): what follows a run is white space or a
# parenthesis, which no character given back could make, so the match is the same as one
# character per step, and a target never closed is given up in linear time.
_LINK_TARGET = re.compile(r"\]\(((?:(?=([^()\s]+))\2|\([^()\s]*\))*(?:\s+\"[^\"]*\")?)\)")


@dataclass(frozen=True)
class Import:
    """A default import that names a file: a partial (``.md``/``.mdx``), raw text (a loader), or
    JSON data (``{pkg.engines.node}`` is a fact the page shows)."""

    name: str
    kind: str  # "partial", "raw", "json", "value" (a string a snippet exports, ``exported``), or
    # "component" (an Astro component of the site's: ``SiteReader.mdx_imported_component``)
    spec: str  # the path as written, loader prefix removed
    exported: str = ""  # for a "value": the name the file exports it under


# A fenced block that opens at the margin is held whole, its placeholder on its first line and
# this mark on each line after, so every step still counts its lines. Held per line, react.dev's
# 100,000 code lines cost a placeholder each to write, scan and restore. A JSX body is dedented by
# the least indentation of its lines, which the opener and the marks (at the margin) make 0, so no
# step moves a held line; a step that folds white space (a <summary> label, an inline component,
# an attribute) joins the marks to the placeholder with spaces, and ``unmask`` then gives the
# block back folded the same way, as its lines held one by one came back.
_MORE_MARK = "\ue004"
_MORE = "\n" + _MORE_MARK
_MARGIN_FENCE = ("`", "~")
# A held block's placeholder and the marks after it, each after the white space a step left
# before it: one pass, since a mark is not white space.
_HELD_BLOCK = re.compile("\ue000(\\d+)\ue001((?:\\s*" + _MORE_MARK + ")+)")


def mask(text: str, codes: list[str], wrapped: bool = False) -> str:
    """``text`` with its code replaced by placeholders whose values are appended to ``codes``;
    ``wrapped``: ESM statements end as ``take_esm`` ends them with it."""

    def token(piece: str) -> str:
        return hold(codes, piece)

    def per_line(chunk: str) -> str:
        return "\n".join(hold_lines(codes, chunk.split("\n")))

    def code(chunk: str) -> str:
        if chunk[:1] not in _MARGIN_FENCE:
            return per_line(chunk)
        return hold(codes, chunk) + _MORE * chunk.count("\n")

    marked: list[str] = []

    def inline(prose: str) -> str:
        if "`" not in prose:
            return prose
        if "\x01" in prose:
            return _inline_marked(prose, token)
        # Each inline span found by the shared scanner becomes a placeholder per line.
        out: list[str] = []
        last = 0
        for start, end in code_spans(prose):
            out += (prose[last:start], "\n".join(map(token, prose[start:end].split("\n"))))
            last = end
        out.append(prose[last:])
        return "".join(out)

    def prose(chunk: str) -> str:
        if "`" not in chunk and "~" not in chunk and "](" not in chunk:
            return chunk
        lines = chunk.split("\n")
        out: list[str] = []
        start = 0
        for lo, hi, column in _list_fences(lines) if "```" in chunk or "~~~" in chunk else ():
            if lo > start:
                out.append(inline(_mask_links(lines[start:lo], token)))
            opener = lines[lo]
            out.append(opener[:column] + token(opener[column:]) + ("\n" + per_line("\n".join(lines[lo + 1 : hi])) if hi > lo + 1 else ""))
            start = hi
        if start < len(lines) or not lines:
            out.append(inline(_mask_links(lines[start:], token)))
        return "\n".join(out)

    text = hold_openers(codes, text)  # the page's own private-use openers come back as written
    if _MORE_MARK in text:
        text = text.replace(_MORE_MARK, hold(codes, _MORE_MARK))
    chunks = split_code(text)
    if _fence_in_template(chunks):
        chunks = split_code(_hold_templates(text, token, wrapped))
    for is_code, chunk in chunks:
        marked.append(code(chunk) if is_code else prose(chunk))
    return "\n".join(marked)


def _inline_marked(prose: str, token) -> str:
    """``mask``'s inline spans as placeholders, for prose that holds ``\x01``: the text between
    spans is wrapped in it so the spans can be told apart, which a ``\x01`` of the page's own
    shifts (kept as it reads, so such a page is stored as before)."""
    joined = outside_inline_code(prose, lambda part: f"\x01{part}\x01")
    pieces = joined.split("\x01")
    for k in range(2, len(pieces) - 1, 2):
        pieces[k] = "\n".join(token(p) for p in pieces[k].split("\n"))
    return "".join(pieces)


# A line that starts with ``import``/``export``, searched for in "\n" + text: a pattern that opens
# with ``^`` is tried at every position of the page, one that opens with a newline is searched for.
_ESM_LINE = re.compile(r"\n(?:import|export)\b")
_CLOSER = {")": "(", "]": "[", "}": "{"}


def _hold_templates(text: str, token, wrapped: bool = False) -> str:
    """The lines of a template literal that spans lines inside a top-level ESM statement held as
    placeholders before fences are looked for: an ``export`` that builds a code block in a
    template literal (``const raw = `~~~jsx`` ... ``~~~```) holds fence lines that are strings,
    not fences, and would otherwise mask the rest of the page as code. A page with no such
    statement is returned as it is."""
    if "`" not in text or not _ESM_LINE.search("\n" + text):
        return text
    lines = text.split("\n")
    # First, cheaply: does any statement-like line (fenced or not) open a template that spans
    # lines? Most pages' ``import`` lines are code in fences and end on their line.
    i, n, fence = 0, len(lines), None
    while i < n:
        line = lines[i]
        if fence is not None:
            fence = None if closes(line, fence) else fence
            i += 1
        elif (opened := open_fence(line)) is not None:
            fence = opened
            i += 1
        elif _ESM_START.match(line):
            i = _statement_templates(lines, i, token, wrapped)[0]
        else:
            i += 1
    return "\n".join(lines)


def _fence_in_template(chunks: list[tuple[bool, str]]) -> bool:
    """Whether a fence may open inside a template literal of an ESM statement: the prose before
    it has a statement line at the margin after which an odd number of backticks stands (one
    pass over each prose chunk, from its last statement line on)."""
    for k in range(1, len(chunks)):
        is_code, prose = chunks[k - 1]
        if is_code or not chunks[k][0]:
            continue
        at = max(prose.rfind("\nimport"), prose.rfind("\nexport"))
        at = at + 1 if at >= 0 else (0 if prose.startswith(("import", "export")) else -1)
        if at >= 0 and _ESM_START.match(prose, at) and prose.count("`", at) % 2 == 1:
            return True
    return False


def _statement_templates(lines: list[str], start: int, token, wrapped: bool = False) -> tuple[int, bool]:
    """Hold the template-literal lines of the ESM statement starting at ``lines[start]`` (see
    ``_hold_templates``; with ``token`` None, only look) and return the index of the line after
    it and whether a template literal in it spans lines. One pass over its characters
    with a stack of what is open (brackets, strings, templates and their ``${}``); the statement
    ends at a line where nothing is open and the next line does not continue it, or at a blank
    line before a line at the margin outside a template, as ``take_esm`` ends one."""
    stack: list[str] = []
    i, n, spans = start, len(lines), False
    while i < n:
        line = lines[i]
        inside = bool(stack) and stack[-1] == "`"  # the line starts inside a template literal
        base = len(stack)  # the stack's height while that template is open
        close_at, j, m = -1, 0, len(line)
        while j < m:
            c = line[j]
            top = stack[-1] if stack else ""
            if top == "`":
                if c == "\\":
                    j += 2
                    continue
                if c == "`":
                    stack.pop()
                    if inside and close_at < 0 and len(stack) == base - 1:
                        close_at = j
                elif line.startswith("${", j):
                    stack.append("${")
                    j += 1
            elif top in ("'", '"'):
                if c == "\\":
                    j += 2
                    continue
                if c == top:
                    stack.pop()
            elif line.startswith("//", j):
                break
            elif c in "'\"`([{":
                stack.append(c)
            elif c in ")]}":
                if stack and (stack[-1] == _CLOSER[c] or (c == "}" and stack[-1] == "${")):
                    stack.pop()
            j += 1
        while stack and stack[-1] in ("'", '"'):
            stack.pop()  # a string does not run past its line
        spans = spans or inside
        if inside and token is not None:
            if close_at < 0 and len(stack) >= base:
                lines[i] = token(line) if line else line
            elif close_at > 0:
                lines[i] = token(line[:close_at]) + line[close_at:]
        i += 1
        if not stack and (i >= n or not lines[i].strip() or not _continues(lines[i - 1], lines[i], wrapped)):
            return i, spans
        if stack and stack[-1] != "`" and i + 1 < n and not lines[i].strip() and lines[i + 1].strip() \
                and not _CONTINUES.match(lines[i + 1]):
            return i, spans
    return i, spans


def _list_fences(lines: list[str]):
    """(first, end, column) of each fenced block that opens after a list marker (``1.  ```ts``),
    which ``fences.split_code`` does not see: its lines are code on the page, so they are masked
    up to the end of the list item or of the run of prose (the shared parser takes an indented
    closing fence for an opening one, so that is where ``split_code``'s next code chunk starts)."""
    i, n = 0, len(lines)
    while i < n:
        opened = open_fence(lines[i], list_items=True)
        if opened is None or not opened.lead.strip():
            i += 1
            continue
        column = len(opened.lead)
        j = i + 1
        while j < n:
            line = lines[j]
            if line.strip() and len(line) - len(line.lstrip(" \t")) < column:
                break  # the list item ended
            j += 1
            if closes(line, opened):
                break  # its closing fence
        yield i, j, column
        i = j


def _mask_links(lines: list[str], token) -> str:
    """Link destinations masked: MDX reads no expression inside ``](...)``, so ``{`` there is URL."""
    text = "\n".join(lines)
    if "](" not in text:
        return text
    return _LINK_TARGET.sub(lambda m: "](" + token(m.group(1)) + ")", text)


def unmask(text: str, codes: list[str]) -> str:
    """The placeholders of ``mask`` back to their code. A held piece can hold a placeholder of
    its own (a link target masked inside an inline code span that runs over lines), so it is
    restored before it is put back: ``mask`` held the page's own openers first, so every opener
    in a piece is one of ``mask``'s."""
    if _MORE_MARK in text:
        text = _HELD_BLOCK.sub(lambda m: _block_back(m, codes), text)
    return restore(text, codes, nested=True)


def _block_back(m: re.Match, codes: list[str]) -> str:
    """A held block and its own marks as the block's lines: after a newline as written, after
    folded white space with the line's indentation folded too. Marks past the block's own (an
    author's character after it) stay as they are."""
    k = int(m.group(1))
    held = codes[k] if k < len(codes) else ""
    count = held.count("\n")
    if not count:
        return m.group(0)  # not a held block: nothing here is a mark of ``mask``'s
    marks = m.group(2)
    if len(marks) == 2 * count and marks.count(_MORE) == count:
        return m.group(0)[: m.start(2) - m.start(0)]  # as written: ``restore`` puts the block back
    lines = held.split("\n")
    gaps = m.group(2).split(_MORE_MARK)  # the white space before each mark, then what follows
    own = min(len(lines) - 1, len(gaps) - 1)
    out = [lines[0]]
    for gap, line in zip(gaps[:own], lines[1:]):
        out += (gap, line if gap == "\n" else (line.lstrip(" \t") or line))
    if own + 1 < len(lines):  # fewer marks than lines (a step dropped some): every line kept
        out.append("\n" + "\n".join(lines[own + 1:]))
    return "".join(out) + _MORE_MARK.join(gaps[own:])


def blank_comments(text: str) -> str:
    """HTML comments go, their newlines stay (``markup.strip_html_comments`` drops them too, which
    would move every later line number)."""
    if "<!--" not in text:
        return text
    return _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def _depth(line: str) -> int:
    line = _STRING.sub("", line)
    return sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")


def take_esm(text: str, codes: list[str], sources: list[str],
             wrapped: bool = False) -> tuple[str, list[tuple[str, int]], list[Import]]:
    """``text`` with its top-level ``import``/``export`` statements blanked, the statements as
    (kind, 1-based line), and the default imports that name a file; ``sources`` gets each
    statement's source (what names it binds). A statement runs until its brackets balance and
    the next line starts no continuation (MDX ends one at a blank line), or at a blank line
    before a line at the margin when they never balance."""
    statements: list[tuple[str, int]] = []
    imports: list[Import] = []
    candidates = _esm_lines(text)
    if not candidates:
        return text, statements, imports
    lines = text.split("\n")
    i, n = 0, len(lines)
    for first in candidates:
        if first < i or not _ESM_START.match(lines[first]):
            continue
        i = first
        start, depth = i, 0
        while i < n:
            depth += _depth(lines[i])
            i += 1
            if depth <= 0 and (i >= n or not lines[i].strip() or not _continues(lines[i - 1], lines[i], wrapped)):
                break
            # An unbalanced statement still ends where a blank line is followed by a line at the
            # margin: MDX would refuse the file, and the page text after it must not be lost.
            if i + 1 < n and not lines[i].strip() and not _CONTINUES.match(lines[i + 1]) and lines[i + 1].strip():
                break
        source = unmask("\n".join(lines[start:i]), codes)
        statements.append(("mdx " + ("import" if source.startswith("import") else "export"), start + 1))
        sources.append(source)
        for m in _DEFAULT_IMPORT.finditer(source):
            imports.extend(_file_import(m.group(1), m.group(3)))
        for m in _NAMED_IMPORT.finditer(source):
            if m.group(3).endswith((".md", ".mdx")):  # a snippet's variables: {name} is its text
                for part in m.group(1).split(","):
                    names = part.split()
                    if names and names[0] != "type":
                        imports.append(Import(names[-1], "value", m.group(3), names[0]))
        lines[start:i] = [""] * (i - start)
    return "\n".join(lines), statements, imports


def _esm_lines(text: str) -> list[int]:
    """The 0-based numbers of the lines that start with ``import`` or ``export``, the only ones
    ``_ESM_START`` can match: found by one search of the text, with the newlines between counted
    in C, where matching every line cost a call each (most of a page's lines are held code)."""
    out: list[int] = []
    line, last = 0, 0
    text = "\n" + text  # the newline before line k is the k-th one
    for m in _ESM_LINE.finditer(text):
        line += text.count("\n", last, m.start())
        last = m.start()
        out.append(line)
    return out


def _file_import(name: str, spec: str) -> list[Import]:
    """What a default import names, when it is a file of the site: text through a loader
    (``!!raw-loader!./x.js``, ``./x.ts?raw``), a JSON file's data, or a partial."""
    path = spec.rpartition("!")[2]  # webpack's inline loaders: "!!raw-loader!./x" is ./x
    if "raw-loader!" in spec or path.endswith("?raw"):
        return [Import(name, "raw", path.removesuffix("?raw"))]
    if path.endswith(".json"):
        return [Import(name, "json", path)]
    if path.endswith((".md", ".mdx")):
        return [Import(name, "partial", path)]
    if path.endswith(".astro"):
        return [Import(name, "component", path)]
    return []


def exported_values(source: str) -> dict[str, str]:
    """Every ``export const name = 'text'`` of ``source`` whose value is a plain string literal
    (an MDX file's variables), read in one pass; any other value is JavaScript, never run."""
    return {m.group(1): m.group(2)[1:-1] for m in _EXPORT_STRING.finditer(source)}
