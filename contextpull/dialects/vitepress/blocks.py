"""VitePress's custom containers as a reader of the page sees them (issue 36).

``::: tip``, ``::: info``, ``::: warning``, ``::: danger``, ``::: note``, ``::: important``,
``::: caution`` and ``::: details``, each with an optional title after the name, are boxes whose
label is the title (else the default one: ``Tip``, ``Details``, the shared ``labels.title``) and
whose body is Markdown: ``Title: body`` (``labels.labelled``). ``::: code-group`` shows its fenced
blocks as tabs, each labelled by the ``[label]`` of its info string (else its language): each
block becomes a labelled part. ``::: raw`` and ``::: v-pre`` only change how the body is
rendered: the body alone. ``::: tabs`` of vitepress-plugin-tabs (when the configuration names
the plugin) shows each ``== Label`` line as the label of the tab below it.

The containers are read by the shared reading of colon containers
(``syntax/container_tree.scan_marked`` with ``MARKDOWN_IT_COLONS``: a closing line of colons alone ends
the outermost open container with as many colons or fewer, and every one opened inside it, as
markdown-it-container searches for an opener's closer through everything inside it; nesting
bounded by ``MAX_NESTING``), over the page with its fenced code blanked, so a ``:::`` shown in a
code example is code. A container a closer ended while it was still open inside another (``:::
warning`` holding a ``::: code-group``, both ended by one ``:::``) ends there, as on the page;
one never closed at all runs to the end of the page and is noted; a closing line that closes
nothing, and an opener nested past the bound, stay out of the text and are noted. A name
VitePress does not register is shown by VitePress as the text it is: its body is kept behind a
label all the same and noted ``unresolved``, unless the configuration registers its own
(``customContainers``, a container plugin), when no name is called unknown.
"""

from __future__ import annotations

import re

from ..api import Context
from ..syntax import labels
from ..syntax.container_tree import MARKDOWN_IT_COLONS, Container, scan_marked
from ..syntax.containers import MAX_NESTING, colon_closer, colons
from ..syntax.fences import Fence, code_blanked, code_lines
from ..syntax.line_map import Lines, joined

CONSTRUCT = "vitepress container"
CODE_GROUP = "vitepress code group"
LABELLED = frozenset("tip info warning danger note important caution details".split())
PLAIN = frozenset(("raw", "v-pre"))
_LANG = re.compile(r"[A-Za-z0-9_-]+")
_TAB = re.compile(r"[ \t]*==[ \t]+(\S.*)$")


def convert(lines: Lines, ctx: Context, any_name: bool = False, tabs: bool = False) -> Lines:
    """The lines with every container replaced by its labelled text (module docstring);
    ``any_name``: the site registers containers of its own, so no name is unknown; ``tabs``: it
    uses vitepress-plugin-tabs (``::: tabs`` with ``== Label`` lines)."""
    if ":::" not in joined(lines):
        return lines
    masked = code_blanked([text for _, text in lines])
    tree = scan_marked(masked, MARKDOWN_IT_COLONS, ":::")
    return _render(lines, masked, 0, len(lines), tree, ctx, any_name, tabs)


def _render(lines: Lines, masked: list[str], lo: int, hi: int, children: list[Container], ctx: Context,
            any_name: bool, tabs: bool) -> Lines:
    out: Lines = []
    at = lo
    for child in children:
        out.extend(_gap(lines, masked, at, child.line, ctx))
        out.extend(_container(lines, masked, child, ctx, any_name, tabs))
        at = child.after
    out.extend(_gap(lines, masked, at, hi, ctx))
    return out


def _gap(lines: Lines, masked: list[str], lo: int, hi: int, ctx: Context) -> Lines:
    """Lines outside any container at this level: a stray closer or a too-deep opener is noted
    and left out."""
    out: Lines = []
    for i in range(lo, hi):
        text = masked[i]
        found = colons(text) if ":::" in text else None
        if found is None:
            out.append(lines[i])
        elif colon_closer(found):
            ctx.note(CONSTRUCT, "unresolved", lines[i][0], "a ::: line that closes no container: dropped")
        elif found.name is not None:
            ctx.note(CONSTRUCT, "unresolved", lines[i][0],
                     f"::: {found.name} nested deeper than {MAX_NESTING}: kept as written")
            out.append(lines[i])
        else:
            out.append(lines[i])
    return out


