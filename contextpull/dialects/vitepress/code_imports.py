"""``<<< path`` code imports as the page shows them (issue 36): the file, or one region of it, as
a fenced block.

The line is ``<<< path[#region][{meta}][ [title]]``, its suffixes read right to left as VitePress
reads them:

- ``[title]``: the block's title, the tab's label in a ``::: code-group`` (default: the file's
  name); it is kept in the fence's info string for ``blocks.py`` to read;
- ``{meta}``: highlighted lines (``{1,2-3}``), then a language and the rest of the fence's info
  (``{1 ts:line-numbers}``); highlighting changes no text, so only the language is kept;
- ``#region``: the lines of the file's region of that name (``regions.py``), their common
  indentation off, the region markers of that style left out;
- ``path``: relative to the page's folder, or, starting with ``@``, to the source root
  (``srcDir``). The language is the one the braces give, else the file's extension.

It is read where VitePress reads it, outside fenced code (the page's line pass, ``page_lines``)
and indented less than four columns,
through the shared guarded resolver (``ctx.include``), so a missing file, one outside the
repository and a missing region are ``unresolved`` notes and give nothing, as VitePress's
``silent`` mode renders them (past ``page_includes.MAX_FAILED`` on a page, not read, only named).
"""

from __future__ import annotations

import re

from ..api import Context
from ..syntax.fences import fenced
from . import regions
from .page_includes import MAX_SPEC, Tally, source_path

CONSTRUCT = "vitepress code snippet"
_REGION = re.compile(r"#([\w.-]+)$")
_EXTENSION = re.compile(r"\.([A-Za-z0-9]+)$")
_LINES = re.compile(r"\d+(?:[,-]\d+)*$")



def parse(spec: str) -> tuple[str, str, str, str]:
    """(path, region, language, title) of what follows ``<<<`` (module docstring)."""
    rest = spec.strip()
    title = ""
    opening = rest.find("[")
    if rest.endswith("]") and 0 <= opening < len(rest) - 2:
        title, rest = rest[opening + 1 : -1], rest[:opening].rstrip()
    lang = ""
    brace = rest.rfind("{")
    if rest.endswith("}") and brace > 0:
        meta = rest[brace + 1 : -1].split()
        if meta and _LINES.match(meta[0]):
            meta = meta[1:]
        lang = meta[0] if meta else ""
        rest = rest[:brace].rstrip()
    region = ""
    m = _REGION.search(rest) if "#" in rest else None
    if m is not None:
        region, rest = m.group(1), rest[: m.start()]
    path = rest.strip()
    name = re.split(r"[\\/]", path)[-1]
    if not lang:
        ext = _EXTENSION.search(name)
        lang = ext.group(1) if ext else ""
    return path, region, lang, title or name


def snippet_line(text: str) -> str | None:
    """What follows ``<<<`` on a line that is a code import (indented less than four columns),
    else None; the caller knows the line is outside fenced code."""
    stripped = text.lstrip(" ")
    if not stripped.startswith("<<<") or len(text) - len(stripped) > 3:
        return None
    return stripped[3:]


def block(spec: str, origin: int, ctx: Context, src_folder: str, tally: Tally) -> list[str]:
    """The lines of the fenced block a code import shows ([] when it shows nothing)."""
    found = _block(spec, origin, ctx, src_folder, tally)
    return [] if found is None else found.split("\n")


def _block(spec: str, origin: int, ctx: Context, src_folder: str, tally: Tally) -> str | None:
    if tally.spent(ctx, origin):
        return None
    if len(spec) > MAX_SPEC:
        tally.fail(ctx, origin, f"a code import over {MAX_SPEC} characters: dropped")
        return None
    path, region, lang, title = parse(spec)
    if not path:
        tally.fail(ctx, origin, "a code import that names no file: dropped")
        return None
    target, base = source_path(path, ctx.folder, src_folder)
    found = ctx.include(target, base=base, line=origin, construct=CONSTRUCT)
    if found is None:
        tally.fail(ctx, origin)
        return None
    lines = found.text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if region:
        chosen = regions.find(lines, region)
        if not chosen:
            tally.fail(ctx, origin, f"no region {region!r} in {found.path}: nothing shown")
            return None
        picked = [line for r in chosen for line in lines[r.start : r.end]]
        lines = regions.dedent(regions.without_markers(picked, {r.style for r in chosen}))
    info = f"{lang} [{title}]" if title else lang
    return fenced("\n".join(lines), info)
