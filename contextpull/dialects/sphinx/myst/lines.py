"""Line-level MyST syntax for the Sphinx dialect (issue 26): where a fence opens and closes,
a directive's options, and the comments and blank lines a page never shows.

The rules are CommonMark's as markdown-it applies them, since MyST-Parser is built on it: a fence
closes on a line of the same character, at least as long, indented less than four spaces past
the fence's own start; a fence may open a list item; code fences are never edited.
"""

from __future__ import annotations

import re

from ...syntax.containers import myst
from ...syntax.fences import COMMONMARK, Fence, closes, fenced, open_fence
from ...syntax.options import field


def squeeze(lines: list[str]) -> list[str]:
    """Runs of blank lines left where constructs were dropped become one, outside code."""
    out: list[str] = []
    fence = lead = ""
    for line in lines:
        if fence:
            if closes(line, Fence(lead, fence, ""), COMMONMARK):
                fence = ""
        else:
            opener = myst(line) if ("`" in line or "~" in line) else None
            if opener and opener.name is None:  # a code fence (a list item's markers its lead)
                fence, lead = opener.marker, opener.indent
            elif not line.strip() and (not out or not out[-1].strip()):
                continue
        out.append(line)
    return out


def without_html_comments(text: str) -> str:
    """HTML comments go, outside code only; the lines they held stay, as blank lines, so the
    line numbers of what follows still match the source. Not ``fences.outside_code`` with
    ``markup.strip_html_comments``, for those two reasons: a MyST directive fence
    (```` ```{note} ````) is not code, its body is page text; and the report's line numbers
    must stay the file's."""
    parts: list[str] = []
    chunk: list[str] = []
    fence = None
    for line in text.split("\n"):
        if fence is not None:
            parts.append(line)
            if closes(line, fence, COMMONMARK):
                fence = None
            continue
        opened = open_fence(line)
        if opened is not None and not opened.info.startswith("{"):
            parts.extend(_strip_comments(chunk))
            chunk = []
            parts.append(line)
            fence = opened
            continue
        chunk.append(line)
    parts.extend(_strip_comments(chunk))
    return "\n".join(parts)


def _strip_comments(lines: list[str]) -> list[str]:
    if not lines:
        return []
    return _comments_to_newlines("\n".join(lines)).split("\n")


def _comments_to_newlines(text: str) -> str:
    """Each closed ``<!-- ... -->`` as the newlines it held (so line numbers stay); an unclosed
    one stays. A find loop: once an opener has no closer none after it has, where ``<!--.*?-->``
    searched to the end again from every later opener."""
    out, at = [], 0
    while (start := text.find("<!--", at)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out += [text[at:start], "\n" * text.count("\n", start, end)]
        at = end + 3
    return "".join(out) + text[at:]


def dedent_to(body: list[str], indent: str) -> list[str]:
    if not indent:
        return body
    return [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in body]


def options_and_content(body: list[str]) -> tuple[dict[str, str], list[str], int]:
    """A directive's options (``:key: value`` lines or a ``---`` YAML block) and its content,
    with the number of lines the options took."""
    options: dict[str, str] = {}
    last = ""
    if body and body[0].strip() == "---":
        for j in range(1, len(body)):
            if body[j].strip() == "---":
                for line in body[1:j]:
                    key, colon, value = line.partition(":")
                    if last and line[:1] in (" ", "\t") and line.strip():
                        _continue(options, last, line.strip())
                    elif colon and key.strip():
                        last = key.strip()
                        options[last] = value.strip().strip("'\"")
                return _folded(options), body[j + 1 :], j + 1
        return options, body, 0
    j = 0
    while j < len(body):
        found = field(body[j])
        more = re.match(r"^\s*:\s+(\S.*)$", body[j]) if found is None and last else None
        if more is not None:  # ":     text": the next line of a "|" or ">" value
            _continue(options, last, more.group(1).strip())
        elif found is None:
            break
        else:
            last, options[last] = found[0], found[1]
        j += 1
    options = _folded(options)
    if j and j < len(body) and not body[j].strip():  # the blank line that ends the options
        j += 1
    return options, body[j:], j


def _continue(options: dict[str, str], key: str, text: str) -> None:
    """A YAML block value's next line (``caption: |`` then its lines)."""
    value = options.get(key, "")
    options[key] = f"{value}\n{text}" if value else text


def _folded(options: dict[str, str]) -> dict[str, str]:
    """A ``|`` value keeps its lines, a ``>`` value folds them into one; a YAML block marker
    alone is no text."""
    out = {}
    for key, value in options.items():
        head, _, rest = value.partition("\n")
        if head.strip() in ("|", "|-", "|+", ">", ">-", ">+"):
            value = rest if head.startswith("|") else " ".join(rest.split("\n"))
        out[key] = value
    return out


def autodoc_only(content: list[str]) -> bool:
    directives = [line for line in content if line.startswith(".. ")]
    return bool(directives) and all(
        re.match(r"\.\. (?:py:)?auto\w+::", line) for line in directives
    ) and not any(line.strip() and not line.startswith((".. ", " ", "\t")) for line in content)


def fence(code: str, language: str) -> list[str]:
    """``fences.fenced`` as lines, the shape the MyST and rst converters build their output in."""
    return fenced(code, language).split("\n")


def code_span(text: str) -> str:
    return f"`{text}`" if "`" not in text else f"`` {text} ``"
