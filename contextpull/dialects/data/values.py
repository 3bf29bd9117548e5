"""A site's data files as values, for the dialects that print them into pages: Jekyll's
``site.data.*`` and Hugo's ``data/`` lookups (issue 26, "Markup to meaning": the fact itself
where the template names it).

Data is parsed, never evaluated: YAML and TOML through the build's own loaders (``files``: no tags
that construct objects, alias bombs refused), JSON and CSV through the standard library. A value is
printed only when its tree is small (``VALUE_NODES``): a YAML alias bomb is a few hundred bytes that
a printer would expand into billions of nodes, so the count follows aliases as printing would and
stops early.
"""

from __future__ import annotations

import hashlib
import io
import json

from .files import DataError, load_toml, load_yaml, object_tags

VALUE_NODES = 5_000


def parse_data(raw: bytes, ext: str, sha256: str | None = None, ctx=None) -> object:
    """A data file's value, or None when it does not parse. Kept by content for the build
    (``ctx.reader``), so the pages that look up many keys of one file parse it once; ``sha256``
    is the digest of ``raw`` when the caller has it already (the dependency record holds it).
    Without ``ctx`` the file is parsed now."""
    return _parsed(raw, ext, sha256, ctx)[0]


def _parsed(raw: bytes, ext: str, sha256: str | None, ctx) -> tuple[object, str | None]:
    """(value, why the file is not data or None: an alias bomb, malformed YAML)."""
    if ctx is None:
        return _value(raw, ext)
    digest = (sha256 or hashlib.sha256(raw).hexdigest()) + ext
    return ctx.reader.once((__name__, digest), lambda: _value(raw, ext))


def _value(raw: bytes, ext: str) -> tuple[object, str | None]:
    try:
        return _load(raw, ext), None
    except DataError as exc:
        return None, str(exc)


def _load(raw: bytes, ext: str) -> object:
    """The file's value; ``DataError`` with the reason when it is not data."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DataError("not UTF-8 text") from None
    if ext == ".csv":
        import csv  # only a site with CSV data loads the module

        try:
            return [dict(row) for row in csv.DictReader(io.StringIO(text))]
        except csv.Error as exc:
            raise DataError(f"malformed CSV: {exc}") from None
    if ext == ".json":
        try:
            return json.loads(text)
        except ValueError as exc:
            raise DataError(f"malformed JSON: {exc}") from None
        except RecursionError:
            raise DataError("JSON nested too deeply") from None
    return load_toml(text) if ext == ".toml" else load_yaml(text)


def note_unreadable(ctx, raw: bytes, path: str, ext: str, line: int, sha256: str | None = None) -> None:
    """An ``unresolved`` ``data file`` note naming the data file at ``path`` and why it is not
    data (``parse_data`` found it so), once per file and document, at ``line``: the place that
    asked for a value, whose own note says only that the value is missing."""
    reason = _parsed(raw, ext, sha256, ctx)[1]
    if reason is None:
        return
    detail = f"{path}: {reason}"
    if all(n.detail != detail for n in getattr(ctx, "notes", ())):
        ctx.note("data file", "unresolved", line, detail)


def note_object_tags(ctx, raw: bytes, path: str, ext: str) -> None:
    """An ``unresolved`` ``data file`` note for each object-constructing YAML tag in the data
    file at ``path`` (read as nothing by the safe loader), once per file and document, naming
    the tag and its line in the data file."""
    if ext not in (".yml", ".yaml") or b"python/" not in raw:
        return
    seen = {n.detail for n in getattr(ctx, "notes", ())}
    for tag, line in object_tags(raw.decode("utf-8", "replace")):
        detail = f"YAML tag {tag} ignored ({path} line {line})"
        if detail not in seen:
            ctx.note("data file", "unresolved", 0, detail)


def dotted(table: object, key: str, exact: bool = False) -> object:
    """``a.b.c`` looked up through nested mappings (a list index where the part is a number);
    case-insensitive unless ``exact``. None when any part is missing."""
    value = table
    for part in key.split("."):
        if isinstance(value, list) and part.isdigit():
            index = int(part)
            value = value[index] if index < len(value) else None
            continue
        if not isinstance(value, dict):
            return None
        if part in value:
            value = value[part]
            continue
        if exact:
            return None
        lowered = {str(k).lower(): v for k, v in value.items()}
        if part.lower() not in lowered:
            return None
        value = lowered[part.lower()]
    return value


def scalar(value: object) -> str | None:
    """A value as a template prints it, for the scalars a sentence can hold; None otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def nodes(value: object, budget: int = VALUE_NODES + 1) -> int:
    """Nodes of ``value``, counted up to ``budget``; a shared (aliased) node counts each time it
    is reached, as printing would reach it."""
    count = 0
    stack = [value]
    while stack and count < budget:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count
