"""A signature's types listed with the parameters, as Sphinx's ``autodoc_typehints =
"description"`` (or ``"both"``) shows them (issue 37).

autodoc then drops the annotations from the signature (``signature.py``) and its
``merge_typehints`` adds them to the object's field lists, as ``autodoc_typehints_description_target``
says: ``"all"`` (the default) gives every annotated parameter its type, listing the ones the
docstring does not document with no description, and adds a "Return type" unless the docstring
gives one (a class has none: its signature is its ``__init__``'s); ``"documented_params"`` types
the documented parameters and adds the return type unless it is ``None``; ``"documented"`` only
types what the docstring documents. Flask's pages read so: ``test_client(use_cookies=True,
**kwargs)``, then "Parameters: use_cookies (bool), kwargs (t.Any)" and "Return type: FlaskClient".

``merge_typehints`` completes each field list on its own, so a class whose ``__init__``
docstring is shown with its own (``autoclass_content = "both"``) has two lists, each naming every
annotated parameter. ``docstrings.sections`` therefore completes each Parameters list where it
builds it, from a ``DescriptionTypes``; only a docstring with no list at all gets a new one, at
the end of the object's text, where autodoc inserts its field list.
"""

from __future__ import annotations

from .signature import annotation_text


class DescriptionTypes:
    """The types one object's signature adds to its docstrings' Parameters lists, and whether a
    list has taken them yet (a class's docstring and its ``__init__``'s are two ``sections``
    calls, and the return type and a missing list are the object's once)."""

    def __init__(self, function, target: str, *, is_class: bool, raw: str = "") -> None:
        self.target = target
        self.types = {p.name: annotation_text(p.annotation, True) for p in function.parameters
                      if p.annotation is not None}
        self.returns = "" if is_class else annotation_text(function.returns, True)
        # A ``:rtype:`` field written in the docstring (``raw``) is its own return type.
        self.documents_return = ":rtype:" in raw
        self.listed = False

    def type_of(self, name: str, annotation: str) -> str:
        """A listed parameter's type: the docstring's, else the signature's (autodoc adds a
        ``:type:`` field to a documented parameter without one, for every target)."""
        return annotation or self.types.get(name, "")

    def undocumented(self, listed: set[str]) -> list[tuple[str, str]]:
        """(name, type) of the annotated parameters a list that names ``listed`` leaves out,
        which ``"all"`` adds to it with no description."""
        if self.target != "all":
            return []
        return [(name, kind) for name, kind in self.types.items() if name not in listed]

    def return_type(self) -> list[str]:
        """The "Return type" line after the object's first Parameters list, and marks that
        list as taken. Once: only a function has a return type, and its one docstring one list
        (a ``Doc()`` list beside it is ours, not a field list autodoc would complete)."""
        if self.listed:
            return []
        self.listed = True
        returns = self.returns
        if not returns or self.documents_return:
            return []
        if self.target == "all" or (self.target == "documented_params" and returns != "None"):
            return [f"**Return type:** `{returns}`", ""]
        return []

    def closing(self, item) -> list[str]:
        """What an object none of whose docstrings has a Parameters list ends with: a list of
        its annotated parameters (``"all"``; ``item`` writes one), then its return type."""
        if self.listed:
            return []
        added = [item(name, kind) for name, kind in self.undocumented(set())]
        return (["**Parameters:**", "", *added, ""] if added else []) + self.return_type()