def _container(lines: Lines, masked: list[str], c: Container, ctx: Context, any_name: bool, tabs: bool) -> Lines:
    origin = lines[c.line][0]
    name = (c.opener.name or "").lower()
    body = _render(lines, masked, c.body, c.end, c.children, ctx, any_name, tabs)
    construct = CODE_GROUP if name == "code-group" else CONSTRUCT
    if not c.closed and c.end >= len(masked):
        ctx.note(construct, "unresolved", origin, f"::: {name} never closed: read to the end of the page")
    if name == "code-group":
        ctx.note(CODE_GROUP, "converted", origin)
        return [(origin, "")] + _code_group(body) + [(origin, "")]
    if name in PLAIN:
        ctx.note(CONSTRUCT, "converted", origin, name)
        return body
    if name == "tabs" and tabs:
        ctx.note(CONSTRUCT, "converted", origin, name)
        return [(origin, "")] + _tabs(body) + [(origin, "")]
    title = _without_trailing_braces(c.opener.title or "").strip()
    if name in LABELLED or any_name:
        ctx.note(CONSTRUCT, "converted", origin, name)
    else:
        ctx.note(CONSTRUCT, "unresolved", origin,
                 f"unknown container ::: {c.opener.name}: VitePress shows its lines as text; its body kept")
    label = title or labels.title(name)
    block = labels.labelled(label, joined(body))
    return [(origin, "")] + [(origin, part) for part in block.split("\n")] + [(origin, "")]


def _tabs(body: Lines) -> Lines:
    """vitepress-plugin-tabs: each ``== Label`` line starts a tab, shown as its label."""
    out: Lines = []
    for origin, text in body:
        m = _TAB.match(text)
        out.extend([(origin, ""), (origin, f"{m.group(1).strip()}:"), (origin, "")] if m else [(origin, text)])
    return out


def _code_group(body: Lines) -> Lines:
    """Each fenced block of a code group behind its tab's label; what else the group holds stays."""
    out: Lines = []
    at = 0
    for first, end, fence in code_lines([text for _, text in body]):
        out.extend(body[at:first])
        origin, text = body[first]
        label, info = _tab_label(text, fence)
        out.extend([(origin, ""), (origin, f"{label}:"), (origin, ""), (origin, info)])
        out.extend(body[first + 1 : end])
        out.append((origin, ""))
        at = end
    out.extend(body[at:])
    return out


def _tab_label(opening: str, fence: Fence) -> tuple[str, str]:
    """(the tab's label, the opening line without it): ``[label]``, else the language, else
    ``txt``, as VitePress titles a tab."""
    info = fence.info
    start, end = info.find("["), info.rfind("]")
    if 0 <= start < end:
        label = info[start + 1 : end].strip()
        info = (info[:start] + info[end + 1 :]).strip()
    else:
        label = ""
    if not label:
        m = _LANG.match(info.strip())
        lang = m.group(0) if m else ""
        lang = "template" if lang == "vue-html" else ("" if lang == "ansi" else lang.removesuffix("-vue"))
        label = lang or "txt"
    return label, f"{fence.lead}{fence.marker}{info}"


def _without_trailing_braces(title: str) -> str:
    """``title`` without a ``{...}`` (no braces or line end inside) at its end, and the blanks
    before it: a container's attributes (``::: tip A {.x}``). Found from the end in one pass; the
    pattern it replaces was quadratic on a run of blanks."""
    text = title.rstrip(" \t")
    if not text.endswith("}"):
        return title
    opener = text.rfind("{", 0, len(text) - 1)
    if opener < 0 or "}" in text[opener + 1 : -1] or "\n" in text[opener:]:
        return title
    return text[:opener].rstrip(" \t")
