"""``<!--@include: path-->`` as VitePress expands it (issue 36): before the page is parsed, on
its raw text (inside fenced code too), each directive replaced by the file it names, read
through the shared guarded resolver (``ctx.include``: inside the repository, bounded, cycles and
depth named).

- ``path`` is relative to the file the directive is in (the page, or an included file); a path
  starting with ``@`` (``@/parts/x.md``, ``@parts/x.md``) is relative to the source root
  (``srcDir``, the folder of ``.vitepress`` by default);
- ``#name`` at the end takes the file's region ``name`` (editor markers, ``regions.py``), or,
  when no region has that name, the section under the heading whose anchor it is (``{#name}``,
  or the heading's text made an anchor), to the next heading of its level or above;
- ``{a,b}`` at the end takes lines ``a`` to ``b`` (1-based, both kept; ``{3,}`` from line 3,
  ``{,5}`` to line 5), after the region when both are given;
- an included Markdown file loses its front matter, except when a range is given without a
  region (VitePress counts the range's lines from the file's first line then);
- what is included is expanded the same way, relative to its own folder.

A directive that names nothing, a missing file, region or heading, a range out of bounds and
every refusal of the resolver is an ``unresolved`` note; the directive then gives nothing (the
comment a page never shows). After ``MAX_FAILED`` such failures on one page, further
directives are not read, only named (and the context counts what it does not list). The directives are found with ``str.find`` (an opener whose
``-->`` never comes ends the search: no later one can close either), so a line of a million
openers costs one pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..api import Context, Included
from ..data.front_matter import split_front_matter
from ..syntax.fences import prose_lines
from ..syntax.line_map import Lines
from . import regions

CONSTRUCT = "vitepress include"
# A directive's text is a path with a few suffixes; a longer one is no path a file system takes.
MAX_SPEC = 4096
MAX_FAILED = 100
_DIRECTIVE = re.compile(r"<!--[ \t\n]*@include:")
_RANGE = re.compile(r"\{(\d*),(\d*)\}$")
_REGION = re.compile(r"#([^\s{#]+)$")
_HEADING = re.compile(r"(#{1,6})[ \t]+(.*)$")


def source_path(target: str, folder: str, src_folder: str) -> tuple[str, str]:
    """(target, base folder) for the resolver: ``@`` and ``@/`` name the source root."""
    if target.startswith("@"):
        rest = target[2:] if target[1:2] in ("/", "\\") else target[1:]
        return rest, src_folder
    return target, folder


@dataclass
class Tally:
    """A page's failed directives: past ``MAX_FAILED`` the rest are not read, only named, so a
    page of a million broken directives costs a hundred failed reads; the document's context
    lists a hundred notes of a construct and counts the rest in one (``context.MAX_LISTED``)."""

    construct: str
    failed: int = 0

    def spent(self, ctx: Context, line: int) -> bool:
        if self.failed < MAX_FAILED:
            return False
        ctx.note(self.construct, "unresolved", line, f"not read after {MAX_FAILED} failed on this page")
        return True

    def fail(self, ctx: Context, line: int, detail: str | None = None) -> None:
        """One more failure (noted with ``detail``, unless the resolver noted it already)."""
        self.failed += 1
        if detail is not None:
            ctx.note(self.construct, "unresolved", line, detail)


def expand(lines: Lines, ctx: Context, src_folder: str, folder: str | None = None,
           within: Included | None = None, tally: Tally | None = None) -> Lines:
    """The lines with every directive replaced by what it includes; each included line carries
    the line of the page's directive it came from."""
    folder = ctx.folder if folder is None else folder
    tally = Tally(CONSTRUCT) if tally is None else tally
    out: Lines = []
    for origin, text in lines:
        if "@include:" not in text:
            out.append((origin, text))
            continue
        pieces = _expand_line(text, origin, ctx, src_folder, folder, within, tally)
        out.extend((origin, piece) for piece in pieces)
    return out


