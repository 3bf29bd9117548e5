"""Twoslash's notation, as Shiki's twoslash transformer leaves a code block on the page (VitePress's
``@shikijs/vitepress-twoslash``, which Vite, Vitest and VueUse configure). The notation speaks to
the type checker, never to the reader, so the page shows none of it:

- ``// ---cut---`` (or ``// ---cut-before---``): it and every line above it (the setup a
  snippet needs to type-check: imports, an ``// @include:``, a ``// @filename:``);
- ``// ---cut-after---``: it and every line below it; ``// ---cut-start---`` to
  ``// ---cut-end---``: both and the lines between;
- a flag at the margin, ``// @noErrors``, ``// @errors: 2322``, ``// @strict: true`` (compiler
  and handbook options);
- a query line, ``// ^?``, ``//   ^|``, ``// ^^^`` (the page draws the answer in a popup).

Kept, as twoslash keeps them: ``// @filename: x.ts`` below a cut (the page names the file of
what follows), and the custom tags ``// @log:``, ``@warn:``, ``@error:``, ``@annotate:``, whose
message the page shows. The patterns are twoslash's own (its ``regexp.ts``), each anchored at
both ends of one line and tried only on lines that hold ``//``: linear in the block.
"""

from __future__ import annotations

import re

from ...parsing.fence_rule import closes, fence_code, open_fence

CONSTRUCT = "twoslash notation"
# The languages twoslash reads (TypeScript, JavaScript and Vue single-file components).
LANGUAGES = frozenset(("ts", "tsx", "mts", "cts", "typescript", "js", "jsx", "mjs", "cjs", "javascript", "vue"))
_CUT_BEFORE = re.compile(r"//\s?---cut(?:-before)?---")
_CUT_AFTER = re.compile(r"//\s?---cut-after---")
_CUT_START = re.compile(r"//\s?---cut-start---")
_CUT_END = re.compile(r"//\s?---cut-end---")
_FLAG = re.compile(r"//\s?@(\w+)(?::\s?.+)?")
_QUERY = re.compile(r"[ \t]*//[ \t]*\^(?:\?|\||\^+)(?: .*)?")
_KEPT_FLAGS = frozenset(("filename", "include", "log", "warn", "error", "annotate"))
_META_WORD = re.compile(r"(?<![\w-])twoslash(?![\w-])")


def fence_says(raw: str) -> bool:
    """Whether the fence of the block ``raw`` turns twoslash on: the word ``twoslash`` after the
    language (``ts twoslash``, ``ts {5} twoslash include main``), not ``no-twoslash``."""
    fence = open_fence(raw.split("\n", 1)[0])
    words = fence.info.split(None, 1) if fence is not None else ()
    return len(words) > 1 and _META_WORD.search(words[1]) is not None


def fence_refuses(raw: str) -> bool:
    """``no-twoslash`` in the fence: a site that makes its blocks twoslash by default leaves it."""
    return "no-twoslash" in raw.split("\n", 1)[0]


def has_notation(raw: str) -> bool:
    """Whether the block holds a cut or a query line: on a site whose Shiki runs twoslash, a
    block written with them is one twoslash reads, whatever its fence says (VueUse turns every
    TypeScript block of a function's page into one with a plugin of its own)."""
    if "//" not in raw:
        return False
    return any(_cut(line) or _QUERY.fullmatch(line) for line in raw.split("\n") if "//" in line)


def _cut(line: str) -> bool:
    s = line.strip()
    return s.startswith("//") and any(p.fullmatch(s) for p in (_CUT_BEFORE, _CUT_AFTER, _CUT_START, _CUT_END))


def strip(raw: str) -> tuple[str, int, str | None]:
    """The fenced block ``raw`` as the page shows it, how many lines of notation went, and why
    the cuts were not read (a ``cut-start`` without its ``cut-end`` fails twoslash on the site;
    here the block keeps its cut lines and the problem is named). The fence lines are kept.

    In a Vue component (``vue``) twoslash cuts the TypeScript the component compiles to, so a
    cut reaches no further than the ``<script>`` it stands in: the ``<script setup>`` line and
    the template stay on the page."""
    lines = raw.split("\n")
    fence = open_fence(lines[0])
    if fence is None or len(lines) < 2:
        return raw, 0, None
    end = len(lines) - 1 if closes(lines[-1], fence) else len(lines)
    body = lines[1:end]
    code = fence_code(fence, body)  # a fence in a list item: its code indented like it
    vue = fence.language.lower() == "vue"
    drop = [False] * len(code)
    starts: list[int] = []
    script = 0  # where the code a cut may reach begins: the block, or the <script> it stands in
    k = 0
    while k < len(code):
        line = code[k]
        s = line.strip()
        if vue and s.startswith("<script"):
            script = k + 1
        if "//" not in line:
            k += 1
            continue
        if _CUT_BEFORE.fullmatch(s):
            drop[script : k + 1] = [True] * (k + 1 - script)
        elif _CUT_AFTER.fullmatch(s):
            stop = next((j for j in range(k, len(code)) if code[j].strip().startswith("</script")), len(code)) if vue else len(code)
            drop[k:stop] = [True] * (stop - k)
            if not vue:
                break
            k = stop
            continue
        elif _CUT_START.fullmatch(s):
            starts.append(k)
        elif _CUT_END.fullmatch(s):
            if not starts:
                return raw, 0, f"a cut-end at code line {k + 1} without its cut-start: cuts not read"
            opened = starts.pop()
            drop[opened : k + 1] = [True] * (k + 1 - opened)
        elif _QUERY.fullmatch(line):
            drop[k] = True
        else:
            flag = _FLAG.fullmatch(line)
            if flag is not None and flag.group(1).lower() not in _KEPT_FLAGS:
                drop[k] = True
        k += 1
    if starts:
        return raw, 0, f"a cut-start at code line {starts[0] + 1} without its cut-end: cuts not read"
    kept = [line for line, gone in zip(body, drop) if not gone]
    count = len(body) - len(kept)
    if not count:
        return raw, 0, None
    return "\n".join([lines[0], *kept, *lines[end:]]), count, None
