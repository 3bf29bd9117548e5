"""An object's signature as the source writes it, for the code block under its heading (issue 37).

Built from griffe's static model (parameter kinds, annotations and defaults as source text), so it
reads like the ``def`` line a user would grep for: ``def get(self, path: str, *, ...) -> ...``.
A signature longer than ``WIDTH`` puts one parameter on a line, as formatters do, so a grep for
one parameter finds a short line. ``Annotated[T, ...]`` shows as ``T`` when the site unwraps it,
and the ``Doc("...")`` inside it (PEP 727, what griffe-typingdoc reads) is the parameter's
description.
"""

from __future__ import annotations

import ast

WIDTH = 88
MAX_VALUE = 300  # characters of an attribute's value or a default shown; longer ones are cut


def _short(text: str) -> str:
    text = " ".join(str(text).split()) if "\n" in str(text) else str(text)
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 3] + "..."


def _is_annotated(expr) -> bool:
    left = getattr(expr, "left", None)
    return left is not None and str(left).rsplit(".", 1)[-1] == "Annotated" and hasattr(expr, "slice")


def unwrap(expr):
    """``T`` of ``Annotated[T, ...]``; any other annotation as it is."""
    if expr is not None and _is_annotated(expr):
        elements = getattr(expr.slice, "elements", None)
        if elements:
            return elements[0]
    return expr


def annotated_doc(expr) -> str | None:
    """The text of a ``Doc("...")`` inside ``Annotated[...]``, or None."""
    if expr is None or not _is_annotated(expr):
        return None
    for element in (getattr(expr.slice, "elements", None) or [])[1:]:
        function = getattr(element, "function", None)
        arguments = getattr(element, "arguments", None)
        if function is not None and str(function).rsplit(".", 1)[-1] == "Doc" and arguments:
            first = arguments[0]
            if isinstance(first, str) and len(first) < 100_000:
                try:
                    value = ast.literal_eval(first)
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    return None
                if isinstance(value, str):
                    return _dedent_doc(value)
    return None


def _dedent_doc(text: str) -> str:
    import inspect

    return inspect.cleandoc(text)


def annotation_text(expr, unwrap_annotated: bool) -> str:
    if expr is None:
        return ""
    return _short(str(unwrap(expr) if unwrap_annotated else expr))


def _parameters(function, unwrap_annotated: bool, skip_first: bool, defaults: dict | None = None,
                annotations: bool = True) -> list[str]:
    """The parameters as written, with their annotations unless the site hides them;
    ``defaults`` (name -> the implementation's) replace an overload's ``...`` default, as
    autodoc merges them (``_merge_default_value``)."""
    import griffe

    kinds = griffe.ParameterKind
    out: list[str] = []
    params = list(function.parameters)
    if skip_first and params and params[0].kind in (kinds.positional_only, kinds.positional_or_keyword):
        params = params[1:]
    star_done = False
    for i, param in enumerate(params):
        if param.kind is kinds.keyword_only and not star_done:
            out.append("*")
            star_done = True
        prefix = ""
        if param.kind is kinds.var_positional:
            prefix, star_done = "*", True
        elif param.kind is kinds.var_keyword:
            prefix = "**"
        text = prefix + param.name
        annotation = annotation_text(param.annotation, unwrap_annotated) if annotations else ""
        if annotation:
            text += f": {annotation}"
        default = param.default
        if defaults and str(default) == "..." and defaults.get(param.name) is not None:
            default = defaults[param.name]
        if default is not None and param.kind not in (kinds.var_positional, kinds.var_keyword):
            text += (" = " if annotation else "=") + _short(str(default))
        out.append(text)
        following = params[i + 1] if i + 1 < len(params) else None
        if param.kind is kinds.positional_only and (following is None or following.kind is not kinds.positional_only):
            out.append("/")
    return out


