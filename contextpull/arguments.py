"""The five tools' arguments checked before a store is touched (store-format "Errors"): each
failure is a ``ToolError`` naming the argument and what it must be, the line a client sees.
Shared by one store's ``Ops`` and the server's mounts (``serving.routing``). Standard library only.
"""

from __future__ import annotations

from .errors import ToolError


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