def _expand_line(text: str, origin: int, ctx: Context, src_folder: str, folder: str,
                 within: Included | None, tally: Tally) -> list[str]:
    kept: list[str] = []
    at = 0
    while True:
        m = _DIRECTIVE.search(text, at)
        if m is None:
            break
        end = text.find("-->", m.end())
        if end < 0:  # no later opener can close either
            ctx.note(CONSTRUCT, "unresolved", origin, "an <!--@include: never closed by -->: nothing included from it")
            break
        kept.append(text[at : m.start()])
        kept.append(_include(text[m.end() : end].strip(), origin, ctx, src_folder, folder, within, tally))
        at = end + 3
    kept.append(text[at:])
    return "".join(kept).split("\n")


def _include(spec: str, origin: int, ctx: Context, src_folder: str, folder: str,
             within: Included | None, tally: Tally) -> str:
    if tally.spent(ctx, origin):
        return ""
    if not spec:
        tally.fail(ctx, origin, "an include that names no file: dropped")
        return ""
    if len(spec) > MAX_SPEC:
        tally.fail(ctx, origin, f"an include over {MAX_SPEC} characters: dropped")
        return ""
    span = _RANGE.search(spec)
    if span is not None:
        spec = spec[: span.start()]
    region = _REGION.search(spec)
    if region is not None:
        spec = spec[: region.start()]
    target, base = source_path(spec.strip(), folder, src_folder)
    found = ctx.include(target, base=base, line=origin, construct=CONSTRUCT, within=within)
    if found is None:
        tally.fail(ctx, origin)
        return ""
    text = found.text
    if found.path.endswith(".md") and (region is not None or span is None):
        text = split_front_matter(text).body.lstrip("\n")
    lines = text.split("\n")
    if region is not None:
        name = region.group(1)
        chosen = regions.find(lines, name)
        if chosen:
            lines = [line for r in chosen for line in lines[r.start : r.end]]
        else:
            section = _heading_section(lines, name)
            if section is None:
                tally.fail(ctx, origin, f"no region or heading {name!r} in {found.path}: nothing included")
                return ""
            lines = lines[section[0] : section[1]]
    if span is not None:
        first = int(span.group(1)) if span.group(1) else 1
        last = int(span.group(2)) if span.group(2) else len(lines)
        if first < 1 or last < first or last > len(lines):
            tally.fail(ctx, origin, f"lines {span.group(0)} out of bounds in {found.path} ({len(lines)} lines): nothing included")
            return ""
        lines = lines[first - 1 : last]
    inner = expand([(origin, line) for line in lines], ctx, src_folder, found.folder, found, tally)
    return "\n".join(line for _, line in inner)


def _heading_section(lines: list[str], anchor: str) -> tuple[int, int] | None:
    """(first line under the heading whose anchor is ``anchor``, the line of the next heading of
    its level or above, or the end); headings in fenced code do not count."""
    start = level = None
    for i in prose_lines(lines):
        line = lines[i]
        if not line.startswith("#"):
            continue
        m = _HEADING.match(line)
        if m is None:
            continue
        depth = len(m.group(1))
        if start is not None:
            if depth <= level:
                return start, i
            continue
        title = m.group(2).rstrip().rstrip("#").rstrip()
        explicit = _anchor(title)
        if (explicit if explicit is not None else regions.slug(title)) == anchor:
            start, level = i + 1, depth
    return None if start is None else (start, len(lines))


def _anchor(title: str) -> str | None:
    """The id of a heading's ``{#id}`` at its end (the leftmost ``{#`` of the last run of
    characters that are neither ``}`` nor blank, as ``\\{#([^}\\s]+)\\}[ \\t]*$`` reads it),
    found with one scan back: the pattern searched from every ``{#`` of a run of them took
    seconds on a 60 KB heading."""
    text = title.rstrip(" \t")
    end = len(text) - 1
    if end < 0 or text[end] != "}":
        return None
    start = end
    while start > 0 and text[start - 1] != "}" and not text[start - 1].isspace():
        start -= 1
    opener = text.find("{#", start, end - 1)
    return None if opener < 0 else text[opener + 2 : end]
