"""The include syntaxes of a mkdocs site, resolved on raw text (issue 26, "Includes").

Three preprocessors a mkdocs site may enable, all run before Markdown is parsed and so inside
fenced code too, as the generator does (shared/style/dialects.md, proposal 3):

- pymdown snippets: ``--8<-- "file"``, ``"file:3:5"`` (ranges joined by ``,``, negative ones from
  the end), ``"file:name"`` (a ``--8<-- [start:name]`` region), the block form (a ``--8<--`` line,
  one file per line, a ``--8<--`` line) and the ``;--8<--`` escape. Targets are relative to the
  extension's ``base_path`` (a list, default ``.``), itself relative to the folder of
  ``mkdocs.yml``, never to the including file; nested snippets resolve the same way. A missing
  target renders as nothing (pymdown's default without ``check_paths``) and is reported; a URL is
  never fetched.
- markdown-include-variants' ``{* file hl[..] ln[..] title[".."] *}`` line (FastAPI): the file as
  a Python code block; ``ln`` selects line groups (the omitted code marked by a ``# ...`` line, as
  the rendered block marks it), ``hl`` only highlights, ``title`` names the block. The collapsed
  "full file" and "other versions" panels are left out: a reader sees them only by opening them.
- mdx_include's ``{!file!}`` / ``{!> file!}``, the whole file in place.

The last two resolve against the folder of ``mkdocs.yml``, which is the working directory their
generator runs in. Each document line is carried with the source line it came from, so a note
made later names the line the author wrote.
"""

from __future__ import annotations

import posixpath
import re

from ..api import Context, Included
from ..syntax.fences import fenced
from ..syntax.line_map import Lines, joined
from .config import config_folder, extension_options
from ..selection import SelectionError, lines_between, region, whole


_SINGLE = re.compile(r"""^([ \t]*)(;*)-+8<-+[ \t]+("(?:\\"|[^"])+?"|'(?:\\'|[^'])+?')[ \t]*$""")
_BLOCK = re.compile(r"^([ \t]*)(;*)-+8<-+[ \t]*$")
_REGION = re.compile(r"^(.+?):([A-Za-z_][\w-]*)$")
_RANGES = re.compile(r"^(.+?)(:-?\d*(?::-?\d*)?(?:,-?\d*(?::-?\d*)?)*)$")
_WORD = re.compile(r"\w")
# {! path !}, with mdx_include's optional parts: a recursion mark (+ or -) and > before the path,
# a line slice [ln:...] and an encoding (| utf-8) after it. The path's characters exclude every
# character that may follow it, so a failed match gives back one character at a time, once.
_MDX_INCLUDE = re.compile(r"\{![+-]?>?\s*([^!\s|\[]+)(?:\s*\[ln:([^\]\s]*)\])?\s*(?:\|[^!]*)?!\}")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)

SNIPPET = "snippet"
VARIANT = "include variant"
MDX_INCLUDE = "mdx include"


def snippet_bases(ctx: Context, config: dict) -> list[str]:
    """``base_path`` of pymdownx.snippets as folders relative to the repository root."""
    options = extension_options(config, "pymdownx.snippets") or {}
    raw = options.get("base_path", ["."])
    if isinstance(raw, str):
        raw = [raw]
    bases = [b for b in raw if isinstance(b, str)] if isinstance(raw, list) else []
    folder = config_folder(ctx)
    return [posixpath.normpath(posixpath.join(folder, base)) for base in bases or ["."]]


def _pick_base(ctx: Context, bases: list[str], target: str) -> tuple[str, str]:
    """(base folder, target) of the first base the target exists under, else of the first: only
    one include is attempted, so the report names one missing target, not one per base. A base
    that is a file (pymdown allows ``LICENSE.md`` as a base) serves only its own name."""
    files = ctx.reader.files
    for base in bases:  # probes, not reads (the site's door): the read itself goes through ctx.include
        if files.is_file(base):
            if posixpath.basename(base) == target:
                return posixpath.dirname(base), target
        elif files.is_file(posixpath.join(base, target)):
            return base, target
    return bases[0], target


def _select_snippet(ctx: Context, inc: Included, spec: tuple[str, str] | None, line: int) -> str:
    if spec is None:
        return whole(inc.text)
    kind, value = spec
    if kind == "region":
        try:
            return region(inc.text, value)
        except SelectionError as exc:
            ctx.note(SNIPPET, "unresolved", line, f"{exc} in {inc.path}")
            return ""
    parts = []
    for piece in value.split(","):
        start, _, end = piece.partition(":")
        first = int(start) if start.lstrip("-") else None
        last = int(end) if end.lstrip("-") else None
        parts.append(lines_between(inc.text, first, last))
    return "\n".join(parts)


