"""MDX source as a tree: JSX elements, ``{expressions}``, ``{/* comments */}`` and ``:::``
container directives, over text whose code was already masked (issue 26, "Markup to meaning").

Why a tree and not regular expressions: what a reader sees of ``<Tabs>``, ``<details>`` or
``:::tip`` depends on the element as a whole (its label attribute, its ``<summary>`` child, where
it ends), and MDX lets them nest inside each other. The scanner is bounded: every character is
looked at a constant number of times, and a tag or brace that never closes is text, so broken
input costs what it weighs. Attribute values are read as data; nothing is evaluated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..syntax import attributes
from ..syntax.containers import MAX_NESTING, Opener, colon_closes, colons

# Deeper nesting than any page has (``MAX_NESTING``, syntax/containers) is text, so rendering
# never recurses without bound (markdown-it's maxNesting does the same).
_NAME = re.compile(r"[A-Za-z_$][\w$.:-]*")
_ATTR_NAME = re.compile(r"[A-Za-z_$][\w$:.-]*")
# An opening tag without attributes: ``_tag`` reads ``<`` and a ``_NAME`` and ``>`` as exactly this.
_PLAIN_OPEN = re.compile(r"<([A-Za-z_$][\w$.:-]*)>")
# Inside braces: what brace_ends stops at, and a string from its quote to its closing one.
_JS_STOP = re.compile(r"[{}\"'`]|/\*")
# Strings as runs between escapes (``[^"\\]*(?:\\.[^"\\]*)*``, the unrolled loop: each character
# belongs to one branch, so a string without its closing quote is given up in linear time), not
# one alternation per character, which the regex engine steps through 4-6x slower: a 36 KB
# string prop of rendered HTML (biome's rule pages) took 13 ms to read. No possessive
# quantifiers: Python 3.10, which the package supports, does not have them.
_JS_STRING = {q: re.compile(q + r"[^" + q + r"\\]*(?:\\.[^" + q + r"\\]*)*" + q, re.S) for q in "\"'`"}
# A ``<`` is a candidate only where ``_tag`` can read one (a name, ``/`` or ``>`` next): a page
# of ``<`` or ``a < b`` is skipped by the pattern instead of by one Python step per character.
# Lines that open with ``:::`` are searched for apart, after a newline in "\n" + text (a match at
# ``q`` is the line starting at ``q``): one pattern with a ``^[ \t]*:{3}`` branch was tried at
# every position of every page (5x slower over react.dev's).
_TAG_OR_ESCAPE = re.compile(r"<(?=/?[A-Za-z_$>])|\\")
_DIRECTIVE_LINE = re.compile(r"\n[ \t]*:{3}")
_LITERAL = re.compile(r"""\s*(?:"([^"\\]*(?:\\.[^"\\]*)*)"|'([^'\\]*(?:\\.[^'\\]*)*)'|`([^`$]*)`)\s*""", re.S)


@dataclass
class Expr:
    """A JavaScript expression in braces, kept as source; ``literal`` when it is a plain string."""

    source: str
    pos: int

    @property
    def comment(self) -> bool:
        """``{/* ... */}``: MDX's comment, which no page shows."""
        inner = self.source.strip()
        return inner.startswith("/*") and inner.endswith("*/")

    @property
    def literal(self) -> str | None:
        m = _LITERAL.fullmatch(self.source)
        if m is None:
            return None
        return next(g for g in m.groups() if g is not None)


@dataclass
class Element:
    """``<Name attrs>children</Name>``; ``block`` when its opening tag stands alone on its line."""

    name: str
    attrs: dict[str, str | Expr | bool]
    pos: int
    block: bool
    source: str  # the opening tag as written, kept when the element never closes
    children: list = field(default_factory=list)


@dataclass
class Directive:
    """A ``:::name title`` container, closed by a line of at least as many colons
    (``syntax.containers.colon_closes``)."""

    name: str
    title: str
    opener: Opener
    pos: int
    children: list = field(default_factory=list)


def brace_ends(text: str) -> dict[int, int]:
    """For every ``{`` that closes, the index after its ``}``: one pass with a stack, so a page
    of unclosed braces costs what it weighs. Inside braces the text is JavaScript: strings,
    template literals and comments are skipped so a brace or an apostrophe in them does not
    count; outside, an apostrophe is prose. Between the characters that matter the scan jumps
    (``str.find``, a pattern), and it stops at the last ``}``, after which nothing closes."""
    ends: dict[int, int] = {}
    last = text.rfind("}")
    stack: list[int] = []
    i = text.find("{")
    while 0 <= i <= last:
        c = text[i]
        if c == "{":
            stack.append(i)
        elif c == "}":
            if stack:
                ends[stack.pop()] = i + 1
        elif c in "\"'`":  # a string or template literal, inside braces only
            m = _JS_STRING[c].match(text, i)
            if m is None:
                break  # a string that never closes: every brace still open stays open
            i = m.end() - 1
        else:  # a /* comment */
            j = text.find("*/", i + 2)
            if j < 0:
                break
            i = j + 1
        if stack:
            m = _JS_STOP.search(text, i + 1)
            i = m.start() if m else -1
        else:
            i = text.find("{", i + 1)
    return ends


def _tag(text: str, i: int, ends: dict[int, int]) -> tuple[str, dict, bool, bool, int] | None:
    """(name, attrs, closing, self_closing, end) for a JSX tag at ``i`` (``<`` included), or
    None when the text there is not one (``a < b``, ``<https://x>``, a tag that never ends)."""
    n = len(text)
    j = i + 1
    closing = j < n and text[j] == "/"
    if closing:
        j += 1
    if j < n and text[j] == ">":  # a fragment, <> or </>
        return "", {}, closing, False, j + 1
    m = _NAME.match(text, j)
    if m is None:
        return None
    name = m.group(0)
    if text.startswith("//", m.end()):
        return None  # an autolink such as <https://x>
    j = m.end()
    attrs: dict[str, str | Expr | bool] = {}
    while j < n:
        while j < n and text[j].isspace():
            j += 1
        if j >= n:
            return None
        c = text[j]
        if c == ">":
            return name, attrs, closing, False, j + 1
        if text.startswith("/>", j):
            return name, attrs, closing, True, j + 2
        if c == "{":  # a spread, {...props}
            end = ends.get(j, -1)
            if end < 0:
                return None
            j = end
            continue
        a = _ATTR_NAME.match(text, j)
        if a is None:
            return None
        key, j = a.group(0), a.end()
        while j < n and text[j] in " \t":
            j += 1
        if j >= n or text[j] != "=":
            attrs[key] = True
            continue
        j += 1
        while j < n and text[j].isspace():
            j += 1
        if j < n and text[j] in "\"'":
            end = text.find(text[j], j + 1)
            if end < 0:
                return None
            attrs[key] = text[j + 1 : end]
            j = end + 1
        elif j < n and text[j] == "{":
            end = ends.get(j, -1)
            if end < 0:
                return None
            expr = Expr(text[j + 1 : end - 1], j)
            literal = expr.literal
            attrs[key] = expr if literal is None else literal
            j = end
        else:
            return None
    return None


def _directive_title(rest: str) -> str:
    """The title a ``:::`` line gives: ``[Title]``, a ``title="..."`` attribute, or the words
    after the name (Docusaurus' older form). ``{#id}`` attributes go."""
    rest = rest.strip()
    if rest.startswith("["):
        end = rest.rfind("]")
        if end > 0:
            return rest[1:end].strip()
    found = attributes.trailing(rest, kramdown=False, words=True)
    if found is None:
        return rest
    if "title" in found.pairs:
        return found.pairs["title"].strip()
    return rest[: found.start].strip()


def _start(m: re.Match | None, none: int) -> int:
    return none if m is None else m.start()


def parse(text: str, expressions: bool = True) -> tuple[list, list[tuple[str, int]]]:
    """The tree of ``text`` and its problems as (message, pos): unclosed or stray tags and
    directives. Text nodes are strings; the tree's text joined is the input with tags removed.
    Without ``expressions`` (a file read as CommonMark) braces are text, and tags between them
    are read like any other."""
    root: list = []
    stack: list[Element | Directive] = []
    problems: list[tuple[str, int]] = []

    def children() -> list:
        return stack[-1].children if stack else root

    last = 0
    i = 0
    n = len(text)
    ends = brace_ends(text) if expressions and "{" in text else {}
    # A ``{`` that never closes is text: only those in ``ends`` are visited, beside the pattern's
    # candidates, so a page of unclosed braces is not walked one brace at a time.
    braces = sorted(ends)
    next_brace = 0
    lined = "\n" + text if ":::" in text else ""
    none = n + 1  # no candidate left
    tag_at = _start(_TAG_OR_ESCAPE.search(text), none)
    line_at = _start(_DIRECTIVE_LINE.search(lined), none) if lined else none
    brace_count = len(braces)
    # One step per tag, brace or ``:::`` line: written with plain comparisons and the pattern's
    # search inline, since a page of 166,000 tags takes this loop that many times.
    tag_search, line_search = _TAG_OR_ESCAPE.search, _DIRECTIVE_LINE.search
    while True:
        if tag_at < i:
            found = tag_search(text, i)
            tag_at = none if found is None else found.start()
        if line_at < i:
            line_at = _start(line_search(lined, i), none)
        at = tag_at if tag_at < line_at else line_at
        while next_brace < brace_count and braces[next_brace] < i:
            next_brace += 1
        if next_brace < brace_count and braces[next_brace] < at:
            start = braces[next_brace]
        elif at < none:
            start = at
        else:
            break
        c = text[start]
        if c == "\\":  # an escaped < or { is text
            i = start + 2
            continue
        if c not in "<{":  # a ::: line
            d = colons(text, start)
            line_end = text.find("\n", start)
            line_end = n if line_end < 0 else line_end
            name = d.name
            if name and len(stack) >= MAX_NESTING:
                problems.append((f":::{name} nested deeper than {MAX_NESTING}", start))
            elif name:
                children().append(text[last:start])
                stack.append(Directive(name, _directive_title(d.title), d, start))
                last = i = line_end
                continue
            else:
                k = _open_directive(stack, d)
                if k is not None:
                    children().append(text[last:start])
                    _close(stack, k, root, problems)
                    last = i = line_end
                    continue
            i = line_end if line_end > start else start + 1
            continue
        if c == "{":
            end = ends.get(start, -1)
            if end < 0:
                i = start + 1
                continue
            children().append(text[last:start])
            children().append(Expr(text[start + 1 : end - 1], start))
            last = i = end
            continue
        tag = _tag(text, start, ends)
        if tag is None:
            i = start + 1
            continue
        name, attrs, closing, self_closing, end = tag
        children().append(text[last:start])
        last = i = end
        if closing:
            k = next((k for k in range(len(stack) - 1, -1, -1)
                      if isinstance(stack[k], Element) and stack[k].name == name), None)
            if k is None:
                problems.append((f"a closing </{name}> without its opening tag", start))
            else:
                _close(stack, k, root, problems)
            continue
        if not self_closing and len(stack) >= MAX_NESTING:
            problems.append((f"<{name}> nested deeper than {MAX_NESTING}", start))
            children().append(text[start:end])
            last = i = _past_the_bound(text, end, stack[-1].children, problems)
            continue
        alone = _blank_to_line_edge(text, start - 1, -1) and _blank_to_line_edge(text, end, 1)
        element = Element(name, attrs, start, alone, text[start:end])
        if self_closing:
            children().append(element)
        else:
            stack.append(element)
    children().append(text[last:])
    _close(stack, 0, root, problems, found=False)
    return root, problems


def _past_the_bound(text: str, i: int, kids: list, problems: list) -> int:
    """Where a run of plain opening tags (``<Name>``, nothing between them) that starts at ``i``
    ends, each read as ``parse`` reads such a tag past the nesting bound: the (empty) text before
    it, a problem, the tag as text. One match a tag instead of the parse's whole step: a page of
    166,000 unclosed ``<Note>`` spent its time in those steps."""
    match = _PLAIN_OPEN.match
    found = match(text, i)
    while found is not None:
        kids.append("")
        problems.append((f"<{found.group(1)}> nested deeper than {MAX_NESTING}", i))
        kids.append(found.group(0))
        i = found.end()
        found = match(text, i)
    return i


def _blank_to_line_edge(text: str, i: int, step: int) -> bool:
    """Only spaces from ``i`` to the line's edge in direction ``step``: a walk over the spaces
    alone, so a long line of inline tags costs what it weighs."""
    while 0 <= i < len(text):
        c = text[i]
        if c == "\n":
            return True
        if c not in " \t":
            return False
        i += step
    return True


def _open_directive(stack: list, line: Opener) -> int | None:
    """The innermost open directive the ``:::`` line ``line`` closes, if any."""
    for k in range(len(stack) - 1, -1, -1):
        if isinstance(stack[k], Directive):
            return k if colon_closes(line, stack[k].opener) else None
    return None


def _close(stack: list, k: int, root: list, problems: list, *, found: bool = True) -> None:
    """Close ``stack[k]`` (its end was ``found``, or the text ran out) and everything opened
    inside it. An element that never closed keeps its opening tag as text, since a reader would
    see it; a directive that never closed ends where its parent does, as remark-directive reads it."""
    while len(stack) > k:
        node = stack.pop()
        parent = stack[-1].children if stack else root
        if found and len(stack) == k:
            parent.append(node)
        elif isinstance(node, Element):
            problems.append((f"<{node.name or ''}> is never closed", node.pos))
            parent.extend([node.source, *node.children])
        else:
            problems.append((f":::{node.name} is never closed", node.pos))
            parent.append(node)
