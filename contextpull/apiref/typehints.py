"""A signature's types listed with the parameters, as Sphinx's ``autodoc_typehints =
"description"`` (or ``"both"``) shows them (issue 37).

autodoc then drops the annotations from the signature (``signature.py``) and its
``merge_typehints`` adds them to the object's field list, as ``autodoc_typehints_description_target``
says: ``"all"`` (the default) gives every annotated parameter its type, listing the ones the
docstring does not document with no description, and adds a "Return type" unless the docstring
gives one (a class has none: its signature is its ``__init__``'s); ``"documented_params"`` types
the documented parameters and adds the return type unless it is ``None``; ``"documented"`` only
types what the docstring documents. Flask's pages read so: ``test_client(use_cookies=True,
**kwargs)``, then "Parameters: use_cookies (bool), kwargs (t.Any)" and "Return type: FlaskClient".

The docstring's own parameters already carry the signature's types (griffe fills them in), so
what is added here is the undocumented parameters and the return type, into the Markdown
``docstrings.sections`` wrote: its ``**Parameters:**`` list, or a new one at the end.
"""

from __future__ import annotations

import re

from .signature import annotation_text

PARAMETERS = "**Parameters:**"
_NAME = re.compile(r"- `\*{0,2}([^`]+)`")


def describe(doc: list[str], function, target: str, *, is_class: bool, raw: str = "") -> list[str]:
    """``doc`` (the object's docstring as Markdown lines) with ``function``'s types added as
    autodoc's ``target`` adds them; ``raw`` is the docstring as written (a ``:rtype:`` field
    there is the docstring's own return type)."""
    if function is None or not target:
        return doc
    annotated = {p.name: annotation_text(p.annotation, True) for p in function.parameters if p.annotation is not None}
    returns = "" if is_class else annotation_text(function.returns, True)
    if not annotated and not returns:
        return doc
    doc = list(doc)
    start = doc.index(PARAMETERS) if PARAMETERS in doc else None
    end = doc.index("", start + 2) if start is not None and "" in doc[start + 2:] else len(doc)
    documented = {m.group(1) for line in doc[start + 2:end] if (m := _NAME.match(line))} if start is not None else set()
    added = [f"- `{name}` (`{kind}`)" for name, kind in annotated.items() if name not in documented] \
        if target == "all" else []
    if added and start is not None:
        doc[end:end] = added
        end += len(added)
    elif added:
        doc += [PARAMETERS, "", *added, ""]
        end = len(doc) - 1
    documents_return = "**Returns:**" in doc or ":rtype:" in raw
    if returns and not documents_return and (target == "all" or (target == "documented_params" and returns != "None")):
        at = end + 1 if start is not None or added else len(doc)
        doc[at:at] = [f"**Return type:** `{returns}`", ""]
    return doc