def _parse_target(raw: str) -> tuple[str, tuple[str, str] | None]:
    """``file:3:5`` -> ('file', ('lines', '3:5')); ``file:name`` -> ('file', ('region', 'name'))."""
    m = _RANGES.match(raw)
    if m is not None:
        return m.group(1), ("lines", m.group(2)[1:])
    m = _REGION.match(raw)
    if m is not None and not _URL.match(raw):
        return m.group(1), ("region", m.group(2))
    return raw, None


def _snippet(ctx: Context, raw: str, bases: list[str], line: int, within: Included | None) -> list[str]:
    """The lines one snippet target stands for, nested snippets expanded; [] when it fails."""
    if _URL.match(raw):
        ctx.note(SNIPPET, "unresolved", line, f"URL snippets are never fetched: {raw}")
        return []
    path, spec = _parse_target(raw)
    base, path = _pick_base(ctx, bases, path)
    inc = ctx.include(path, base=base, line=line, construct=SNIPPET, within=within)
    if inc is None:
        return []
    text = _select_snippet(ctx, inc, spec, line)
    nested = _expand_snippets([(line, t) for t in text.split("\n")], ctx, bases, inc) if text else []
    return [t for _, t in nested]


def _expand_snippets(lines: Lines, ctx: Context, bases: list[str], within: Included | None) -> Lines:
    out: Lines = []
    i, n = 0, len(lines)
    while i < n:
        origin, text = lines[i]
        if "8<" not in text:
            out.append((origin, text))
            i += 1
            continue
        single = _SINGLE.match(text)
        block = None if single else _BLOCK.match(text)
        m = single or block
        if m is None:
            out.append((origin, text))
            i += 1
            continue
        indent, escape = m.group(1), m.group(2)
        if escape:  # ;--8<-- shows the directive itself, one ; removed
            out.append((origin, indent + text[len(indent) + 1 :]))
            i += 1
            continue
        if single:
            raw = single.group(3)[1:-1].replace('\\"', '"').replace("\\'", "'")
            targets, i = [raw], i + 1
        else:
            j = i + 1
            while j < n and _BLOCK.match(lines[j][1]) is None:
                j += 1
            targets = [t.strip() for _, t in lines[i + 1 : j] if t.strip() and not t.strip().startswith(";")]
            i = j + 1
        for raw in targets:
            for got in _snippet(ctx, raw, bases, origin, within):
                out.append((origin, indent + got if got else got))
    return out


def expand_snippets(lines: Lines, ctx: Context, config: dict) -> Lines:
    """pymdown snippets, when the site enables them (``pymdownx.snippets`` in its configuration,
    ``config``, or no mkdocs.yml to say otherwise)."""
    if "8<" not in joined(lines):
        return lines
    if ctx.site.config_file and extension_options(config, "pymdownx.snippets") is None:
        return lines
    return _expand_snippets(lines, ctx, snippet_bases(ctx, config), None)


def _line_groups(value: str) -> list[tuple[int, int]]:
    groups = []
    for piece in value.split(","):
        start, _, end = piece.strip().partition(":")
        if start.isdigit() and (not end or end.isdigit()):
            groups.append((int(start), int(end or start)))
    return sorted(groups)


def variant(line: str) -> tuple[str, str] | None:
    """(target, options) of a ``{* target options *}`` line (no newline in it), as
    ``^\\{\\*\\s*(\\S+)\\s*(.*?)\\s*\\*\\}\\s*$`` reads it, without that pattern, whose lazy options
    between runs of blanks took time cubic in them (35 s for a line of 4,000): the closing ``*}``
    is the line's last non-blank text, the target the run of non-blanks after the opener (given
    back where it runs into the closer), the options what is left, stripped."""
    if not line.startswith("{*"):
        return None
    body = line.rstrip()
    if not body.endswith("*}"):
        return None
    close = len(body) - 2
    start = 2
    while start < len(line) and line[start].isspace():
        start += 1
    if start >= close:
        return None
    end = start
    while end < close and not line[end].isspace():
        end += 1
    return line[start:end], line[end:close].strip()


