"""Admonition labels, once (issue 35): the title an admonition, callout or tab shows when it
gives none (``note`` -> "Note"), the words Sphinx uses where they differ from the name
(``seealso`` -> "See also", ``versionadded`` -> "Added in version 2.0"), and how a label
stands before its body on the page (``labelled``). Every dialect asks here, so ``!!! note``,
``:::note``, ``> [!NOTE]``, ``{{< alert >}}``, ``{: .note}`` and ``.. note::`` read alike.
"""

from __future__ import annotations

from ...parsing.block_start import opens_block

# docutils' and Sphinx's admonition directives: each shows its label, then its body.
SPHINX_ADMONITIONS = ("note", "warning", "tip", "important", "hint", "caution", "danger", "error",
                      "attention", "seealso")
_SPHINX_WORDS = {"seealso": "See also"}

# A version note as Sphinx renders its label, in both syntaxes ("Added in version 2.0: ...").
VERSION_LABELS = {
    "versionadded": "Added in version {}",
    "versionchanged": "Changed in version {}",
    "deprecated": "Deprecated since version {}",
    "versionremoved": "Removed in version {}",
    # Sphinx 7.3's names for the same directives, which its own documentation now writes.
    "version-added": "Added in version {}",
    "version-changed": "Changed in version {}",
    "version-deprecated": "Deprecated since version {}",
    "version-removed": "Removed in version {}",
}

# Callout classes a Jekyll theme styles (``{: .note}``), strongest first, so ``.note .warning``
# reads "Warning"; ``info`` is shown as a note.
CALLOUT_CLASSES = ("danger", "error", "warning", "caution", "important", "tip", "hint", "note", "info")
_CLASS_WORDS = {"info": "Note"}

def title(kind: str) -> str:
    """``note`` -> ``Note``, ``see-also`` -> ``See also``: the default title an admonition shows."""
    words = kind.replace("_", " ").replace("-", " ").split()
    return " ".join(words).capitalize() if words else ""


def sphinx_title(kind: str) -> str:
    """The label Sphinx gives an admonition of ``kind`` without a title of its own."""
    return _SPHINX_WORDS.get(kind, title(kind))


def class_label(classes: set[str]) -> str | None:
    """The label of the strongest callout class among ``classes`` (lower case), None if none."""
    return next((_CLASS_WORDS.get(c, title(c)) for c in CALLOUT_CLASSES if c in classes), None)


def labelled(label: str, body: str) -> str:
    """An admonition, callout or tab as a reader sees it: ``Label: body``. When the body starts
    with a block the shared parser must still see (``parsing/block_start``: a fence, a list, a
    table, a heading) the label stands alone on its line, followed by a blank line, so the block
    survives; with no body it stands alone."""
    label = label.strip().rstrip(":")
    body = body.strip("\n")
    if not body.strip():
        return f"{label}:"
    if opens_block(body):
        return f"{label}:\n\n{body}"
    return f"{label}: {body.lstrip()}"


def sphinx_labelled(label: str, body: list[str]) -> list[str]:
    """``labelled`` in lines, for Sphinx's two line readings (rst read line by line, and MyST),
    so they lay a note out by the same rule as every dialect; with no body, ``sphinx_alone``."""
    first = next((i for i, line in enumerate(body) if line.strip()), None)
    if first is None:
        return [sphinx_alone(label)]
    return labelled(label, "\n".join(body[first:])).split("\n")


def sphinx_alone(label: str) -> str:
    """A label with no body, as Sphinx's translators write it: ending in a period ("Added in
    version 2.0."); the doctree's reading, which keeps its own blocks, asks here too."""
    return label if label.endswith((".", ":")) else f"{label}."
