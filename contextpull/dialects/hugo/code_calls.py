"""Hugo's code shortcodes as the code blocks the page shows (issue 26, "Markup to meaning"):
``highlight`` and ``hl`` their inner text, in its language or inline; ``code-toggle`` a
configuration example, written inside it or taken from the site's ``data/docs`` file
(``hugo_data``), under the file name the page prints above it. The dialect (``dialect``) hands
each such call here.
"""

from __future__ import annotations

import re

from ..api import Context
from ..syntax.fences import fenced
from ..syntax.labels import labelled
from ..syntax.markup import dedent_block
from . import hugo_data
from .shortcodes import Call


def render(call: Call, ctx: Context, line: int) -> str:
    """``highlight``/``hl`` show their inner text as code; ``code-toggle`` shows a configuration
    example, its inner text or the named section of the site's ``data/docs`` file, under the
    file name the page prints above it."""
    if call.name == "code-toggle":
        if call.inner is None:
            return _code_toggle_data(call, ctx, line)
        body = dedent_block(call.inner).strip("\n")
        lang = _config_language(body)
        ctx.note("hugo code-toggle", "converted", line)
        return _labelled_code(_file_label(call, lang), lang, body)
    body = call.inner or ""
    lang = call.arg("lang", 0)
    inline = call.name == "hl" or "hl_inline=true" in call.arg("options", 1).replace(" ", "")
    ctx.note("hugo highlight", "converted", line, call.name)
    if inline:
        return _inline_code(body.strip())
    return fenced(dedent_block(body).strip("\n"), lang)


def _code_toggle_data(call: Call, ctx: Context, line: int) -> str:
    key = call.arg("config") or call.arg("dataKey")
    if not key:
        ctx.note("hugo code-toggle", "unresolved", line, "no inner text, config or dataKey")
        return ""
    text = hugo_data.docs_section(ctx, key, section="config" if call.arg("config") else None,
                                  skip_header=call.arg("skipHeader") in ("true", "1"), line=line)
    if text is None:
        ctx.note("hugo code-toggle", "unresolved", line, f"{key}: not in the site's data/docs file")
        return ""
    ctx.note("hugo code-toggle", "resolved", line, key)
    file = call.arg("file") or ("hugo" if call.arg("config") else key)
    return _labelled_code(f"{file}.yaml", "yaml", text.rstrip("\n"))


def _file_label(call: Call, lang: str) -> str:
    file = call.arg("file")
    if not file:
        return ""
    return file if call.arg("fm") in ("true", "1") else f"{file}.{lang}"


def _labelled_code(label: str, lang: str, body: str) -> str:
    block = fenced(body, lang)
    return labelled(label, block) if label else block


def _config_language(body: str) -> str:
    first = body.lstrip()
    if first.startswith(("{", "[{")):
        return "json"
    for raw in body.split("\n"):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        if re.match(r"^\[\[?[\w.\"' -]+\]\]?$", s) or re.match(r"^[\w.\"'-]+\s*=", s):
            return "toml"
        return "yaml"
    return "yaml"


def _inline_code(body: str) -> str:
    ticks = "``" if "`" in body else "`"
    return f"{ticks}{body}{ticks}"
