"""One pass over a page's lines outside fenced code (issue 36): what VitePress reads line by line
is read here together, so fenced code is found once, not once per construct. Inside fenced code
nothing changes; outside it, a line is one of:

- the opening line of the component's ``<script>`` or ``<style>`` block: the block goes
  (``vue.block_open``; one never closed is noted and only its opening line goes);
- a ``<<<`` code import: its fenced block (``code_imports``), which is code and read no further;
- any other line: its heading anchor, ``[[toc]]`` and badges read (``vue.inline``).
"""

from __future__ import annotations

from ..api import Context
from ..syntax.fences import closes, open_fence
from ..syntax.line_map import Lines
from . import code_imports, vue
from .page_includes import Tally


def read(lines: Lines, ctx: Context, src_folder: str, delimiters: tuple[str, str] = ("{", "}")) -> Lines:
    out: Lines = []
    ends = vue.BlockEnds(lines)
    snippets = Tally(code_imports.CONSTRUCT)
    # The fence walk is this loop's own, not ``fences.code_lines``: a ``<script>``/``<style>``
    # block's lines are skipped whole, so a fence marker inside one opens nothing here, where a
    # mask made before the walk would read it as code running past the block.
    fence = None
    i, n = 0, len(lines)
    while i < n:
        origin, text = lines[i]
        i += 1
        if fence is not None:
            out.append((origin, text))
            if closes(text, fence):
                fence = None
            continue
        fence = open_fence(text) if ("`" in text or "~" in text) else None
        if fence is not None:
            out.append((origin, text))
            continue
        tag = vue.block_open(text)
        if tag is not None:
            end = ends.closing(i - 1, tag)
            if end is None:
                ctx.note(vue.SCRIPT, "unresolved", origin, f"<{tag}> never closed by </{tag}>: its opening line dropped")
            else:
                ctx.note(vue.SCRIPT, "converted", origin, tag)
                i = end + 1
            continue
        spec = code_imports.snippet_line(text) if "<<<" in text else None
        if spec is not None:
            out.extend((origin, line) for line in code_imports.block(spec, origin, ctx, src_folder, snippets))
            continue
        read_line = vue.inline(text, origin, ctx, delimiters)
        if read_line is not None:
            out.append((origin, read_line))
    return out
