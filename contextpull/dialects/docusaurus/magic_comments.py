"""Docusaurus's magic comments: a code block's line that holds only ``// highlight-next-line``,
``// highlight-start`` or ``// highlight-end`` (or the directives ``themeConfig.prism.magicComments``
configures) highlights lines and is not shown (Docusaurus's ``parseLines``). Redux's docs hold
473 of them.

As Docusaurus reads them: which comment syntaxes count depends on the block's language (``#``
in Python and Bash, ``<!-- -->`` in HTML, ``//`` and ``/* */`` in JavaScript, ``{/* */}`` in JSX
too, every syntax in a language it does not list); a block whose meta gives highlighted lines
(```` ```js {1,3} ````) keeps its comments, since Docusaurus then reads none. The configuration
is JavaScript, read as text, never run: its ``magicComments`` array of literals, else the
default directives.
"""

from __future__ import annotations

import re

from ...parsing.fence_rule import closes, open_fence
from ..data.js_literal import LiteralError, array_at, space_end

DEFAULT = ("highlight-next-line", "highlight-start", "highlight-end")
# Docusaurus's comment syntaxes (start, end), as patterns.
_STYLES = {
    "js": (r"//", ""), "jsBlock": (r"/\*", r"\*/"), "jsx": (r"\{\s*/\*", r"\*/\s*\}"), "bash": (r"#", ""),
    "html": (r"<!--", r"-->"), "lua": (r"--", ""), "wasm": (r";;", ""), "tex": (r"%", ""),
    "vb": (r"['‘’]", ""), "vbnet": (r"(?:_\s*)?['‘’]", ""), "rem": (r"[Rr][Ee][Mm]\b", ""), "f90": (r"!", ""),
    "ml": (r"\(\*", r"\*\)"), "cobol": (r"\*>", ""),
}
_LANGUAGES = {
    ("js", "javascript", "ts", "typescript"): ("js", "jsBlock"),
    ("jsx", "tsx"): ("js", "jsBlock", "jsx"),
    ("html",): ("js", "jsBlock", "html"),
    ("python", "py", "bash"): ("bash",),
    ("markdown", "md"): ("html", "jsx", "bash"),
    ("tex", "latex", "matlab"): ("tex",),
    ("lua", "haskell"): ("lua",),
    ("sql",): ("lua", "jsBlock"),
    ("wasm",): ("wasm",),
    ("vb", "vba", "visual-basic"): ("vb", "rem"),
    ("vbnet",): ("vbnet", "rem"),
    ("batch",): ("rem",),
    ("basic",): ("rem", "f90"),
    ("fsharp",): ("js", "ml"),
    ("ocaml", "sml"): ("ml",),
    ("fortran",): ("f90",),
    ("cobol",): ("cobol",),
}
_BY_LANGUAGE = {lang: styles for langs, styles in _LANGUAGES.items() for lang in langs}
_RANGE = re.compile(r"\{[\d,\s-]+\}")
_MAGIC = re.compile(r"\bmagicComments\s*:\s*")


def directives(config_text: str) -> tuple[str, ...]:
    """The directives a site's configuration sets (``line`` and ``block.start``/``block.end`` of
    each ``magicComments`` entry written as a literal), else Docusaurus's defaults."""
    found = _MAGIC.search(config_text) if "magicComments" in config_text else None
    if found is None:
        return DEFAULT
    at = space_end(config_text, found.end())
    if not config_text.startswith("[", at):
        return DEFAULT
    try:
        entries = array_at(config_text, at, "magicComments")
    except (LiteralError, RecursionError):
        return DEFAULT
    out: list[str] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        block = entry.get("block") if isinstance(entry.get("block"), dict) else {}
        out += [v for v in (entry.get("line"), block.get("start"), block.get("end")) if isinstance(v, str) and v]
    return tuple(dict.fromkeys(out)) or DEFAULT


def pattern(language: str, names: tuple[str, ...]) -> re.Pattern:
    """A line that holds one of ``names`` alone in a comment ``language`` reads as one."""
    styles = _BY_LANGUAGE.get(language.lower(), tuple(_STYLES))
    words = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    forms = "|".join(rf"{start}\s*(?:{words})\s*{end}" for start, end in (_STYLES[s] for s in styles))
    return re.compile(rf"[ \t]*(?:{forms})[ \t]*")


def strip(raw: str, language: str, names: tuple[str, ...]) -> str | None:
    """The fenced block ``raw`` without its magic-comment lines; None when it has none or its
    meta names highlighted lines."""
    lines = raw.split("\n")
    if len(lines) < 2 or _RANGE.search(lines[0]) or not any(n in raw for n in names):
        return None
    fence = open_fence(lines[0])
    if fence is None:
        return None
    end = len(lines) - 1 if len(lines) > 1 and closes(lines[-1], fence) else len(lines)
    magic = pattern(language, names)
    body = [line for line in lines[1:end] if not (any(n in line for n in names) and magic.fullmatch(line))]
    if len(body) == end - 1:
        return None
    return "\n".join([lines[0], *body, *lines[end:]])
