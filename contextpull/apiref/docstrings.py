"""A docstring's sections as the Markdown a reader of the API page sees (issue 37).

griffe parses the docstring in the site's style (Google, NumPy, Sphinx fields, or ``auto``, which
guesses per docstring, as Sphinx sites with napoleon mix them); each section becomes text: prose as
it is (through ``text`` for a Sphinx site, whose docstrings are reStructuredText), parameters,
attributes, returns, yields, raises and warnings as lists naming each item, its type and its
description, examples' code as ``pycon`` blocks, admonitions behind their label. Parameters
documented by ``Annotated[..., Doc("...")]`` and not by the docstring are listed too.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..parsing.block_start import opens_block
from .signature import annotated_doc, annotation_text
from .typehints import DescriptionTypes

_LABELS = {
    "parameters": "Parameters", "other_parameters": "Other parameters", "attributes": "Attributes",
    "returns": "Returns", "yields": "Yields", "receives": "Receives", "raises": "Raises",
    "warns": "Warns", "type_parameters": "Type parameters",
}


def list_item(name: str, annotation: str, default: str, body: str) -> str:
    """One item of a list that names things, in the one format an API page's docstring sections
    and an object description's info fields (``directive_names.info_fields``) share, so both
    read alike: ``- `name` (`type`, default `x`): body``, the body's further lines indented
    under the item. A type already holding backticks (an info field's cross-references, read
    from the page) is Markdown as it is. A body that opens with a block (pydantic's "Raises"
    items open with a list) starts on a line of its own, so the block stays one under the item,
    as both generators lay it out; after a colon on the item's line its first line read as text."""
    head = f"`{name}`" if name else ""
    shown = annotation if "`" in annotation else f"`{annotation}`" if annotation else ""
    extra = ", ".join(x for x in (shown, f"default `{default}`" if default else "") if x)
    if extra:
        head = f"{head} ({extra})" if head else extra
    body = body.strip()
    if head and body:
        line = f"- {head}\n{body}" if opens_block(body) else f"- {head}: {body}"
    else:
        line = f"- {head or body}"
    lines = line.split("\n")
    return "\n".join([lines[0], *("  " + rest if rest.strip() else "" for rest in lines[1:])])


def _labelled(label: str, body: str) -> str:
    """``**Label:** body``; a body that opens with a block (an ``Example:`` whose code fence
    comes first) starts on a line of its own, so the block stays one, by the rule a dialect's
    labels follow (``parsing/block_start``; ``dialects/syntax/labels`` is out of this room's reach)."""
    body = body.strip("\n")
    if opens_block(body):
        return f"**{label}:**\n\n{body}"
    return f"**{label}:** {body.strip()}"


def _list(label: str, items: list[str]) -> list[str]:
    return [f"**{label}:**", "", *items, ""] if items else []


def _parameters(label: str, items: list[str], listed: set[str], types: DescriptionTypes | None) -> list[str]:
    """A Parameters list naming ``listed``, completed by ``types`` where autodoc's
    ``merge_typehints`` completes its field list: the annotated parameters it leaves out, then
    (after the object's first list) the return type."""
    if types is None:
        return _list(label, items)
    items = items + [list_item(name, kind, "", "") for name, kind in types.undocumented(listed)]
    return _list(label, items) + types.return_type() if items else []


def closing(types: DescriptionTypes) -> list[str]:
    """The end of an object's text when none of its docstrings had a Parameters list for
    ``types`` to complete: a new one, where autodoc inserts its field list."""
    return types.closing(lambda name, kind: list_item(name, kind, "", ""))


_META = re.compile(r"^[ \t]*:meta[ \t]+([\w-]+)[ \t]*:[^\n]*\n?", re.MULTILINE)


def _switches(options: tuple) -> tuple[dict, dict]:
    """(the switches for any style, {style: its own switches}) of ``Options.docstring_options``."""
    flat = {name: value for name, value in options if name != "per_style_options"}
    per_style = next((dict((s, dict(v)) for s, v in value) for name, value in options if name == "per_style_options"), {})
    return flat, per_style


# A ``~`` target in a type: a run of name characters and dots (one class, so no backtracking).
_SHORTENED = re.compile(r"~([\w.]+)")


def type_text(text: str) -> str:
    """A type as Sphinx shows it in an info field (``:type x: ~typing.Callable | None``), in an
    autodoc docstring's or a hand-written object's (``directive_names.info_fields``): each part
    is a cross-reference, and one written ``~a.b.C`` shows ``C``, as a role's ``~`` does."""
    return _SHORTENED.sub(lambda m: m.group(1).rsplit(".", 1)[-1], text) if "~" in text else text


def meta_visibility(obj) -> str | None:
    """"private" or "public" when ``obj``'s docstring says so in a Sphinx ``:meta:`` field.
    An import whose target the repository does not hold (``from __future__ import annotations``)
    has no docstring to read: it says neither, and must not stop the page (scrapy's API page)."""
    import griffe

    try:
        docstring = getattr(obj, "docstring", None)
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None
    value = getattr(docstring, "value", "") if docstring is not None else ""
    if ":meta" not in value:
        return None
    found = {m.group(1) for m in _META.finditer(value)}
    return "private" if "private" in found else "public" if "public" in found else None


