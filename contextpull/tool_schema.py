"""Argument checks for the tool schemas, in the standard library (ADR 001, ADR 009).

The five input schemas in ``tools.py`` (and ``tools.json``) use a small part of JSON Schema
draft 2020-12: ``type``, ``properties``, ``required``, ``additionalProperties: false``,
``items``, ``minLength``/``maxLength``, ``minimum``/``maximum`` and ``enum``. This module checks
exactly those keywords with draft 2020-12's meaning (an integral float is an integer, a boolean
is not a number, lengths count code points), so the reader core validates tool arguments
without a third-party package. ``SUPPORTED`` lists what it understands: a test fails if a schema
uses anything else, and another compares its verdicts with the jsonschema package's on
generated arguments.

The checks ``Ops`` and the server's mounts make of one argument at a time, before a store is
touched (``check_int``, ``check_str``, ``glob_ok``, ``unknown_section``), are here too: a
library caller passes arguments without the schema, and each failure is the ``ToolError`` a
client sees, naming the argument.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import ToolError

# Keywords that only annotate: they never make an instance invalid.
ANNOTATIONS = frozenset({"$schema", "description", "default"})
SUPPORTED = frozenset({
    "type", "properties", "required", "additionalProperties", "items",
    "minLength", "maxLength", "minimum", "maximum", "enum",
}) | ANNOTATIONS


@dataclass(frozen=True)
class Problem:
    """One failed keyword: where (argument path), which keyword, its schema value, a message."""

    path: tuple
    keyword: str
    value: Any
    message: str


def _is_type(value: Any, name: str) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return not isinstance(value, bool) and (
            isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        )
    if name == "number":
        return not isinstance(value, bool) and isinstance(value, (int, float))
    if name == "null":
        return value is None
    raise ValueError(f"unsupported JSON Schema type {name!r}")


def problems(schema: dict, instance: Any, path: tuple = ()) -> list[Problem]:
    """Every failed keyword of ``instance`` against ``schema``, depth first."""
    found: list[Problem] = []
    expected = schema.get("type")
    if expected is not None and not _is_type(instance, expected):
        # The other keywords are still checked, as jsonschema does; all but enum apply only to
        # instances of their own type.
        found.append(Problem(path, "type", expected, f"{instance!r} is not of type {expected!r}"))
    if "enum" in schema and instance not in schema["enum"]:
        found.append(Problem(path, "enum", schema["enum"], f"{instance!r} is not one of {schema['enum']!r}"))
    if isinstance(instance, str):
        if "minLength" in schema and len(instance) < schema["minLength"]:
            found.append(Problem(path, "minLength", schema["minLength"], f"{instance!r} is too short"))
        if "maxLength" in schema and len(instance) > schema["maxLength"]:
            found.append(Problem(path, "maxLength", schema["maxLength"], "the value is too long"))
    if _is_type(instance, "number"):
        if "minimum" in schema and instance < schema["minimum"]:
            found.append(Problem(path, "minimum", schema["minimum"], f"{instance!r} is less than the minimum of {schema['minimum']!r}"))
        if "maximum" in schema and instance > schema["maximum"]:
            found.append(Problem(path, "maximum", schema["maximum"], f"{instance!r} is greater than the maximum of {schema['maximum']!r}"))
    if isinstance(instance, list) and "items" in schema:
        for index, item in enumerate(instance):
            found.extend(problems(schema["items"], item, path + (index,)))
    if isinstance(instance, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in instance:
                found.append(Problem(path, "required", name, f"{name!r} is a required property"))
        if schema.get("additionalProperties") is False:
            extra = sorted(set(instance) - set(properties))
            if extra:
                found.append(Problem(path, "additionalProperties", extra, f"unexpected {extra!r}"))
        for name, sub in properties.items():
            if name in instance:
                found.extend(problems(sub, instance[name], path + (name,)))
    return found


def unsupported(schema: dict) -> set[str]:
    """Keywords in ``schema`` (at any depth) that ``problems`` does not check."""
    found = set(schema) - SUPPORTED
    for sub in schema.get("properties", {}).values():
        found |= unsupported(sub)
    if isinstance(schema.get("items"), dict):
        found |= unsupported(schema["items"])
    return found


# -- one argument at a time (store-format "Errors") ---------------------------------------------

def check_int(name: str, value, bounds: tuple[int, int]) -> int:
    """``value`` when it is an integer within ``bounds`` (JSON's ``5.0`` counts), else the one
    line the tool call answers with."""
    low, high = bounds
    if isinstance(value, float) and value.is_integer():  # JSON 5.0 is an integer to the schema too
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ToolError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    if not low <= value <= high:
        raise ToolError(f"{name} must be from {low} to {high}, got {value}")
    return value


def check_str(name: str, value) -> str:
    """``value`` when it is text SQLite and JSON can carry: a lone surrogate (JSON ``"\\ud800"``,
    argv bytes that are not UTF-8) would fail deep in a query instead of naming the argument."""
    if not isinstance(value, str):
        raise ToolError(f"{name} must be a string, got {value!r}")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: JSON "\ud800", or argv bytes that are not UTF-8
            raise ToolError(f"{name} must be valid Unicode text (it holds a lone surrogate)") from None
    return value


def unknown_section(sid: str) -> ToolError:
    """The error for an id the store does not hold; a host that hides sections raises this one
    too, so a hidden section cannot be told from an absent one (examples/embed_with_acl.py)."""
    return ToolError(f"no section '{sid}'", "search for it first; ids look like path.md#3")


def glob_ok(entry: str) -> bool:
    """Whether an ``in`` entry is a relative glob SQLite's GLOB reads as written: no leading ``/``,
    no backslash, every ``[`` closed."""
    if not entry or entry.startswith("/") or "\\" in entry:
        return False
    i = entry.find("[")
    while i >= 0:
        j = entry.find("]", i + 2)
        if j < 0:
            return False
        i = entry.find("[", j + 1)
    return True
