"""What a Sphinx role shows on the page, in both syntaxes (issue 26, "Markup to meaning").

One rule for ``:func:`x``` in rst and ``{func}`x``` in MyST, so a role reads the same in either
page of a site; ``rst.roles`` wraps it in docutils nodes, the MyST reader (``dialect``) in
Markdown. Loaded without docutils.

An explicit title is Sphinx's: text ending in ``<target>`` with a title before it
(``Title <label>``); a ``<`` escaped with a backslash does not open a target. docutils hands a
role its text with each backslash escape as a NUL before the escaped character, and that is the
form ``explicit`` reads; MyST's role text is raw, and ``escaped`` gives its ``\\<`` that form.
"""

from __future__ import annotations


def escaped(raw: str) -> str:
    """MyST's raw role text with ``\\<`` in docutils' escaped form, so that it opens no target
    in either syntax; every other backslash stays, as MyST hands it to the role as written."""
    return raw.replace("\\<", "\x00<") if "\\<" in raw else raw


def unescape(text: str) -> str:
    """docutils' ``utils.unescape``: the escaped form as the page shows it."""
    return text.replace("\x00 ", "").replace("\x00\n", "").replace("\x00", "") if "\x00" in text else text


def explicit(text: str) -> tuple[str, str] | None:
    """(title, target) of ``Title <target>`` in escaped ``text``, unescaped; None without one.

    Sphinx's ReferenceRole rule, ``^(.+?)\\s*(?<!\\x00)<(.*?)>$`` (dot matching newlines) over
    docutils' escaped text (``\\x00<`` is an escaped ``<``), read with ``str.find``: the text
    ends with ``>`` (or ``>`` and a newline), the target opens at the first ``<`` after the
    first character that is not escaped, and the title is what comes before it less the blanks
    just before it. The pattern tried every title length, each to the end, against a long run
    of blanks or of ``<`` with no ``>`` last."""
    if text.endswith(">\n"):
        end = len(text) - 2
    elif text.endswith(">"):
        end = len(text) - 1
    else:
        return None
    at = text.find("<", 1)
    while 0 <= at < end:
        if text[at - 1] != "\x00":
            cut = at
            while cut > 1 and text[cut - 1].isspace():
                cut -= 1
            return unescape(text[:cut]), unescape(text[at + 1 : end])
        at = text.find("<", at + 1)
    return None


# Roles the page shows in code type (Sphinx's xref roles for code objects and the literal ones).
_CODE = {
    "func", "meth", "class", "attr", "data", "exc", "mod", "obj", "const", "type", "member",
    "macro", "var", "struct", "union", "enum", "enumerator", "envvar", "option", "file", "samp",
    "kbd", "code", "literal", "token", "keyword", "expr", "texpr", "any", "confval", "setting",
    "directive", "role", "program", "command", "makevar", "regexp", "mimetype", "newsgroup",
    "fixture", "event",
}
_CALLABLE = {"func", "meth"}
# Roles whose text is never a title and a target.
_UNTITLED = ("abbr", "samp", "kbd", "math", "code", "literal")
_OBJECT_ROLES = _CODE - {"file", "samp", "kbd", "code", "literal", "program", "command"}


def display(name: str, text: str, config: dict) -> tuple[str, bool]:
    """(what the page shows, whether in code type) for role ``name`` on ``text``, in docutils'
    escaped form (``escaped``)."""
    base = name.lower().rsplit(":", 1)[-1]
    titled = explicit(text) if base not in _UNTITLED else None
    if titled:
        return titled[0].strip(), base in _CODE
    text = unescape(text)
    if base in ("pep", "rfc"):
        return f"{base.upper()} {text.split('#', 1)[0].strip()}", False
    if base == "abbr":
        return text, False
    if base == "menuselection":
        return text.replace("-->", ">").replace("&", ""), False
    if base == "guilabel":
        return text.replace("&&", "\0").replace("&", "").replace("\0", "&"), False
    if base == "samp":
        return text.replace("{", "").replace("}", ""), True
    extlinks = config.get("extlinks")
    if isinstance(extlinks, dict) and isinstance(extlinks.get(base), (tuple, list)):
        spec = extlinks[base]
        caption = spec[1] if len(spec) > 1 else None
        if isinstance(caption, str) and "%s" in caption:
            return caption.replace("%s", text), False
        return text, False
    shown = text
    if base in _OBJECT_ROLES or base in ("ref", "doc", "term", "numref", "download", "any"):
        if shown.startswith("!"):
            shown = shown[1:]
        if shown.startswith("~"):
            shown = shown[1:].rsplit(".", 1)[-1]
        elif shown.startswith(".") and base in _OBJECT_ROLES:  # ".Request": a search modifier
            shown = shown[1:]
    if base in _CALLABLE and config.get("add_function_parentheses", True) is not False:
        if not shown.endswith(")"):
            shown += "()"
    return shown, base in _CODE