def _variant_options(text: str) -> list[tuple[str, str]]:
    """Each ``name[value]`` (a word, ``[``, anything up to the first ``]``), left to right, as
    ``(\\w+)\\[([^\\]]*)\\]`` found them. Read from each ``[`` back over its word: with no ``]``
    after a ``[`` nothing later closes, where the pattern tried each letter of a long word."""
    out: list[tuple[str, str]] = []
    at = 0
    while (bracket := text.find("[", at)) >= 0:
        start = bracket
        while start > at and _WORD.match(text, start - 1):
            start -= 1
        if start == bracket:  # no word before it
            at = bracket + 1
            continue
        close = text.find("]", bracket + 1)
        if close < 0:
            break
        out.append((text[start:bracket], text[bracket + 1 : close]))
        at = close + 1
    return out


def _variant_block(ctx: Context, found: tuple[str, str], line: int) -> str | None:
    target, options = found[0], dict(_variant_options(found[1]))
    inc = ctx.include(target, base=config_folder(ctx), line=line, construct=VARIANT)
    if inc is None:
        return None
    code_lines = whole(inc.text).split("\n")
    groups = _line_groups(options.get("ln", ""))
    if groups:
        shown: list[str] = []
        for k, (start, end) in enumerate(groups):
            if start > 1 or k:
                shown += ["", "# ...", ""] if k else ["# ...", ""]
            shown += code_lines[start - 1 : end]
        if groups[-1][1] < len(code_lines):
            shown += ["", "# ..."]
        code_lines = shown
    title = options.get("title", "").strip().strip('"')
    return fenced("\n".join(code_lines), "python" + (f' title="{title}"' if title else ""))


def expand_variants(lines: Lines, ctx: Context) -> Lines:
    """``{* file ... *}`` lines and ``{!file!}`` includes, against the folder of mkdocs.yml. The
    lines that hold one are found first and the runs between them are copied as they are: a page
    is mostly other lines, and a Python step per line was most of this pass's cost."""
    page = joined(lines)
    if "{*" not in page and "{!" not in page:
        return lines
    hits = [i for i, (_, text) in enumerate(lines) if text.startswith("{*") or "{!" in text]
    if not hits:
        return lines
    out: Lines = []
    last = 0
    for i in hits:
        out += lines[last:i]
        last = i + 1
        origin, text = lines[i]
        if text.startswith("{*"):
            found = variant(text)
            block = _variant_block(ctx, found, origin) if found else None
            if block is None:
                out.append((origin, text))
                continue
            text = block
        else:
            text = _MDX_INCLUDE.sub(lambda mm: _mdx_include(ctx, mm, origin), text)
        out += [(origin, part) for part in text.split("\n")]
    out += lines[last:]
    return out


def _mdx_include(ctx: Context, m: re.Match, line: int) -> str:
    groups = _slice_groups(m.group(2)) if m.group(2) is not None else None
    if m.group(2) is not None and groups is None:
        ctx.note(MDX_INCLUDE, "unresolved", line, f"[ln:{m.group(2)}]: only whole lines in order (1-5, 7, 9-, e) are read; kept as written")
        return m.group(0)
    inc = ctx.include(m.group(1), base=config_folder(ctx), line=line, construct=MDX_INCLUDE)
    if inc is None:
        return m.group(0)
    if not groups:
        return whole(inc.text)
    # mdx_include's default line_slice_separator: two empty lines between the parts
    return "\n\n\n".join(lines_between(inc.text, start, end) for start, end in groups)


def _slice_groups(spec: str) -> list[tuple[int, int | None]] | None:
    """mdx_include's ``[ln:...]`` line slice as (first, last) line pairs, 1-based and inclusive
    (last None: to the end): ``3``, ``1-7``, ``9-``, ``e`` (the last line), joined by ``,``.
    None for what its slicer reads and this does not: columns (``1.2-3.4``) and reversed runs
    (``6-2``, ``-3``)."""
    groups: list[tuple[int, int | None]] = []
    for piece in spec.split(","):
        start, dash, end = piece.partition("-")
        if piece == "e":
            groups.append((-1, -1))
            continue
        if not start.isdigit() or int(start) == 0:
            return None
        first = int(start)
        if not dash:
            groups.append((first, first))
        elif end in ("", "e"):
            groups.append((first, None))
        elif end.isdigit() and int(end) >= first:
            groups.append((first, int(end)))
        else:
            return None
    return groups
