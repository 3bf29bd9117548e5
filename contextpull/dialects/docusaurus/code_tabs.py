"""Code blocks a Docusaurus site's remark plugins turn into tabs, read as the MDX rules read
``<Tabs>``/``<TabItem>`` (each tab's label on its own line, ``npm:``, then its code), since the
plugins write exactly those elements:

- ``@docusaurus/remark-plugin-npm2yarn``: a block whose meta is ``npm2yarn`` (```` ```bash
  npm2yarn ````) is a tab ``npm`` with the block's code, then one tab per converter the plugin's
  options name (``converters``, default ``['yarn', 'pnpm']``; labels ``Yarn``, ``pnpm``,
  ``Bun``), its code converted (``npm_commands``). A block the conversion does not understand
  keeps its npm tab alone, named. Jest's docs: 15 install blocks on 9 pages read ``npm`` only;
- ``docusaurus-remark-plugin-tab-blocks``: consecutive blocks whose meta has ``tab``
  (```` ```js tab title="jest.config.js" ````) are one tab each, labelled by the plugin's
  ``labels`` (``js`` JavaScript, ``ts`` TypeScript, and the options' own), else ``tab={"label":
  "X"}``, else the language; ``tab={"span": 2}`` makes a tab of that many blocks. The ``tab`` key
  is no part of what the page shows, so it leaves the fence line; a ``title`` stays.

The configuration is JavaScript, never run: each plugin is found by its package name in its text,
and its options are the object literal written after it (``[require('...'), {sync: true}]``, or
the name an ``import`` or a ``require`` gives it), read as data (``data.js_literal``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ...parsing.blocks import Block, Code, Paragraph
from ...parsing.fence_rule import closes, fence_code, open_fence
from ..data.js_literal import LiteralError, object_at
from ..syntax.labels import labelled
from . import npm_commands

NPM2YARN = "@docusaurus/remark-plugin-npm2yarn"
TAB_BLOCKS = "docusaurus-remark-plugin-tab-blocks"
_MANAGER_LABELS = {"npm": "npm", "yarn": "Yarn", "pnpm": "pnpm", "bun": "Bun"}
_TAB_LABELS = {"js": "JavaScript", "ts": "TypeScript"}
# ``tab`` as a word of a fence's meta, with its JSON options (``tab={"span":2}``).
_TAB = re.compile(r"(?<![\w-])tab(?:=(\{[^{}\n]*\}))?(?![\w-])")
# The name a configuration gives the plugin: ``import x from 'pkg'``, ``const x = require('pkg')``.
_NAMED = r"""(?:import[ \t]+([A-Za-z_$][\w$]*)[ \t]+from|(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)[ \t]*=[ \t]*require\()[ \t]*['"]{}['"]"""
_CONVERTERS = re.compile(r"\bconverters[ \t]*:")
MAX_SPAN = 32


@dataclass(frozen=True)
class Plugins:
    """What the configuration turns on: npm2yarn's converters (None: the plugin is not there)
    and tab-blocks' labels (None: not there)."""

    converters: tuple[str, ...] | None = None
    tab_labels: dict[str, str] | None = field(default=None)
    problem: str = ""  # why npm2yarn's converters were not read (the npm tab is shown alone)


def plugins(config_text: str) -> Plugins:
    converters = None
    problem = ""
    if NPM2YARN in config_text:
        options = _options(config_text, NPM2YARN)
        listed = options.get("converters", ["yarn", "pnpm"])
        if "converters" not in options and _CONVERTERS.search(config_text):
            listed, problem = [], "the plugin's converters are not a literal list: the npm tab alone shown"
        listed = listed if isinstance(listed, list) else []
        converters = tuple(c for c in listed if isinstance(c, str) and c in npm_commands.MANAGERS)
    labels = None
    if TAB_BLOCKS in config_text:
        labels = dict(_TAB_LABELS)
        given = _options(config_text, TAB_BLOCKS).get("labels")
        for pair in given if isinstance(given, list) else []:
            if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair):
                labels[pair[0]] = pair[1]
    return Plugins(converters, labels, problem)


def _options(text: str, package: str) -> dict:
    """The object literal written after the plugin in a ``remarkPlugins`` entry ({} when none)."""
    quoted = re.escape(package)
    names = [re.escape(m.group(1) or m.group(2)) for m in re.finditer(_NAMED.format(quoted), text)]
    refer = r"""require\(\s*['"]{}['"]\s*\)(?:\.default)?""".format(quoted)
    found = re.search(r"(?:{})[ \t\r\n]*,[ \t\r\n]*\{{".format("|".join([refer, *(rf"\b{n}\b" for n in names)])), text)
    if found is None:
        return {}
    try:
        value = object_at(text, found.end() - 1, package)
    except (LiteralError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def convert(blocks: list[Block], found: Plugins, note) -> list[Block]:
    """The page's blocks with each plugin's code blocks as the tabs the page draws."""
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        fence = open_fence(block.raw.split("\n", 1)[0]) if isinstance(block, Code) else None
        meta = fence.info.split(None, 1)[1].strip() if fence is not None and len(fence.info.split(None, 1)) > 1 else ""
        if found.converters is not None and meta == "npm2yarn":
            out += _npm2yarn(block, found, note)
            i += 1
        elif found.tab_labels is not None and _TAB.search(meta):
            taken, tabs = _tab_blocks(blocks, i, found.tab_labels)
            note("code tabs", "converted", 0, f"{len(tabs)} tabs")
            for label, codes in tabs:
                out += [Paragraph(labelled(label, "")), *codes]
            i += taken
        else:
            out.append(block)
            i += 1
    return out


def _npm2yarn(block: Code, found: Plugins, note) -> list[Block]:
    lead, code, info, closer = _parts(block.raw)
    tabs = [("npm", code)]
    if found.problem:
        note("npm2yarn", "unresolved", 0, found.problem)
    for manager in found.converters or ():
        converted = npm_commands.convert(code, manager)
        if converted is None:
            note("npm2yarn", "unresolved", 0, f"{code.splitlines()[0][:60] if code else ''}: not converted, its npm tab alone shown")
            tabs = tabs[:1]
            break
        tabs.append((manager, converted))
    else:
        if not found.problem:
            note("npm2yarn", "converted", 0, f"{len(tabs)} tabs")
    language = info.split(None, 1)[0] if info.split() else ""
    out: list[Block] = []
    for manager, text in tabs:
        out += [Paragraph(labelled(_MANAGER_LABELS[manager], "")), Code(block.lang, _fenced(lead, language, text, closer))]
    return out


def _tab_blocks(blocks: list[Block], i: int, labels: dict[str, str]) -> tuple[int, list[tuple[str, list[Code]]]]:
    """(blocks taken from ``i``, each tab's label and code blocks), as the plugin groups them:
    a block with ``tab`` opens a tab of ``span`` blocks, and the next block continues the
    group when it has ``tab`` too."""
    tabs: list[tuple[str, list[Code]]] = []
    start = i
    while i < len(blocks) and isinstance(blocks[i], Code):
        lead, code, info, closer = _parts(blocks[i].raw)
        language, _, meta = info.partition(" ")
        tab = _TAB.search(meta)
        if tab is None:
            break
        options = _tab_options(tab.group(1))
        span = options.get("span", 1) if isinstance(options.get("span", 1), int) else 1
        label = options.get("label") if isinstance(options.get("label"), str) else labels.get(language, language)
        codes: list[Code] = []
        while len(codes) < min(max(span, 1), MAX_SPAN) and i < len(blocks) and isinstance(blocks[i], Code):
            lead, code, info, closer = _parts(blocks[i].raw)
            kept = " ".join(_TAB.sub(" ", info).split())
            codes.append(Code(blocks[i].lang, _fenced(lead, kept, code, closer)))
            i += 1
        tabs.append((label, codes))
    return max(i - start, 1), tabs


def _tab_options(source: str | None) -> dict:
    if not source:
        return {}
    try:
        value = json.loads(source)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _parts(raw: str) -> tuple[str, str, str, str | None]:
    """A fenced block's (opening line up to its info, its code dedented by the opener's
    indentation, its info string, its closing line or None)."""
    lines = raw.split("\n")
    fence = open_fence(lines[0])
    if fence is None:
        return "", raw, "", None
    end = len(lines) - 1 if len(lines) > 1 and closes(lines[-1], fence) else len(lines)
    code = "\n".join(fence_code(fence, lines[1:end]))
    return fence.lead + fence.marker, code, fence.info.strip(), lines[end] if end < len(lines) else None


def _fenced(opener: str, info: str, code: str, closer: str | None) -> str:
    indent = opener[: len(opener) - len(opener.lstrip(" \t"))]
    body = [indent + line if line else line for line in code.split("\n")]
    return "\n".join([f"{opener}{info}", *body, *([closer] if closer is not None else [])])
