"""Front matter: YAML between ``---`` lines, TOML between ``+++`` lines (issue 26, "Titles and
summaries"), parsed with the real parsers and taken off before a dialect sees the text.

The block's lines are replaced by empty lines rather than removed, so every line number a
dialect reports is still the line of the file an author opens. A block that is not a mapping or
not valid (malformed YAML, an alias bomb, a tag that would construct an object) is a named
``unresolved`` note, and the document is still read: the block is gone, as the generator would
not show it either. An opening line without a closing one is not front matter (a thematic break,
as the published parser reads it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..api import Note
from .files import DataError, load_toml, load_yaml, object_tags

CONSTRUCT = "front matter"
_FENCES = {"---": ("yaml", ("---", "...")), "+++": ("toml", ("+++",))}


@dataclass
class FrontMatter:
    data: dict = field(default_factory=dict)
    body: str = ""  # the text with the block's lines blank
    notes: list[Note] = field(default_factory=list)


def split_front_matter(text: str) -> FrontMatter:
    first, newline, _ = text.partition("\n")
    fence = first.strip()
    if fence not in _FENCES or not newline:
        return FrontMatter({}, text)
    fmt, closers = _FENCES[fence]
    # The block's lines only are looked at, not the whole page's.
    start = at = len(first) + 1
    end = 1  # the closing line's number, from 0
    while True:
        stop = text.find("\n", at)
        line = text[at:] if stop < 0 else text[at:stop]
        if line.rstrip() in closers:
            break
        if stop < 0:
            return FrontMatter({}, text)
        at, end = stop + 1, end + 1
    source = text[start : at - 1] if at > start else ""
    body = "\n" * (end + 1) + ("" if stop < 0 else text[stop + 1 :])
    try:
        data = _yaml(source) if fmt == "yaml" else load_toml(source)
    except DataError as exc:
        return FrontMatter({}, body, [Note(CONSTRUCT, "unresolved", 1, str(exc))])
    if data is None:
        data = {}
    if not isinstance(data, dict):
        note = Note(CONSTRUCT, "unresolved", 1, f"{fmt.upper()} front matter is a {type(data).__name__}, not a mapping")
        return FrontMatter({}, body, [note])
    notes = [Note(CONSTRUCT, "converted", 1, fmt)]
    if fmt == "yaml" and "python/" in source:
        notes.extend(Note(CONSTRUCT, "unresolved", line, f"YAML tag {tag} ignored") for tag, line in object_tags(source, 2))
    return FrontMatter(data, body, notes)


def _yaml(source: str):
    """The block's value: the common shape without the parser (``plain_yaml``), anything else
    through ``load_yaml``, whose guards and messages hold for all it declines. Imported here:
    it needs PyYAML's resolver, and a site whose pages have no YAML front matter never imports
    PyYAML (``files.load_yaml``)."""
    from . import plain_yaml

    value = plain_yaml.load(source)
    return load_yaml(source) if value is plain_yaml.DECLINED else value


def scalar(value) -> str | None:
    """A front-matter value as one line of text; None for a missing, empty or structured one
    (a list, a mapping, ``true``: no title a generator would show)."""
    if value is None or isinstance(value, (dict, list, bool)):
        return None
    text = " ".join(str(value).split())
    return text or None