def sections(obj, style: str, text: Callable[[str], str], unwrap_annotated: bool = True,
             options: tuple = (), meta_fields: bool = False,
             description_types: DescriptionTypes | None = None) -> list[str]:
    """The Markdown lines of ``obj``'s docstring (and of its ``Doc()`` parameters); ``options``
    are the site's Google and NumPy parsing switches (``options.DOCSTRING_SWITCHES``). With
    ``meta_fields`` (Sphinx), ``:meta ...:`` fields are not shown: autodoc reads and drops them.
    With ``description_types`` (autodoc's ``autodoc_typehints = "description"``), each
    Parameters list gets the signature's types as it is built (``typehints``)."""
    out: list[str] = []
    documented: set[str] = set()
    parsed = []
    docstring = obj.docstring
    if docstring is not None and meta_fields and ":meta" in docstring.value:
        import griffe

        value = _META.sub("", docstring.value)
        docstring = griffe.Docstring(value, lineno=docstring.lineno, parent=obj) if value.strip() else None
    if docstring is not None:
        try:
            switches, per_style = _switches(options)
            if style == "auto":
                parsed = docstring.parse("auto", per_style_options=per_style) if per_style else docstring.parse("auto")
            elif style in ("google", "numpy"):
                parsed = docstring.parse(style, warnings=False, **{**switches, **per_style.get(style, {})})
            else:
                parsed = docstring.parse(style, warnings=False)
        except Exception:  # noqa: BLE001 - a docstring griffe cannot parse is shown as written
            parsed = None
        if parsed is None:
            out += [text(docstring.value), ""]
            parsed = []
    types = description_types
    if types is not None and any(section.kind.value == "returns" for section in parsed):
        types.documents_return = True  # known before the Parameters list its return type follows
    for section in parsed:
        kind = section.kind.value
        if kind == "text":
            out += [text(section.value), ""]
        elif kind == "examples":
            out += _examples(section.value, text)
        elif kind == "admonition":
            value = section.value
            label = section.title or getattr(value, "annotation", None) or "Note"
            label = str(label).strip().title() if label == str(label).lower() else label
            out += [_labelled(label, text(getattr(value, "description", "") or "")), ""]
        elif kind == "deprecated":
            value = section.value
            version = getattr(value, "version", "") or ""
            out += [_labelled(f"Deprecated{' since ' + version if version else ''}",
                              text(getattr(value, "description", "") or "")), ""]
        elif kind in _LABELS:
            items = []
            listed: set[str] = set()
            for element in section.value:
                name = getattr(element, "name", "") or ""
                annotation = annotation_text(getattr(element, "annotation", None), True)
                if kind == "parameters":
                    documented.add(name)
                    listed.add(_unstarred(name))
                    if types is not None:
                        annotation = types.type_of(_unstarred(name), annotation)
                if meta_fields:  # Sphinx
                    annotation = type_text(annotation)
                default = getattr(element, "default", None)
                description = getattr(element, "description", "") or ""
                items.append(list_item(name, annotation, str(default) if default is not None and kind != "raises" else "",
                                       text(description) if description else ""))
            label = section.title or _LABELS[kind]
            out += _parameters(label, items, listed, types) if kind == "parameters" else _list(label, items)
    out += _doc_parameters(obj, documented, text, types)
    if docstring is None and obj.is_attribute:
        # griffe-typingdoc gives an attribute without a docstring its ``Doc()`` text, as FastAPI
        # documents ``FastAPI.openapi_version``.
        doc = annotated_doc(getattr(obj, "annotation", None))
        if doc:
            out += [text(doc), ""]
    return out


def _unstarred(name: str) -> str:
    """A listed parameter's name as its signature spells it: ``*args`` documents ``args``."""
    return name[2:] if name.startswith("**") else name[1:] if name.startswith("*") else name


def _doc_parameters(obj, documented: set[str], text: Callable[[str], str],
                    types: DescriptionTypes | None) -> list[str]:
    """The ``Doc()`` parameters the docstring does not list. autodoc shows no such list, so
    ``types`` completes it only where the object has no list of its own yet (where autodoc's
    new field list would stand)."""
    parameters = getattr(obj, "parameters", None)
    if not obj.is_function or parameters is None:
        return []
    items = []
    listed: set[str] = set()
    for param in parameters:
        doc = annotated_doc(param.annotation)
        if doc and param.name not in documented:
            default = str(param.default) if param.default is not None else ""
            items.append(list_item(param.name, annotation_text(param.annotation, True), default, text(doc)))
            listed.add(param.name)
    if types is None or types.listed or not items:
        return _list("Parameters", items)
    return _parameters("Parameters", items, listed, types)


def _examples(value, text: Callable[[str], str]) -> list[str]:
    out: list[str] = []
    for kind, part in value:
        if getattr(kind, "value", kind) == "examples":
            out += ["```pycon", part.rstrip("\n"), "```", ""]
        else:
            out += [text(part), ""]
    return (["**Examples:**", ""] + out) if out else []


def summary(obj, style: str, text: Callable[[str], str]) -> str:
    """The first line of the docstring, for an ``autosummary`` table."""
    if obj.docstring is None:
        return ""
    first = obj.docstring.value.strip().split("\n\n", 1)[0]
    return " ".join(text(first).split())