def _call(head: str, params: list[str], tail: str) -> str:
    one_line = f"{head}({', '.join(params)}){tail}"
    if len(one_line) <= WIDTH or not params:
        return one_line
    inner = "".join(f"    {p},\n" for p in params)
    return f"{head}(\n{inner}){tail}"


def _overloads(function, unwrap_annotated: bool, head: str, init: bool, merge_defaults: bool) -> list[str]:
    """Each ``@overload`` of ``function`` (griffe's ``Function.overloads``), under that decorator,
    with its annotations: both generators show them whatever they do with the implementation's
    (mkdocstrings renders them with ``annotations=True``). An ``__init__``'s show no return."""
    out: list[str] = []
    defaults = {p.name: p.default for p in function.parameters} if merge_defaults else None
    for overload in getattr(function, "overloads", None) or ():
        params = _parameters(overload, unwrap_annotated, init, defaults)
        returns = "" if init else annotation_text(overload.returns, unwrap_annotated)
        out += ["@overload", *_call(head, ["self", *params] if init else params, f" -> {returns}" if returns else "").split("\n")]
    return out


def function_signature(function, unwrap_annotated: bool, *, name: str | None = None, overloads: str = "",
                       merge_defaults: bool = False, annotations: bool = True) -> str:
    """``overloads``: "before" shows the overloads, then the implementation (mkdocstrings);
    "only" shows them instead of it (autodoc; mkdocstrings' ``overloads_only``); "" not at all.
    ``merge_defaults``: an overload's ``...`` default shows the implementation's (autodoc).
    ``annotations``: whether the implementation's parameters and return show their types
    (mkdocstrings' ``show_signature_annotations``, off by default; autodoc's
    ``autodoc_typehints``, "signature" by default); the overloads' always do."""
    labels = getattr(function, "labels", set()) or set()
    keyword = "async def" if "async" in labels else "def"
    returns = annotation_text(function.returns, unwrap_annotated) if annotations else ""
    tail = f" -> {returns}" if returns else ""
    head = f"{keyword} {name or function.name}"
    main = _call(head, _parameters(function, unwrap_annotated, False, annotations=annotations), tail)
    shown = _overloads(function, unwrap_annotated, head, False, merge_defaults) if overloads else []
    return "\n".join(shown + ([] if shown and overloads == "only" else [main]))


def class_signature(cls, unwrap_annotated: bool, init=None, *, overloads: str = "", merge_defaults: bool = False,
                    annotations: bool = True) -> str:
    """``class Name(Bases)``, with the merged ``__init__``'s signature (and its overloads, as
    ``function_signature`` shows a function's) under it."""
    bases = [_short(str(b)) for b in cls.bases]
    head = f"class {cls.name}" + (f"({', '.join(bases)})" if bases else "")
    if init is None:
        return head
    lines = _overloads(init, unwrap_annotated, "def __init__", True, merge_defaults) if overloads else []
    if not (lines and overloads == "only"):
        params = _parameters(init, unwrap_annotated, True, annotations=annotations)
        lines += _call("def __init__", ["self", *params], "").split("\n")
    return head + ":\n" + "\n".join("    " + line for line in lines)


def attribute_signature(attribute, unwrap_annotated: bool, annotations: bool = True) -> str:
    """``name: type = value``; the type as the site shows it (mkdocstrings with
    ``show_signature_annotations``, autodoc unless ``autodoc_typehints = "none"``)."""
    text = attribute.name
    annotation = annotation_text(attribute.annotation, unwrap_annotated) if annotations else ""
    if annotation:
        text += f": {annotation}"
    if attribute.value is not None:
        text += f" = {_short(str(attribute.value))}"
    return text


def written_signature(obj, written: str) -> str:
    """The signature a directive writes for its object (``.. autoclass:: pkg.Hook()``), which
    Sphinx shows instead of the source's: a class's without parentheses when they are empty."""
    inner = written.strip()[1:-1].strip()
    if obj.is_class:
        return f"class {obj.name}" + (":\n    def __init__(self, " + inner + ")" if inner else "")
    return f"def {obj.name}({inner})"
